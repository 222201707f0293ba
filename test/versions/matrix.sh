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
# For 15, 17 and 18, the package postgresql-NN-kernelindex is built with
# README's build lines in the suite's build chroot (bookworm, trixie, forky;
# with the suite's security archive, as a user's machine) from a clone of
# the tree under test, which must stay clean (git status --porcelain), and
# met as a DBA meets it (run_package): installed with apt where no build
# tool is (debootstrap --variant=minbase and the server only) on a server
# with the security archive, the pg_regress suites run against it; on a
# server without it; and built on a server behind its updates, where the
# build lines must upgrade nothing of PostgreSQL.
#
# Then pg_upgrade from 15 to 17 and from 17 to 18 of clusters holding
# kernelindex with data (test/versions/upgrade.sh), with Debian's servers
# of both majors and the packages built above in one chroot (trixie with
# bookworm's 15; forky with trixie's 17): the rows, documents and digests
# must read back the same, byte for byte.
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
#   KIDX_UPGRADES   the pg_upgrade rows, OLD-NEW:MODE (pg_upgrade's --copy,
#                   --link or --clone), default "15-17:link 17-18:copy"; 0
#                   for none.  A row is skipped unless this run built and
#                   passed both majors' packages
# Logs of the last run: $KIDX_VERSIONS_LOGS (/var/cache/kernelindex/logs);
# the packages it built: $KIDX_DEBS (/var/cache/kernelindex/debs).
# Last line: "test-versions: N passed, M failed, K skipped" (suites, over
# every major; each package's three installs, each pg_upgrade row and the
# work tree's git status counted as one each).
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
UPGRADES=${KIDX_UPGRADES-15-17:link 17-18:copy}
[ "$UPGRADES" != 0 ] || UPGRADES=""
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
pkglines=()
uplines=()
# The .deb built (and passed) in this run, for each major.
declare -A BUILT=()
status_before=$(git status --porcelain 2>/dev/null || echo "(not a git work tree)")
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
		: >"$logf"
		heartbeat "$major: suites" "$logf" \
			bash -c 'cd "$1/kernelindex" && PG_CONFIG=$2 bash test/run.sh test' _ "$dir" "$pgc"
		rc=$?
		rm -rf "$dir"
	else
		local c
		c=$(bash "$here/chroot.sh" ensure "$suite" 2>>"$logf") || { echo "0 1 0"; return; }
		copy_tree "$c/build"
		: >"$logf"
		heartbeat "$major: suites" "$logf" bash "$here/chroot.sh" run "$c" /bin/bash -c \
			"cd /build/kernelindex && PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config WERROR=$WERROR bash test/run.sh test"
		rc=$?
		rm -rf "$c/build"
	fi
	[ $rc -eq 0 ] || { echo "--- $logf (last lines)" >&2; tail -n 40 "$logf" >&2; }
	suite_counts "$logf"
}

# Run CMD... with its output appended to LOG; while it runs, print (on
# standard error) every BEAT seconds what it last said, so that nothing is
# silent for long.  Returns CMD's status.
BEAT=20
heartbeat() {
	local label=$1 logf=$2 pid rc=0 t0=$SECONDS last=$SECONDS said
	shift 2
	"$@" >>"$logf" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ $((SECONDS - last)) -ge "$BEAT" ]; then
			said=$(tail -c 4000 "$logf" | tr '\r' '\n' | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c 1-110)
			printf '   %s, %d s: %s\n' "$label" $((SECONDS - t0)) "$said" >&2
			last=$SECONDS
		fi
	done
	wait "$pid" || rc=$?
	return $rc
}

# The version of Debian package $2 installed in chroot $1 ("-" if none).
pkg_version() {
	chroot "$1" dpkg-query -W -f='${Version}' "$2" 2>/dev/null || echo -
}

# The PostgreSQL packages of major $2 installed in chroot $1, with versions.
pg_versions() {
	local p
	for p in postgresql-$2 postgresql-client-$2 postgresql-common libpq5; do
		printf '%s=%s ' "$p" "$(pkg_version "$1" "$p")"
	done
}

