/*-------------------------------------------------------------------------
 *
 * comparability.c
 *	  Comparability keys: which runs may be compared with which.
 *
 * Two runs are comparable when they share protocol, workload and
 * environment.  Their key is the SHA-256 of the RFC 8785 canonical JSON
 *
 *	  {"environment":"sha256:<E>","protocol":"sha256:<P>","workload":"sha256:<W>"}
 *
 * that is, kidx_canonical_digest(jsonb_build_object('protocol', P::text,
 * 'workload', W::text, 'environment', E::text)), which anyone can recompute
 * outside the database.  The text is fixed ASCII (keys already in order, no
 * character needing an escape), so it is written straight into the hash.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#include "canonical.h"
#include "comparability.h"

PG_FUNCTION_INFO_V1(kidx_comparability_key_digests);

/* Write one "name":"sha256:<hex>" member. */
static void
write_member(CanonSink *sink, const char *name, const KidxDigest *digest)
{
	char		text[KIDX_DIGEST_TEXT_LEN + 1];

	kidx_digest_to_cstring(digest, text);
	canon_sink_write(sink, "\"", 1);
	canon_sink_write(sink, name, strlen(name));
	canon_sink_write(sink, "\":\"", 3);
	canon_sink_write(sink, text, KIDX_DIGEST_TEXT_LEN);
	canon_sink_write(sink, "\"", 1);
}

/* The comparability key of a protocol, a workload and an environment. */
void
kidx_comparability_key(const KidxDigest *protocol, const KidxDigest *workload,
					   const KidxDigest *environment, KidxDigest *result)
{
	CanonSink  *sink = canon_sink_digest();

	/* Members in RFC 8785 order: environment < protocol < workload. */
	canon_sink_write(sink, "{", 1);
	write_member(sink, "environment", environment);
	canon_sink_write(sink, ",", 1);
	write_member(sink, "protocol", protocol);
	canon_sink_write(sink, ",", 1);
	write_member(sink, "workload", workload);
	canon_sink_write(sink, "}", 1);
	canon_sink_finish(sink, result);
}

/* kidx_comparability_key(protocol, workload, environment kidx_digest). */
Datum
kidx_comparability_key_digests(PG_FUNCTION_ARGS)
{
	KidxDigest *result = palloc(sizeof(KidxDigest));

	kidx_comparability_key(PG_GETARG_KIDX_DIGEST_P(0),
						   PG_GETARG_KIDX_DIGEST_P(1),
						   PG_GETARG_KIDX_DIGEST_P(2),
						   result);
	PG_RETURN_KIDX_DIGEST_P(result);
}
