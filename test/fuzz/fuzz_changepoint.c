/*-------------------------------------------------------------------------
 *
 * fuzz_changepoint.c
 *	  libFuzzer harness for cp_segment (src/core/changepoint.c).
 *
 * The input is the settings (the first 4 bytes: min_points 1 to 16, and
 * max_p, min_shift and noise floor from small tables), then points of 3
 * bytes each: a value on a coarse grid (many ties) or a wide one, and an
 * own noise or none.  Invariants: the changes are in position order, each
 * with at least min_points points on either side of it within its final
 * segments; the segments' lengths add up to the series; the levels are the
 * medians of those segments; every p is in [0, max_p]; the work space is
 * exactly cp_work_size(n) bytes (ASan catches an overrun).
 *
 * test/fuzz/fuzz_changepoint.c
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"
#include "../../src/core/changepoint.h"

/* Order of doubles, for the medians of the check. */
static int
dcmp(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The median of v[a..b), by a sorted copy. */
static double
median_of(const double *v, int64_t a, int64_t b)
{
	int64_t		m = b - a;
	double	   *c = malloc(sizeof(double) * (size_t) (m > 0 ? m : 1));
	double		r;

	memcpy(c, v + a, sizeof(double) * (size_t) m);
	qsort(c, (size_t) m, sizeof(double), dcmp);
	r = (m % 2 == 1) ? c[m / 2] : (c[m / 2 - 1] + c[m / 2]) / 2.0;
	free(c);
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double max_ps[] = {0.001, 0.01, 0.1, 1.0};
	static const double shifts[] = {0.0, 0.05, 0.5, 2.0};
	static const double floors[] = {0.0, 1.0, 3.0, 10.0};
	CpSettings	s;
	int64_t		n;
	int64_t		i;
	int64_t		nc;
	double	   *x;
	double	   *noise;
	void	   *work;
	CpChange   *out;

	if (size < 4)
		return 0;
	s.min_points = 1 + (data[0] & 15);
	s.max_p = max_ps[data[1] & 3];
	s.min_shift = shifts[data[2] & 3];
	s.noise_floor = floors[data[3] & 3];
	n = (int64_t) ((size - 4) / 3);
	x = malloc(sizeof(double) * (size_t) (n + 1));
	noise = malloc(sizeof(double) * (size_t) (n + 1));
	out = malloc(sizeof(CpChange) * (size_t) (n + 1));
	for (i = 0; i < n; i++)
	{
		const uint8_t *p = data + 4 + 3 * i;

		x[i] = (p[0] & 128) ? (double) (p[1] & 7) : ((double) p[1] * 256.0 + p[0]) * 1e3 - 1e6;
		noise[i] = (p[2] & 1) ? NAN : (double) (p[2] >> 1);
	}
	work = malloc(cp_work_size(n) > 0 ? cp_work_size(n) : 1);
	nc = cp_segment(x, noise, n, &s, work, out, NULL, NULL);
	FUZZ_ASSERT(nc >= 0 && nc <= (n > 0 ? n / s.min_points : 0), "n %lld changes %lld",
				(long long) n, (long long) nc);
	{
		int64_t		prev = 0;
		int64_t		total = 0;

		for (i = 0; i < nc; i++)
		{
			int64_t		next = (i + 1 < nc) ? out[i + 1].pos : n;

			FUZZ_ASSERT(out[i].pos - prev >= s.min_points && next - out[i].pos >= s.min_points,
						"change %lld at %lld", (long long) i, (long long) out[i].pos);
			FUZZ_ASSERT(out[i].points_before == out[i].pos - prev &&
						out[i].points_after == next - out[i].pos, "lengths of change %lld",
						(long long) i);
			FUZZ_ASSERT(out[i].p >= 0.0 && out[i].p <= s.max_p, "p %g", out[i].p);
			FUZZ_ASSERT(out[i].level_before == median_of(x, prev, out[i].pos) &&
						out[i].level_after == median_of(x, out[i].pos, next),
						"levels of change %lld", (long long) i);
			total += out[i].points_before;
			prev = out[i].pos;
		}
		if (nc > 0)
			FUZZ_ASSERT(total + out[nc - 1].points_after == n, "lengths add up");
	}
	free(x);
	free(noise);
	free(out);
	free(work);
	return 0;
}
