/*-------------------------------------------------------------------------
 *
 * run_layout.h
 *	  The run layout: how a BenchmarkRun document maps to a stored run and
 *	  back.  A run is its own values (typed columns of kernelindex.runs),
 *	  references to the four resources, and references to dictionary values
 *	  that runs repeat (title, label set, status, source, benchmark, name
 *	  and externalId strings, and the template: the document without any of
 *	  those, with the rules its name and externalId follow).
 *
 *	  Every path that reads or writes a run document goes through it: CSV
 *	  ingestion (which describes its runs with a RunModel), document
 *	  ingestion (run_split), export (run_rebuild) and the run digest
 *	  (run_digest).  run_layout.c holds the description of the document
 *	  (its members and what holds each), run_split.c the way in,
 *	  run_build.c the way out.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_RUN_LAYOUT_H
#define KIDX_RUN_LAYOUT_H

#include "compat.h"
#include "lib/stringinfo.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "digest.h"

#define KIDX_API_VERSION "kernelindex.dev/v1alpha1"

/*
 * The integer values a run holds (RunValues.v): for latency (ns) and peak
 * memory (bytes) every statistic benchmark harnesses report.  The median
 * is spec.timing.latencyNs.median (spec.memory.peakBytes.median), the
 * others measurements {metric, statistic, unit, value}: latency or
 * peakMemory, in ns or bytes, samples a count.
 */
typedef enum RunValue
{
	RV_LATENCY,					/* spec.timing.latencyNs.median */
	RV_LATENCY_P20,				/* measurement latency/p20/ns */
	RV_LATENCY_P80,				/* measurement latency/p80/ns */
	RV_PEAK,					/* spec.memory.peakBytes.median */
	RV_PEAK_P20,				/* measurement peakMemory/p20/bytes */
	RV_PEAK_P80,				/* measurement peakMemory/p80/bytes */
	RV_LATENCY_MEAN,			/* measurement latency/mean/ns */
	RV_LATENCY_STDDEV,			/* measurement latency/stddev/ns */
	RV_LATENCY_MIN,				/* measurement latency/min/ns */
	RV_LATENCY_MAX,				/* measurement latency/max/ns */
	RV_LATENCY_SAMPLES,			/* measurement latency/samples/count */
	RV_PEAK_MEAN,				/* measurement peakMemory/mean/bytes */
	RV_PEAK_STDDEV,				/* measurement peakMemory/stddev/bytes */
	RV_PEAK_MIN,				/* measurement peakMemory/min/bytes */
	RV_PEAK_MAX,				/* measurement peakMemory/max/bytes */
	RV_PEAK_SAMPLES,			/* measurement peakMemory/samples/count */
	RV_N
} RunValue;

/* What a run measured: latency (spec.timing) or peak memory (spec.memory). */
typedef enum RunMetric
{
	RM_LATENCY,
	RM_MEMORY,
	RM_N
} RunMetric;

/*
 * The statistics a primaryStatistic may name (the headline number a run
 * is compared on), and the value holding each, by metric.
 */
typedef enum RunStatistic
{
	RS_MEDIAN,
	RS_MEAN,
	RS_MIN,
	RS_N
} RunStatistic;

extern const char *const run_statistic_name[RS_N];	/* "median", ... */
extern const RunValue run_statistic_value[RM_N][RS_N];

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

/* The strings a run holds by reference to a dictionary. */
typedef enum RunText
{
	RT_TITLE,					/* metadata.title */
	RT_STATUS,					/* spec.status */
	RT_SOURCE,					/* spec.sourceNative.source */
	RT_BENCHMARK,				/* spec.sourceNative.benchmark */
	RT_NAME,					/* metadata.name: its stem or the whole name */
	RT_EXTERNAL_ID,				/* spec.sourceNative.externalId: its stem or
								 * the whole */
	RT_N
} RunText;

/* How a run's metadata.name is made (a rule of its template). */
typedef enum RunNameForm
{
	RNF_LITERAL,				/* the whole name is the run's RT_NAME */
	RNF_STEM,					/* RT_NAME || the observedAt slug, cut */
	RNF_FROM_EXTERNAL_ID		/* prefix || slug(externalId), cut */
} RunNameForm;
#define RNF_N (RNF_FROM_EXTERNAL_ID + 1)

/* How a run's externalId is made (a rule of its template). */
typedef enum RunIdForm
{
	RIF_ABSENT,					/* the run has no externalId */
	RIF_LITERAL,				/* the whole externalId is the run's
								 * RT_EXTERNAL_ID */
	RIF_STEM,					/* RT_EXTERNAL_ID || the observedAt slug */
	RIF_LABELLED				/* RT_BENCHMARK "/" RT_EXTERNAL_ID "/" the
								 * workload's label "/" the observedAt slug */
} RunIdForm;
#define RIF_N (RIF_LABELLED + 1)

/* The names of the rules, as kernelindex.run_templates stores them. */
extern const char *const run_name_form_name[RNF_N];
extern const char *const run_id_form_name[RIF_N];

/* What one run holds of its own: the value columns of kernelindex.runs. */
typedef struct RunValues
{
	TimestampTz observed_at;
	bool		has[RV_N];
	int64		v[RV_N];
	Numeric		native[RUN_NNATIVE];	/* NULL: absent */
	const char *native_text[RUN_NNATIVE];	/* the same as written, if known
											 * (then native may be NULL) */
	const char *native_canon[RUN_NNATIVE];	/* their canonical JSON text, if
											 * known; NULL: not known */
} RunValues;

