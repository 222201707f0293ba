#!/usr/bin/env bash
# The measured quality of kernelindex.change_point (SPEC section 10, issue
# 26): series with planted changes, made with fixed seeds by
# test/changepoints/generate.py (Gaussian noise, outliers, bimodal noise:
# 10,000 step series with 0 to 3 planted step changes a family, 1,000
# drift series and 1,000 null series), COPYed into a temporary table and
# run through
#   kernelindex.change_point(value, noise) OVER (PARTITION BY series ORDER BY pos)
# at the settings below; then test/changepoints/score.py, per family:
# precision >= 0.95 and recall >= 0.90 (a detected change is correct within
# one point of a planted one), at most 1% of the series without a planted
# change flagged, a drift (10% over five points) found within its ramp in at
# least 90% of the drift series, and the database's change positions equal
# to the reference implementation's (test/changepoints/reference.py, the
# same method in Python) on every series, p-values to a relative 1e-9.
# Prints one line of figures per family; fails on any target missed.  The
# comparison is checked to catch a p-value off by a relative 1e-8, a change
# moved by one point and a change missing.
#
# Then the Liger history's spot-check (test/changepoints/liger_spot.sh):
# five of the largest regressions of kernelindex.change_points against the
# runs themselves, recomputed from the CSV rows.
#
# Skipped, saying so, when /usr/bin/python3 has no numpy or scipy.  Runs
# against the cluster the libpq variables point at (a database with the
# extension).  KIDX_CP_SERIES (default 10000) sets the step series a family
# (drift and null series: a tenth of it each), for a quicker run by hand.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
python=/usr/bin/python3
if ! "$python" -c 'import numpy, scipy' 2>/dev/null; then
	echo "change_points: skipped: $python has no numpy or scipy (apt-get install python3-numpy python3-scipy)"
	exit 0
fi
steps=${KIDX_CP_SERIES:-10000}
others=$(((steps + 9) / 10))
# The settings the figures are measured at, the same in the database and
# in the reference: the defaults.
max_p=0.05
min_shift=0.05
min_points=6
noise_floor=3

dir=$(mktemp -d "${TMPDIR:-/tmp}/kidx-change-points.XXXXXX")
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)

"$python" test/changepoints/reference.py
"$python" test/changepoints/generate.py "$dir" --step "$steps" --drift "$others" --null "$others"
chmod 644 "$dir"/*.csv
echo "change_points: $(wc -l <"$dir/points.csv") points written in $(($(date +%s) - start)) s"

t=$(date +%s)
psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET kernelindex.change_max_p = $max_p;
SET kernelindex.change_min_shift = $min_shift;
SET kernelindex.change_min_points = $min_points;
SET kernelindex.change_noise_floor = $noise_floor;
SET extra_float_digits = 1;
CREATE TEMP TABLE cp_points (series integer, pos integer, value double precision, noise double precision);
\\copy cp_points FROM '$dir/points.csv' WITH (FORMAT csv)
\\copy (SELECT series, pos, p FROM (SELECT series, pos, kernelindex.change_point(value, noise) OVER (PARTITION BY series ORDER BY pos) AS p FROM cp_points) c WHERE p IS NOT NULL ORDER BY series, pos) TO '$dir/db.csv' WITH (FORMAT csv)
SQL
echo "change_points: the database's change points in $(($(date +%s) - t)) s ($(wc -l <"$dir/db.csv") changes)"

fail=0
t=$(date +%s)
"$python" test/changepoints/score.py "$dir" --db "$dir/db.csv" --max-p "$max_p" \
	--min-shift "$min_shift" --min-points "$min_points" --noise-floor "$noise_floor" || fail=1
echo "change_points: scored against the truth and the reference in $(($(date +%s) - t)) s"

bash test/changepoints/liger_spot.sh || fail=1
echo "change_points: $(($(date +%s) - start)) s in all"
exit $fail
