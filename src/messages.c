/*-------------------------------------------------------------------------
 *
 * messages.c
 *	  Wording shared by the error messages of several files; see
 *	  messages.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "core/jcs.h"
#include "messages.h"

/* How many bytes of a value a message shows; see messages.h. */
int
kidx_shown_len(const char *s, int len)
{
	if (len <= KIDX_SHOWN_MAX)
		return len;
	return pg_mbcliplen(s, len, KIDX_SHOWN_MAX);
}

/* A value as a message shows it; see messages.h. */
char *
kidx_shown(const char *s, int len)
{
	int			cut = kidx_shown_len(s, len);

	if (cut == len)
		return pnstrdup(s, len);
	return psprintf("%.*s...", cut, s);
}

/* The ECMAScript text of the double nearest a decimal, for messages. */
static char *
nearest_double_text(const char *dec)
{
	char		buf[JCS_NUMBER_BUFLEN];

	if (jcs_format_double(strtod(dec, NULL), buf) < 0)
		return pstrdup("an infinity");
	return pstrdup(buf);
}

/* Refuse a number a double cannot carry exactly; see messages.h. */
void
kidx_refuse_number(const char *what, const char *dec, bool out_of_range)
{
	if (out_of_range)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s is beyond the range of a double", what),
				 errdetail("Canonical JSON (RFC 8785) writes every number as an IEEE 754 double."),
				 errhint("Pass numbers that need more than a double as JSON strings.")));
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("%s " KIDX_DOUBLE_CANNOT_CARRY, what),
			 errdetail("Canonical JSON (RFC 8785) writes every number as an IEEE 754 double, and the nearest double prints as %s; "
					   "two different documents could get the same digest.",
					   nearest_double_text(dec)),
			 errhint("Pass numbers that need more than a double as JSON strings.")));
}
