#!/usr/bin/env bash
# make test runs the release-metadata check with the other script suites
# (test/versions/metadata.sh: META.json, debian/changelog and
# kernelindex.control agree).
exec bash "$(dirname "$0")/../versions/metadata.sh"