# README's build lines ("Install", "From the packages"), word for word: the
# build tools and the server headers of the PostgreSQL installed (so that
# nothing of PostgreSQL is upgraded), then dpkg-buildpackage in a copy of
# the clone ($b), so that the clone is left as it was.  The copy itself
# (git archive) is made outside the chroot, which has no git.
build_lines() {
	local pg=$1
	cat <<-EOF
		set -e
		pg=$pg
		v() { dpkg-query -W -f='\${Version}' "\$1"; }
		apt-get install -y -q --no-upgrade build-essential debhelper libssl-dev \\
		    "postgresql-server-dev-\$pg=\$(v postgresql-\$pg)" \\
		    "postgresql-server-dev-all=\$(v postgresql-common)" "libpq-dev=\$(v libpq5)"
		cd /build/pkg/kernelindex && PG_UPDATECONTROL=yes dpkg-buildpackage -us -uc -b
	EOF
}

# A clone of the tree under test in DIR/kernelindex (the work tree's files,
# committed in a repository of their own), and its export DIR/pkg/kernelindex
# (git archive, as README's build lines make it).
clone_and_export() {
	local dir=$1
	copy_tree "$dir"
	rm -rf "$dir/shared" "$dir/pkg"
	git -C "$dir/kernelindex" init -q
	git -C "$dir/kernelindex" add -A
	git -C "$dir/kernelindex" -c user.name=test-versions -c user.email=test-versions@localhost \
		commit -q -m "the tree under test"
	mkdir -p "$dir/pkg"
	git -C "$dir/kernelindex" archive --prefix=kernelindex/ HEAD | tar -x -C "$dir/pkg"
}

# Inside a chroot: CREATE EXTENSION kernelindex and two calls, on a
# throwaway cluster of major $1 (pg_virtualenv).
smoke_lines() {
	cat <<-EOF
		cd /tmp && runuser -u postgres -- pg_virtualenv -v $1 psql -X -q -v ON_ERROR_STOP=1 \\
		    -c 'CREATE EXTENSION kernelindex' \\
		    -c "SELECT kidx_canonical('{\"b\": 1e21, \"a\": [0.000001]}'), kidx_ms_to_ns('94.83366394042969')"
	EOF
}

