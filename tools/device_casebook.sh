#!/usr/bin/env bash
# device_casebook.sh OUT: on an NVIDIA GPU machine (the H200 for the issue's
# figures), build the sm90 preset, then for the casebook kernels (scan,
# histogram, spmv, stencil: those whose folders exist) run `gpuprobe verify`,
# the CTest kernels tests, the bench (timed: the whole bench should take
# ~90 s) and a tune sweep (rule vs best candidate); logs under OUT.
#   tools/device_casebook.sh "$OUT"
set -u
out=${1:?usage: device_casebook.sh OUT}
kernels=""
for k in scan histogram spmv stencil; do
    [ -f "kernels/$k/$k.hip" ] && kernels="$kernels $k"
done
. "$(dirname "$0")/device_build.sh"
step "kernels:$kernels"
bdir=$(dirname "$(dirname "$g")")
$g info >"$out/info.txt" 2>&1
step verify
$g verify $kernels >"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
$g verify $kernels --table tables/generic --mistuned tables/gfx900 >>"$out/verify.txt" 2>&1
echo "rc=$?" >>"$out/verify.txt"
step ctest
ctest --test-dir $bdir -L kernels -R '(scan|histogram|spmv|stencil)' --output-on-failure >"$out/ctest.txt" 2>&1
echo "rc=$?" >>"$out/ctest.txt"
step bench
b0=$(date +%s)
$g bench $kernels --out "$out/bench" --table lookup >"$out/bench.md" 2>"$out/bench_log.txt"
echo "rc=$? seconds=$(( $(date +%s) - b0 ))" >>"$out/bench.md"
step tune
mkdir -p "$out/tune"
cp tables/sm_90 "$out/tune/table.txt"
$g tune $kernels --out "$out/tune" >"$out/tune.txt" 2>&1; echo "rc=$?" >>"$out/tune.txt"
step done
grep -hE "^(scan|histogram|spmv|stencil) .*paired" "$out/bench_log.txt" | tee "$out/verdicts.txt"