/* A template laid out for rebuilding and digesting (run_build.c). */
typedef struct RunPlan RunPlan;

/*
 * A run template: the run document without what runs hold (their values,
 * resource digests and dictionary strings), and the rules that make its
 * runs' names and externalIds.  Templates are dictionary values
 * (kernelindex.run_templates): a few serve every run of a harness.
 */
typedef struct RunTemplate
{
	Jsonb	   *doc;
	RunNameForm name_form;
	char	   *name_prefix;	/* RNF_FROM_EXTERNAL_ID: what comes before
								 * the slug; else NULL */
	int			name_cut;		/* characters the name is cut to; -1: none */
	RunIdForm	external_id_form;
	char	   *native_unit;	/* prefix of the native metrics runs hold;
								 * NULL: none */
	RunPlan    *plan;			/* run_template_prepare() */
} RunTemplate;

/* A run in the layout's terms: what a document splits into. */
typedef struct RunParts
{
	RunTemplate *template;
	KidxDigest	ref[RR_N];
	const char *text[RT_N];		/* NUL-terminated; NULL: absent */
	Jsonb	   *labels;			/* metadata.labels; NULL: absent */
	int			primary[RM_N];	/* the RunStatistic its spec.timing and
								 * spec.memory primaryStatistic name; -1:
								 * none named (the median) */
	const char *workload_label; /* RIF_LABELLED: the workload's
								 * metadata.labels.label */
	RunValues	values;
} RunParts;

/* Where a document being read stands, for error messages. */
typedef struct RunDocPos
{
	int64		ord;			/* position in its statement, from 1 */
	const char *path;			/* JSON path of the run: "$" or "$.run" */
} RunDocPos;

/*
 * A run described by a harness's fields (the CSV path): run_model()
 * writes the document such a run has, which run_split() then splits.
 */
typedef struct RunModel
{
	const char *title;			/* NULL: none */
	Jsonb	   *labels;			/* metadata.labels; NULL: none */
	const char *status;
	const char *source;
	const char *benchmark;
	const char *name;
	const char *external_id;	/* NULL: none */
	TimestampTz observed_at;
	bool		memory;			/* peak memory (bytes), else latency (ns) */
	bool		has[RV_N];		/* the statistics it reports (of its metric) */
	int64		v[RV_N];
	const char *primary_statistic;	/* of timing or memory; NULL: none */
	const char *native_unit;	/* NULL: no native metrics */
	const char *native_text[RUN_NNATIVE];	/* _20, _50, _80 as written
											 * (NULL: absent) */
	KidxDigest	ref[RR_N];
} RunModel;

/*
 * Check a BenchmarkRun document against the layout and split it into its
 * parts (a new template, not yet prepared).  Faults are reported with
 * their SQLSTATE, the document's position and the JSON path.  The run's
 * name and externalId are left whole in RT_NAME and RT_EXTERNAL_ID, for
 * run_forms().
 */
extern void run_split(JsonbContainer *run, const RunDocPos *pos, RunParts *parts);

/*
 * Decide how a run's name and externalId are held: the template's rules
 * (name_form, name_prefix, name_cut, external_id_form) and the run's
 * RT_NAME and RT_EXTERNAL_ID texts, which hold the whole name and
 * externalId on entry.  workload_label is the label of the run's workload
 * as stored (NULL: none or not known); an externalId made of it is held
 * without it (RIF_LABELLED).
 */
extern void run_forms(RunParts *parts, const char *workload_label);

/*
 * Check a resource document (the envelope: apiVersion, kind, metadata.name,
 * spec; numbers canonical JSON can carry) of the given kind.
 */
extern void run_check_resource(JsonbContainer *c, const RunDocPos *pos,
							   const char *kind);

/* The document of a run described by a model. */
extern Jsonb *run_model(const RunModel *m);

/* Lay a template out (once; templates are shared). */
extern void run_template_prepare(RunTemplate *t);

/*
 * The dictionary hash of a template (see kernelindex.run_templates): the
 * first 16 bytes of SHA-256 of the canonical JSON [doc, name form, prefix,
 * cut, externalId form, native unit].
 */
extern void run_template_hash(const RunTemplate *t, pg_uuid_t *result);

/* The run document of a run's parts (the template prepared). */
extern Jsonb *run_rebuild(const RunParts *parts);

/* The run's identity digest, kidx_resource_digest(run_rebuild(...)). */
extern void run_digest(const RunParts *parts, KidxDigest *result);

/* The run's name and externalId (NULL: none), palloc'd. */
extern char *run_name(const RunParts *parts);
extern char *run_external_id(const RunParts *parts);

/*
 * The run's external key: the first 16 bytes of SHA-256 of the canonical
 * JSON [source, externalId] as a uuid; false when the run has no externalId.
 */
extern bool run_external_key(const RunParts *parts, pg_uuid_t *result);

/* The string a stem derives for an instant (a run name or externalId). */
extern char *run_derived_string(const char *stem, int cut, TimestampTz at);

/* A short phrase for a JSON value in messages: the number 12, "abc", null. */
extern char *run_shown_value(JsonbValue *v);

/*
 * Refuse (22008) an observedAt that the RFC 3339 text and the slug of a run
 * cannot write: outside the years 1 to 9999.
 */
pg_noreturn extern void run_observed_at_out_of_range(TimestampTz at);

/* A decimal's text (a native value as written, say) as a numeric. */
extern Numeric run_numeric_in(const char *dec);

/* The byte length of a character in the server encoding (for src/core). */
extern int	run_server_mblen(const unsigned char *s);

#endif							/* KIDX_RUN_LAYOUT_H */
