#!/usr/bin/env bash
# device_ctest.sh OUT: on a GPU machine, build the sm90 preset, then the two
# test labels a GPU issue is closed on, in order: `ctest -L microbench`, then
# `ctest -L kernels` (every kernel under every table), then scan's
# sanitizer tests, and the SASS of the ring scan kernel (64 items, fp32, both
# store widths) where cuobjdump is installed, so a sanitizer's report
# (kernel+offset) can be read against the instructions; logs under OUT, with
# this checkout's path stripped.
#   tools/device_ctest.sh "$OUT"
set -u
out=${1:?usage: device_ctest.sh OUT}
. "$(dirname "$0")/device_build.sh"
here=$(pwd)
bdir=$(dirname "$(dirname "$g")")
clean() { sed -e "s#$here/##g" -e "s#$here#.#g"; }
step "ctest -L microbench"
ctest --test-dir "$bdir" -L microbench --output-on-failure 2>&1 | clean >"$out/ctest_microbench.txt"
step "ctest -L kernels"
ctest --test-dir "$bdir" -L kernels --output-on-failure 2>&1 | clean >"$out/ctest_kernels.txt"
step "ctest sanitize scan"
ctest --test-dir "$bdir" -R "sanitize.*kernel[.]scan" --output-on-failure 2>&1 | clean >"$out/ctest_sanitize_scan.txt"
if command -v cuobjdump >/dev/null; then
    step sass
    cuobjdump -sass "$g" 2>/dev/null | awk '/Function : .*gp_scan_ring_kernelIfLi16E/ {p = 1} p && /Function : / && !/gp_scan_ring_kernelIfLi16E/ {p = 0} p' \
        >"$out/ring_sass.txt"
fi
step done
grep -hE "tests passed|tests failed" "$out"/ctest_*.txt
