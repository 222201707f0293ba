/*-------------------------------------------------------------------------
 *
 * digest.c
 *	  The kidx_digest type: a SHA-256 digest held in 32 bytes.
 *
 * Text form is the OCI content-digest grammar restricted to SHA-256:
 * "sha256:" followed by exactly 64 lowercase hexadecimal digits, parsed and
 * written by the PostgreSQL-free src/core/digesttext.c (this file turns its
 * faults into messages).  Digests order by their bytes (which is also the
 * order of their text forms), hash with PostgreSQL's hash_any, and sort
 * with abbreviated keys made of their first bytes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/sortsupport.h"

#include "core/digesttext.h"
#include "digest.h"
#include "messages.h"

StaticAssertDecl(KIDX_DIGEST_LEN == DIGEST_TEXT_BYTES &&
				 KIDX_DIGEST_TEXT_LEN == DIGEST_TEXT_LEN,
				 "digest.h and core/digesttext.h disagree");

/* State of abbreviated-key sorting: how many distinct prefixes were seen. */
typedef struct DigestSortState
{
	int64		input_count;	/* number of abbreviated keys made */
	bool		estimating;		/* still checking whether to abort */
	hyperLogLogState abbr_card; /* distinct abbreviated keys */
} DigestSortState;

PG_FUNCTION_INFO_V1(kidx_digest_in);
PG_FUNCTION_INFO_V1(kidx_digest_out);
PG_FUNCTION_INFO_V1(kidx_digest_recv);
PG_FUNCTION_INFO_V1(kidx_digest_send);
PG_FUNCTION_INFO_V1(kidx_digest_cmp);
PG_FUNCTION_INFO_V1(kidx_digest_lt);
PG_FUNCTION_INFO_V1(kidx_digest_le);
PG_FUNCTION_INFO_V1(kidx_digest_eq);
PG_FUNCTION_INFO_V1(kidx_digest_ne);
PG_FUNCTION_INFO_V1(kidx_digest_ge);
PG_FUNCTION_INFO_V1(kidx_digest_gt);
PG_FUNCTION_INFO_V1(kidx_digest_smaller);
PG_FUNCTION_INFO_V1(kidx_digest_larger);
PG_FUNCTION_INFO_V1(kidx_digest_hash);
PG_FUNCTION_INFO_V1(kidx_digest_hash_extended);
PG_FUNCTION_INFO_V1(kidx_digest_sortsupport);
PG_FUNCTION_INFO_V1(kidx_digest_to_bytea);
PG_FUNCTION_INFO_V1(kidx_digest_from_bytea);
PG_FUNCTION_INFO_V1(kidx_digest_to_text);

/* The byte length of a character in the server encoding. */
static int
server_mblen(const unsigned char *s)
{
	return pg_mblen((const char *) s);
}

/*
 * Parse the text form of a digest (len bytes at str, which need not be
 * NUL-terminated) with src/core/digesttext.c.  Returns NULL on success, else
 * a sentence saying what is wrong (for errdetail), with a hint for the fault
 * in *hint.
 */
char *
kidx_digest_parse(const char *str, int len, KidxDigest *result,
				  const char **hint)
{
	DigestTextFault fault;

	*hint = "Write a digest as \"sha256:\" followed by 64 lowercase hexadecimal digits.";
	switch (digest_text_parse(str, len, server_mblen, result->data, &fault))
	{
		case DIGEST_TEXT_OK:
			return NULL;
		case DIGEST_TEXT_PREFIX_MISSING:
			return psprintf("A digest must start with \"%s\".", KIDX_DIGEST_PREFIX);
		case DIGEST_TEXT_UPPERCASE:
			*hint = "Digests are written with lowercase hexadecimal digits.";
			return psprintf("Uppercase hexadecimal digit \"%c\" at position %d.",
							str[fault.offset], (int) fault.offset + 1);
		case DIGEST_TEXT_NOT_HEX:
			if (IS_HIGHBIT_SET(str[fault.offset]) &&
				GetDatabaseEncoding() == PG_SQL_ASCII)
				return psprintf("Byte 0x%02x at position %d is not a hexadecimal digit.",
								(unsigned char) str[fault.offset],
								(int) fault.offset + 1);
			return psprintf("Character \"%.*s\" at position %d is not a hexadecimal digit.",
							(int) fault.charlen, str + fault.offset,
							(int) fault.offset + 1);
		case DIGEST_TEXT_LENGTH:
			break;
	}
	return psprintf("Expected %d hexadecimal digits after \"%s\", found %d.",
					2 * KIDX_DIGEST_LEN, KIDX_DIGEST_PREFIX, (int) fault.hexlen);
}

