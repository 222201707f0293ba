/*-------------------------------------------------------------------------
 *
 * run_layout_int.h
 *	  The description of a BenchmarkRun document that run_split.c and
 *	  run_build.c share: every member the layout knows, what it must be, and
 *	  what holds it (the template, a dictionary string, a resource
 *	  reference, or a value column).  Only the run layout includes this.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_RUN_LAYOUT_INT_H
#define KIDX_RUN_LAYOUT_INT_H

#include "run_layout.h"

/* What a member must be. */
typedef enum MemberType
{
	MT_CONSTANT,				/* a string equal to constant */
	MT_STRING,					/* a string (non-empty if so marked) */
	MT_DIGEST,					/* a digest string */
	MT_TIMESTAMP,				/* an RFC 3339 date-time string */
	MT_COUNT,					/* a non-negative integer within bigint */
	MT_OBJECT,					/* an object with known members */
	MT_STRINGS,					/* an object of strings */
	MT_NUMBERS,					/* an object of numbers */
	MT_MEASUREMENTS				/* an array of measurement objects */
} MemberType;

/* What holds a member's value in a stored run. */
typedef enum MemberHold
{
	MH_TEMPLATE,				/* the template (or, for objects, its parts) */
	MH_TEXT,					/* a dictionary string: RunText index */
	MH_LABELS,					/* the label-set dictionary */
	MH_REF,						/* a resource reference: RunRef index */
	MH_OBSERVED_AT,				/* runs.observed_at */
	MH_VALUE,					/* a value column: RunValue index */
	MH_PRIMARY					/* a primaryStatistic (kept in the template):
								 * RunMetric index */
} MemberHold;

/* One member the layout knows. */
typedef struct RunMember
{
	const char *key;
	MemberType	type;
	bool		required;
	bool		nonempty;		/* MT_STRING: not "" */
	MemberHold	hold;
	int			index;			/* RunText, RunRef or RunValue */
	const struct RunMember *members;	/* MT_OBJECT: its known members */
	const char *what;			/* what it must be, for messages */
	const char *constant;		/* MT_CONSTANT: the value */
} RunMember;

/* The members of a run document, from the top. */
extern const RunMember run_members[];

/* The measurements a run holds, by metric, statistic and unit. */
typedef struct MeasurementSlot
{
	const char *metric;
	const char *statistic;
	const char *unit;
	RunValue	value;
} MeasurementSlot;

extern const MeasurementSlot measurement_slots[];
extern const int n_measurement_slots;

/* Suffixes of the native metrics a run holds (<unit>_20, _50, _80). */
extern const char *const native_suffix[RUN_NNATIVE];

/* The member of fields named key[0..len), or NULL. */
extern const RunMember *run_member_find(const RunMember *fields, const char *key, int len);

/* True if a JSON string equals a C string. */
extern bool jstring_is(const JsonbValue *v, const char *s);

/* The measurement slot of (metric, statistic, unit), or -1. */
extern int	measurement_slot_of(const JsonbValue *metric, const JsonbValue *statistic,
								const JsonbValue *unit);

/* The slug names derive from an externalId with (RNF_FROM_EXTERNAL_ID). */
extern char *run_id_slug(const char *s);

#endif							/* KIDX_RUN_LAYOUT_INT_H */
