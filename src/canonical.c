/*-------------------------------------------------------------------------
 *
 * canonical.c
 *	  RFC 8785 (JCS) canonical JSON of jsonb values, streamed into SHA-256.
 *
 * The walk visits a jsonb container once: arrays in order, objects with
 * their members sorted by UTF-16 code units (jsonb keeps them in its own
 * length-first order).  Strings, numbers and key order come from the
 * PostgreSQL-free core in src/core/jcs.c.  Bytes go to a sink: a text buffer
 * for kidx_canonical(), or a 4 kB buffer in front of OpenSSL's SHA-256 for
 * the digests, so that no document is ever built whole just to be hashed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include <openssl/evp.h>

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "canonical.h"
#include "core/jcs.h"
#include "messages.h"

#define CANON_BUFSIZE 4096

/* Longest number text shown in an error message. */
#define CANON_SHOWN_NUMBER_MAX 64

struct CanonSink
{
	StringInfo	text;			/* text sink: the output; NULL for digests */
	int			used;			/* bytes waiting in buf (digest sink) */
	JsonbContainer *root;		/* the document being written, so that a
								 * refused number can be located; NULL: not
								 * known */
	const char *root_path;		/* the JSON path of root: "$" or "$.spec" */
	char		buf[CANON_BUFSIZE];
};

/* One object member, with its key in UTF-8 for ordering. */
typedef struct CanonPair
{
	const char *key;			/* UTF-8 key bytes */
	int			keylen;
	JsonbValue	value;
} CanonPair;

/*
 * One SHA-256 context per backend, reused by every digest: digest sinks are
 * never nested, and each starts with a full re-initialisation, so a digest
 * abandoned by an error leaves nothing behind.
 */
static EVP_MD *sha256_md = NULL;
static EVP_MD_CTX *sha256_ctx = NULL;

static void sort_pairs(CanonPair *pairs, int n);

PG_FUNCTION_INFO_V1(kidx_canonical);
PG_FUNCTION_INFO_V1(kidx_canonical_digest);
PG_FUNCTION_INFO_V1(kidx_resource_digest);

/* Raise an error for a failed OpenSSL call. */
static void
openssl_failed(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
			 errmsg("OpenSSL SHA-256 failed in %s", what)));
}

