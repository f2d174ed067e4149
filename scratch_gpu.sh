#!/usr/bin/env bash
# one-off GPU session script (not committed)
set -u
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/out}; mkdir -p "$out"
K="transpose;gemm;batchnorm;padding;reduce;scan;histogram;spmv;stencil"
{ nproc; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv; date -u; } > "$out/machine.txt" 2>&1
t0=$(date +%s); step() { echo "$1: $(( $(date +%s) - t0 )) s" >> "$out/steps.txt"; }
cmake --preset default -DGP_KERNELS="$K" > "$out/configure.log" 2>&1; step configured
cmake --build --preset default > "$out/build.log" 2>&1; step built
cd build/default
ctest -L microbench --output-on-failure > "$out/microbench.log" 2>&1; step microbench
ctest -L tune --output-on-failure > "$out/tune.log" 2>&1; step tune
timeout 200 ctest -L kernels --output-on-failure -E "measured|mistuned" > "$out/kernels.log" 2>&1; step kernels
tar czf "$out/results.tar.gz" results Testing/Temporary/LastTest.log 2>/dev/null; step done
