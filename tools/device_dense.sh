#!/usr/bin/env bash
# device_dense.sh OUT: on a GPU machine, the issue-16 check in one command:
# build the sm90 preset (with cuBLAS and cuDNN when found), the build tests
# (no scratch, register counts), `gpuprobe verify` of gemm, batchnorm and
# padding under every shipped table, their CTest `kernels` tests, then the
# timed `gpuprobe bench gemm batchnorm padding` (paired ABBA verdicts) and
# the sm_90 resource usage and SASS shape of the gemm kernels; logs under OUT.
set -u
out=${1:-${OUT:-out}}
kernels="gemm batchnorm padding"
mkdir -p "$out"
t0=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - t0 )) s)" | tee -a "$out/steps.txt"; }
step configure+build
cmake --preset sm90 >"$out/build.txt" 2>&1 && cmake --build --preset sm90 -j 16 >>"$out/build.txt" 2>&1 \
    || { tail -50 "$out/build.txt"; exit 1; }
grep -E "cuBLAS|cuDNN" "$out/build.txt" | tee -a "$out/steps.txt"
g=build/sm90/app/gpuprobe
step info
$g info >"$out/info.txt" 2>&1
step verify
for t in tables/sm_90 tables/generic tables/sm_80 tables/gfx900; do
    echo "## --table $t" >>"$out/verify.txt"
    $g verify $kernels --table $t >>"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
done
$g verify $kernels --mistuned tables/gfx900 >>"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
step ctest kernels
(cd build/sm90 && ctest -L kernels -R '(gemm|batchnorm|padding)' --output-on-failure) >"$out/ctest_kernels.txt" 2>&1
echo "rc=$?" >>"$out/ctest_kernels.txt"
step ctest build
(cd build/sm90 && ctest -L build --output-on-failure) >"$out/ctest_build.txt" 2>&1; echo "rc=$?" >>"$out/ctest_build.txt"
step bench
/usr/bin/time -v $g bench $kernels --out "$out/bench" --table lookup >"$out/bench.md" 2>"$out/bench_log.txt"
echo "rc=$?" >>"$out/bench.md"
grep -E "^(gemm|batchnorm|padding) .*paired|within 1.3x|of the measured fp32 peak|Elapsed" "$out/bench_log.txt" \
    >"$out/verdicts.txt"
step sass
obj=$(find build/sm90 -name 'gemm.hip.o' | head -1)
if [ -n "$obj" ] && command -v cuobjdump >/dev/null; then
    cuobjdump -res-usage "$obj" >"$out/gemm_res_usage.txt" 2>&1
    cuobjdump -sass "$obj" >"$out/gemm.sass" 2>&1
    awk '/Function :/ {f=$3} /FFMA/ {ffma[f]++} /LDS.128/ {lds[f]++} /LDS\./ && !/LDS.128/ {lds32[f]++}
         /LDL|STL/ {loc[f]++} END {for (f in ffma) printf "%s FFMA %d LDS.128 %d LDS(other) %d local %d\n",
         f, ffma[f], lds[f], lds32[f], loc[f]}' "$out/gemm.sass" >"$out/gemm_sass_summary.txt"
fi
step done
cat "$out/verdicts.txt"
