/*-------------------------------------------------------------------------
 *
 * messages.h
 *	  Wording shared by the error messages of several files: how a value
 *	  is shown cut.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_MESSAGES_H
#define KIDX_MESSAGES_H

#include "compat.h"

/*
 * Longest value shown whole in a message, in bytes; a longer one is cut at
 * a character boundary at or before it and followed by "...".  The value a
 * rejected row keeps (kernelindex.rejected_rows.bad_value) is cut the same
 * way (doc/reference.md: "cut at 200 characters").
 */
#define KIDX_SHOWN_MAX	200

/* How many of the len bytes of s a message shows (len if it is short). */
extern int	kidx_shown_len(const char *s, int len);

/* The len bytes of s as a message shows them: cut and "...", if long. */
extern char *kidx_shown(const char *s, int len);

/*
 * Why a number is refused that a double cannot carry exactly: canonical JSON
 * (RFC 8785) writes every number as an IEEE 754 double, and a number rounded
 * to one could give two different documents one digest (22003).  The reason
 * a CSV row's check gives, after what it names ("the number 0.1000000000000000001 ...").
 */
#define KIDX_DOUBLE_CANNOT_CARRY	"has more digits than a double carries"

/*
 * Refuse (22003) the number whose numeric text is dec, which a double cannot
 * carry exactly (beyond a double's range if out_of_range); what names it,
 * message first: "JSON number 1e+400 at $.x", "document 1: $.a is 1e+400,
 * which".
 */
pg_noreturn extern void kidx_refuse_number(const char *what, const char *dec,
										   bool out_of_range);

#endif							/* KIDX_MESSAGES_H */
