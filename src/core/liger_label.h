/*-------------------------------------------------------------------------
 *
 * liger_label.h
 *	  The text rules of Liger workload labels: bare label values, torch
 *	  dtypes, label templates and which x values are numbers (the slug and
 *	  name-cut rules of every harness's resource names: core/slug.h).
 *
 * Every rule here is one the SQL builders of kernelindex 0.1.0 wrote as a
 * regular expression (the comment of each function gives it); these give
 * the same answer byte for byte.  Strings are in the server encoding, in
 * which the bytes of a multibyte character are never ASCII, so that byte
 * tests of ASCII characters are character tests.  The rules that depend on
 * the locale (lower(), \s, case-insensitive matching) are left to the
 * caller, which has PostgreSQL's.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/liger_label.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_LIGER_LABEL_H
#define KIDX_LIGER_LABEL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Is a string written bare in a label?  It is when it matches
 * ^[A-Za-z_][A-Za-z0-9_.]*$ and is not true, false or null (any other
 * string is written as canonical JSON).
 */
extern bool liger_label_is_bare(const char *s, size_t len);

/* Does s match ^torch\.(float|bfloat|int|uint|complex)[0-9]+(_[a-z0-9]+)?$ ? */
extern bool liger_is_torch_dtype(const char *s, size_t len);

/*
 * The short form of a dtype string in a label: torch.float32 -> fp32,
 * torch.bfloat16 -> bf16 (a digit must follow float or bfloat), else
 * without a leading "torch." (torch.int8 -> int8), else as it is.  out
 * holds len bytes (the short form is never longer); returns its length.
 */
extern size_t liger_dtype_label(const char *s, size_t len, char *out);

/*
 * A placeholder of a label template: {K}, where K has no brace (the
 * regular expression \{[^{}]*\}).  start is the offset of "{", end the
 * offset just past "}"; the key is t[start + 1 .. end - 1).
 */
typedef struct LigerPlaceholder
{
	size_t		start;
	size_t		end;
} LigerPlaceholder;

/*
 * Find the first placeholder at or after offset pos of the template
 * t[0..len) (leftmost, as regexp_matches(t, '\{([^{}]*)\}', 'g') finds
 * them): true with *ph set, false if there is none.  The text between
 * placeholders is literal.
 */
extern bool liger_template_next(const char *t, size_t len, size_t pos,
								LigerPlaceholder *ph);

typedef enum
{
	LIGER_PH_LONE,				/* a key alone: non-empty, no "*" (the
								 * template shows that input by itself) */
	LIGER_PH_PRODUCT,			/* A*B: exactly one "*", with a key on either
								 * side (^[^*]+\*[^*]+$) */
	LIGER_PH_KEY				/* anything else (empty, or other stars):
								 * looked up as a key as it is */
} LigerPlaceholderKind;

/*
 * What a placeholder's key k[0..len) is; for LIGER_PH_PRODUCT *star is the
 * offset of the "*".
 */
extern LigerPlaceholderKind liger_placeholder_kind(const char *k, size_t len,
												   size_t *star);

typedef enum
{
	LIGER_X_NUMBER,				/* a JSON-style number and nothing else */
	LIGER_X_STRING,				/* printable ASCII without a blank, and no
								 * number: a string in every locale */
	LIGER_X_UNSURE				/* has white space, control or non-ASCII
								 * characters: the locale's \s decides */
} LigerXKind;

/*
 * Is an x value a number?  The SQL rule is
 *	x ~ '^\s*-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\s*$'
 * in which \s follows the database's locale; this answers without it for
 * every x value but those with a byte outside 0x21-0x7E.
 */
extern LigerXKind liger_x_kind(const char *s, size_t len);

#endif							/* KIDX_LIGER_LABEL_H */
