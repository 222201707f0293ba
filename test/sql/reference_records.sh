#!/usr/bin/env bash
# The copies of the reference records kept under test/data/records are the
# records of ../shared/reference/records, byte for byte.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
shared="$top/../shared/reference/records"
if [ ! -d "$shared" ]; then
	echo "reference_records: skipped: $shared is absent"
	exit 0
fi
passed=0 failed=0
for f in "$shared"/*.json; do
	if cmp -s "$f" "$top/test/data/records/$(basename "$f")"; then
		passed=$((passed + 1))
	else
		echo "reference_records: test/data/records/$(basename "$f") differs from $f"
		failed=$((failed + 1))
	fi
done
echo "reference_records: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
