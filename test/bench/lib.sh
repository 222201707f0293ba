# Helpers shared by the benchmarks under test/bench (sourced).
#
# Every benchmark measures ratios side by side in one run on one cluster
# (the libpq variables point at it) and records each figure with result(),
# which table() prints at the end of `make bench` (test/bench/bench.sh):
# figure, target, the figure measured on each data shape, met.
#
# The benchmarks address the store through its public names only
# (kernelindex.liger_rows, documents, runs and its columns
# comparability_key and digest, run_document(), the BI views).  What they
# must know of the store's own tables comes from the extension, just below.

# The relations whose bytes make up "the store" for the bytes-per-run
# figure (store.sh): kernelindex.runs, every table it refers to (the
# extension lists them: kernelindex_internal.run_references()), every table the
# extension guards as one runs or comparability keys refer to (the
# resources of a key: the tables with a trigger of
# kernelindex_internal.runs_references_guard()) and every table those refer to by
# foreign key.  The store's layout is not spelled here.
KIDX_STORE_TABLES_SQL="
WITH RECURSIVE t(rel) AS (
	SELECT 'kernelindex.runs'::regclass
	UNION
	SELECT ('kernelindex.' || r.table_name)::regclass FROM kernelindex_internal.run_references() r
	UNION
	SELECT g.tgrelid::regclass FROM pg_trigger g WHERE g.tgfoid = 'kernelindex_internal.runs_references_guard()'::regprocedure
	UNION
	SELECT c.confrelid::regclass FROM t JOIN pg_constraint c ON c.conrelid = t.rel AND c.contype = 'f'
)
SELECT rel::text FROM t ORDER BY rel::text COLLATE \"C\""

# The data shapes (doc/performance.md, "Targets"), by letter: what test/bench/generate.sh
# makes of the upstream file.
shape_name() {
	case "$1" in
	a) echo bench ;;
	b) echo release ;;
	c) echo upstream ;;
	*) echo "unknown shape '$1' (a, b or c)" >&2; return 1 ;;
	esac
}
KIDX_ALL_SHAPES="a b c"

# The upstream file as an absolute path in $csv: ../shared's, else the
# sample committed in test/data, saying so.
upstream_csv() {
	local here
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	csv=${KIDX_SHARED:-$here/../../../shared}/data/liger/all_benchmark_data.csv
	if [ ! -r "$csv" ]; then
		csv="$here/../data/liger_sample.csv"
		echo "note: ../shared is absent: the data shapes are made from test/data/liger_sample.csv ($(($(wc -l <"$csv") - 1)) rows), not from the upstream file" >&2
	fi
	csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")
}

# Seconds since the epoch, with nanoseconds.
now() { date +%s.%N; }

