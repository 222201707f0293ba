#!/usr/bin/env bash
# Debian chroots for the version matrix (make test-versions), built from the
# Debian archive with debootstrap when absent, reused when present.
#
#   test/versions/chroot.sh ensure SUITE     build SUITE's chroots if absent;
#                                            print the build chroot's path
#   test/versions/chroot.sh run DIR CMD...   run CMD inside chroot DIR (as root)
#   test/versions/chroot.sh base SUITE       build SUITE's base chroot if absent
#   test/versions/chroot.sh clone SUITE DIR  a fresh copy of SUITE's base chroot
#   test/versions/chroot.sh user SUITE DIR   the same with SUITE's security
#                                            archive, brought up to date from it
#   test/versions/chroot.sh behind SUITE DIR the same with the security archive
#                                            listed but nothing upgraded yet
#   test/versions/chroot.sh upgrade NEW OLD  build NEW-with-OLD if absent (for
#                                            pg_upgrade); print its path
#   test/versions/chroot.sh copy SRC DIR     a fresh copy of the chroot SRC
#   test/versions/chroot.sh major SUITE      the PostgreSQL major SUITE ships
#
# SUITE is bookworm (PostgreSQL 15), trixie (17) or forky (18).  Chroots
# under $KIDX_CHROOTS (/var/cache/kernelindex/chroots):
#   SUITE-base   debootstrap --variant=minbase and the server (postgresql-NN)
#                only, from SUITE's main archive (no security archive):
#                copied for each package-install test, so that the package
#                is installed where no build tool is
#   SUITE        a copy of SUITE-base with SUITE's security archive (upgraded
#                from it, as a user's machine is), what dpkg-buildpackage
#                needs and, for trixie and forky, everything test/run.sh's
#                suites need (the packages it installs; 15's suites run on
#                this machine)
#   NEW-with-OLD for pg_upgrade from OLD's major to NEW's: NEW-base with
#                NEW's security archive, and OLD's archive and security
#                archive at apt priority 100 (nothing comes from them but
#                what NEW lacks), and postgresql-OLD installed from them
#                (trixie-with-bookworm: 15 and 17; forky-with-trixie: 17
#                and 18)
# A chroot that lacks a package added to these lists later gets it with apt
# the next time (not rebuilt).
# Mounts (/proc, /dev, /dev/shm) live in a private mount namespace of each
# `run`, so none is left behind on the host whatever happens.
set -euo pipefail

ROOT=${KIDX_CHROOTS:-/var/cache/kernelindex/chroots}
MIRROR=${KIDX_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY=${KIDX_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

log() { printf '== %s\n' "$*" >&2; }

# The PostgreSQL major that SUITE ships.
suite_major() {
	case $1 in
	bookworm) echo 15 ;;
	trixie) echo 17 ;;
	forky) echo 18 ;;
	*) echo "chroot.sh: no PostgreSQL major known for suite $1" >&2; return 1 ;;
	esac
}

# Run a command inside a chroot, with /proc, /dev and /dev/shm mounted in a
# mount namespace of its own and the host's resolver and CA certificates.
run_in() {
	local dir=$1
	shift
	cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
	# Every apt-get in the chroot (test/run.sh's own too) takes a testing
	# suite's Release file past its Valid-Until date, as apt_in does (the
	# forky chroot's was 26 days past it on 2026-12-02).
	[ ! -d "$dir/etc/apt/apt.conf.d" ] ||
		echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/99kernelindex-valid-until"
	unshare --mount --propagation private -- /bin/bash -c '
		set -e
		d=$1; shift
		mount -t proc proc "$d/proc"
		mount --rbind /dev "$d/dev"
		mount --make-rslave "$d/dev"
		mount -t tmpfs -o size=2g,mode=1777 shm "$d/dev/shm"
		exec chroot "$d" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
			DEBIAN_FRONTEND=noninteractive "$@"' _ "$dir" "$@"
}

# apt-get inside a chroot; a testing suite's Release file may be past its
# Valid-Until date in a mirror snapshot, which apt would otherwise refuse.
apt_in() {
	local dir=$1
	shift
	run_in "$dir" apt-get -q -y -o Acquire::Check-Valid-Until=false \
		-o APT::Install-Recommends=false "$@"
}

# The server packages of SUITE's major (the base chroot).
base_packages() {
	local m=$1
	echo "postgresql-$m postgresql-client-$m ca-certificates"
}

# What the Debian package's build needs (debian/control.in's
# Build-Depends and dpkg-buildpackage).
package_packages() {
	local m=$1
	echo "postgresql-server-dev-$m postgresql-server-dev-all build-essential
		debhelper dpkg-dev libssl-dev"
}

