/*-------------------------------------------------------------------------
 *
 * runfmt.h
 *	  The text forms of a run's per-run values: RFC 3339 date-times, the
 *	  observedAt form runs are rebuilt with, timestamp slugs, and strings
 *	  derived from a stem and a slug (names and externalIds).
 *
 * Instants are int64 microseconds since 2000-01-01 00:00:00 UTC, the
 * representation of PostgreSQL's timestamptz, so that the glue passes them
 * through unchanged.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/runfmt.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_RUNFMT_H
#define KIDX_RUNFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "YYYY-MM-DDTHH:MM:SS.mmmZ", or with microseconds "...SS.uuuuuuZ" */
#define RUNFMT_OBSERVED_AT_LEN 24
#define RUNFMT_OBSERVED_AT_MAXLEN 27
/* "YYYY-MM-DD-HH-MI-SS" and, with a fraction, "-uuuuuu" */
#define RUNFMT_SLUG_LEN 19
#define RUNFMT_SLUG_FRACTION_LEN 26
#define RUNFMT_SLUG_BUFLEN (RUNFMT_SLUG_FRACTION_LEN + 1)

typedef enum
{
	RFC3339_OK,
	RFC3339_SYNTAX,				/* not YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm) */
	RFC3339_YEAR,				/* year 0000 */
	RFC3339_MONTH,				/* month not 01-12 */
	RFC3339_DAY,				/* day not in the month */
	RFC3339_HOUR,				/* hour not 00-23 */
	RFC3339_MINUTE,				/* minute not 00-59 */
	RFC3339_SECOND,				/* second not 00-59 (leap seconds included) */
	RFC3339_OFFSET				/* offset hour not 00-23 or minute not 00-59 */
} rfc3339_status;

/* What rfc3339_parse found, for messages and for the caller. */
typedef struct Rfc3339
{
	int			year,
				month,
				day,
				hour,
				minute,
				second;
	int64_t		usec;			/* the instant, microseconds since 2000-01-01
								 * UTC, the fraction rounded half up */
	bool		canonical;		/* the text is what observed_at_format writes */
} Rfc3339;

/*
 * Parse an RFC 3339 date-time (section 5.6: full-date "T" full-time; "T"
 * and "Z" in either case).  On RFC3339_OK *out holds the instant; on a
 * field error the fields parsed so far are set, for the message.
 */
extern rfc3339_status rfc3339_parse(const char *s, size_t len, Rfc3339 *out);

/*
 * Parse the plain date and time harness CSVs write, "YYYY-MM-DD HH:MM:SS"
 * with up to six fraction digits, as a UTC instant; false (nothing set) for
 * anything else or an impossible date or time (the caller's full parser
 * then says what is wrong).
 */
extern bool runfmt_plain_timestamp(const char *s, size_t len, int64_t *usec);

/* A sentence saying what a parse status means ("The day is not a day of its month."). */
extern const char *rfc3339_status_text(rfc3339_status status);

/*
 * Write the instant as YYYY-MM-DDTHH:MM:SS.mmmZ (UTC, milliseconds; with
 * six fraction digits, ...SS.uuuuuuZ, when it has a fraction finer than a
 * millisecond), the form a stored run's observedAt is rebuilt in, into buf
 * (RUNFMT_OBSERVED_AT_MAXLEN + 1 bytes).  Returns the length, or 0 for a
 * year outside 1-9999.
 */
extern size_t observed_at_format(int64_t usec, char *buf);

/*
 * Write the timestamp slug of an instant into buf (RUNFMT_SLUG_BUFLEN
 * bytes): YYYY-MM-DD-HH-MI-SS in UTC, followed by -uuuuuu (microseconds)
 * when the instant has a fraction of a second.  Returns its length, or 0
 * for a year outside 1-9999.
 */
extern size_t run_slug_format(int64_t usec, char *buf);

/* The byte length of the character at s (the server encoding's rule). */
typedef int (*runfmt_mblen_fn) (const unsigned char *s);

/*
 * The string derived from a stem and a slug, as run names and externalIds
 * are: stem || slug, or, with cut >= 0, its first cut characters with any
 * trailing '-' removed.  out needs stemlen + sluglen + 1 bytes; returns the
 * length written (NUL-terminated).
 */
extern size_t runfmt_derive(const char *stem, size_t stemlen,
							const char *slug, size_t sluglen, int cut,
							runfmt_mblen_fn mblen, char *out);

/*
 * Find a stem (and, if allow_cut, a cut) from which value derives with
 * this slug: value ends with the slug (no cut), or, when it was cut, with
 * the slug's first characters.  Returns false when no slug part is there.
 * On success value[0..*stemlen) is the stem and *cut the cut (-1: none);
 * runfmt_derive(stem, slug, cut) is then exactly value.
 */
extern bool runfmt_detect(const char *value, size_t len,
						  const char *slug, size_t sluglen, bool allow_cut,
						  runfmt_mblen_fn mblen, size_t *stemlen, int *cut);

/* The number of characters of s[0..len). */
extern int	runfmt_charlen(const char *s, size_t len, runfmt_mblen_fn mblen);

#endif							/* KIDX_RUNFMT_H */