# Seconds a psql command takes, after a checkpoint (so that none is paid for
# the step before): timed DB SQL.  Fails when the command fails, its error
# in $KIDX_BENCH_ERROR (when set) as well as on stderr.
timed() {
	local db=$1 sql=$2 start err rc=0
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CHECKPOINT" >/dev/null || return 1
	err=$(mktemp)
	start=$(now)
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "$sql" >/dev/null 2>"$err" || rc=1
	cat "$err" >&2
	[ -z "${KIDX_BENCH_ERROR:-}" ] || cp "$err" "$KIDX_BENCH_ERROR"
	rm -f "$err"
	[ $rc = 0 ] || return 1
	awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

# Why a statement failed, in a few words, from its error output: the
# server's message and SQLSTATE where there is one.
failure() {
	local f=$1
	if grep -q 'server closed the connection unexpectedly' "$f"; then
		echo "the server process was lost (killed: out of memory?)"
	else
		sed -n 's/^\(psql:[^E]*\)\{0,1\}ERROR: *//p' "$f" | sed -n 1p | cut -c1-80
	fi
}

# Wait until the server accepts connections again (after a backend was
# killed, the server restarts and recovers): up to 5 minutes.
wait_for_server() {
	local i
	for i in $(seq 1 300); do
		psql -X -q -d postgres -c "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 1
	done
	return 1
}

# The best of up to three timings of one statement, timed by psql in one
# session (no connection set-up in the figure): best DB LIMIT SQL prints
# the seconds and the rows a \copy wrote (- for other statements).  A
# statement that runs past LIMIT seconds is cancelled and the answer is
# "cut -"; one that takes over 10 s is not repeated.
best() {
	local db=$1 limit=$2 sql=$3 out
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CHECKPOINT" >/dev/null
	out=$(psql -X -d "$db" -c "SET statement_timeout = '${limit}s'" -c '\timing on' -c "$sql" 2>&1) || true
	if grep -q 'canceling statement due to statement timeout' <<<"$out"; then
		echo "cut -"
		return 0
	fi
	if grep -q 'ERROR' <<<"$out"; then
		echo "best: $sql: $out" >&2
		return 1
	fi
	if ! awk '/^Time:/ { t = $2 / 1000 } END { exit !(t > 10) }' <<<"$out"; then
		out="$out
$(psql -X -v ON_ERROR_STOP=1 -d "$db" -c '\timing on' -c "$sql" -c "$sql")"
	fi
	awk '/^Time:/ { t = $2 / 1000; if (b == "" || t < b) b = t }
		/^COPY [0-9]+$/ { n = $2 }
		END { printf "%.6f %s\n", b, (n == "" ? "-" : n) }' <<<"$out"
}

# How long a timed statement may run, in seconds, when its target is
# TARGET times a BASELINE measured in the same run: 3 x TARGET x BASELINE,
# at least KIDX_BENCH_TIMEOUT (60 s).  A statement cut there misses its
# target by more than 3x whatever the machine's speed.
limit_for() {
	awk -v t="$1" -v b="$2" -v m="${KIDX_BENCH_TIMEOUT:-60}" \
		'BEGIN { l = 3 * t * b; if (l < m) l = m; printf "%d", l + 1 }'
}

# A duration in seconds for a table cell: 17.2 ms, 2.40 s, 123 s.
dur() {
	awk -v t="$1" 'BEGIN {
		if (t !~ /^[0-9.]+$/) print t
		else if (t < 1) printf "%.1f ms", 1000 * t
		else if (t < 100) printf "%.2f s", t
		else printf "%.0f s", t }'
}

# The ratio a / b with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# yes if value <= limit, else no.
at_most() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "yes" : "no" }'; }

# The floor of a load (doc/performance.md, "Targets"): the runs of database
# $1, already stored, INSERTed in the order $2 (default comparability key
# then digest, the order a load sorts a batch's runs in) into a copy of
# kernelindex.runs with its indexes and no triggers; prints the seconds it
# took.
floor_runs() {
	local db=$1 order=${2:-comparability_key, digest} t
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" \
		-c "DROP TABLE IF EXISTS floor_runs" \
		-c "CREATE TABLE floor_runs (LIKE kernelindex.runs INCLUDING ALL) WITH (autovacuum_enabled = off)" || return 1
	t=$(timed "$db" "INSERT INTO floor_runs SELECT * FROM kernelindex.runs ORDER BY $order") || return 1
	psql -X -q -d "$db" -c "DROP TABLE floor_runs"
	echo "$t"
}

