#!/usr/bin/env bash
# device_casebook.sh OUT: on an NVIDIA GPU machine (the H200 for the issues'
# figures), build the sm90 preset, then for the second-wave kernels run
# `gpuprobe verify` (lookup, generic and mistuned tables), their CTest
# kernels tests, one `gpuprobe bench` (paired ABBA verdicts: the run that
# docs/reports/h200/kernels-casebook.md commits) and a `tune` sweep from the
# shipped table (does the rule's choice lead?); logs under OUT, the paired
# lines in OUT/verdicts.txt.
#   GP_KERNELS  kernels (default: every second-wave kernel whose folder exists)
#   GP_TUNE     kernels to sweep (default: GP_KERNELS; empty: no sweep)
#   tools/device_casebook.sh "$OUT"
set -u
out=${1:?usage: device_casebook.sh OUT}
kernels=${GP_KERNELS:-}
if [ -z "$kernels" ]; then
    for k in gemm batchnorm padding scan histogram spmv stencil; do
        [ -f "kernels/$k/$k.hip" ] && kernels="$kernels $k"
    done
fi
tune=${GP_TUNE-$kernels}
. "$(dirname "$0")/device_build.sh"
step "kernels:$kernels"
bdir=$(dirname "$(dirname "$g")")
$g info >"$out/info.txt" 2>&1
step verify
$g verify $kernels >"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
$g verify $kernels --table tables/generic --mistuned tables/gfx900 >>"$out/verify.txt" 2>&1
echo "rc=$?" >>"$out/verify.txt"
step ctest
ctest --test-dir $bdir -L kernels -R "($(echo $kernels | tr ' ' '|'))" --output-on-failure >"$out/ctest.txt" 2>&1
echo "rc=$?" >>"$out/ctest.txt"
step bench
b0=$(date +%s)
$g bench $kernels --out "$out/bench" --table lookup >"$out/bench.md" 2>"$out/bench_log.txt"
echo "rc=$? seconds=$(( $(date +%s) - b0 ))" >>"$out/bench.md"
if [ -n "$tune" ]; then
    step "tune $tune"
    mkdir -p "$out/tune"
    cp tables/sm_90 "$out/tune/table.txt"
    $g tune $tune --out "$out/tune" >"$out/tune.txt" 2>&1; echo "rc=$?" >>"$out/tune.txt"
fi
step done
grep -hE "paired|within 1.3x|of the measured fp32 peak" "$out/bench_log.txt" | tee "$out/verdicts.txt"