/*
 * Text input: "sha256:" and 64 lowercase hex digits, with precise errors,
 * reported softly where the caller asks (pg_input_is_valid, PostgreSQL 16+).
 */
Datum
kidx_digest_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	KidxDigest *result = palloc(sizeof(KidxDigest));
	const char *hint;
	char	   *detail = kidx_digest_parse(str, strlen(str), result, &hint);

	if (detail != NULL)
		KIDX_ERETURN(fcinfo->context, (Datum) 0,
					 errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"",
							"kidx_digest", kidx_shown(str, strlen(str))),
					 errdetail_internal("%s", detail),
					 errhint("%s", hint));
	PG_RETURN_KIDX_DIGEST_P(result);
}

/* Write the text form of a digest into buf (KIDX_DIGEST_TEXT_LEN + 1 bytes). */
void
kidx_digest_to_cstring(const KidxDigest *digest, char *buf)
{
	digest_text_format(digest->data, buf);
}

/* Text output: "sha256:" and 64 lowercase hex digits. */
Datum
kidx_digest_out(PG_FUNCTION_ARGS)
{
	KidxDigest *digest = PG_GETARG_KIDX_DIGEST_P(0);
	char	   *buf = palloc(KIDX_DIGEST_TEXT_LEN + 1);

	kidx_digest_to_cstring(digest, buf);
	PG_RETURN_CSTRING(buf);
}

/* Binary input: exactly 32 raw bytes. */
Datum
kidx_digest_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			nbytes = buf->len - buf->cursor;
	KidxDigest *result;

	if (nbytes != KIDX_DIGEST_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid external \"%s\" value: %d bytes",
						"kidx_digest", nbytes),
				 errdetail("The binary form of a digest is exactly %d bytes.",
						   KIDX_DIGEST_LEN)));
	result = palloc(sizeof(KidxDigest));
	memcpy(result->data, pq_getmsgbytes(buf, KIDX_DIGEST_LEN), KIDX_DIGEST_LEN);
	PG_RETURN_KIDX_DIGEST_P(result);
}

/* Binary output: the 32 raw bytes. */
Datum
kidx_digest_send(PG_FUNCTION_ARGS)
{
	KidxDigest *digest = PG_GETARG_KIDX_DIGEST_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (char *) digest->data, KIDX_DIGEST_LEN);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* The one comparison every operator, sort and index uses: byte order. */
static inline int
digest_cmp(const KidxDigest *a, const KidxDigest *b)
{
	return memcmp(a->data, b->data, KIDX_DIGEST_LEN);
}

/* Three-way comparison, btree support function 1. */
Datum
kidx_digest_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(digest_cmp(PG_GETARG_KIDX_DIGEST_P(0),
							   PG_GETARG_KIDX_DIGEST_P(1)));
}

/* Operator <. */
Datum
kidx_digest_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(digest_cmp(PG_GETARG_KIDX_DIGEST_P(0),
							  PG_GETARG_KIDX_DIGEST_P(1)) < 0);
}

/* Operator <=. */
Datum
kidx_digest_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(digest_cmp(PG_GETARG_KIDX_DIGEST_P(0),
							  PG_GETARG_KIDX_DIGEST_P(1)) <= 0);
}

