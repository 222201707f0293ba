/*-------------------------------------------------------------------------
 *
 * unit.h
 *	  What the unit tests of src/core share: counted checks that print the
 *	  first failures, and a seeded pseudo-random generator.
 *
 * A test may define UNIT_RNG_SEED before including this file to draw its
 * own sequence.
 *
 * test/unit/unit.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_UNIT_H
#define KIDX_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "utf8_rule.h"

#ifndef UNIT_RNG_SEED
#define UNIT_RNG_SEED UINT64_C(0x9E3779B97F4A7C15)
#endif

/* How many failures are printed; the rest are only counted. */
#define MAX_REPORTED_FAILURES 50

static long passed = 0;
static long failed = 0;
static uint64_t rng_state = UNIT_RNG_SEED;

/* Record one check; print the first failures with a message. */
static inline bool
check(bool ok, const char *fmt,...)
{
	if (ok)
	{
		passed++;
		return true;
	}
	failed++;
	if (failed <= MAX_REPORTED_FAILURES)
	{
		va_list		ap;

		fputs("FAIL: ", stdout);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		fputc('\n', stdout);
	}
	return false;
}

/* Next pseudo-random 64-bit value (splitmix64). */
static inline uint64_t
rnd(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/*
 * How many random rounds a loop runs: n, divided by KIDX_UNIT_DIVISOR from
 * the environment when set (the valgrind target runs a tenth: valgrind is
 * some 30 times slower, and the rounds only repeat the same code paths).
 */
static inline long
rounds(long n)
{
	static long divisor = 0;

	if (divisor == 0)
	{
		const char *d = getenv("KIDX_UNIT_DIVISOR");

		divisor = d ? strtol(d, NULL, 10) : 1;
		if (divisor < 1)
			divisor = 1;
	}
	return n / divisor;
}

/* Pseudo-random integer in [0, n). */
static inline uint32_t
rndn(uint32_t n)
{
	return (uint32_t) (rnd() % n);
}

#endif							/* KIDX_UNIT_H */
