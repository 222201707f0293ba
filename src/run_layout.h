/*-------------------------------------------------------------------------
 *
 * run_layout.h
 *	  The run layout: how a BenchmarkRun document maps to what a series of
 *	  runs shares (kernelindex.run_series) and what each run holds
 *	  (kernelindex.runs), and back.  Every path that reads or writes a run
 *	  document goes through it: CSV ingestion, document ingestion, export and
 *	  the run digest.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_RUN_LAYOUT_H
#define KIDX_RUN_LAYOUT_H

#include "lib/stringinfo.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "digest.h"

#define KIDX_API_VERSION "kernelindex.dev/v1alpha1"

/* The integer values a run holds (RunValues.v), in runs' column order. */
typedef enum RunInt
{
	RI_LATENCY,					/* spec.timing.latencyNs.median */
	RI_LATENCY_P20,				/* measurement latency/p20/ns */
	RI_LATENCY_P80,				/* measurement latency/p80/ns */
	RI_PEAK,					/* spec.memory.peakBytes.median */
	RI_PEAK_P20,				/* measurement peakMemory/p20/bytes */
	RI_PEAK_P80,				/* measurement peakMemory/p80/bytes */
	RI_N
} RunInt;

/* The source-native values (spec.sourceNative.metrics.<unit>_20/_50/_80). */
#define RUN_NNATIVE 3

/* The resources a run refers to, in the order of their digests. */
typedef enum RunRef
{
	RR_PROTOCOL,
	RR_WORKLOAD,
	RR_ENVIRONMENT,
	RR_IMPLEMENTATION,
	RR_N
} RunRef;

extern const char *const run_ref_member[RR_N];	/* "protocolDigest", ... */
extern const char *const run_ref_kind[RR_N];	/* "BenchmarkProtocol", ... */
extern const char *const run_ref_name[RR_N];	/* "protocol", ... */

/* What one run holds of its own: the columns of kernelindex.runs. */
typedef struct RunValues
{
	TimestampTz observed_at;
	bool		has[RI_N];
	int64		v[RI_N];
	Numeric		native[RUN_NNATIVE];	/* NULL: absent */
	const char *native_text[RUN_NNATIVE];	/* the same as written, if known;
											 * NULL: not known */
	const char *native_canon[RUN_NNATIVE];	/* their canonical JSON text, if
											 * known; NULL: not known */
	const char *external_id;	/* the externalId run_external_id() gives,
								 * if known; NULL: not known */
} RunValues;

/* A series laid out for writing documents and digests (run_layout.c). */
typedef struct RunPlan RunPlan;

/*
 * What a series of runs shares: a row of kernelindex.run_series.  The
 * template is the run document without its four digests and without the
 * members each run holds; the stems give the name and externalId each run
 * derives from its observedAt.
 */
typedef struct RunSeries
{
	Jsonb	   *template;
	KidxDigest	ref[RR_N];		/* the four digests */
	char	   *name_stem;		/* NULL: the name is in the template */
	int			name_cut;		/* characters the name is cut to; -1: none */
	char	   *external_id_stem;	/* NULL: in the template, or none */
	char	   *native_unit;	/* prefix of the native metrics; NULL: none */
	/* computed by run_series_prepare() */
	KidxDigest	comparability_key;
	KidxDigest	key;			/* identity of the series */
	RunPlan    *plan;
} RunSeries;

/* Where a document being read stands, for error messages. */
typedef struct RunDocPos
{
	int64		ord;			/* position in its statement, from 1 */
	const char *path;			/* JSON path of the run: "$" or "$.run" */
} RunDocPos;

/*
 * Check a BenchmarkRun document against the layout and split it into its
 * series and its values.  Faults are reported with SQLSTATE, the document's
 * position and the JSON path.  series->plan is left NULL.
 */
extern void run_split(JsonbContainer *run, const RunDocPos *pos,
					  RunSeries *series, RunValues *values);

/*
 * Check a resource document (the envelope: apiVersion, kind, metadata.name,
 * spec; numbers canonical JSON can carry) of the given kind.
 */
extern void run_check_resource(JsonbContainer *c, const RunDocPos *pos,
							   const char *kind);

/* Compute a series' key and comparability key, and lay it out. */
extern void run_series_prepare(RunSeries *series);

/* The run document of a series and a run's values. */
extern Jsonb *run_rebuild(RunSeries *series, const RunValues *values);

/* The run's identity digest, kidx_resource_digest(run_rebuild(...)). */
extern void run_digest(RunSeries *series, const RunValues *values,
					   KidxDigest *result);

/*
 * The run's external key: the first 16 bytes of SHA-256 of the canonical
 * JSON [source, externalId] as a uuid; false when the run has no externalId.
 */
extern bool run_external_key(RunSeries *series, const RunValues *values,
							 pg_uuid_t *result);

/* The string a stem derives for an instant (a run name or externalId). */
extern char *run_derived_string(const char *stem, int cut, TimestampTz at);

/* The run's externalId (NULL: none), palloc'd or the series'. */
extern const char *run_external_id(RunSeries *series, const RunValues *values);

/*
 * The run's name and externalId (NULL: none) as run_rebuild() writes them,
 * palloc'd.
 */
extern void run_strings(RunSeries *series, const RunValues *values,
						char **name, char **external_id);

/* A short phrase for a JSON value in messages: the number 12, "abc", null. */
extern char *run_shown_value(JsonbValue *v);

#endif							/* KIDX_RUN_LAYOUT_H */