/* Start a sink that hashes everything written to it. */
CanonSink *
canon_sink_digest(void)
{
	CanonSink  *sink = palloc(sizeof(CanonSink));

	if (sha256_ctx == NULL)
	{
		if (sha256_md == NULL)
			sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
		if (sha256_md == NULL)
			openssl_failed("EVP_MD_fetch");
		sha256_ctx = EVP_MD_CTX_new();
		if (sha256_ctx == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory")));
	}
	if (EVP_DigestInit_ex2(sha256_ctx, sha256_md, NULL) != 1)
		openssl_failed("EVP_DigestInit_ex2");
	sink->text = NULL;
	sink->used = 0;
	sink->root = NULL;
	sink->root_path = NULL;
	return sink;
}

/*
 * Start a sink that collects the canonical text.  It never uses the digest
 * buffer (every write tests sink->text first), so that part is not allocated.
 */
CanonSink *
canon_sink_text(void)
{
	CanonSink  *sink = palloc(offsetof(CanonSink, buf));

	sink->text = makeStringInfo();
	sink->used = 0;
	sink->root = NULL;
	sink->root_path = NULL;
	return sink;
}

/* The text a text sink has collected so far (UTF-8). */
StringInfo
canon_sink_output(CanonSink *sink)
{
	Assert(sink->text != NULL);
	return sink->text;
}

/* Hand the buffered bytes of a digest sink to SHA-256. */
static inline void
canon_sink_flush(CanonSink *sink)
{
	if (sink->used > 0 &&
		EVP_DigestUpdate(sha256_ctx, sink->buf, sink->used) != 1)
		openssl_failed("EVP_DigestUpdate");
	sink->used = 0;
}

/* Write raw bytes to a sink: the hot path, inlined where it is used. */
static inline void
sink_write(CanonSink *sink, const char *data, size_t len)
{
	if (likely(sink->text == NULL && sink->used + len <= CANON_BUFSIZE))
	{
		memcpy(sink->buf + sink->used, data, len);
		sink->used += len;
		return;
	}
	canon_sink_write(sink, data, len);
}

/* Write raw (already canonical) bytes to a sink. */
void
canon_sink_write(CanonSink *sink, const char *data, size_t len)
{
	if (sink->text)
	{
		appendBinaryStringInfo(sink->text, data, len);
		return;
	}
	if (sink->used + len > CANON_BUFSIZE)
	{
		canon_sink_flush(sink);
		if (len >= CANON_BUFSIZE)
		{
			if (EVP_DigestUpdate(sha256_ctx, data, len) != 1)
				openssl_failed("EVP_DigestUpdate");
			return;
		}
	}
	memcpy(sink->buf + sink->used, data, len);
	sink->used += len;
}

/* Callback for the core's string writer. */
static void
canon_sink_write_cb(void *arg, const char *data, size_t len)
{
	sink_write((CanonSink *) arg, data, len);
}

/* Write a NUL-terminated ASCII token. */
static inline void
canon_sink_puts(CanonSink *sink, const char *s)
{
	sink_write(sink, s, strlen(s));
}

/* Finish a digest sink and return the digest. */
void
canon_sink_finish(CanonSink *sink, KidxDigest *result)
{
	unsigned int len = 0;

	canon_sink_flush(sink);
	if (EVP_DigestFinal_ex(sha256_ctx, result->data, &len) != 1 ||
		len != KIDX_DIGEST_LEN)
		openssl_failed("EVP_DigestFinal_ex");
	pfree(sink);
}

/* Server-encoded text as UTF-8 (the same bytes in a UTF8 database). */
static const char *
to_utf8(const char *str, int len, int *utf8len)
{
	const char *res;

	if (GetDatabaseEncoding() == PG_UTF8)
	{
		*utf8len = len;
		return str;
	}
	res = pg_server_to_any(str, len, PG_UTF8);
	*utf8len = (res == str) ? len : strlen(res);
	return res;
}

/*
 * Write a UTF-8 string literal.  Most strings need no escaping: copy those
 * straight into the digest buffer in the same pass that checks them (the
 * bytes jcs_write_string escapes are '"', '\\' and those below 0x20).
 */
static inline void
write_utf8_string(CanonSink *sink, const char *s, int len)
{
	if (sink->text == NULL && sink->used + len + 2 <= CANON_BUFSIZE)
	{
		char	   *dst = sink->buf + sink->used + 1;
		int			i;

		for (i = 0; i < len; i++)
		{
			unsigned char c = (unsigned char) s[i];

			if (unlikely(c < 0x20 || c == '"' || c == '\\'))
				break;
			dst[i] = c;
		}
		if (likely(i == len))
		{
			dst[-1] = '"';
			dst[len] = '"';
			sink->used += len + 2;
			return;
		}
	}
	jcs_write_string(s, len, canon_sink_write_cb, sink);
}

/* Write a canonical JSON string literal (server-encoded text) to a sink. */
void
canon_write_string(CanonSink *sink, const char *str, int len)
{
	int			ulen;
	const char *u = to_utf8(str, len, &ulen);

	write_utf8_string(sink, u, ulen);
}

/*
 * Show a number (numeric's text) in an error message: as written if short,
 * else in scientific notation with its first significant digits, so that
 * 1e400 shows as 1e+400 rather than as its 401 digits.
 */
char *
canon_shown_number(const char *dec)
{
	const char *p = dec;
	StringInfoData digits;
	StringInfoData buf;
	int			intlen = 0;
	bool		seen_point = false;
	int			lead = 0;

	if (strlen(dec) <= CANON_SHOWN_NUMBER_MAX)
		return pstrdup(dec);

	initStringInfo(&buf);
	initStringInfo(&digits);
	if (*p == '-')
		appendStringInfoChar(&buf, *p++);

	/* Collect the significant digits; count integer digits and zeros. */
	for (; *p; p++)
	{
		if (*p == '.')
		{
			seen_point = true;
			continue;
		}
		if (!seen_point)
			intlen++;
		if (digits.len == 0 && *p == '0')
			lead++;
		else
			appendStringInfoChar(&digits, *p);
	}
	while (digits.len > 0 && digits.data[digits.len - 1] == '0')
		digits.data[--digits.len] = '\0';
	if (digits.len == 0)
		return pstrdup("0");

	appendStringInfoChar(&buf, digits.data[0]);
	if (digits.len > 1)
		appendStringInfo(&buf, ".%.*s%s", Min(digits.len, 40) - 1, digits.data + 1,
						 digits.len > 40 ? "..." : "");
	appendStringInfo(&buf, "e%+d", intlen - lead - 1);
	return buf.data;
}

/*
 * The RFC 8785 text of a jsonb number (out: JCS_NUMBER_BUFLEN bytes, its
 * length in *outlen), or why canonical JSON cannot carry it; numeric's text
 * in *dec.
 */
static jcs_num_status
numeric_canonical(Numeric num, char **dec, char *out, size_t *outlen)
{
	*dec = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
	return jcs_number_from_decimal(*dec, strlen(*dec), out, outlen);
}

/* True if canonical JSON can carry a jsonb number exactly. */
static bool
number_is_canonical(Numeric num)
{
	char	   *dec;
	char		out[JCS_NUMBER_BUFLEN];
	size_t		outlen;
	bool		ok = numeric_canonical(num, &dec, out, &outlen) == JCS_NUM_OK;

	pfree(dec);
	return ok;
}

/* Append a member name to a JSON path: .key, or ."key" when not an identifier. */
void
kidx_json_path_key(StringInfo path, const char *key, int len)
{
	bool		plain = len > 0;
	int			i;

	for (i = 0; i < len && plain; i++)
		plain = (key[i] >= 'a' && key[i] <= 'z') || (key[i] >= 'A' && key[i] <= 'Z') ||
			key[i] == '_' || (i > 0 && key[i] >= '0' && key[i] <= '9');
	appendStringInfoChar(path, '.');
	if (plain)
		appendBinaryStringInfo(path, key, len);
	else
	{
		char	   *k = pnstrdup(key, len);

		escape_json(path, k);
		pfree(k);
	}
}

static bool bad_number_path(JsonbContainer *container, StringInfo path);

/* Look for a refused number in one member or element value (see below). */
static bool
bad_number_in_value(JsonbValue *v, StringInfo path)
{
	if (v->type == jbvNumeric)
		return !number_is_canonical(v->val.numeric);
	if (v->type == jbvBinary)
		return bad_number_path(v->val.binary.data, path);
	return false;
}

/*
 * Find the first number canonical JSON cannot carry in a container, in the
 * order the canonical form writes them (the one whose refusal is being
 * reported), and append its JSON path to path.  Only called on the way to
 * an error: the walk that writes the canonical form keeps no path.
 */
static bool
bad_number_path(JsonbContainer *container, StringInfo path)
{
	JsonbIterator *it = JsonbIteratorInit(container);
	JsonbIteratorToken tok;
	JsonbValue	v;
	int			old = path->len;

	check_stack_depth();
	if (JsonContainerIsObject(container))
	{
		int			n = JsonContainerSize(container);
		CanonPair  *pairs = palloc(Max(n, 1) * sizeof(CanonPair));
		int			i = 0;

		while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		{
			if (tok == WJB_KEY)
				pairs[i].key = to_utf8(v.val.string.val, v.val.string.len,
									   &pairs[i].keylen);
			else if (tok == WJB_VALUE)
				pairs[i++].value = v;
		}
		sort_pairs(pairs, n);
		for (i = 0; i < n; i++)
		{
			/* the message is in the server encoding; the keys were UTF-8 */
			const char *key = pairs[i].key;
			int			keylen = pairs[i].keylen;

			if (GetDatabaseEncoding() != PG_UTF8)
			{
				key = pg_any_to_server(key, keylen, PG_UTF8);
				keylen = (key == pairs[i].key) ? keylen : strlen(key);
			}
			kidx_json_path_key(path, key, keylen);
			if (bad_number_in_value(&pairs[i].value, path))
				return true;
			path->len = old;
			path->data[old] = '\0';
		}
		return false;
	}
	else
	{
		bool		raw;
		int			index = 0;

		tok = JsonbIteratorNext(&it, &v, true);
		raw = v.val.array.rawScalar;
		while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		{
			if (tok != WJB_ELEM)
				continue;
			if (!raw)
				appendStringInfo(path, "[%d]", index);
			index++;
			if (bad_number_in_value(&v, path))
				return true;
			path->len = old;
			path->data[old] = '\0';
		}
		return false;
	}
}

/*
 * " at <JSON path>" of the number being refused, for messages; "" when the
 * sink does not know its document.
 */
static char *
refused_number_where(CanonSink *sink)
{
	StringInfoData path;

	if (sink->root == NULL)
		return "";
	initStringInfo(&path);
	appendStringInfoString(&path, sink->root_path);
	/* a document that is a single number needs no path */
	if (!bad_number_path(sink->root, &path) || strcmp(path.data, "$") == 0)
		return "";
	return psprintf(" at %s", path.data);
}

/* Write a jsonb number as RFC 8785 (ECMAScript) text, or refuse it. */
static void
canon_write_numeric(CanonSink *sink, Numeric num)
{
	char	   *dec;
	char		out[JCS_NUMBER_BUFLEN];
	size_t		outlen;
	jcs_num_status status = numeric_canonical(num, &dec, out, &outlen);

	switch (status)
	{
		case JCS_NUM_OK:
			sink_write(sink, out, outlen);
			break;
		case JCS_NUM_INEXACT:
		case JCS_NUM_OUT_OF_RANGE:
			kidx_refuse_number(psprintf("JSON number %s%s", canon_shown_number(dec),
										refused_number_where(sink)),
							   dec, status == JCS_NUM_OUT_OF_RANGE);
			break;
		case JCS_NUM_SYNTAX:
			elog(ERROR, "unexpected numeric text \"%s\"", dec);
			break;
	}
	pfree(dec);
}

/* Write the canonical form of one scalar or container value to a sink. */
void
canon_write_value(CanonSink *sink, JsonbValue *value)
{
	switch (value->type)
	{
		case jbvNull:
			canon_sink_puts(sink, "null");
			break;
		case jbvBool:
			canon_sink_puts(sink, value->val.boolean ? "true" : "false");
			break;
		case jbvNumeric:
			canon_write_numeric(sink, value->val.numeric);
			break;
		case jbvString:
			canon_write_string(sink, value->val.string.val,
							   value->val.string.len);
			break;
		case jbvBinary:
			canon_write_container(sink, value->val.binary.data);
			break;
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) value->type);
	}
}