/* Operator =. */
Datum
kidx_digest_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(digest_cmp(PG_GETARG_KIDX_DIGEST_P(0),
							  PG_GETARG_KIDX_DIGEST_P(1)) == 0);
}

/* Operator <>. */
Datum
kidx_digest_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(digest_cmp(PG_GETARG_KIDX_DIGEST_P(0),
							  PG_GETARG_KIDX_DIGEST_P(1)) != 0);
}

/* Operator >=. */
Datum
kidx_digest_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(digest_cmp(PG_GETARG_KIDX_DIGEST_P(0),
							  PG_GETARG_KIDX_DIGEST_P(1)) >= 0);
}

/* Operator >. */
Datum
kidx_digest_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(digest_cmp(PG_GETARG_KIDX_DIGEST_P(0),
							  PG_GETARG_KIDX_DIGEST_P(1)) > 0);
}

/* Transition function of min(kidx_digest). */
Datum
kidx_digest_smaller(PG_FUNCTION_ARGS)
{
	KidxDigest *a = PG_GETARG_KIDX_DIGEST_P(0);
	KidxDigest *b = PG_GETARG_KIDX_DIGEST_P(1);

	PG_RETURN_KIDX_DIGEST_P(digest_cmp(a, b) <= 0 ? a : b);
}

/* Transition function of max(kidx_digest). */
Datum
kidx_digest_larger(PG_FUNCTION_ARGS)
{
	KidxDigest *a = PG_GETARG_KIDX_DIGEST_P(0);
	KidxDigest *b = PG_GETARG_KIDX_DIGEST_P(1);

	PG_RETURN_KIDX_DIGEST_P(digest_cmp(a, b) >= 0 ? a : b);
}

/* Hash support function 1: a 32-bit hash of the 32 bytes. */
Datum
kidx_digest_hash(PG_FUNCTION_ARGS)
{
	KidxDigest *digest = PG_GETARG_KIDX_DIGEST_P(0);

	return hash_any(digest->data, KIDX_DIGEST_LEN);
}

/* Hash support function 2: a seeded 64-bit hash of the 32 bytes. */
Datum
kidx_digest_hash_extended(PG_FUNCTION_ARGS)
{
	KidxDigest *digest = PG_GETARG_KIDX_DIGEST_P(0);

	return hash_any_extended(digest->data, KIDX_DIGEST_LEN,
							 PG_GETARG_INT64(1));
}

/* Full comparison for sorts. */
static int
digest_fastcmp(Datum x, Datum y, SortSupport ssup)
{
	return digest_cmp(DatumGetKidxDigestP(x), DatumGetKidxDigestP(y));
}

/*
 * Abbreviated key: the digest's first sizeof(Datum) bytes, as an unsigned
 * integer whose order is their byte order.
 */
static Datum
digest_abbrev_convert(Datum original, SortSupport ssup)
{
	DigestSortState *state = (DigestSortState *) ssup->ssup_extra;
	KidxDigest *digest = DatumGetKidxDigestP(original);
	Datum		res;

	memcpy(&res, digest->data, sizeof(Datum));
	state->input_count++;
	/*
	 * The bytes of a SHA-256 digest are uniformly distributed already, so
	 * the abbreviated key feeds the cardinality estimate unhashed (both
	 * halves, so that keys differing only in their later bytes count).
	 */
	if (state->estimating)
	{
#if SIZEOF_DATUM == 8
		addHyperLogLog(&state->abbr_card,
					   (uint32) res ^ (uint32) ((uint64) res >> 32));
#else
		addHyperLogLog(&state->abbr_card, (uint32) res);
#endif
	}
	return DatumBigEndianToNative(res);
}

/*
 * Decide whether abbreviation is worth its cost.  Digests are uniformly
 * distributed, so their prefixes are as distinct as the digests: only a sort
 * of few distinct values (a foreign-key column, say) gains nothing, because
 * every tie needs the full comparison anyway.
 */