# Add SUITE's security archive to the apt sources of chroot DIR.
add_security() {
	local suite=$1 dir=$2
	echo "deb $SECURITY $suite-security main" >"$dir/etc/apt/sources.list.d/security.list"
}

# Bring chroot DIR up to date from its sources (as a user's machine is
# kept); apt's output in LOG.
upgrade_in() {
	local dir=$1 logf=$2
	apt_in "$dir" update >>"$logf" 2>&1 || { [ ! -f "$logf" ] || tail -n 30 "$logf" >&2; return 1; }
	apt_in "$dir" dist-upgrade >>"$logf" 2>&1 || { [ ! -f "$logf" ] || tail -n 30 "$logf" >&2; return 1; }
}

# Everything the packaging and test/run.sh's suites need (test/run.sh's
# install_dependencies, for major M).  bookworm's chroot only builds the
# package: PostgreSQL 15's suites run on this machine (Debian 12).
build_packages() {
	local suite=$1 m=$2
	package_packages "$m"
	[ "$suite" = bookworm ] && return 0
	echo "make gcc clang libipc-run-perl nodejs npm python3 python3-psycopg
		python3-psycopg2 default-jdk-headless libpostgresql-jdbc-java unixodbc
		odbc-postgresql python3-pyodbc valgrind"
}

# Give the build chroot SUITE's security archive, bring it up to date from
# it and install what build_packages lists, unless that was done with this
# list (a chroot built by an older version of this script is brought up to
# date, not rebuilt).
top_up() {
	local suite=$1 m=$2 dir=$3 want
	want="$(build_packages "$suite" "$m" | tr -s ' \t\n' ' ')+$suite-security"
	[ "$(cat "$dir/.kidx-packages" 2>/dev/null)" = "$want" ] && return 0
	# a user's build machine: its security archive, and up to date
	add_security "$suite" "$dir"
	: >"$ROOT/$suite.apt.log"
	upgrade_in "$dir" "$ROOT/$suite.apt.log"
	# shellcheck disable=SC2046
	apt_in "$dir" install $(build_packages "$suite" "$m") >>"$ROOT/$suite.apt.log" 2>&1 \
		|| { tail -n 30 "$ROOT/$suite.apt.log" >&2; return 1; }
	apt_in "$dir" clean
	echo "$want" >"$dir/.kidx-packages"
}

# Build SUITE-base with debootstrap when absent.
ensure_base() {
	local suite=$1 m dir script=()
	m=$(suite_major "$suite")
	dir=$ROOT/$suite-base
	[ -f "$dir/.kidx-ready" ] && return 0
	rm -rf "$dir.tmp"
	mkdir -p "$ROOT"
	# forky has no debootstrap script of its own in Debian 12: sid's is it.
	[ -e "/usr/share/debootstrap/scripts/$suite" ] || script=(/usr/share/debootstrap/scripts/sid)
	log "debootstrap --variant=minbase $suite (PostgreSQL $m) into $dir"
	debootstrap --variant=minbase "$suite" "$dir.tmp" "$MIRROR" "${script[@]}" \
		>"$ROOT/$suite-base.debootstrap.log" 2>&1 \
		|| { tail -n 30 "$ROOT/$suite-base.debootstrap.log" >&2; return 1; }
	# The host's extra CA certificates (an egress proxy's, say), so that npm
	# inside the chroot reaches the registry as it does on the host.
	mkdir -p "$dir.tmp/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$dir.tmp/usr/local/share/ca-certificates/" 2>/dev/null || true
	# No server is started by the packages' scripts inside the chroot.
	printf '#!/bin/sh\nexit 101\n' >"$dir.tmp/usr/sbin/policy-rc.d"
	chmod 755 "$dir.tmp/usr/sbin/policy-rc.d"
	apt_in "$dir.tmp" update >/dev/null
	# shellcheck disable=SC2046
	apt_in "$dir.tmp" install $(base_packages "$m") >"$ROOT/$suite-base.apt.log" 2>&1 \
		|| { tail -n 30 "$ROOT/$suite-base.apt.log" >&2; return 1; }
	run_in "$dir.tmp" update-ca-certificates >/dev/null 2>&1
	# Debian's package creates a cluster "main"; the tests make their own.
	run_in "$dir.tmp" pg_dropcluster "$m" main >/dev/null 2>&1 || true
	apt_in "$dir.tmp" clean
	touch "$dir.tmp/.kidx-ready"
	mv "$dir.tmp" "$dir"
}

# Build SUITE (the build chroot) from SUITE-base when absent.
ensure_build() {
	local suite=$1 m dir
	m=$(suite_major "$suite")
	dir=$ROOT/$suite
	if [ -f "$dir/.kidx-ready" ]; then
		top_up "$suite" "$m" "$dir"
		return
	fi
	ensure_base "$suite"
	rm -rf "$dir.tmp"
	log "build chroot $dir: build tools and the suites' packages"
	cp -a "$ROOT/$suite-base" "$dir.tmp"
	rm -f "$dir.tmp/.kidx-ready"
	top_up "$suite" "$m" "$dir.tmp"
	touch "$dir.tmp/.kidx-ready"
	mv "$dir.tmp" "$dir"
}

