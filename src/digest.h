/*-------------------------------------------------------------------------
 *
 * digest.h
 *	  The kidx_digest type: a SHA-256 digest in 32 bytes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_DIGEST_H
#define KIDX_DIGEST_H

#include "fmgr.h"

#define KIDX_DIGEST_LEN 32
#define KIDX_DIGEST_PREFIX "sha256:"
#define KIDX_DIGEST_PREFIX_LEN 7
#define KIDX_DIGEST_TEXT_LEN (KIDX_DIGEST_PREFIX_LEN + 2 * KIDX_DIGEST_LEN)

typedef struct KidxDigest
{
	unsigned char data[KIDX_DIGEST_LEN];
} KidxDigest;

#define DatumGetKidxDigestP(X)		((KidxDigest *) DatumGetPointer(X))
#define KidxDigestPGetDatum(X)		PointerGetDatum(X)
#define PG_GETARG_KIDX_DIGEST_P(n)	DatumGetKidxDigestP(PG_GETARG_DATUM(n))
#define PG_RETURN_KIDX_DIGEST_P(X)	return KidxDigestPGetDatum(X)

/* Parse a digest's text form; NULL, or what is wrong (see digest.c). */
extern char *kidx_digest_parse(const char *str, int len, KidxDigest *result,
							   const char **hint);

/* Write the text form of a digest ("sha256:" + 64 hex digits + NUL). */
extern void kidx_digest_to_cstring(const KidxDigest *digest, char *buf);

#endif							/* KIDX_DIGEST_H */