/* qsort comparator: object members in UTF-16 code unit order of keys. */
static int
canon_pair_cmp(const void *a, const void *b)
{
	const CanonPair *pa = (const CanonPair *) a;
	const CanonPair *pb = (const CanonPair *) b;

	return jcs_compare_keys(pa->key, pa->keylen, pb->key, pb->keylen);
}

/*
 * Sort object members by key.  Objects are mostly small, where an insertion
 * sort beats qsort's indirect calls; large ones go to qsort.
 */
static void
sort_pairs(CanonPair *pairs, int n)
{
	int			i;

	if (n > 16)
	{
		qsort(pairs, n, sizeof(CanonPair), canon_pair_cmp);
		return;
	}
	for (i = 1; i < n; i++)
	{
		CanonPair	tmp = pairs[i];
		int			j = i;

		while (j > 0 && jcs_compare_keys(pairs[j - 1].key, pairs[j - 1].keylen,
										 tmp.key, tmp.keylen) > 0)
		{
			pairs[j] = pairs[j - 1];
			j--;
		}
		pairs[j] = tmp;
	}
}

/* Write an array (or a top-level raw scalar) in order. */
static void
canon_write_array(CanonSink *sink, JsonbContainer *container)
{
	JsonbIterator *it = JsonbIteratorInit(container);
	JsonbIteratorToken tok;
	JsonbValue	v;
	bool		raw;
	bool		first = true;

	tok = JsonbIteratorNext(&it, &v, true);
	Assert(tok == WJB_BEGIN_ARRAY);
	raw = v.val.array.rawScalar;
	if (!raw)
		sink_write(sink, "[", 1);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok != WJB_ELEM)
			continue;
		CHECK_FOR_INTERRUPTS();
		if (!first)
			sink_write(sink, ",", 1);
		first = false;
		canon_write_value(sink, &v);
	}
	if (!raw)
		sink_write(sink, "]", 1);
}