# The suite whose PostgreSQL is the major before SUITE's (for pg_upgrade):
# bookworm's 15 before trixie's 17, trixie's 17 before forky's 18.
suite_before() {
	case $1 in
	trixie) echo bookworm ;;
	forky) echo trixie ;;
	*) echo "chroot.sh: no suite before $1 known" >&2; return 1 ;;
	esac
}

# Build NEW-with-OLD (for pg_upgrade) when absent.
ensure_upgrade() {
	local new=$1 old=$2 om dir
	om=$(suite_major "$old")
	dir=$ROOT/$new-with-$old
	[ -f "$dir/.kidx-ready" ] && return 0
	ensure_base "$new"
	rm -rf "$dir.tmp"
	log "pg_upgrade chroot $dir: $new's PostgreSQL $(suite_major "$new") and $old's $om"
	cp -a "$ROOT/$new-base" "$dir.tmp"
	rm -f "$dir.tmp/.kidx-ready"
	add_security "$new" "$dir.tmp"
	{
		echo "deb $MIRROR $old main"
		echo "deb $SECURITY $old-security main"
	} >"$dir.tmp/etc/apt/sources.list.d/$old.list"
	# Only what NEW lacks comes from OLD (postgresql-OLD and the libraries
	# of OLD's that NEW has under other names: libicu, libllvm, libldap...).
	printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\nPackage: *\nPin: release n=%s-security\nPin-Priority: 100\n' \
		"$old" "$old" >"$dir.tmp/etc/apt/preferences.d/$old"
	: >"$ROOT/$new-with-$old.apt.log"
	upgrade_in "$dir.tmp" "$ROOT/$new-with-$old.apt.log"
	apt_in "$dir.tmp" install "postgresql-$om" "postgresql-client-$om" >>"$ROOT/$new-with-$old.apt.log" 2>&1 \
		|| { tail -n 30 "$ROOT/$new-with-$old.apt.log" >&2; return 1; }
	run_in "$dir.tmp" pg_dropcluster "$om" main >/dev/null 2>&1 || true
	apt_in "$dir.tmp" clean
	touch "$dir.tmp/.kidx-ready"
	mv "$dir.tmp" "$dir"
}

cmd=${1:-}
case $cmd in
ensure)
	[ $# -eq 2 ] || { echo "usage: $0 ensure SUITE" >&2; exit 2; }
	ensure_build "$2"
	echo "$ROOT/$2"
	;;
base)
	[ $# -eq 2 ] || { echo "usage: $0 base SUITE" >&2; exit 2; }
	ensure_base "$2"
	echo "$ROOT/$2-base"
	;;
clone)
	[ $# -eq 3 ] || { echo "usage: $0 clone SUITE DIR" >&2; exit 2; }
	ensure_base "$2"
	rm -rf "$3"
	cp -a "$ROOT/$2-base" "$3"
	;;
user | behind)
	[ $# -eq 3 ] || { echo "usage: $0 $cmd SUITE DIR" >&2; exit 2; }
	ensure_base "$2"
	rm -rf "$3"
	cp -a "$ROOT/$2-base" "$3"
	add_security "$2" "$3"
	# (apt's output on standard error, for the caller's log)
	if [ "$cmd" = user ]; then
		upgrade_in "$3" /dev/stderr
	else
		apt_in "$3" update >&2
	fi
	;;
upgrade)
	[ $# -eq 3 ] || { echo "usage: $0 upgrade NEW OLD" >&2; exit 2; }
	ensure_upgrade "$2" "$3"
	echo "$ROOT/$2-with-$3"
	;;
copy)
	[ $# -eq 3 ] || { echo "usage: $0 copy SRC DIR" >&2; exit 2; }
	[ -f "$2/.kidx-ready" ] || { echo "chroot.sh: $2 is not a ready chroot" >&2; exit 1; }
	rm -rf "$3"
	cp -a "$2" "$3"
	;;
before)
	suite_before "$2"
	;;
run)
	[ $# -ge 3 ] || { echo "usage: $0 run DIR CMD..." >&2; exit 2; }
	dir=$2
	shift 2
	run_in "$dir" "$@"
	;;
major)
	suite_major "$2"
	;;
*)
	echo "usage: $0 ensure SUITE | base SUITE | clone SUITE DIR | user SUITE DIR | behind SUITE DIR | upgrade NEW OLD | copy SRC DIR | run DIR CMD... | major SUITE | before SUITE" >&2
	exit 2
	;;
esac