# PostgreSQL's own insertion of every row a load of varied data stores in
# the tables that grow with it: the runs, the comparability keys and the
# workloads of database $1 (the runs in the floor's order, the others in
# their primary key's), each into a copy of its table with its indexes,
# constraints and generated columns, in one transaction; prints the
# seconds it took.  $2 says how: insert (the
# default; INSERT ... SELECT, as the floor) or copy (COPY FROM of the same
# rows, written beforehand in binary to files in directory $3: COPY's
# batched heap insertion, PostgreSQL's fastest way in short of building
# the indexes afterwards).  (The other tables a load writes hold a few
# hundred rows at most: GPUs, implementations, releases.)  The workloads'
# copy keeps the extension's CHECK that each digest is its document's, so
# each row is canonicalized and hashed as a load's is.
floor_stored() {
	local db=$1 how=${2:-insert} dir=${3:-} t w start
	case "$how" in
	insert) ;;
	copy) [ -d "$dir" ] || { echo "floor_stored: no directory '$dir' for the copy files" >&2; return 1; } ;;
	*) echo "floor_stored: '$how' is neither insert nor copy" >&2; return 1 ;;
	esac
	w=$(psql -X -At -v ON_ERROR_STOP=1 -d "$db" -c "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
		WHERE attrelid = 'kernelindex.workloads'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''") &&
		[ -n "$w" ] || return 1
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" \
		-c "DROP TABLE IF EXISTS floor_runs, floor_keys, floor_workloads" \
		-c "CREATE TABLE floor_runs (LIKE kernelindex.runs INCLUDING ALL) WITH (autovacuum_enabled = off)" \
		-c "CREATE TABLE floor_keys (LIKE kernelindex.comparability_keys INCLUDING ALL) WITH (autovacuum_enabled = off)" \
		-c "CREATE TABLE floor_workloads (LIKE kernelindex.workloads INCLUDING ALL) WITH (autovacuum_enabled = off)" || return 1
	case "$how" in
	insert)
		t=$(timed "$db" "INSERT INTO floor_runs SELECT * FROM kernelindex.runs ORDER BY comparability_key, digest;
			INSERT INTO floor_keys SELECT * FROM kernelindex.comparability_keys ORDER BY key;
			INSERT INTO floor_workloads ($w) SELECT $w FROM kernelindex.workloads ORDER BY digest") || return 1
		;;
	copy)
		psql -X -q -v ON_ERROR_STOP=1 -d "$db" \
			-c "\\copy (SELECT * FROM kernelindex.runs ORDER BY comparability_key, digest) TO '$dir/floor_runs.bin' WITH (FORMAT binary)" \
			-c "\\copy (SELECT * FROM kernelindex.comparability_keys ORDER BY key) TO '$dir/floor_keys.bin' WITH (FORMAT binary)" \
			-c "\\copy (SELECT $w FROM kernelindex.workloads ORDER BY digest) TO '$dir/floor_workloads.bin' WITH (FORMAT binary)" \
			-c "CHECKPOINT" || return 1
		start=$(now)
		psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "BEGIN" \
			-c "\\copy floor_runs FROM '$dir/floor_runs.bin' WITH (FORMAT binary)" \
			-c "\\copy floor_keys FROM '$dir/floor_keys.bin' WITH (FORMAT binary)" \
			-c "\\copy floor_workloads ($w) FROM '$dir/floor_workloads.bin' WITH (FORMAT binary)" \
			-c "COMMIT" >/dev/null || return 1
		t=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
		rm -f "$dir"/floor_runs.bin "$dir"/floor_keys.bin "$dir"/floor_workloads.bin
		;;
	esac
	psql -X -q -d "$db" -c "DROP TABLE floor_runs, floor_keys, floor_workloads"
	echo "$t"
}

# Record the figures of a CSV load (name: what was loaded): the load
# against its floor and a plain COPY (the targets), and PostgreSQL's own
# storing of its runs, keys and workloads (floor_stored, by INSERT and by
# COPY) against the floor and the plain COPY, and the load against it:
# load_results NAME LOAD FLOOR STORED COPIED PLAIN [FAILED].  FAILED, if not
# empty, says how the load missed (its figures are then not met).
load_results() {
	local name=$1 load=$2 floor=$3 stored=$4 copied=$5 plain=$6 failed=${7:-} r met
	r=$(ratio "$load" "$floor")
	met=$(at_most "$r" 2)
	[ -z "$failed" ] || met=no
	result "$name: load / floor" "<= 2x" "${failed:+$failed }${r}x ($(dur "$load") / $(dur "$floor"))" "$met"
	r=$(ratio "$stored" "$floor")
	result "$name: PostgreSQL's INSERT of the runs, keys and workloads / floor" "- (PostgreSQL's own)" "${r}x ($(dur "$stored") / $(dur "$floor"))" -
	r=$(ratio "$copied" "$floor")
	result "$name: PostgreSQL's COPY of the runs, keys and workloads / floor" "- (PostgreSQL's own)" "${r}x ($(dur "$copied") / $(dur "$floor"))" -
	r=$(ratio "$copied" "$plain")
	result "$name: PostgreSQL's COPY of the runs, keys and workloads / plain COPY" "- (PostgreSQL's own)" "${r}x ($(dur "$copied") / $(dur "$plain"))" -
	r=$(ratio "$load" "$stored")
	result "$name: load / PostgreSQL's INSERT of the runs, keys and workloads" "-" "${failed:+$failed }${r}x ($(dur "$load") / $(dur "$stored"))" -
	r=$(ratio "$load" "$plain")
	met=$(at_most "$r" 6)
	[ -z "$failed" ] || met=no
	result "$name: load / plain COPY" "<= 6x (4x moonshot)" "${failed:+$failed }${r}x ($(dur "$load") / $(dur "$plain"))" "$met"
}

