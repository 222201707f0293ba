# Helpers shared by the benchmarks under test/bench (sourced).
#
# Every benchmark measures ratios side by side in one run on one cluster
# (the libpq variables point at it) and records each figure with result(),
# which test/run.sh prints as one table at the end of `make bench`.

# Seconds since the epoch, with nanoseconds.
now() { date +%s.%N; }

# Seconds a psql command takes, after a checkpoint (so that none is paid for
# the step before): timed DB SQL.
timed() {
	local db=$1 sql=$2 start
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CHECKPOINT" >/dev/null
	start=$(now)
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "$sql" >/dev/null
	awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

# The ratio a / b with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# yes if value <= limit, else no.
at_most() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "yes" : "no" }'; }

# Record one figure: name, target, measured, met (yes/no).
result() {
	printf '%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" >>"${KIDX_BENCH_RESULTS:-/dev/null}"
	printf 'result: %s: %s (target %s): %s\n' "$1" "$3" "$2" "$4"
}
