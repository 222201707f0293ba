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