/* Write an object with its members sorted by UTF-16 code units. */
static void
canon_write_object(CanonSink *sink, JsonbContainer *container)
{
	int			n = JsonContainerSize(container);
	CanonPair  *pairs = palloc(Max(n, 1) * sizeof(CanonPair));
	JsonbIterator *it = JsonbIteratorInit(container);
	JsonbIteratorToken tok;
	JsonbValue	v;
	int			i = 0;

	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			Assert(i < n);
			pairs[i].key = to_utf8(v.val.string.val, v.val.string.len,
								   &pairs[i].keylen);
		}
		else if (tok == WJB_VALUE)
			pairs[i++].value = v;
	}
	Assert(i == n);
	sort_pairs(pairs, n);

	sink_write(sink, "{", 1);
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (i > 0)
			sink_write(sink, ",", 1);
		write_utf8_string(sink, pairs[i].key, pairs[i].keylen);
		sink_write(sink, ":", 1);
		canon_write_value(sink, &pairs[i].value);
	}
	sink_write(sink, "}", 1);
	pfree(pairs);
}

/* Write the canonical form of a jsonb container to a sink. */
void
canon_write_container(CanonSink *sink, JsonbContainer *container)
{
	check_stack_depth();
	if (JsonContainerIsObject(container))
		canon_write_object(sink, container);
	else
		canon_write_array(sink, container);
}

