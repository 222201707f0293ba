#!/usr/bin/env bash
# make test-versions: every suite of `make test` on PostgreSQL 15, 16, 17 and
# 18, and the Debian packages built, installed where no build tool is, and
# their regression suites run; one table at the end.
#
#   major  where the suites run
#   15     this machine (Debian 12 bookworm's own PostgreSQL 15)
#   16     this machine, against a build from source installed under
#          $KIDX_PG16 (/var/cache/kernelindex/pg16), if there is one;
#          skipped otherwise (no current Debian suite ships PostgreSQL 16)
#   17     a Debian 13 trixie chroot (test/versions/chroot.sh)
#   18     a Debian forky chroot
#
# For 15, 17 and 18, the package postgresql-NN-kernelindex is built in the
# suite's build chroot (bookworm, trixie, forky) with dpkg-buildpackage -us
# -uc -b, installed with apt in a fresh copy of the suite's base chroot
# (debootstrap --variant=minbase and the server only: no compiler, no make,
# no server headers) and the pg_regress suites run against it.
#
# Each major builds and tests a copy of this work tree (git ls-files), so
# the tree itself is left as it was.  Environment:
#   KIDX_VERSIONS   majors to run (default "15 16 17 18")
#   KIDX_PACKAGES   0 skips the packages (default 1)
#   KIDX_SUITES     0 skips make test's suites, only the packages (default 1)
#   KIDX_SUITES_RUN majors whose suites ran already (CI: "15", run by make
#                   test just before); their suites are not run again, their
#                   row says so, and their packages are built and tested
#   KIDX_CHROOTS    where the chroots are kept (default
#                   /var/cache/kernelindex/chroots; built when absent)
#   KIDX_PG16       PostgreSQL 16's installation prefix
# Logs of the last run: $KIDX_VERSIONS_LOGS (/var/cache/kernelindex/logs);
# the packages it built: $KIDX_DEBS (/var/cache/kernelindex/debs).
# Last line: "test-versions: N passed, M failed, K skipped" (suites, over
# every major, each package's regression run counted as one suite).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
here=$top/test/versions
VERSIONS=${KIDX_VERSIONS:-15 16 17 18}
PACKAGES=${KIDX_PACKAGES:-1}
SUITES=${KIDX_SUITES:-1}
SUITES_RUN=" ${KIDX_SUITES_RUN:-} "
export KIDX_CHROOTS=${KIDX_CHROOTS:-/var/cache/kernelindex/chroots}
PG16=${KIDX_PG16:-/var/cache/kernelindex/pg16}
LOGS=${KIDX_VERSIONS_LOGS:-/var/cache/kernelindex/logs}
DEBS=${KIDX_DEBS:-/var/cache/kernelindex/debs}
export WERROR=${WERROR:-1}

log() { printf '== %s\n' "$*"; }

if [ "$(id -u)" != 0 ]; then
	echo "make test-versions needs root (debootstrap, chroot); run it as root" >&2
	exit 2
fi
command -v debootstrap >/dev/null 2>&1 || {
	log "installing debootstrap with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null 2>&1 ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; } ||
		{ echo "make test-versions: cannot install debootstrap" >&2; exit 2; }
}
mkdir -p "$LOGS"

# The Debian suite whose PostgreSQL is MAJOR ("" for none).
suite_of() {
	case $1 in
	15) echo bookworm ;;
	17) echo trixie ;;
	18) echo forky ;;
	*) echo "" ;;
	esac
}

# Copy the work tree (tracked and new files, nothing ignored) to DEST/kernelindex
# and the shared data beside it (DEST/shared), as the suites expect.
copy_tree() {
	local dest=$1
	rm -rf "$dest/kernelindex" "$dest/shared"
	mkdir -p "$dest/kernelindex"
	git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -x -C "$dest/kernelindex"
	if [ -d ../shared ]; then
		cp -r ../shared "$dest/shared"
		chmod -R u+w "$dest/shared"
	fi
}

