#!/usr/bin/env bash
# device_wave2.sh OUT: the second-wave kernels' committed run (issues 16, 17)
# in one device call: build the sm90 preset, `gpuprobe verify` under the
# lookup, generic and mistuned tables, one `gpuprobe bench` of every
# second-wave kernel against its baseline (paired ABBA verdicts, the run that
# docs/reports/h200/kernels-casebook.md commits), and a `tune` sweep of
# $GP_TUNE (default: stencil padding batchnorm) from the shipped table (does
# the rule's choice lead?).  Logs under OUT; `verdicts.txt` holds the paired
# lines.  ~7 minutes on an H200.
set -u
out=${1:?usage: device_wave2.sh OUT}
kernels=${GP_KERNELS:-gemm batchnorm padding scan histogram spmv stencil}
tune=${GP_TUNE:-stencil padding batchnorm}
. "$(dirname "$0")/device_build.sh"
$g info >"$out/info.txt" 2>&1
step verify
$g verify $kernels >"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
$g verify $kernels --table tables/generic --mistuned tables/gfx900 >>"$out/verify.txt" 2>&1
echo "rc=$?" >>"$out/verify.txt"
tail -2 "$out/verify.txt"
step bench
b0=$(date +%s)
$g bench $kernels --out "$out/bench" --table lookup >"$out/bench.md" 2>"$out/bench_log.txt"
echo "rc=$? seconds=$(( $(date +%s) - b0 ))" >>"$out/bench.md"
grep -hE "paired|within 1.3x|of the measured fp32 peak" "$out/bench_log.txt" | tee "$out/verdicts.txt"
if [ -n "$tune" ]; then
    step "tune $tune"
    mkdir -p "$out/tune"
    cp tables/sm_90 "$out/tune/table.txt"
    $g tune $tune --out "$out/tune" >"$out/tune.txt" 2>&1; echo "rc=$?" >>"$out/tune.txt"
    tail -20 "$out/tune.txt"
fi
step done
