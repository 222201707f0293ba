/*-------------------------------------------------------------------------
 *
 * slug.h
 *	  The slug and name-cut rules of resource names, for every harness:
 *	  the slug of a lowercase string and a name cut to its length.
 *
 * These are the rules kernelindex 0.1.0's SQL builders wrote as regular
 * expressions (the comment of each function gives it), byte for byte.
 * Lowercasing depends on the locale and is left to the caller.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/slug.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_SLUG_H
#define KIDX_SLUG_H

#include <stddef.h>

/* Characters a resource name is cut to (metadata.name). */
#define KIDX_NAME_MAX 100

/*
 * The slug of a string already in lowercase:
 *	btrim(regexp_replace(s, '[^a-z0-9]+', '-', 'g'), '-')
 * every run of bytes other than a-z and 0-9 becomes one hyphen, and there is
 * no hyphen at either end.  out holds len bytes (a slug is never longer);
 * returns the slug's length.
 */
extern size_t kidx_slug_lowered(const char *s, size_t len, char *out);

/*
 * The length of an ASCII name cut as rtrim(left(name, max), '-'): at most
 * max characters, no hyphen at the end.
 */
extern size_t kidx_name_cut(const char *name, size_t len, size_t max);

#endif							/* KIDX_SLUG_H */