# "N M K": suites passed, failed and TAP scripts skipped, from a run.sh log.
suite_counts() {
	local f=$1 p fl sk
	p=$(sed -n 's/^suites: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$f" | tail -n 1)
	fl=$(sed -n 's/^suites: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$f" | tail -n 1)
	sk=$(grep -cE '^ *[^ ]+\.pl +skipped: ' "$f")
	echo "${p:-0} ${fl:-1} ${sk:-0}"
}

# Seconds since the epoch.
now() { date +%s; }

# "Mm SSs" for a number of seconds.
dur() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

rows=()
total_pass=0
total_fail=0
total_skip=0

# Add one line to the table and to the totals.
row() {
	rows+=("$(printf '%-6s %-45s %6s %6s %7s  %-48s %s' "$@")")
}

# The suites of make test for MAJOR; prints "passed failed skipped".
run_suites() {
	local major=$1 suite=$2 logf=$3 pgc dir rc
	if [ -z "$suite" ]; then
		# on this machine, in a scratch copy
		if [ "$major" = 15 ]; then
			pgc=/usr/lib/postgresql/15/bin/pg_config
		else
			pgc=$PG16/bin/pg_config
		fi
		dir=$(mktemp -d /tmp/kidx-versions-$major.XXXXXX)
		copy_tree "$dir"
		(cd "$dir/kernelindex" && PG_CONFIG=$pgc bash test/run.sh test) >"$logf" 2>&1
		rc=$?
		rm -rf "$dir"
	else
		local c
		c=$(bash "$here/chroot.sh" ensure "$suite" 2>>"$logf") || { echo "0 1 0"; return; }
		copy_tree "$c/build"
		bash "$here/chroot.sh" run "$c" /bin/bash -c \
			"cd /build/kernelindex && PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config WERROR=$WERROR bash test/run.sh test" \
			>"$logf" 2>&1
		rc=$?
		rm -rf "$c/build"
	fi
	[ $rc -eq 0 ] || { echo "--- $logf (last lines)" >&2; tail -n 40 "$logf" >&2; }
	suite_counts "$logf"
}

# Build postgresql-MAJOR-kernelindex in SUITE's build chroot, install it in
# a fresh copy of SUITE's base chroot and run the pg_regress suites there.
# Prints the .deb's name and "passed" or "FAILED" (and a reason).
run_package() {
	local major=$1 suite=$2 logf=$3 c t deb regress
	c=$(bash "$here/chroot.sh" ensure "$suite" 2>>"$logf") || { echo "- FAILED(chroot)"; return; }
	rm -rf "$c/build"
	copy_tree "$c/build"
	rm -rf "$c/build/shared"
	# debian/control is generated for the suite's PostgreSQL (pg_buildext
	# updatecontrol: PG_UPDATECONTROL lets the build do it).
	if ! bash "$here/chroot.sh" run "$c" /bin/bash -c \
		"cd /build/kernelindex && PG_UPDATECONTROL=yes dpkg-buildpackage -us -uc -b" >"$logf" 2>&1; then
		tail -n 40 "$logf" >&2
		rm -rf "$c/build"
		echo "- FAILED(build)"
		return
	fi
	deb=$(cd "$c/build" && ls postgresql-"$major"-kernelindex_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		ls "$c/build" >>"$logf"
		rm -rf "$c/build"
		echo "- FAILED(no-postgresql-$major-kernelindex)"
		return
	fi
	t=$KIDX_CHROOTS/$suite-pkgtest
	bash "$here/chroot.sh" clone "$suite" "$t" 2>>"$logf"
	mkdir -p "$t/build/regress" "$DEBS"
	cp "$c/build/$deb" "$t/build/"
	# the last package built for each major, for a look or an install
	rm -f "$DEBS"/postgresql-"$major"-kernelindex_*.deb
	cp "$c/build/$deb" "$DEBS/"
	rm -rf "$c/build"
	# what pg_regress reads: the inputs, the expected output, the test data
	# (no source, no build product: the package is what is tested)
	tar -cf - --exclude='sql/kernelindex--*.sql' sql/*.sql expected test/data | tar -x -C "$t/build/regress"
	regress=$(sed -n 's/^REGRESS *= *//p' Makefile)
	if bash "$here/chroot.sh" run "$t" /bin/bash -c "
		set -e
		apt-get install -y -q -o APT::Install-Recommends=false /build/$deb
		for tool in gcc cc make; do
			! command -v \$tool >/dev/null || { echo \"\$tool is installed in the clean chroot\"; exit 1; }
		done
		[ ! -e /usr/include/postgresql/$major/server/postgres.h ] || { echo 'the server headers are installed in the clean chroot'; exit 1; }
		dpkg -L postgresql-$major-kernelindex | grep -E 'kernelindex(\\.so|\\.control|--.*\\.sql)\$'
		cd /build/regress
		chown -R postgres: .
		runuser -u postgres -- pg_virtualenv -v $major \
			/usr/lib/postgresql/$major/lib/pgxs/src/test/regress/pg_regress \
			--inputdir=. --bindir=/usr/lib/postgresql/$major/bin \
			--load-extension=kernelindex --dbname=contrib_regression $regress \
			|| { cat regression.diffs 2>/dev/null; exit 1; }
	" >>"$logf" 2>&1; then
		echo "$deb passed"
	else
		tail -n 60 "$logf" >&2
		echo "$deb FAILED(installcheck)"
	fi
	rm -rf "$t"
}

start_all=$(now)
for major in $VERSIONS; do
	suite=$(suite_of "$major")
	where=${suite:+Debian $suite chroot}
	[ "$major" = 15 ] && where="Debian bookworm, this machine"
	[ "$major" = 16 ] && where="$("$PG16/bin/pg_config" --version 2>/dev/null | cut -d' ' -f2) source build, this machine"
	if [ "$major" = 16 ] && [ ! -x "$PG16/bin/pg_config" ]; then
		log "PostgreSQL 16: skipped: no PostgreSQL 16 build in $PG16"
		row 16 "skipped: no PostgreSQL 16 build" - - - - -
		total_skip=$((total_skip + 1))
		continue
	fi
	if [ "$major" != 15 ] && [ "$major" != 16 ] && [ -z "$suite" ]; then
		echo "make test-versions: no Debian suite known for PostgreSQL $major" >&2
		row "$major" "unknown major" - - - - -
		total_fail=$((total_fail + 1))
		continue
	fi
	t0=$(now)
	log "PostgreSQL $major: suites ($where), log $LOGS/versions-$major-suites.log"
	chroot_suite=$suite
	[ "$major" = 15 ] && chroot_suite=""
	if [ "$SUITES" = 1 ] && [[ $SUITES_RUN == *" $major "* ]]; then
		log "PostgreSQL $major: suites run already (KIDX_SUITES_RUN), not again"
		p=- f=0 s=0
		where="$where (suites: make test)"
	elif [ "$SUITES" = 1 ]; then
		read -r p f s < <(run_suites "$major" "$chroot_suite" "$LOGS/versions-$major-suites.log")
		log "PostgreSQL $major: $p passed, $f failed, $s skipped ($(dur $(($(now) - t0))))"
	else
		p=- f=0 s=0
	fi
	[ "$p" = - ] || total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + s))
	pkg="-"
	if [ "$PACKAGES" = 1 ] && [ -n "$suite" ]; then
		t1=$(now)
		log "PostgreSQL $major: package in $suite, log $LOGS/versions-$major-package.log"
		pkg=$(run_package "$major" "$suite" "$LOGS/versions-$major-package.log" | tail -n 1)
		log "PostgreSQL $major: package: $pkg ($(dur $(($(now) - t1))))"
		case $pkg in
		*" passed") total_pass=$((total_pass + 1)) ;;
		*) total_fail=$((total_fail + 1)) ;;
		esac
	fi
	row "$major" "$where" "$p" "$f" "$s" "$pkg" "$(dur $(($(now) - t0)))"
done

echo
echo "== make test-versions ($(dur $(($(now) - start_all))))"
printf '%-6s %-45s %6s %6s %7s  %-48s %s\n' major "suites run on" passed failed skipped "package (installed, pg_regress run)" time
for r in "${rows[@]}"; do
	echo "$r"
done
echo
echo "test-versions: $total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
