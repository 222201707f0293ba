/*-------------------------------------------------------------------------
 *
 * bench_core.c
 *	  Time the hot paths of src/core (ns per call), built with -O2 and
 *	  without sanitizers: make -C test/unit bench
 *
 * test/unit/bench_core.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../src/core/decimal.h"
#include "../../src/core/jcs.h"

static volatile size_t bench_sink;

/* Monotonic time in nanoseconds. */
static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

/* Time jcs_number_from_decimal on one input. */
static void
bench_number(const char *in, long iters)
{
	char		out[JCS_NUMBER_BUFLEN];
	size_t		olen = 0;
	size_t		len = strlen(in);
	jcs_num_status st = JCS_NUM_OK;
	double		t0 = now_ns();
	long		i;

	for (i = 0; i < iters; i++)
	{
		st = jcs_number_from_decimal(in, len, out, &olen);
		bench_sink += olen + (size_t) st;
	}
	printf("jcs_number_from_decimal(%-26s) %7.1f ns/call  status %d -> %s\n",
		   in, (now_ns() - t0) / (double) iters, (int) st,
		   st == JCS_NUM_OK ? out : "-");
}

/* Time jcs_format_double on one value. */
static void
bench_format(double d, long iters)
{
	char		out[JCS_NUMBER_BUFLEN];
	double		t0 = now_ns();
	long		i;
	volatile double vd = d;

	for (i = 0; i < iters; i++)
		bench_sink += (size_t) jcs_format_double(vd, out);
	printf("jcs_format_double(%-24s)  %7.1f ns/call\n", out,
		   (now_ns() - t0) / (double) iters);
}

/* Time dec_scale_round_int64 on one input. */
static void
bench_dec(const char *in, long iters)
{
	int64_t		r = 0;
	size_t		len = strlen(in);
	double		t0 = now_ns();
	long		i;

	for (i = 0; i < iters; i++)
	{
		dec_scale_round_int64(in, len, 1000000, &r);
		bench_sink += (size_t) r;
	}
	printf("dec_scale_round_int64(%-20s) %7.1f ns/call -> %lld\n", in,
		   (now_ns() - t0) / (double) iters, (long long) r);
}

/* Writer that only counts bytes. */
static void
count_write(void *arg, const char *data, size_t len)
{
	(void) data;
	*(size_t *) arg += len;
}

/* Run the benchmarks. */
int
main(void)
{
	const long	n = 5000000;
	const char *s = "NVIDIA GeForce RTX 3090 / liger / forward";
	size_t		total = 0;
	double		t0;
	long		i;

	bench_number("2.628607988357544", n);
	bench_number("94.83366394042969", n);
	bench_number("2.629631996154785", n);
	bench_number("0.30000000000000004", n);
	bench_number("0.30000000000000001", n);
	bench_number("123.456", n);
	bench_number("2048", n);
	bench_number("1.2345678901234567e-100", n / 10);
	bench_format(2.628607988357544, n);
	bench_format(0.30000000000000004, n);
	bench_format(2048, n);
	bench_format(1e-100, n);
	bench_dec("2.628607988357544", n);
	bench_dec("1e-05", n);

	t0 = now_ns();
	for (i = 0; i < n; i++)
		jcs_write_string(s, strlen(s), count_write, &total);
	printf("jcs_write_string(%zu bytes)                  %7.1f ns/call\n",
		   strlen(s), (now_ns() - t0) / (double) n);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		total += (size_t) jcs_compare_keys("environmentDigest", 17,
										   "environment", 11 + (i & 1));
	printf("jcs_compare_keys(short keys)                   %7.1f ns/call\n",
		   (now_ns() - t0) / (double) n);
	bench_sink += total;
	return 0;
}
