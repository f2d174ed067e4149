#!/usr/bin/env bash
# Build, test and characterize on a GPU machine in one go, collecting logs and
# results into OUT (default ./device-out).  Used for the committed H200 runs:
#   tools/device_session.sh OUT [PRESET] [CTEST_LABEL_REGEX]
set -uo pipefail
out=${1:-device-out} preset=${2:-sm90} labels=${3:-microbench|build}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv >"$out/smi_before.txt" 2>&1
if ! { cmake --preset "$preset" && cmake --build --preset "$preset" -j; } >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"
    exit 1
fi
bin=build/$preset/app/gpuprobe
"$bin" info >"$out/info.txt" 2>&1
start=$(date +%s)
ctest --test-dir "build/$preset" -L "$labels" --output-on-failure --timeout 600 >"$out/ctest.txt" 2>&1
rc=$?
echo "ctest -L '$labels': rc=$rc, $(( $(date +%s) - start )) s" | tee -a "$out/ctest.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv >"$out/smi_after.txt" 2>&1
tar czf "$out/results.tgz" -C "build/$preset" results tests/build_sm_90/resource_usage.txt 2>/dev/null \
    || tar czf "$out/results.tgz" -C "build/$preset" results
grep -E "Test +#|tests passed|Failed|FAIL" "$out/ctest.txt" | tail -40
exit $rc
