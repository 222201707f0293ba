/*-------------------------------------------------------------------------
 *
 * comparability.h
 *	  Comparability keys: which runs may be compared with which.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_COMPARABILITY_H
#define KIDX_COMPARABILITY_H

#include "digest.h"

/* The comparability key of a protocol, a workload and an environment. */
extern void kidx_comparability_key(const KidxDigest *protocol,
								   const KidxDigest *workload,
								   const KidxDigest *environment,
								   KidxDigest *result);

#endif							/* KIDX_COMPARABILITY_H */
