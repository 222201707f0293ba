#!/usr/bin/env bash
# kernelindex test driver: `make test`, `make demo` and `make bench` land here.
#
#   test/run.sh test    install dependencies, build, install, start a
#                       throwaway cluster, run every suite, stop the cluster
#   test/run.sh demo    the same set-up, then the demo (test/demo.sh)
#   test/run.sh bench   the same set-up, then every benchmark under test/bench
#   test/run.sh tap [--runs N] [TEST...]
#                       the same set-up, then the TAP tests named (050 or
#                       050_load_mix for test/t/050_load_mix.pl; all when
#                       none are named), N times in a row (default 1)
#
# Works as root on a fresh Debian 12 machine (the server then runs as the
# "postgres" user) and as an ordinary user with sudo for apt-get.
#
# PG_CONFIG names the PostgreSQL to build, install and test with; its
# --bindir has the server binaries.  By default it is Debian's PostgreSQL 15,
# installed with apt-get when missing.
#
# Everything a run makes outside the clone goes into one folder,
# /tmp/kernelindex.XXXXXX: removed when everything passed, kept and named
# when something failed.  KIDX_* variables reach the TAP tests (for example
# KIDX_LOAD_MIX_SECONDS and KIDX_LOAD_MIX_CLIENTS of 050_load_mix.pl).
set -euo pipefail

