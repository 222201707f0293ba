/*-------------------------------------------------------------------------
 *
 * decimal.h
 *	  Exact decimal unit conversion (milliseconds to nanoseconds, MiB to
 *	  bytes) without floating point.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/decimal.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_DECIMAL_H
#define KIDX_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum
{
	DEC_OK,
	DEC_EMPTY,					/* empty or only whitespace */
	DEC_SYNTAX,					/* junk */
	DEC_NAN,					/* NaN (any case, PostgreSQL numeric spelling) */
	DEC_INFINITE,				/* Infinity / inf / -Infinity / +inf, any case */
	DEC_OUT_OF_RANGE			/* rounded result does not fit int64 */
} dec_status;

/*
 * Parse the decimal text s[0..len) as PostgreSQL's numeric_in does, multiply
 * it exactly by multiplier, round half away from zero to an integer and
 * store that in *result.  The result equals PostgreSQL's
 * round(x::numeric * multiplier)::bigint.
 */
extern dec_status dec_scale_round_int64(const char *s, size_t len,
										uint32_t multiplier, int64_t *result);

/*
 * Write value / 2^shift (0 <= shift <= 62) exactly as a decimal, *mantissa
 * / 10^*scale with the fewest digits: *scale is 0, or *mantissa ends in a
 * digit other than 0.  False when the mantissa does not fit int64 (the
 * caller then computes it some other way).
 */
extern bool dec_pow2_quotient(int64_t value, int shift, int64_t *mantissa,
							  int *scale);

#endif							/* KIDX_DECIMAL_H */