/* The SHA-256 of the canonical form of a whole jsonb document. */
void
kidx_jsonb_digest(Jsonb *jb, KidxDigest *result)
{
	CanonSink  *sink = canon_sink_digest();

	sink->root = &jb->root;
	sink->root_path = "$";
	canon_write_container(sink, &jb->root);
	canon_sink_finish(sink, result);
}

/* Name the JSON type of a value, for error messages. */
static const char *
json_type_name(JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			return "null";
		case jbvBool:
			return "a boolean";
		case jbvNumeric:
			return "a number";
		case jbvString:
			return "a string";
		case jbvBinary:
			return JsonContainerIsObject(v->val.binary.data) ? "an object" : "an array";
		default:
			return "unknown";
	}
}

/* Look up a resource member that must exist and have a given type. */
static void
resource_member(JsonbContainer *c, const char *key, bool want_object, JsonbValue *out)
{
	bool		ok;

	if (getKeyJsonValueFromContainer(c, key, strlen(key), out) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document is not a kernelindex resource: it has no \"%s\" member", key),
				 errhint("A resource is an object with a string \"apiVersion\", a string \"kind\" and an object \"spec\".")));
	if (want_object)
		ok = out->type == jbvBinary && JsonContainerIsObject(out->val.binary.data);
	else
		ok = out->type == jbvString;
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document is not a kernelindex resource: \"%s\" is %s, not %s",
						key, json_type_name(out), want_object ? "an object" : "a string"),
				 errhint("A resource is an object with a string \"apiVersion\", a string \"kind\" and an object \"spec\".")));
}

