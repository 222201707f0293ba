/*-------------------------------------------------------------------------
 *
 * jcs.h
 *	  RFC 8785 (JSON Canonicalization Scheme) building blocks: string
 *	  escaping, UTF-16 key order and ECMAScript number formatting.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/jcs.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_JCS_H
#define KIDX_JCS_H

#include <stddef.h>

#define JCS_NUMBER_BUFLEN 40	/* enough for any ECMAScript double text + NUL */

typedef void (*jcs_write_fn) (void *arg, const char *data, size_t len);

/*
 * Write the quoted, RFC 8785-escaped form of a valid UTF-8 string of len
 * bytes.  Only '"', '\\' and characters below U+0020 are escaped (\b \t \n
 * \f \r as such, the others as \u00xx with lowercase hex); everything else
 * is copied as-is, in runs as long as possible.
 */
extern void jcs_write_string(const char *s, size_t len, jcs_write_fn w, void *arg);

/*
 * Compare two valid UTF-8 strings by their UTF-16 code units (RFC 8785
 * member order).  Returns <0, 0 or >0.
 */
extern int	jcs_compare_keys(const char *a, size_t alen, const char *b, size_t blen);

/*
 * Format a finite double exactly as ECMAScript Number.prototype.toString.
 * out must hold JCS_NUMBER_BUFLEN bytes.  Returns the length written
 * (NUL-terminated), or -1 for NaN and infinities.
 */
extern int	jcs_format_double(double d, char *out);

typedef enum
{
	JCS_NUM_OK,					/* out holds the ECMAScript text */
	JCS_NUM_SYNTAX,				/* not a JSON/decimal number text */
	JCS_NUM_OUT_OF_RANGE,		/* magnitude overflows double (e.g. 1e400) */
	JCS_NUM_INEXACT				/* the double does not print back the same
								 * decimal value */
} jcs_num_status;

/*
 * Decide whether the double nearest to the decimal number text dec[0..len)
 * prints back (as ECMAScript shortest text) the same decimal value; if so
 * write that text to out (JCS_NUMBER_BUFLEN bytes, NUL-terminated) and its
 * length to *outlen.
 */
extern jcs_num_status jcs_number_from_decimal(const char *dec, size_t len,
											  char *out, size_t *outlen);

#endif							/* KIDX_JCS_H */
