"""What the Python clients under test/clients share: counted checks that
print one line each and a summary `NAME: N passed, N failed`, the BI views
every client must find (every view of kernelindex but the ones that are not
for BI tools), and the text form of a digest."""
import re
import sys

VIEWS = sorted([
    "run_facts", "latest_runs", "speedups", "release_ranks", "releases",
    "release_runs", "release_speedups", "release_changes", "speedup_since", "change_points",
    "series_change_points",
])
# Views of kernelindex that are no BI view: the COPY targets (liger_rows,
# run_rows, documents) and the runs' documents as jsonb (run_bundles).
NOT_BI = sorted(["liger_rows", "run_rows", "documents", "run_bundles"])
DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")


class Checks:
    """Counts checks: check(name, ok, detail) reports one."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def __call__(self, name, ok, detail=""):
        """Count and report one check."""
        if ok:
            self.passed += 1
            print(f"ok: {name}")
        else:
            self.failed += 1
            print(f"FAILED: {name} {detail}")

    def finish(self):
        """Print the summary and exit, 1 if any check failed."""
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
