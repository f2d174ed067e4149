#!/usr/bin/env bash
# device_kernels.sh OUT [KERNELS...]: on a GPU machine, build the sm90 preset,
# verify the application kernels under the lookup, generic and two mistuned
# tables, and bench them against their baselines; logs under OUT.
set -u
out=$1; shift
kernels=${*:-ssim conv2d transpose reduce}
. "$(dirname "$0")/device_build.sh"
step verify
$g verify $kernels --mistuned tables/gfx900 --mistuned tables/sm_80 >"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
$g verify $kernels >>"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
step bench
$g bench $kernels --out "$out/bench" --table lookup --table tables/generic --mistuned tables/gfx900 \
    >"$out/bench.md" 2>"$out/bench_log.txt"; echo "rc=$?" >>"$out/bench.md"
step done
