#!/usr/bin/env bash
# The release metadata agrees with kernelindex.control, where the version
# lives: META.json (PGXN, with the keys its spec requires) and
# debian/changelog carry the same version, and the oldest major is the same
# in META.json, debian/pgversions and src/compat.h.  Every release is in
# doc/CHANGELOG.md with its tag and commit, its install script is kept in
# sql/ exactly as that commit builds it, and upgrade scripts lead from it to
# the version in development.  No server needed.
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

# Releases: doc/CHANGELOG.md has a line for the version in development and
# one for each release, with its tag and commit; a release's install script
# is in sql/, as its commit builds it (the parts of src/sql, in order), and
# upgrade scripts lead from every release to the version in development.
import glob, os, subprocess

def vkey(v):
    return tuple(int(x) for x in v.split("."))

changelog = open("doc/CHANGELOG.md").read()
entries = re.findall(r"^- \*\*(\d+\.\d+\.\d+)\*\* \(([^)]*)\)", changelog, re.M)
check(any(v == version for v, _ in entries),
      "doc/CHANGELOG.md has a line for %s" % version)
released = {}
for v, what in entries:
    if v == version:
        check("in development" in what or "tag `v%s`" % v in what,
              "doc/CHANGELOG.md says whether %s is released" % v)
        continue
    m = re.search(r"tag `v%s`, commit `([0-9a-f]{7,40})`" % re.escape(v), what)
    check(m is not None, "doc/CHANGELOG.md names the tag and commit of release %s" % v)
    if m:
        released[v] = m.group(1)
    check(vkey(v) < vkey(version), "release %s is older than %s" % (v, version))
installs = sorted(os.path.basename(f)[len("kernelindex--"):-4]
                  for f in glob.glob("sql/kernelindex--*.sql") if "--" not in os.path.basename(f)[len("kernelindex--"):])
for v in installs:
    check(v in released or v == version,
          "sql/kernelindex--%s.sql is the install script of a release in doc/CHANGELOG.md" % v)
upgrades = {}
for f in glob.glob("sql/kernelindex--*--*.sql"):
    m = re.fullmatch(r"kernelindex--(\d+\.\d+\.\d+)--(\d+\.\d+\.\d+)\.sql", os.path.basename(f))
    check(m is not None, "%s is named kernelindex--A--B.sql" % f)
    if m:
        check(vkey(m.group(1)) < vkey(m.group(2)), "%s leads to a later version" % f)
        check(open(f).read().count("\\echo Use \"ALTER EXTENSION kernelindex UPDATE\"") == 1,
              "%s starts with the \\echo guard" % f)
        upgrades.setdefault(m.group(1), []).append(m.group(2))

def reaches(v, seen=()):
    return v == version or any(reaches(n, seen + (v,)) for n in upgrades.get(v, []) if n not in seen)

def git(*args):
    return subprocess.run(("git",) + args, capture_output=True)

try:
    in_git = git("rev-parse", "--git-dir").returncode == 0
except OSError:
    in_git = False    # no git installed (a chroot of the matrix)
for v, commit in sorted(released.items()):
    check(v in installs, "release %s has its install script sql/kernelindex--%s.sql" % (v, v))
    check(reaches(v), "upgrade scripts lead from %s to %s" % (v, version))
    if not in_git:
        print("skipped: not a git clone (or no git), so the script of release %s is not compared with its commit" % v)
        continue
    tag = git("rev-parse", "--verify", "-q", "v%s^{commit}" % v)
    full = git("rev-parse", "--verify", "-q", "%s^{commit}" % commit)
    check(full.returncode == 0,
          "release %s's commit %s is in this clone's history" % (v, commit))
    if tag.returncode == 0 and full.returncode == 0:
        check(tag.stdout == full.stdout, "tag v%s is commit %s" % (v, commit))
    if full.returncode != 0:
        continue
    sha = full.stdout.decode().strip()
    parts = sorted(p for p in git("ls-tree", "--name-only", sha, "src/sql/").stdout.decode().split()
                   if p.endswith(".sql"))
    built = b"".join(git("show", "%s:%s" % (sha, p)).stdout for p in parts)
    check(built == open("sql/kernelindex--%s.sql" % v, "rb").read(),
          "sql/kernelindex--%s.sql is what commit %s builds, byte for byte" % (v, commit))

print("metadata: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
