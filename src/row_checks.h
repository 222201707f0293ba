/*-------------------------------------------------------------------------
 *
 * row_checks.h
 *	  Checks of the text fields of CSV rows (Liger rows, run_rows), made
 *	  without raising errors, so that a bad row can be quarantined: blank,
 *	  decimal numbers in the JSON grammar, JSON objects, timestamps.  Each
 *	  returns a reason (a phrase for messages) or NULL when the value is
 *	  good; out-of-range numbers set *sqlstate to 22003.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_ROW_CHECKS_H
#define KIDX_ROW_CHECKS_H

#include "datatype/timestamp.h"

/*
 * Deepest nesting of arrays and objects a JSON field may have: harness
 * configurations are flat; the limit keeps a hostile one from exhausting
 * the stack in the JSON parser (an error no quarantine could catch).
 */
#define ROW_JSON_MAX_DEPTH 100

/* A value as a fault shows it: kidx_shown() (messages.h); NULL as "". */
extern char *row_shown_value(const char *value);

/* True if s is empty or only white space. */
extern bool row_is_blank(const char *s);

/* True if s (trimmed) follows the JSON number grammar. */
extern bool row_is_json_number(const char *s);

/* The trimmed part of s: its start and length; and a trimmed copy. */
extern void row_trim_range(const char *s, const char **start, int *len);
extern char *row_trimmed(const char *s);

/*
 * Reason a JSON text is not an object kernelindex can keep (malformed,
 * not an object, a key twice in one object, nested too deep, a number a
 * double cannot carry), or NULL.
 */
extern const char *row_json_object_fault(const char *value, int *sqlstate);

/*
 * Reason a timestamp without time zone (Liger's YYYY-MM-DD HH:MM:SS, as
 * UTC) cannot be used, or NULL and its value in *ts.
 */
extern const char *row_timestamp_fault(const char *value, Timestamp *ts);

/*
 * Reason an instant cannot be used, or NULL and its value in *ts: RFC 3339
 * (2025-04-28T00:38:25Z, an offset), YYYY-MM-DD HH:MM:SS[.f] as UTC, or
 * that with a numeric offset or UTC/Z (PostgreSQL's input of timestamp with
 * time zone, digits only: no "now", no zone names but UTC).
 */
extern const char *row_timestamptz_fault(const char *value, TimestampTz *ts);

#endif							/* KIDX_ROW_CHECKS_H */
