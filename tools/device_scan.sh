#!/usr/bin/env bash
# device_scan.sh OUT [bench KERNEL...]: on an NVIDIA GPU machine (the H200 for
# issue 17's figures), build the sm90 preset, then `gpuprobe verify scan`
# under the shipped, generic and mistuned tables, scan's CTest kernels and
# sanitizer tests (memcheck, racecheck, synccheck: the ring kernel's
# mbarriers and bulk copies), and one `gpuprobe bench` of the given kernels
# (default: the second wave, scan histogram spmv stencil: the run
# docs/reports/h200/kernels.md commits); logs under OUT, the paired lines in
# OUT/verdicts.txt.
#   tools/device_scan.sh "$OUT"
set -u
out=${1:?usage: device_scan.sh OUT [KERNEL...]}
shift
kernels=${*:-scan histogram spmv stencil}
. "$(dirname "$0")/device_build.sh"
bdir=$(dirname "$(dirname "$g")")
$g info >"$out/info.txt" 2>&1
step "verify scan"
{ $g verify scan; echo "rc=$?"; $g verify scan --table tables/generic --mistuned tables/gfx900; echo "rc=$?"; } \
    >"$out/verify.txt" 2>&1
step "ctest scan (kernels, sanitize)"
ctest --test-dir "$bdir" -R "(kernels|sanitize.*)[.]scan|kernel[.]scan" --output-on-failure >"$out/ctest.txt" 2>&1
echo "rc=$?" >>"$out/ctest.txt"
step "bench $kernels"
b0=$(date +%s)
$g bench $kernels --out "$out/bench" --table lookup >"$out/bench.md" 2>"$out/bench_log.txt"
echo "rc=$? seconds=$(( $(date +%s) - b0 ))" >>"$out/bench.md"
step done
grep -hE "paired" "$out/bench_log.txt" | tee "$out/verdicts.txt"
