# kernelindex: PGXS build.  The version lives in kernelindex.control only.

EXTENSION = kernelindex
EXTVERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = $(EXTENSION)
OBJS = \
	src/kernelindex.o \
	src/extension.o \
	src/messages.o \
	src/intern.o \
	src/digest.o \
	src/canonical.o \
	src/units.o \
	src/comparability.o \
	src/run_layout.o \
	src/run_split.o \
	src/run_build.o \
	src/run_store.o \
	src/dictionary.o \
	src/batch.o \
	src/references.o \
	src/documents.o \
	src/jsonb_build.o \
	src/row_checks.o \
	src/row_ingest.o \
	src/liger.o \
	src/catalog.o \
	src/liger_catalog.o \
	src/liger_ingest.o \
	src/run_rows.o \
	src/releases.o \
	src/stats.o \
	src/change_points.o \
	src/reference_window.o \
	src/core/runfmt.o \
	src/core/release.o \
	src/core/jcs.o \
	src/core/decimal.o \
	src/core/digesttext.o \
	src/core/liger_label.o \
	src/core/slug.o \
	src/core/stats.o \
	src/core/changepoint.o

# The install script of the version in development is generated from the
# numbered parts in src/sql, so that its file name carries the version from
# the control file and nothing else does.  A released version's install
# script is kept as it was released (sql/kernelindex--0.1.0.sql, made from the
# tag v0.1.0 and never edited again), and every change since is an upgrade
# script sql/kernelindex--A--B.sql (doc/CHANGELOG.md, README "Upgrading").
DATA_built = sql/$(EXTENSION)--$(EXTVERSION).sql
DATA = $(filter-out sql/$(EXTENSION)--$(EXTVERSION).sql,$(wildcard sql/$(EXTENSION)--*.sql))

# pg_regress suites: inputs sql/NAME.sql, expected output expected/NAME.out.
REGRESS = digest canonical units store documents liger liger_catalog chunks bi objects citus_forms welch run_rows change_points reference_window
REGRESS_OPTS = --load-extension=$(EXTENSION)

# The library knows its version (it refuses a database at another one until
# ALTER EXTENSION kernelindex UPDATE has run).
PG_CPPFLAGS = -I$(srcdir)/src -DKIDX_VERSION='"$(EXTVERSION)"'
# Warnings are errors only where the project's own tests ask for it (make
# WERROR=1: make test, make test-versions and CI do); a packager's build
# (dpkg-buildpackage, PGXN) never fails on a new compiler's new warning.
PG_CFLAGS = -Wall
ifeq ($(WERROR),1)
PG_CFLAGS += -Werror
endif
# pg_config's CFLAGS are gcc's; clang (make CC=clang) warns about a few, which
# -Werror would turn into errors (PostgreSQL marks its bitcode build the same way).
ifneq ($(findstring clang,$(CC)),)
PG_CFLAGS += -Wno-ignored-optimization-argument -Wno-unknown-warning-option \
	-Wno-ignored-attributes -Wno-compound-token-split-by-macro
endif
SHLIB_LINK = -lcrypto

EXTRA_CLEAN = sql/$(EXTENSION)--$(EXTVERSION).sql

# Prefer Debian's PostgreSQL 15; any pg_config on PATH otherwise.
PG_CONFIG ?= $(firstword $(wildcard /usr/lib/postgresql/15/bin/pg_config) pg_config)
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

# `make test` and `make demo` must work before PostgreSQL's development files
# are installed (they install them), so PGXS is included only when present.
ifneq ($(wildcard $(PGXS)),)
include $(PGXS)
else
all:
	@echo "PostgreSQL server development files not found; run 'make test' or 'make demo' to install them" >&2
	@exit 1
endif

# Every object is rebuilt when any header changes (PGXS tracks no headers).
$(OBJS): $(wildcard src/*.h src/core/*.h)

INSTALL_PARTS = $(sort $(wildcard src/sql/*.sql))
sql/$(EXTENSION)--$(EXTVERSION).sql: $(INSTALL_PARTS) $(EXTENSION).control
	cat $(INSTALL_PARTS) > $@

.PHONY: test test-versions demo unit fuzz bench

# Everything: dependencies, build (with -Werror), install, a throwaway
# cluster, every suite.
test:
	@WERROR=1 bash test/run.sh test

# The same suites on PostgreSQL 15, 16, 17 and 18 (Debian chroots built with
# debootstrap, reused when present), the Debian packages built and installed
# in clean chroots with their regression suites run; one table at the end.
# Needs root; README ("What the matrix needs") says what else.
test-versions:
	@WERROR=1 bash test/versions/matrix.sh

# The main job on a throwaway cluster: install, load sample data, show results.
demo:
	@bash test/run.sh demo

# C unit tests of the PostgreSQL-free core (no server needed).
unit:
	$(MAKE) -C test/unit check

# Bounded fuzzing of the PostgreSQL-free core (one libFuzzer harness per
# core file and for kidx_digest's text form, test/fuzz/Makefile lists them),
# FUZZ_SECONDS per harness on its committed corpus (test/fuzz/corpus/<harness>).
FUZZ_SECONDS ?= 30
fuzz:
	$(MAKE) -C test/fuzz run FUZZ_SECONDS=$(FUZZ_SECONDS)

# Benchmarks on a throwaway cluster (ratios measured side by side).
bench:
	@bash test/run.sh bench
