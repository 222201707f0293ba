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

#endif							/* KIDX_MESSAGES_H */