# A number with thousands separators.
thousands() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|[^0-9]\)/\1,\2\3/' -e 'ta' <<<"$1"; }

# Record one figure: name, target, measured, met (yes/no/-), for the data
# shape in KIDX_BENCH_SHAPE (none: a figure that does not depend on data).
result() {
	printf 'result|%s|%s|%s|%s|%s\n' "${KIDX_BENCH_SHAPE:--}" "$1" "$2" "$3" "$4" \
		>>"${KIDX_BENCH_RESULTS:-/dev/null}"
	printf 'result%s: %s: %s (target %s): %s\n' "${KIDX_BENCH_SHAPE:+ ($KIDX_BENCH_SHAPE)}" "$1" "$3" "$2" "$4"
}

# Record one fact about the data of the shape in KIDX_BENCH_SHAPE: name,
# value (the table prints the facts first).
fact() {
	printf 'fact|%s|%s|-|%s|-\n' "${KIDX_BENCH_SHAPE:--}" "$1" "$2" >>"${KIDX_BENCH_RESULTS:-/dev/null}"
	printf 'data%s: %s: %s\n' "${KIDX_BENCH_SHAPE:+ ($KIDX_BENCH_SHAPE)}" "$1" "$2"
}

# Print the recorded figures as one table: figure, target, the value on
# each shape of SHAPES, met.  A figure that depends on data is met only
# when it is met on all three shapes.
table() {
	local results=$1 shapes=$2
	awk -F'|' -v shapes="$shapes" -v all="$KIDX_ALL_SHAPES" '
	BEGIN {
		ns = split(shapes, sh, " "); na = split(all, al, " ")
		names["a"] = "(a) bench"; names["b"] = "(b) release"; names["c"] = "(c) upstream"
	}
	{
		key = $1 "|" $3
		if (!(key in seen)) { seen[key] = 1; order[++n] = key; kind[key] = $1; fig[key] = $3; tgt[key] = $4 }
		val[key, $2] = $5; met[key, $2] = $6
	}
	function cell(s) { gsub(/\|/, "/", s); return s }
	END {
		head = "| figure | target"
		for (i = 1; i <= ns; i++) head = head " | " names[sh[i]]
		head = head " | met |"
		print head
		sep = "| --- | ---"
		for (i = 1; i <= ns; i++) sep = sep " | ---"
		print sep " | --- |"
		for (pass = 1; pass <= 2; pass++)
		for (k = 1; k <= n; k++) {
			key = order[k]
			if ((pass == 1) != (kind[key] == "fact")) continue
			line = "| " cell(fig[key]) " | " cell(tgt[key])
			if ((key, "-") in val) {
				# measured once, whatever the data
				line = line " | " cell(val[key, "-"])
				for (i = 2; i <= ns; i++) line = line " | (any data)"
				m = met[key, "-"]
			} else {
				yes = 0; no = ""; missing = ""
				for (i = 1; i <= ns; i++) {
					# (tested with "in" first: a reference would create the element)
					has = ((key, sh[i]) in val)
					line = line " | " cell(has ? val[key, sh[i]] : "not measured")
					if (has && met[key, sh[i]] == "yes") yes++
					else if (has) no = no (no == "" ? "" : ", ") sh[i]
				}
				for (j = 1; j <= na; j++) {
					got = 0
					for (i = 1; i <= ns; i++) if (sh[i] == al[j] && (key, al[j]) in val) got = 1
					if (!got) missing = missing (missing == "" ? "" : ", ") al[j]
				}
				if (kind[key] == "fact" || tgt[key] == "-") m = "-"
				else if (no != "" && met[key, substr(no, 1, 1)] == "-") m = "-"
				else if (no != "") m = "no (" no ")"
				else if (missing != "") m = "not on " missing
				else m = "yes"
			}
			print line " | " m " |"
		}
	}' "$results"
}

# A benchmark's own database (kidx_bench_$1, created fresh, with the
# extension) and scratch folder ($work), both gone when the script exits;
# sets db and work.
own_database() {
	db=kidx_bench_$1
	work=$(mktemp -d "/tmp/kidx-bench-$1.XXXXXX")
	chmod 755 "$work"
	# shellcheck disable=SC2064
	trap "psql -X -q -d postgres -c 'DROP DATABASE IF EXISTS $db' >/dev/null 2>&1 || true; rm -rf '$work'" EXIT
	psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION kernelindex"
}