mode=${1:-test}
[ $# -eq 0 ] || shift
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# PG_CONFIG picks the server (Debian's PostgreSQL 15 by default); its bindir
# comes first in PATH.  A pg_config outside /usr/lib/postgresql/NN (a build
# from source) means PostgreSQL's own packages are not installed with apt.
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
export PG_CONFIG
PGBIN=$("$PG_CONFIG" --bindir 2>/dev/null || dirname "$PG_CONFIG")
# (|| true: on a fresh machine pg_config is not there yet, and set -e would
# end the run here without a word.)
PGMAJOR=$("$PG_CONFIG" --version 2>/dev/null | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p' || true)
# (Before apt-get has installed it, the major version is read from the path.)
[ -n "$PGMAJOR" ] || PGMAJOR=$(printf '%s\n' "$PG_CONFIG" | sed -n 's|^/usr/lib/postgresql/\([0-9]*\)/.*|\1|p')
PGMAJOR=${PGMAJOR:-15}
export PATH="$PGBIN:$PATH"

# The PostgreSQL packages apt-get installs for PG_CONFIG: Debian's for a
# pg_config under /usr/lib/postgresql/NN, none for any other (a build from
# source brings its own).
pg_packages() {
	case $PG_CONFIG in
	/usr/lib/postgresql/*) echo "postgresql-$PGMAJOR postgresql-server-dev-$PGMAJOR" ;;
	esac
}

# "run.sh config": what a run would use, before anything is installed or
# made (test/sql/run_config.sh checks it on a machine without that server).
if [ "$mode" = config ]; then
	printf 'PG_CONFIG=%s\nPGBIN=%s\nPGMAJOR=%s\npackages=%s\n' \
		"$PG_CONFIG" "$PGBIN" "$PGMAJOR" "$(pg_packages)"
	exit 0
fi

# Seconds between two progress lines of a long, quiet step (apt-get, npm),
# and of a long TAP test.
BEAT=5
TAP_BEAT=30

log() { printf '== %s\n' "$*"; }

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		echo "run.sh: '$*' needs root, and sudo is not installed: run it as root once, then rerun" >&2
		return 1
	fi
}

# The server's user: postgres when we are root (PostgreSQL refuses root).
AS_PG=()
[ "$(id -u)" = 0 ] && AS_PG=(runuser -u postgres --)

# Run a command as the server's user from a directory that user can enter:
# initdb and pg_ctl complain (harmlessly, but it reads like an error) when
# they cannot change back into the caller's directory.
as_pg() {
	local dir=$1
	shift
	(cd "$dir" && "${AS_PG[@]}" "$@")
}

# Make a directory of the run's folder and give it to the server's user.
pg_dir() {
	mkdir -p "$1"
	chmod 755 "$1"
	[ "$(id -u)" != 0 ] || chown postgres: "$1"
}

WORK=$(mktemp -d /tmp/kernelindex.XXXXXX)
chmod 755 "$WORK"
# The JVM of the BI clients makes /tmp/hsperfdata_USER (and only empties it).
hsperf=/tmp/hsperfdata_$(id -un)
hsperf_ours=1
[ ! -e "$hsperf" ] || hsperf_ours=0

# Stop the throwaway cluster; remove the run's folder if the run succeeded.
CLUSTER_DIR=""
finish() {
	local rc=$?
	stop_cluster
	if [ "$rc" -eq 0 ]; then
		rm -rf "$WORK"
		[ "$hsperf_ours" = 0 ] || rmdir "$hsperf" 2>/dev/null || true
	elif ! rmdir "$WORK" 2>/dev/null; then
		echo "kept for inspection: $WORK"
	fi
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Read a long step's output on standard input (appending it to the log
# file, unless that is "") and print what the step is doing every BEAT
# seconds, so that nothing is silent for long.  Lines in APT's status-fd
# format become "downloading NN%" and "installing NN% (what)".
heartbeat() {
	local label=$1 file=$2 line news="starting" start=$SECONDS last=$SECONDS rc what
	while :; do
		rc=0
		IFS= read -r -t 1 line || rc=$?
		if [ "$rc" -le 128 ] && [ -n "$line" ]; then
			[ -z "$file" ] || printf '%s\n' "$line" >>"$file"
			if [[ $line =~ ^(dl|pm)status:.*:([0-9]+)(\.[0-9]*)?:(.*)$ ]]; then
				what=${BASH_REMATCH[4]}
				if [ "${BASH_REMATCH[1]}" = dl ]; then
					news="downloading ${BASH_REMATCH[2]}% (${what,})"
				else
					news="installing ${BASH_REMATCH[2]}% (${what,})"
				fi
			elif [[ $line =~ ^(pmerror|media-change): ]]; then
				news=$line
			elif [[ ! $line =~ ^pmconffile: ]] && [[ $line =~ [^[:space:]] ]]; then
				news=${line:0:100}
			fi
		fi
		[ "$rc" -eq 0 ] || [ "$rc" -gt 128 ] || break
		if [ $((SECONDS - last)) -ge "$BEAT" ]; then
			printf '   %s, %d s: %s\n' "$label" $((SECONDS - start)) "$news"
			last=$SECONDS
		fi
	done
}

# Install, with apt-get, the Debian packages named: a line every few
# seconds, a summary at the end, everything apt-get says in a log file.
apt_install() {
	local out=$WORK/apt-get.log start=$SECONDS n size
	log "installing with apt-get (Debian's registry):$*"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update 2>&1 \
		| heartbeat "apt-get update" "$out" \
		|| { tail -n 20 "$out"; echo "run.sh: apt-get update failed (log: $out)" >&2; return 1; }
	# APT's status lines on fd 3, to heartbeat; its own output to the log.
	# shellcheck disable=SC2016
	as_root env DEBIAN_FRONTEND=noninteractive bash -c \
		'exec 3>&1 >>"$0" 2>&1; exec apt-get install -y -o APT::Status-Fd=3 "$@"' "$out" "$@" \
		| heartbeat apt-get "" \
		|| { tail -n 30 "$out"; echo "run.sh: apt-get install failed (log: $out)" >&2; return 1; }
	n=$(sed -n 's/^[0-9]* upgraded, \([0-9]*\) newly installed.*/\1/p' "$out" | tail -n 1)
	size=$(sed -n 's/^Need to get \([0-9.,]* [kMG]*B\).*/\1/p' "$out" | tail -n 1)
	echo "apt-get: ${n:-?} packages installed (${size:-nothing} downloaded) in $((SECONDS - start)) s"
}

# Install every Debian package the build and the suites need, and the
# npm package of the oracle suite (test mode only).
install_dependencies() {
	local pkgs
	pkgs="$(pg_packages) libssl-dev make gcc clang"
	pkgs="$pkgs libipc-run-perl nodejs npm python3-psycopg python3-psycopg2
		default-jdk-headless libpostgresql-jdbc-java unixodbc odbc-postgresql
		python3-pyodbc valgrind python3-scipy python3-numpy"
	local missing="" p
	for p in $pkgs; do
		# npm ships with some Node.js builds; accept any working npm.
		if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
		if [ "$p" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
			|| missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		# shellcheck disable=SC2086
		apt_install $missing
		for p in $missing; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
				|| { echo "run.sh: apt-get could not install $p (log: $WORK/apt-get.log)" >&2; return 1; }
		done
	fi
	if ! command -v "$PG_CONFIG" >/dev/null 2>&1; then
		echo "run.sh: PG_CONFIG=$PG_CONFIG: no such program" >&2
		return 1
	fi
	if [ "$mode" = test ] && [ ! -f test/oracle/node_modules/canonicalize/package.json ]; then
		local out=$WORK/npm.log start=$SECONDS
		log "installing the oracle's npm package canonicalize (npm registry)"
		# npm's cache and logs in the run's folder, not in ~/.npm.
		(cd test/oracle && npm_config_cache=$WORK/npm-cache npm ci --no-audit --no-fund --loglevel=http 2>&1) \
			| heartbeat npm "$out" \
			|| { tail -n 20 "$out"; echo "run.sh: npm ci failed in test/oracle (log: $out)" >&2; return 1; }
		echo "npm: canonicalize installed in $((SECONDS - start)) s"
	fi
}

# A copy of the PostgreSQL installation of PG_CONFIG (its programs,
# libraries and shared files, at their paths under the folder $1), as
# PostgreSQL's own "make check" makes one: its server finds its libraries
# and extensions under the folder, not where PG_CONFIG's are.
pg_tree() {
	local tree=$1 d
	for d in "$("$PG_CONFIG" --bindir)" "$("$PG_CONFIG" --pkglibdir)" "$("$PG_CONFIG" --sharedir)"; do
		mkdir -p "$tree$(dirname "$d")"
		cp -a "$d" "$tree$(dirname "$d")/"
	done
}

# Build (with -Werror) and install into TREE, the run's own copy of the
# PostgreSQL installation, whose programs the suites run: a run changes
# nothing in the PostgreSQL installed on the machine (a kernelindex
# installed there stays as it is), and runs in two clones do not meet.
TREE=$WORK/install
build_and_install() {
	log "building"
	make -s
	log "installing into a copy of the PostgreSQL installation ($TREE)"
	pg_tree "$TREE"
	make -s install DESTDIR="$TREE" >/dev/null
}

# The releases of doc/CHANGELOG.md, each built from its commit (its tag
# v<version> where the clone has it, else the commit the CHANGELOG names)
# and installed into a copy of the PostgreSQL installation of its own, for
# the upgrade test (test/t/080_upgrade.pl): KIDX_RELEASES lists them,
# KIDX_RELEASE_TREES/<version> holds each (owned by the server's user: the
# test installs the new version's files over the release's, as a package
# upgrade does; install_path names its PostgreSQL).  A release is built as
# a packager builds it (without -Werror: an older release meets newer
# compilers).
release_trees() {
	local v commit dir
	KIDX_RELEASES=""
	KIDX_RELEASE_TREES=$WORK/releases
	export KIDX_RELEASES KIDX_RELEASE_TREES
	if ! git rev-parse --git-dir >/dev/null 2>&1; then
		echo "run.sh: not a git clone: no release is built, and the upgrade test says it skipped"
		return 0
	fi
	mkdir -p "$KIDX_RELEASE_TREES"
	while read -r v commit; do
		if git rev-parse -q --verify "v$v^{commit}" >/dev/null 2>&1; then
			commit=v$v
		elif ! git rev-parse -q --verify "$commit^{commit}" >/dev/null 2>&1; then
			echo "run.sh: release $v: neither tag v$v nor commit $commit is in this clone (a shallow clone?)" >&2
			return 1
		fi
		log "building release $v (from $commit) for the upgrade test"
		dir=$KIDX_RELEASE_TREES/src-$v
		mkdir -p "$dir"
		git archive "$commit" | tar -x -C "$dir"
		make -s -C "$dir" WERROR=0 >"$dir.log" 2>&1 || { cat "$dir.log"; return 1; }
		pg_tree "$KIDX_RELEASE_TREES/$v"
		make -s -C "$dir" install DESTDIR="$KIDX_RELEASE_TREES/$v" >>"$dir.log" 2>&1 || { cat "$dir.log"; return 1; }
		echo "$KIDX_RELEASE_TREES/$v$(dirname "$("$PG_CONFIG" --bindir)")" >"$KIDX_RELEASE_TREES/$v/install_path"
		[ "$(id -u)" != 0 ] || chown -R postgres: "$KIDX_RELEASE_TREES/$v"
		rm -rf "$dir"
		KIDX_RELEASES="$KIDX_RELEASES $v"
	done < <(sed -n 's/^- \*\*\([0-9.]*\)\*\* ([^)]*tag `v[0-9.]*`, commit `\([0-9a-f]*\)`.*/\1 \2/p' doc/CHANGELOG.md)
	KIDX_RELEASES=${KIDX_RELEASES# }
}

# Start a throwaway cluster in the run's folder on a free port; export the
# libpq variables that point at it.
start_cluster() {
	CLUSTER_DIR=$WORK/cluster
	pg_dir "$CLUSTER_DIR"
	# Local connections trust the OS user; TCP asks for a password, as a
	# BI tool's connection does.
	as_pg "$CLUSTER_DIR" initdb -D "$CLUSTER_DIR/data" --auth-local=trust \
		--auth-host=scram-sha-256 -U postgres -E UTF8 \
		--locale=C.UTF-8 --no-sync >"$WORK/initdb.log" 2>&1 \
		|| { cat "$WORK/initdb.log"; return 1; }
	cat >>"$CLUSTER_DIR/data/postgresql.conf" <<-EOF
		listen_addresses = '127.0.0.1'
		unix_socket_directories = '$CLUSTER_DIR'
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		shared_buffers = 256MB
		max_wal_size = 4GB
		work_mem = 64MB
		maintenance_work_mem = 512MB
		lc_messages = 'C'
	EOF
	local port tries=0 mem
	# A server process may use at most half the machine's memory: a
	# statement that would take more fails with "out of memory" (53200)
	# instead of the kernel's OOM killer taking the machine's processes.
	mem=$(awk '/^MemTotal:/ { print int($2 / 2) }' /proc/meminfo)
	while :; do
		port=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			if (ulimit -v "$mem" && as_pg "$CLUSTER_DIR" pg_ctl -D "$CLUSTER_DIR/data" -o "-p $port" \
				-l "$CLUSTER_DIR/server.log" -w -s start); then
				break
			fi
		fi
		tries=$((tries + 1))
		[ $tries -lt 20 ] || { cat "$CLUSTER_DIR/server.log"; return 1; }
	done
	export PGHOST="$CLUSTER_DIR" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
	log "throwaway cluster on port $port in $CLUSTER_DIR"
}

# Stop the throwaway cluster (its folder stays until finish()).
stop_cluster() {
	[ -n "$CLUSTER_DIR" ] || return 0
	as_pg "$CLUSTER_DIR" pg_ctl -D "$CLUSTER_DIR/data" -m immediate -w -s stop >/dev/null 2>&1 || true
	CLUSTER_DIR=""
}

# The entries of a server log from byte $2 on with the levels of $4
# (default ERROR|FATAL|PANIC), or telling of a crashed server process, each
# with the DETAIL, HINT, CONTEXT and STATEMENT lines that follow it: the
# first and the last $3 of them, and how many there are.
log_errors() {
	local file=$1 from=$2 max=$3 levels=${4:-ERROR|FATAL|PANIC}
	tail -c +"$((from + 1))" "$file" | awk -v max="$max" -v file="$file" -v levels="$levels" '
		function flush() { if (cur != "") { n++; if (n <= max) first[n] = cur; last[n % max] = cur; cur = "" } }
		$0 ~ ("(" levels "):  ") || /LOG:  .* terminated by (signal|exception)/ { flush(); cur = $0; next }
		cur != "" && (/^\t/ || /(DETAIL|HINT|CONTEXT|STATEMENT|LOCATION):  /) { cur = cur "\n" $0; next }
		{ flush() }
		END {
			flush()
			if (n == 0) { print "    (none in " file ")"; exit }
			print "    " n " in " file (n > 2 * max ? ", the first and the last " max ":" : ":")
			for (i = 1; i <= n && i <= max; i++) print first[i]
			if (n > 2 * max) print "    ..."
			for (i = (n > 2 * max ? n - max + 1 : max + 1); i <= n; i++) print last[i % max]
		}'
}

passed=0
failed=0
failures=""
# What a failing suite adds to the report at the end (regression diffs, TAP
# diagnostics); every suite that fails gets its server log errors there.
DETAILS=""

# Run a command that prints little (the unit and valgrind suites) with a
# line every TAP_BEAT seconds while it runs, as the TAP tests have: its
# output goes to the terminal as it comes, and the progress line names the
# last line it printed.
beating() {
	local label=$1 out pid tpid start=$SECONDS last=$SECONDS rc=0 now
	shift
	out=$WORK/$label.out
	: >"$out"
	"$@" >"$out" 2>&1 &
	pid=$!
	tail -n +1 -f --pid="$pid" "$out" &
	tpid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ $((SECONDS - last)) -ge "$TAP_BEAT" ]; then
			now=$(tail -n 1 "$out")
			[ -n "$now" ] || now="(nothing yet)"
			printf '   %-24s running, %d s, last line: %s\n' "$label" \
				$((SECONDS - start)) "${now:0:80}"
			last=$SECONDS
		fi
	done
	wait "$pid" || rc=$?
	# (tail ends within a second of the command: --pid.)
	wait "$tpid" || true
	rm -f "$out"
	return "$rc"
}

# Run one suite; count it and keep going whatever its result.  KIDX_ONLY
# (names separated by spaces, e.g. "regress change_points tap") runs only
# the suites it names; unset, every suite runs.
suite() {
	if [ -n "${KIDX_ONLY:-}" ] && [[ " $KIDX_ONLY " != *" $1 "* ]]; then
		return 0
	fi
	log "suite $1"
	check "$@"
}

# Run a command as the check named $1: count it; if it fails, write why
# to the report (what the command added to $DETAILS, the errors the
# throwaway cluster logged meanwhile).  LAST_OK says whether it passed.
LAST_OK=1
check() {
	local name=$1 from=0
	shift
	mkdir -p "$WORK/failed"
	DETAILS=$WORK/failed/$(printf '%02d' $((passed + failed)))-$name.txt
	[ -z "$CLUSTER_DIR" ] || from=$(stat -c %s "$CLUSTER_DIR/server.log")
	if "$@"; then
		passed=$((passed + 1))
		LAST_OK=1
		rm -f "$DETAILS"
		return 0
	fi
	failed=$((failed + 1))
	failures="$failures $name"
	LAST_OK=0
	{
		echo "--- $name failed (its output is above)"
		[ ! -f "$DETAILS" ] || cat "$DETAILS"
		if [ -n "$CLUSTER_DIR" ] && [ "$name" = regress ]; then
			# (pg_regress's diff shows every ERROR its tests got.)
			echo "--- FATAL and PANIC entries of the throwaway cluster's log while $name ran:"
			log_errors "$CLUSTER_DIR/server.log" "$from" 5 'FATAL|PANIC'
		elif [ -n "$CLUSTER_DIR" ]; then
			echo "--- ERROR, FATAL and PANIC entries of the throwaway cluster's log while $name ran (suites provoke some on purpose):"
			log_errors "$CLUSTER_DIR/server.log" "$from" 5
		fi
	} >"$DETAILS.tmp"
	mv "$DETAILS.tmp" "$DETAILS"
}

# pg_regress over every REGRESS test of the Makefile.  Its outputs
# (results/, regression.out, regression.diffs) are in the clone, where the
# tests' \copy finds results/: removed when they pass.  (The sub-make's own
# "*** [...] Error 1" line is left out: the diff says more.)
regress() {
	local rc=0
	rm -rf results regression.out regression.diffs
	{ make -s installcheck 2>&1 1>&3 3>&- \
		| { grep -v -E '^make(\[[0-9]+\])?: \*\*\* \[.*installcheck\] Error' >&2 || true; }; } 3>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		rm -rf results regression.out regression.diffs
		return 0
	fi
	if [ -s regression.diffs ]; then
		echo "--- regression.diffs, the first 200 lines (all of it: $top/regression.diffs; outputs: $top/results):"
		head -n 200 regression.diffs
	fi >>"$DETAILS"
	return 1
}

# Why a TAP test failed: its diagnostics, its servers' errors, where it all is.
tap_explain() {
	local dir=$1 name=$2 out=$1/$2.out f
	echo "--- TAP test $name.pl failed: prove -v without its passing \"ok\" lines (all of it: $out):"
	if [ "$(grep -c -v -E '^ok [0-9]+' "$out")" -le 150 ]; then
		grep -v -E '^ok [0-9]+' "$out"
	else
		echo "    (only each failure with the 15 lines before it and its diagnostics)"
		grep -v -E '^ok [0-9]+' "$out" | grep -B 15 -A 6 -E '^not ok|^Bail ?out|Bailout called|^# Looks like' | sed -n 1,150p
	fi
	echo "--- ERROR, FATAL and PANIC entries of its servers' logs:"
	for f in "$dir"/tmp_check/log/"$name"_*.log; do
		if [ -e "$f" ]; then log_errors "$f" 0 10; else echo "    (it started no server)"; fi
	done
	echo "--- its logs and clusters: $dir/tmp_check (regress_log_$name: every command it ran)"
}

# TAP tests under test/t (all, or those named), run one by one as the
# server's user in a scratch folder of the run's folder ($1).  The tests and
# their data are copied there: the clone may sit where that user cannot
# read (under /root, say).
tap() {
	local dir=$1 pgxs_dir perl_lib t name rc=0 trc start envs=() v pid last oks nok why
	shift
	pgxs_dir=$(dirname "$("$PG_CONFIG" --pgxs)")/..
	perl_lib=$(cd "$pgxs_dir/test/perl" && pwd)
	pg_dir "$dir"
	mkdir -p "$dir/top/test" "$dir/tmp"
	cp -r test/t test/data test/harnesses "$dir/top/test/"
	cp -r README.md doc "$dir/top/"
	[ ! -d ../shared ] || cp -r ../shared "$dir/shared"
	chmod -R a+rX "$dir"
	[ "$(id -u)" != 0 ] || chown -R postgres: "$dir"
	for v in $(compgen -e); do
		case $v in KIDX_*) envs+=("$v=${!v}") ;; esac
	done
	for t in "$@"; do
		name=$(basename "$t" .pl)
		start=$SECONDS
		trc=0
		# TMPDIR: PostgreSQL::Test's socket folders, kept if a test fails.
		# TESTDIR is what PostgreSQL 15's test modules read, TESTDATADIR and
		# TESTLOGDIR what 16 and later read (else they use relative paths).
		as_pg "$dir" env PATH="$PATH" TMPDIR="$dir/tmp" TESTDIR="$dir" \
			TESTDATADIR="$dir/tmp_check" TESTLOGDIR="$dir/tmp_check/log" \
			PG_REGRESS="$pgxs_dir/test/regress/pg_regress" \
			KIDX_TOP="$dir/top" KIDX_SHARED="$dir/shared" "${envs[@]}" \
			prove -v --merge -I "$perl_lib" "$dir/top/test/t/$name.pl" >"$dir/$name.out" 2>&1 &
		pid=$!
		last=$SECONDS
		# A line every TAP_BEAT seconds while a long test runs.
		while kill -0 "$pid" 2>/dev/null; do
			sleep 1
			if [ $((SECONDS - last)) -ge "$TAP_BEAT" ]; then
				# (The test's own log has its TAP lines at once; prove's output comes in blocks.)
				oks=$(grep -s -c -E '^(\[[^]]*\]\([^)]*\) )?ok [0-9]+' "$dir/tmp_check/log/regress_log_$name" || true)
				printf '   %-24s running, %d s, %s tests passed so far\n' "$name.pl" \
					$((SECONDS - start)) "${oks:-0}"
				last=$SECONDS
			fi
		done
		wait "$pid" || trc=$?
		if [ "$trc" -eq 0 ] && grep -q '\.pl \.\. skipped: ' "$dir/$name.out"; then
			printf '   %-24s skipped: %s\n' "$name.pl" "$(sed -n 's/.*\.pl \.\. skipped: //p' "$dir/$name.out" | sed -n 1p)"
		elif [ "$trc" -eq 0 ]; then
			printf '   %-24s ok, %s tests, %d s\n' "$name.pl" \
				"$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$dir/$name.out")" $((SECONDS - start))
		else
			rc=1
			nok=$(grep -c -E '^not ok' "$dir/$name.out" || true)
			if [ "$nok" -gt 0 ]; then
				why="$nok failed tests, the first: $(grep -m 1 -E '^not ok' "$dir/$name.out")"
			else
				why=$(grep -m 1 -E '^Bail ?out|Bailout called' "$dir/$name.out" || echo "it died (see below)")
			fi
			printf '   %-24s FAILED after %d s: %s\n' "$name.pl" $((SECONDS - start)) "$why"
			tap_explain "$dir" "$name" >>"$DETAILS"
		fi
	done
	return $rc
}

# The TAP tests named ("050", "050_load_mix"; all when none), as files.
tap_files() {
	local n f found
	if [ $# -eq 0 ]; then
		ls test/t/*.pl
		return
	fi
	for n in "$@"; do
		found=""
		for f in test/t/"${n%.pl}"*.pl; do
			[ -e "$f" ] && found="$found $f"
		done
		[ -n "$found" ] || { echo "run.sh: no TAP test test/t/$n*.pl" >&2; return 1; }
		echo "${found# }"
	done
}

# The BI views through psycopg2, JDBC and ODBC, over TCP with a password,
# as a read-only role: a database with the sample rows for them.
bi_clients() {
	local password
	password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	psql -X -q -v ON_ERROR_STOP=1 -d postgres <<-SQL || return 1
		CREATE DATABASE kidx_clients;
		CREATE ROLE kidx_bi LOGIN PASSWORD '$password';
		GRANT CONNECT ON DATABASE kidx_clients TO kidx_bi;
	SQL
	psql -X -q -v ON_ERROR_STOP=1 -d kidx_clients <<-SQL || return 1
		CREATE EXTENSION kernelindex;
		\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
		GRANT USAGE ON SCHEMA kernelindex TO kidx_bi;
		GRANT SELECT ON ALL TABLES IN SCHEMA kernelindex TO kidx_bi;
	SQL
	# psqlODBC 13.02 writes psqlodbc_<program><user><pid>.log on every
	# disconnect, in /tmp unless its odbcinst.ini section names a Logdir:
	# one in the run's folder (the client names the driver file, so it
	# needs no other entry).
	mkdir -p "$WORK/odbc"
	printf '[PostgreSQL Unicode]\nLogdir = %s\n' "$WORK/odbc" >"$WORK/odbc/odbcinst.ini"
	ODBCSYSINI=$WORK/odbc KIDX_HOST=127.0.0.1 KIDX_PORT=$PGPORT KIDX_DB=kidx_clients \
		KIDX_USER=kidx_bi KIDX_PASSWORD=$password bash test/clients/run_bi_clients.sh
}

# The report at the end: why each failed suite ($1: or run) failed, then the counts.
report() {
	local what=${1:-suites}
	echo
	if [ -n "$failures" ]; then
		log "what failed, and why"
		cat "$WORK"/failed/*.txt
		echo
		echo "failed $what:$failures"
	fi
	echo "$what: $passed passed, $failed failed"
}

if [ "$mode" = tap ]; then
	runs=1
	if [ "${1:-}" = --runs ]; then
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --runs needs a number" >&2; exit 2; }
		runs=$2
		shift 2
	fi
	files=$(tap_files "$@")
fi
install_dependencies
build_and_install
# What the suites write to temporary files lands in the run's folder.
mkdir -p "$WORK/tmp"
chmod 1777 "$WORK/tmp"
export TMPDIR=$WORK/tmp
PATH="$TREE$("$PG_CONFIG" --bindir):$PATH"
export PATH

case "$mode" in
test)
	[ -d test/unit ] && suite unit beating unit make -s -C test/unit check
	[ -d test/unit ] && suite valgrind beating valgrind make -s -C test/unit valgrind
	start_cluster
	suite regress regress
	# Script suites get a database of their own with the extension created.
	psql -X -q -d postgres -c "CREATE DATABASE kidx_suites"
	psql -X -q -d kidx_suites -c "CREATE EXTENSION kernelindex"
	export PGDATABASE=kidx_suites
	[ -x test/oracle/run.sh ] && suite oracle test/oracle/run.sh
	for s in test/sql/*.sh; do
		[ -e "$s" ] && suite "$(basename "$s" .sh)" bash "$s"
	done
	suite hostile bash test/hostile/run.sh
	suite psycopg /usr/bin/python3 test/clients/psycopg_client.py
	suite bi_clients bi_clients
	# (The releases are for the TAP upgrade test: built only when tap runs.)
	if [ -z "${KIDX_ONLY:-}" ] || [[ " $KIDX_ONLY " == *" tap "* ]]; then
		check releases release_trees
	fi
	# shellcheck disable=SC2046
	compgen -G "test/t/*.pl" >/dev/null && suite tap tap "$WORK/tap" $(tap_files)
	stop_cluster
	report
	[ "$failed" -eq 0 ]
	;;
tap)
	# shellcheck disable=SC2086
	! grep -q KIDX_RELEASES $files || check releases release_trees
	for i in $(seq 1 "$runs"); do
		[ "$runs" -eq 1 ] || log "run $i of $runs"
		# shellcheck disable=SC2086
		check "tap.$i" tap "$WORK/tap.$i" $files
		[ "$LAST_OK" = 0 ] || rm -rf "$WORK/tap.$i"
	done
	report runs
	[ "$failed" -eq 0 ]
	;;
demo)
	start_cluster
	check demo bash test/demo.sh
	[ "$failed" -eq 0 ] || { report; exit 1; }
	;;
bench)
	start_cluster
	# Every benchmark on each data shape, then one table (test/bench/bench.sh).
	bash test/bench/bench.sh
	;;
*)
	echo "usage: $0 test|demo|bench|config|tap [--runs N] [TEST...]" >&2
	exit 2
	;;
esac
