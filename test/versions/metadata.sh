#!/usr/bin/env bash
# The release metadata agrees with kernelindex.control, where the version
# lives: META.json (PGXN, with the keys its spec requires) and
# debian/changelog carry the same version, and the oldest major is the same
# in META.json, debian/pgversions and src/compat.h.  No server needed.
#
#   test/versions/metadata.sh     last line: "metadata: N passed, M failed"
set -euo pipefail
cd "$(dirname "$0")/../.."

python3 - <<'PY'
import json, re, sys

passed = failed = 0

def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)

control = open("kernelindex.control").read()
m = re.search(r"^default_version\s*=\s*'([^']*)'", control, re.M)
version = m.group(1) if m else None
check(version is not None, "kernelindex.control has a default_version")

try:
    meta = json.load(open("META.json"))
except ValueError as e:
    meta = {}
    check(False, "META.json is JSON (%s)" % e)

# PGXN Meta Spec 1.0.0: the required keys.
for key in ("name", "abstract", "maintainer", "license", "provides",
            "meta-spec", "version"):
    check(key in meta, "META.json has the required key %r" % key)
check(meta.get("meta-spec", {}).get("version") == "1.0.0",
      "META.json meta-spec version is 1.0.0")
check(meta.get("name") == "kernelindex", "META.json name is kernelindex")
check(meta.get("version") == version,
      "META.json version %r is kernelindex.control's %r" % (meta.get("version"), version))
check(re.fullmatch(r"\d+\.\d+\.\d+", str(meta.get("version"))) is not None,
      "META.json version is a semantic version")
provides = meta.get("provides", {})
check("kernelindex" in provides, "META.json provides kernelindex")
for ext, p in provides.items():
    check("file" in p and "version" in p,
          "META.json provides.%s has file and version" % ext)
    check(p.get("version") == version,
          "META.json provides.%s version %r is kernelindex.control's %r" % (ext, p.get("version"), version))
    try:
        open(p.get("file", ""))
        ok = True
    except OSError:
        ok = False
    check(ok, "META.json provides.%s file %r exists" % (ext, p.get("file")))

# Debian: the top entry of debian/changelog (a native package: no revision).
head = open("debian/changelog").readline()
m = re.match(r"^kernelindex \(([^)]*)\) ", head)
check(m is not None and m.group(1) == version,
      "debian/changelog version %r is kernelindex.control's %r"
      % (m.group(1) if m else head.strip(), version))
check(open("debian/source/format").read().strip() == "3.0 (native)",
      "debian/source/format is 3.0 (native), so that the version has no Debian revision")

# The oldest supported major, in the three places that must say it.
pgv = [l.strip() for l in open("debian/pgversions") if l.strip() and not l.startswith("#")]
oldest = int(pgv[0].rstrip("+")) if pgv and re.fullmatch(r"\d+\+", pgv[0]) else None
check(oldest is not None, "debian/pgversions is one line NN+")
req = meta.get("prereqs", {}).get("runtime", {}).get("requires", {}).get("PostgreSQL", "")
check(req == "%s.0.0" % oldest,
      "META.json requires PostgreSQL %r, debian/pgversions says %s+" % (req, oldest))
m = re.search(r"#if PG_VERSION_NUM < (\d+)0000\s*\n#error", open("src/compat.h").read())
check(m is not None and int(m.group(1)) == oldest,
      "src/compat.h refuses majors before %s (it says %s)" % (oldest, m.group(1) if m else None))

print("metadata: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
