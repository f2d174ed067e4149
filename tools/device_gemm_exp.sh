#!/usr/bin/env bash
# device_gemm_exp.sh OUT [ROUNDS]: on a GPU machine, build the SGEMM
# experiment (tools/experiments/gemm_variants.cu, issue 16) for this GPU and
# run it: OUT/build.txt holds ptxas's registers and spills per variant (a
# variant that spills is not the tiling it claims to be), OUT/gemm.txt the
# paired ABBA rows against cuBLAS (fp32 math) at 4096^3, 8192^3 and
# 4095 x 4097 x 1023.  ROUNDS (default 30; 8192^3 runs half) keeps the run
# near a minute on an H200.
set -uo pipefail
out=$1 rounds=${2:-30}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
bin=$out/gemm_variants
{
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv
    nvcc --version | grep release
    nvcc -O3 -std=c++17 -arch=native -Xptxas -v tools/experiments/gemm_variants.cu -lcublas -o "$bin" 2>&1
    echo "nvcc rc=$?"
} >"$out/build.raw" 2>&1
# One line a kernel: name, registers, spill bytes.
awk -v q="'" '/Compiling entry function/ {name = $7; gsub(q, "", name)} /spill stores/ {sp = $5 "+" $9} /Used [0-9]+ registers/ {print name, $5, "regs, spill st+ld bytes", sp}' \
    "$out/build.raw" | c++filt >"$out/build.txt"
grep -E "^nvcc rc|error|NVIDIA|release" "$out/build.raw" >>"$out/build.txt"
[ -x "$bin" ] || { tail -30 "$out/build.raw"; exit 1; }
"$bin" "$rounds" >"$out/gemm.txt" 2>&1
echo "run rc=$?" >>"$out/gemm.txt"
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >>"$out/gemm.txt" 2>&1
rm -f "$bin"
cat "$out/build.txt" "$out/gemm.txt"