static bool
digest_abbrev_abort(int memtupcount, SortSupport ssup)
{
	DigestSortState *state = (DigestSortState *) ssup->ssup_extra;
	double		abbr_card;

	if (memtupcount < 10000 || state->input_count < 10000 || !state->estimating)
		return false;

	abbr_card = estimateHyperLogLog(&state->abbr_card);

	/* At least one distinct prefix in 2000 rows keeps abbreviation on. */
	if (abbr_card < state->input_count / 2000.0 + 0.5)
	{
		if (trace_sort)
			elog(LOG,
				 "kidx_digest_abbrev: aborting abbreviation at cardinality %f"
				 " below threshold %f after " INT64_FORMAT " values (%d rows)",
				 abbr_card, state->input_count / 2000.0 + 0.5,
				 state->input_count, memtupcount);
		return true;
	}

	/*
	 * Distinct enough: stop paying for the estimate.  Half distinct after
	 * the first 10,000 rows is as good as it gets for a random key.
	 */
	if (abbr_card > state->input_count / 2.0)
		state->estimating = false;
	return false;
}

/* Btree support function 2: sort support with abbreviated keys. */
Datum
kidx_digest_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = digest_fastcmp;
	ssup->ssup_extra = NULL;

	if (ssup->abbreviate)
	{
		DigestSortState *state;
		MemoryContext oldcontext;

		oldcontext = MemoryContextSwitchTo(ssup->ssup_cxt);
		state = palloc(sizeof(DigestSortState));
		state->input_count = 0;
		state->estimating = true;
		initHyperLogLog(&state->abbr_card, 10);
		ssup->ssup_extra = state;
		ssup->abbrev_full_comparator = ssup->comparator;
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = digest_abbrev_convert;
		ssup->abbrev_abort = digest_abbrev_abort;
		MemoryContextSwitchTo(oldcontext);
	}
	PG_RETURN_VOID();
}

/* Cast to bytea: the 32 raw bytes. */
Datum
kidx_digest_to_bytea(PG_FUNCTION_ARGS)
{
	KidxDigest *digest = PG_GETARG_KIDX_DIGEST_P(0);
	bytea	   *result = palloc(VARHDRSZ + KIDX_DIGEST_LEN);

	SET_VARSIZE(result, VARHDRSZ + KIDX_DIGEST_LEN);
	memcpy(VARDATA(result), digest->data, KIDX_DIGEST_LEN);
	PG_RETURN_BYTEA_P(result);
}

/*
 * Cast to text: the text form, written straight into the text value (an
 * I/O cast writes it as a C string, then copies it into one).
 */
Datum
kidx_digest_to_text(PG_FUNCTION_ARGS)
{
	KidxDigest *digest = PG_GETARG_KIDX_DIGEST_P(0);
	text	   *result = palloc(VARHDRSZ + KIDX_DIGEST_TEXT_LEN + 1);

	kidx_digest_to_cstring(digest, VARDATA(result));
	SET_VARSIZE(result, VARHDRSZ + KIDX_DIGEST_TEXT_LEN);
	PG_RETURN_TEXT_P(result);
}

/* Cast from bytea: exactly 32 bytes. */
Datum
kidx_digest_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *raw = PG_GETARG_BYTEA_PP(0);
	int			len = VARSIZE_ANY_EXHDR(raw);
	KidxDigest *result;

	if (len != KIDX_DIGEST_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("cannot cast a bytea of %d bytes to kidx_digest", len),
				 errdetail("A SHA-256 digest is exactly %d bytes.",
						   KIDX_DIGEST_LEN)));
	result = palloc(sizeof(KidxDigest));
	memcpy(result->data, VARDATA_ANY(raw), KIDX_DIGEST_LEN);
	PG_RETURN_KIDX_DIGEST_P(result);
}
