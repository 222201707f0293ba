/*-------------------------------------------------------------------------
 *
 * ryu_compare.c
 *	  Measure jcs.c's Schubfach against PostgreSQL's Ryu
 *	  (double_to_shortest_decimal_bufn, libpgcommon) on the same doubles:
 *	  exactness of the final ECMAScript text against V8's, and ns per
 *	  number, side by side in one run.
 *
 *	  make -C test/unit ryu		(PostgreSQL's server headers and
 *								 libpgcommon.a: postgresql-server-dev-NN)
 *
 * Each file holds V8's text of doubles ("<hex bits> <String(x)>" lines, as
 * gen_v8_doubles.js writes them).  Ryu's text is PostgreSQL's float8out
 * form; its digits and decimal exponent are read back from it and laid out
 * by ECMAScript's rules, as jcs.c lays out Schubfach's.  Exit status 1 when
 * Schubfach (what the extension uses) differs from V8 anywhere; Ryu's
 * mismatches are counted and shown.  The figures measured are at the top of
 * src/core/jcs.c.
 *
 * test/unit/ryu_compare.c
 *
 *-------------------------------------------------------------------------
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * jcs.c itself, for its static shortest_digits(): Schubfach's digits are
 * timed alone as well as with the ECMAScript layout.
 */
#include "../../src/core/jcs.c"

#include "common/shortest_dec.h"	/* PostgreSQL's Ryu, in libpgcommon */

static volatile size_t sink;

/* Monotonic time in nanoseconds. */
static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

/*
 * ECMAScript text of a finite double from Ryu's digits: PostgreSQL's text
 * (fixed for decimal exponents -4..14, else d.ddde+XX) is taken apart into
 * its significant digits and decimal point position, which jcs.c's
 * ecma_layout() lays out as it lays out Schubfach's.
 */
static int
ryu_format_double(double d, char *out)
{
	char		buf[DOUBLE_SHORTEST_DECIMAL_LEN + 1];
	char		dig[DOUBLE_SHORTEST_DECIMAL_LEN];
	int			len;
	int			k = 0;
	int			point = -1;
	int			lead = 0;
	int			e = 0;
	bool		neg = false;
	const char *p;
	const char *end;

	if (d != d || d - d != 0.0)
		return -1;				/* NaN or infinity */
	if (d == 0.0)
	{
		out[0] = '0';
		out[1] = '\0';
		return 1;
	}
	len = double_to_shortest_decimal_bufn(d, buf);
	buf[len] = '\0';			/* the bufn form writes no NUL */
	p = buf;
	end = buf + len;
	if (*p == '-')
	{
		neg = true;
		p++;
	}
	for (; p < end && *p != 'e'; p++)
	{
		if (*p == '.')
			point = k;
		else
			dig[k++] = *p;
	}
	if (point == -1)
		point = k;
	if (p < end)
		e = atoi(p + 1);
	/* leading zeros (0.000ddd) move the point left; trailing ones go */
	while (dig[lead] == '0')
		lead++;
	memmove(dig, dig + lead, k - lead);
	k -= lead;
	point -= lead;
	while (dig[k - 1] == '0')
		k--;
	return ecma_layout(neg, dig, k, point + e, out);
}

typedef struct
{
	uint64_t	bits;
	char		text[32];
} v8_line;

/* Read "<hex bits> <text>" lines. */
static v8_line *
read_file(const char *path, v8_line *v, size_t *n, size_t *cap)
{
	FILE	   *f = fopen(path, "r");
	char		line[256];

	if (f == NULL)
	{
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f))
	{
		char	   *sp = strchr(line, ' ');
		char	   *nl;

		if (sp == NULL)
			continue;
		nl = strchr(sp, '\n');
		if (nl)
			*nl = '\0';
		if (*n == *cap)
		{
			*cap = *cap ? *cap * 2 : 65536;
			v = realloc(v, *cap * sizeof(v8_line));
		}
		*sp = '\0';
		v[*n].bits = strtoull(line, NULL, 16);
		snprintf(v[*n].text, sizeof(v[*n].text), "%s", sp + 1);
		(*n)++;
	}
	fclose(f);
	return v;
}

/* Compare both on every line of the files, then time both. */
int
main(int argc, char **argv)
{
	v8_line    *v = NULL;
	size_t		n = 0,
				cap = 0,
				i;
	long		bad_s = 0,
				bad_r = 0;
	double	   *d;
	char		out[JCS_NUMBER_BUFLEN];
	int			round;
	double		best[4] = {0, 0, 0, 0};
	int			a;

	for (a = 1; a < argc; a++)
	{
		size_t		before = n;
		long		bs = bad_s,
					br = bad_r;

		v = read_file(argv[a], v, &n, &cap);
		for (i = before; i < n; i++)
		{
			double		x;

			memcpy(&x, &v[i].bits, sizeof(x));
			jcs_format_double(x, out);
			if (strcmp(out, v[i].text) != 0)
			{
				if (bad_s++ < 10)
					printf("  schubfach %016" PRIx64 ": %s, V8 %s\n",
						   v[i].bits, out, v[i].text);
			}
			ryu_format_double(x, out);
			if (strcmp(out, v[i].text) != 0)
			{
				if (getenv("RYU_COMPARE_DUMP"))
					fprintf(stderr, "%016" PRIx64 " %s %s\n",
							v[i].bits, out, v[i].text);
				if (bad_r++ < 10)
					printf("  ryu       %016" PRIx64 ": %s, V8 %s\n",
						   v[i].bits, out, v[i].text);
			}
		}
		printf("%s: %zu doubles, Schubfach %ld mismatches, Ryu %ld mismatches\n",
			   argv[a], n - before, bad_s - bs, bad_r - br);
	}

	d = malloc(n * sizeof(double));
	for (i = 0; i < n; i++)
		memcpy(&d[i], &v[i].bits, sizeof(double));

	/* alternate them over the same array; the best of five rounds each */
	for (round = 0; round < 5; round++)
	{
		double		t[4];
		double		t0;
		char		pgbuf[DOUBLE_SHORTEST_DECIMAL_LEN + 1];
		uint64_t	digits;
		int			exp10;
		int			j;

		t0 = now_ns();
		for (i = 0; i < n; i++)
			sink += (size_t) jcs_format_double(d[i], out);
		t[0] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < n; i++)
			sink += (size_t) ryu_format_double(d[i], out);
		t[1] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < n; i++)
		{
			uint64_t	b;

			memcpy(&b, &d[i], sizeof(b));
			b &= ~(UINT64_C(1) << 63);
			if (b != 0)
			{
				shortest_digits(b, &digits, &exp10);
				sink += (size_t) digits + (size_t) exp10;
			}
		}
		t[2] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < n; i++)
			sink += (size_t) double_to_shortest_decimal_bufn(d[i], pgbuf);
		t[3] = now_ns() - t0;
		for (j = 0; j < 4; j++)
			if (round == 0 || t[j] < best[j])
				best[j] = t[j];
	}
	printf("ns per number, best of 5 rounds over %zu doubles:\n"
		   "  ECMAScript text:  Schubfach %.1f  Ryu %.1f\n"
		   "  digits alone:     Schubfach %.1f  Ryu (with PostgreSQL's text) %.1f\n",
		   n, best[0] / n, best[1] / n, best[2] / n, best[3] / n);
	free(d);
	free(v);
	printf("in all: Schubfach %ld mismatches, Ryu %ld mismatches\n", bad_s, bad_r);
	return bad_s ? 1 : 0;
}