/* The identity digest of a resource document: {apiVersion, kind, spec}. */
void
kidx_jsonb_resource_digest(Jsonb *jb, KidxDigest *result)
{
	kidx_container_resource_digest(&jb->root, result);
}

/* The identity digest of a resource held in a jsonb container. */
void
kidx_container_resource_digest(JsonbContainer *c, KidxDigest *result)
{
	JsonbValue	api;
	JsonbValue	kind;
	JsonbValue	spec;
	CanonSink  *sink;

	if (!JsonContainerIsObject(c))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document is not a kernelindex resource: it is %s, not an object",
						JsonContainerIsScalar(c) ? "a scalar" : "an array"),
				 errhint("A resource is an object with a string \"apiVersion\", a string \"kind\" and an object \"spec\".")));
	resource_member(c, "apiVersion", false, &api);
	resource_member(c, "kind", false, &kind);
	resource_member(c, "spec", true, &spec);

	/* The three keys in UTF-16 order: apiVersion < kind < spec. */
	sink = canon_sink_digest();
	sink->root = spec.val.binary.data;
	sink->root_path = "$.spec";
	canon_sink_puts(sink, "{\"apiVersion\":");
	canon_write_value(sink, &api);
	canon_sink_puts(sink, ",\"kind\":");
	canon_write_value(sink, &kind);
	canon_sink_puts(sink, ",\"spec\":");
	canon_write_value(sink, &spec);
	sink_write(sink, "}", 1);
	canon_sink_finish(sink, result);
}

/* The canonical text of one value in the server encoding. */
char *
canon_value_text(JsonbValue *value, int *len)
{
	CanonSink  *sink = canon_sink_text();
	StringInfo	out;
	char	   *res;

	if (value->type == jbvBinary)
	{
		sink->root = value->val.binary.data;
		sink->root_path = "$";
	}
	canon_write_value(sink, value);
	out = sink->text;
	*len = out->len;
	if (GetDatabaseEncoding() == PG_UTF8)
		return out->data;
	res = pg_any_to_server(out->data, out->len, PG_UTF8);
	if (res != out->data)
		*len = strlen(res);
	return res;
}

/* kidx_canonical(jsonb): the RFC 8785 canonical text of a value. */
Datum
kidx_canonical(PG_FUNCTION_ARGS)
{
	Jsonb	   *jb = PG_GETARG_JSONB_P(0);
	JsonbValue	v;
	char	   *res;
	int			len;

	v.type = jbvBinary;
	v.val.binary.data = &jb->root;
	v.val.binary.len = VARSIZE(jb) - VARHDRSZ;
	res = canon_value_text(&v, &len);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(res, len));
}

/* kidx_canonical_digest(jsonb): SHA-256 of the canonical text. */
Datum
kidx_canonical_digest(PG_FUNCTION_ARGS)
{
	Jsonb	   *jb = PG_GETARG_JSONB_P(0);
	KidxDigest *result = palloc(sizeof(KidxDigest));

	kidx_jsonb_digest(jb, result);
	PG_RETURN_KIDX_DIGEST_P(result);
}

/* kidx_resource_digest(jsonb): the identity digest of a resource. */
Datum
kidx_resource_digest(PG_FUNCTION_ARGS)
{
	Jsonb	   *jb = PG_GETARG_JSONB_P(0);
	KidxDigest *result = palloc(sizeof(KidxDigest));

	kidx_jsonb_resource_digest(jb, result);
	PG_RETURN_KIDX_DIGEST_P(result);
}
