#!/usr/bin/env bash
# expect.sh RC_ALTERNATIVES PATTERN CMD...: run CMD, require its exit code to be
# one of RC_ALTERNATIVES ("0|77") and its output to match the extended regex.
set -u
want_rc=$1 pattern=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if ! [[ "|$want_rc|" == *"|$rc|"* ]]; then
    echo "expect.sh: exit code $rc, wanted $want_rc" >&2
    exit 1
fi
if ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "expect.sh: output does not match /$pattern/" >&2
    exit 1
fi
exit 0
