/*-------------------------------------------------------------------------
 *
 * release.h
 *	  Release labels in version order: 0.5.10 after 0.5.9, 1.0rc1 before
 *	  1.0, v1.2 as 1.2.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/release.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_RELEASE_H
#define KIDX_RELEASE_H

#include <stddef.h>

/* Longest key release_version_key writes. */
#define RELEASE_KEY_MAX 256

/*
 * Write a key for a release label that compares (as bytes, memcmp, shorter
 * first when one is a prefix) in version order, into out (RELEASE_KEY_MAX
 * bytes); returns its length, or 0 when the label is not a version.
 *
 * A version is an optional "v", then numbers separated by dots (trailing
 * zero numbers do not count: 1.0 is 1), then optionally a pre-release: an
 * optional "-" or ".", one of dev, a, alpha, b, beta, rc, pre (any case)
 * and an optional number after an optional "." or "-".  Pre-releases come
 * before their release, dev < a < b < rc; 1.0.1rc1 comes after 1.0.
 */
extern size_t release_version_key(const char *s, size_t len, unsigned char *out);

#endif							/* KIDX_RELEASE_H */
