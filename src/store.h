/*-------------------------------------------------------------------------
 *
 * store.h
 *	  Run identity digests and Liger run names, for C callers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_STORE_H
#define KIDX_STORE_H

#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "digest.h"

/* Indexes of the integer values of a run (RunValues.v). */
#define RV_LATENCY		0
#define RV_LATENCY_P20	1
#define RV_LATENCY_P80	2
#define RV_PEAK			3
#define RV_PEAK_P20		4
#define RV_PEAK_P80		5
#define RV_NVALUES		6

/* The per-run values run_identity_digest() splices into a series template. */
typedef struct RunValues
{
	const char *digest[4];		/* protocol, workload, environment,
								 * implementation digest text; NULL: none */
	bool		has_observed_at;
	TimestampTz observed_at;
	bool		has[RV_NVALUES];
	int64		v[RV_NVALUES];	/* ns or bytes */
	const char *native_unit;	/* ms or mb; NULL: no native values */
	Numeric		native[3];		/* p20, p50, p80 as written; NULL: none */
	const char *native_text[3]; /* the same as the source wrote them, if
								 * known (a shortcut to their canonical
								 * text); NULL: not known */
	const char *external_id;	/* NULL: none */
} RunValues;

/* A template's canonical text with holes for the values (store.c). */
typedef struct RunLayout RunLayout;

extern void run_identity_digest(Jsonb *template, const RunValues *rv,
								KidxDigest *result);
extern RunLayout *run_identity_layout(Jsonb *template, const RunValues *rv);
extern bool run_identity_digest_layout(const RunLayout *layout,
									   const RunValues *rv,
									   KidxDigest *result);
extern char *liger_name_key(const char *prefix, int prefixlen,
							const char *variant_slug, int variant_slug_len,
							const char *slug, int sluglen);

#endif							/* KIDX_STORE_H */