# Build postgresql-MAJOR-kernelindex with README's build lines in SUITE's
# build chroot (a user's build machine: the security archive, up to date)
# from a clone of the tree under test, which must be left clean (git status
# --porcelain empty); then, as a DBA meets it:
#   - installed with apt on a server as a user's (a copy of SUITE-base with
#     SUITE's security archive, upgraded), and the pg_regress suites run;
#   - installed with apt on a server without the security archive (SUITE-base
#     as debootstrap and the main archive made it): it installs and CREATE
#     EXTENSION works, or apt refuses it for the server's version, which is
#     right only if the floor is needed: then, installed by force, its
#     library does not load on that server;
#   - built with README's build lines on a server behind its updates (the
#     security archive listed, nothing upgraded): nothing of PostgreSQL
#     is upgraded by them, and the package built there installs and loads.
# Prints "pkgline: ..." lines for the packages' table, "pkgcount: PASSED
# FAILED", and last the .deb's name and "passed" or "FAILED(why)".
run_package() {
	local major=$1 suite=$2 logf=$3 c t deb regress dep out why pass=0 fail=0 before after
	c=$(bash "$here/chroot.sh" ensure "$suite" 2>>"$logf") || { echo "- FAILED(chroot)"; return; }
	rm -rf "$c/build"
	clone_and_export "$c/build"
	# debian/control is generated for the suite's PostgreSQL (pg_buildext
	# updatecontrol: PG_UPDATECONTROL lets the build do it) in the export.
	if ! heartbeat "$major: package build" "$logf" \
		bash "$here/chroot.sh" run "$c" /bin/bash -c "$(build_lines "$major")"; then
		tail -n 40 "$logf" >&2
		rm -rf "$c/build"
		echo "- FAILED(build)"
		return
	fi
	deb=$(cd "$c/build/pkg" && ls postgresql-"$major"-kernelindex_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		ls "$c/build/pkg" >>"$logf"
		rm -rf "$c/build"
		echo "- FAILED(no-postgresql-$major-kernelindex)"
		return
	fi
	out=$(git -C "$c/build/kernelindex" status --porcelain)
	if [ -n "$out" ]; then
		echo "pkgline:   the clone after the build: git status --porcelain: $(echo "$out" | tr '\n' ' ') FAILED"
		fail=$((fail + 1))
	fi
	dep=$(dpkg-deb -f "$c/build/pkg/$deb" Depends)
	echo "pkgline: $deb  Depends: $dep"
	mkdir -p "$DEBS"
	# the last package built for each major, for a look, an install or pg_upgrade
	rm -f "$DEBS"/postgresql-"$major"-kernelindex_*.deb
	cp "$c/build/pkg/$deb" "$DEBS/"
	rm -rf "$c/build"

	# 1. a user's server: the security archive, up to date; pg_regress
	t=$KIDX_CHROOTS/$suite-pkgtest
	heartbeat "$major: package: a server with $suite-security" "$logf" bash "$here/chroot.sh" user "$suite" "$t"
	mkdir -p "$t/build/regress"
	cp "$DEBS/$deb" "$t/build/"
	# what pg_regress reads: the inputs, the expected output, the test data
	# (no source, no build product: the package is what is tested)
	tar -cf - --exclude='sql/kernelindex--*.sql' sql/*.sql expected test/data | tar -x -C "$t/build/regress"
	regress=$(sed -n 's/^REGRESS *= *//p' Makefile)
	if heartbeat "$major: package: installed, pg_regress" "$logf" bash "$here/chroot.sh" run "$t" /bin/bash -c "
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
	"; then
		echo "pkgline:   $suite with $suite-security, upgraded (postgresql-$major $(pkg_version "$t" "postgresql-$major")): installed, pg_regress passed"
		pass=$((pass + 1))
		why=""
	else
		tail -n 60 "$logf" >&2
		echo "pkgline:   $suite with $suite-security, upgraded (postgresql-$major $(pkg_version "$t" "postgresql-$major")): FAILED (install or pg_regress)"
		fail=$((fail + 1))
		why="FAILED(installcheck)"
	fi
	rm -rf "$t"

	# 2. a server without the security archive
	bash "$here/chroot.sh" clone "$suite" "$t" 2>>"$logf"
	mkdir -p "$t/build"
	cp "$DEBS/$deb" "$t/build/"
	local server
	server="postgresql-$major $(pkg_version "$t" "postgresql-$major")"
	if heartbeat "$major: package: a server without $suite-security" "$logf" bash "$here/chroot.sh" run "$t" \
		apt-get install -y -q -o APT::Install-Recommends=false "/build/$deb"; then
		if bash "$here/chroot.sh" run "$t" /bin/bash -c "$(smoke_lines "$major")" >>"$logf" 2>&1; then
			echo "pkgline:   $suite without $suite-security ($server): installed, CREATE EXTENSION works"
			pass=$((pass + 1))
		else
			echo "pkgline:   $suite without $suite-security ($server): installed, but CREATE EXTENSION FAILED"
			fail=$((fail + 1))
		fi
	else
		# apt refused it: right only if the package's library cannot work
		# on this server; installed by force, it must not load.
		local refused loaded
		refused=$(grep -E 'Depends: .* but .* is to be installed' "$logf" | tail -n 1 | sed 's/^ *//')
		bash "$here/chroot.sh" run "$t" dpkg --force-depends -i "/build/$deb" >>"$logf" 2>&1 || true
		loaded=$(bash "$here/chroot.sh" run "$t" /bin/bash -c "$(smoke_lines "$major")" 2>&1) \
			&& loaded=ok
		echo "$loaded" >>"$logf"
		if [ "$loaded" = ok ]; then
			echo "pkgline:   $suite without $suite-security ($server): refused by apt ($refused), yet it loads there when forced: the dependency is stricter than the library needs: FAILED"
			fail=$((fail + 1))
		else
			loaded=$(printf '%s\n' "$loaded" | grep -o 'undefined symbol: [A-Za-z_0-9]*' | head -n 1)
			echo "pkgline:   $suite without $suite-security ($server): refused by apt ($refused); rightly: installed by force, CREATE EXTENSION fails (${loaded:-its library does not load})"
			pass=$((pass + 1))
		fi
	fi
	rm -rf "$t"

	# 3. built on a server behind its updates with README's build lines
	heartbeat "$major: package: a server behind its updates" "$logf" bash "$here/chroot.sh" behind "$suite" "$t"
	clone_and_export "$t/build"
	before=$(pg_versions "$t" "$major")
	local built="" bdep=""
	if heartbeat "$major: package: built on a server behind its updates" "$logf" \
		bash "$here/chroot.sh" run "$t" /bin/bash -c "$(build_lines "$major")"; then
		built=$(cd "$t/build/pkg" && ls postgresql-"$major"-kernelindex_*.deb 2>/dev/null | head -n 1)
	fi
	if [ -n "$built" ]; then
		bdep=$(dpkg-deb -f "$t/build/pkg/$built" Depends | sed 's/,.*//')
		bash "$here/chroot.sh" run "$t" apt-get install -y -q -o APT::Install-Recommends=false \
			"/build/pkg/$built" >>"$logf" 2>&1 || built=""
	fi
	after=$(pg_versions "$t" "$major")
	server="postgresql-$major $(pkg_version "$t" "postgresql-$major")"
	if [ -z "$built" ]; then
		echo "pkgline:   built on $suite behind its updates ($server): build or install FAILED"
		fail=$((fail + 1))
	elif [ "$before" != "$after" ]; then
		echo "pkgline:   built on $suite behind its updates: the build lines upgraded PostgreSQL ($before -> $after): FAILED"
		fail=$((fail + 1))
	elif [ -n "$(git -C "$t/build/kernelindex" status --porcelain)" ]; then
		echo "pkgline:   built on $suite behind its updates: the clone is not clean after the build: FAILED"
		fail=$((fail + 1))
	elif bash "$here/chroot.sh" run "$t" /bin/bash -c "$(smoke_lines "$major")" >>"$logf" 2>&1; then
		echo "pkgline:   built on $suite behind its updates ($server): nothing of PostgreSQL upgraded, Depends: $bdep, installed, CREATE EXTENSION works"
		pass=$((pass + 1))
	else
		echo "pkgline:   built on $suite behind its updates ($server): CREATE EXTENSION FAILED"
		fail=$((fail + 1))
	fi
	rm -rf "$t"
	echo "pkgcount: $pass $fail"
	if [ -n "$why" ]; then
		echo "$deb $why"
	elif [ "$fail" -gt 0 ]; then
		echo "$deb FAILED(see below)"
	else
		echo "$deb passed"
	fi
}

# pg_upgrade from PostgreSQL OLD to NEW (test/versions/upgrade.sh) in a copy
# of the chroot NEW-with-OLD, with the packages of both majors that this
# run built.  Prints "upline: ..." and last "passed (...)" or "FAILED: why"
# or "skipped: why".
run_upgrade() {
	local old=$1 new=$2 mode=$3 logf=$4 os ns u t odeb ndeb res
	os=$(suite_of "$old")
	ns=$(suite_of "$new")
	odeb=${BUILT[$old]:-}
	ndeb=${BUILT[$new]:-}
	if [ -z "$os" ] || [ -z "$ns" ]; then
		echo "FAILED: no Debian suite for PostgreSQL $old or $new"
		return
	fi
	if [ -z "$odeb" ] || [ -z "$ndeb" ]; then
		echo "skipped: postgresql-$old-kernelindex and postgresql-$new-kernelindex not both built and passed in this run"
		return
	fi
	u=$(bash "$here/chroot.sh" upgrade "$ns" "$os" 2>>"$logf") || { echo "FAILED: the chroot $ns-with-$os"; return; }
	t=$KIDX_CHROOTS/$ns-with-$os-run
	bash "$here/chroot.sh" copy "$u" "$t"
	mkdir -p "$t/build/upgrade/data/records"
	cp "$odeb" "$ndeb" "$t/build/"
	cp "$here/upgrade.sh" "$t/build/"
	cp test/data/liger_sample.csv "$t/build/upgrade/data/"
	cp test/data/records/*.json "$t/build/upgrade/data/records/"
	[ ! -f ../shared/data/liger/all_benchmark_data.csv ] || cp ../shared/data/liger/all_benchmark_data.csv "$t/build/upgrade/data/"
	if ! bash "$here/chroot.sh" run "$t" apt-get install -y -q -o APT::Install-Recommends=false \
		"/build/$(basename "$odeb")" "/build/$(basename "$ndeb")" >>"$logf" 2>&1; then
		tail -n 30 "$logf" >&2
		rm -rf "$t"
		echo "FAILED: apt-get install of the two packages"
		return
	fi
	echo "upline: PostgreSQL $old $(pkg_version "$t" "postgresql-$old") and $new $(pkg_version "$t" "postgresql-$new") in a $ns chroot, $(basename "$odeb") and $(basename "$ndeb")"
	# its progress lines go to the terminal as they come, and to the log
	bash "$here/chroot.sh" run "$t" bash /build/upgrade.sh "$old" "$new" /build/upgrade "$mode" 2>&1 \
		| tee -a "$logf" | grep --line-buffered '^   ' >&2
	res=$(grep "^pg_upgrade $old->$new: " "$logf" | tail -n 1 | sed "s/^pg_upgrade $old->$new: //")
	rm -rf "$t"
	echo "${res:-FAILED: no result (log: $logf)}"
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
		: >"$LOGS/versions-$major-package.log"
		out=$(run_package "$major" "$suite" "$LOGS/versions-$major-package.log")
		pkg=$(printf '%s\n' "$out" | tail -n 1)
		log "PostgreSQL $major: package: $pkg ($(dur $(($(now) - t1))))"
		printf '%s\n' "$out" | sed -n 's/^pkgline: /   /p'
		if read -r pp pf < <(printf '%s\n' "$out" | sed -n 's/^pkgcount: //p'); then
			total_pass=$((total_pass + pp))
			total_fail=$((total_fail + pf))
		else
			total_fail=$((total_fail + 1))
		fi
		while IFS= read -r l; do pkglines+=("$l"); done < <(printf '%s\n' "$out" | sed -n 's/^pkgline: //p')
		case $pkg in
		*" passed") BUILT[$major]=$DEBS/${pkg% passed} ;;
		esac
	fi
	row "$major" "$where" "$p" "$f" "$s" "$pkg" "$(dur $(($(now) - t0)))"
done

# pg_upgrade between majors, with the packages built above.
for pair in $UPGRADES; do
	mode=${pair#*:}
	[ "$mode" != "$pair" ] || mode=copy
	old=${pair%%-*}
	new=${pair%%:*}
	new=${new#*-}
	t0=$(now)
	logf=$LOGS/versions-upgrade-$old-$new.log
	: >"$logf"
	log "pg_upgrade $old->$new (--$mode), log $logf"
	out=$(run_upgrade "$old" "$new" "$mode" "$logf")
	res=$(printf '%s\n' "$out" | tail -n 1)
	log "pg_upgrade $old->$new: $res ($(dur $(($(now) - t0))))"
	while IFS= read -r l; do uplines+=("$old->$new: $l"); done < <(printf '%s\n' "$out" | sed -n 's/^upline: //p')
	uplines+=("$old->$new: $res")
	where="pg_upgrade, Debian $(suite_of "$new") chroot ($old: $(suite_of "$old"))"
	case $res in
	passed*)
		total_pass=$((total_pass + 1))
		row "$old->$new" "$where" 1 0 0 "postgresql-$old/$new-kernelindex, --$mode: passed" "$(dur $(($(now) - t0)))"
		;;
	skipped*"instead: passed"*)
		# pg_upgrade cannot run between these servers (upgrade.sh's
		# control); the same checks passed with pg_dump | pg_restore
		total_skip=$((total_skip + 1))
		total_pass=$((total_pass + 1))
		row "$old->$new" "$where" 1 0 1 "pg_upgrade skipped (below); dump/restore passed" "$(dur $(($(now) - t0)))"
		;;
	skipped*)
		total_skip=$((total_skip + 1))
		row "$old->$new" "$where" - - 1 "skipped (below)" "$(dur $(($(now) - t0)))"
		;;
	*)
		total_fail=$((total_fail + 1))
		row "$old->$new" "$where" 0 1 0 "postgresql-$old/$new-kernelindex, --$mode: FAILED" "$(dur $(($(now) - t0)))"
		;;
	esac
done

# The work tree is as it was: every build and test ran in copies.
status_after=$(git status --porcelain 2>/dev/null || echo "(not a git work tree)")
if [ "$status_after" = "$status_before" ]; then
	tree="the work tree: git status --porcelain as before (${status_after:+not }empty)"
	total_pass=$((total_pass + 1))
else
	tree="the work tree: git status --porcelain changed while the matrix ran: FAILED"
	total_fail=$((total_fail + 1))
fi

echo
echo "== make test-versions ($(dur $(($(now) - start_all))))"
printf '%-6s %-45s %6s %6s %7s  %-48s %s\n' major "suites run on" passed failed skipped "package (installed, pg_regress run)" time
for r in "${rows[@]}"; do
	echo "$r"
done
if [ ${#pkglines[@]} -gt 0 ]; then
	echo
	echo "packages as a DBA meets them:"
	for r in "${pkglines[@]}"; do
		echo "  $r"
	done
fi
if [ ${#uplines[@]} -gt 0 ]; then
	echo
	echo "pg_upgrade:"
	for r in "${uplines[@]}"; do
		echo "  $r"
	done
fi
echo
echo "$tree"
echo
echo "test-versions: $total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
