#!/usr/bin/env bash
# amd_register_limits.sh GFX_TARGET WORK_DIR [SOURCE_DIR ISA_DIR]
#
# Highest VGPR and SGPR a kernel may name on an AMD target, found the way
# [Vega-HIP] (sections 2.3-2.4) found v255 and s101 on gfx900: compile a tiny
# kernel whose inline asm writes v<N> (s<N>) and see whether the compiler
# accepts it, for rising N (binary search; acceptance is monotone in N).
# Prints "vgpr_max = N" and "sgpr_max = N" and writes them to
# WORK_DIR/register_limits_<target>.txt for the report.  Exit 77 without
# hipcc; exit 1 when a limit is not found.
#
# With SOURCE_DIR and ISA_DIR (the target's one compile: check_gpu_build.sh,
# or for gfx900 the gpuprobe build of amd_link_log.sh): also the VGPRs each
# register_limits chain variant compiles to (printed as "live vgprs scratch"; the unit test register_granule_*_compiled
# holds them as data), and a check that some variant's count rounds up
# differently to multiples of 4 and of 8 (count mod 8 in 1..4): without one,
# the probe cannot tell an allocation granule of 4 (gfx9) from 8 (gfx90a).
set -u
target=$1 work=$2 src=${3:-} isa=${4:-}
mkdir -p "$work"
here=$(cd "$(dirname "$0")" && pwd)
source "$here/amd_hipcc.sh"
amd_setup "$target" "$work"

# accepts KIND N: 0 when a kernel writing register <KIND><N> compiles.  The
# clobber list tells the compiler the register is used, as a real kernel would.
accepts() {
    local kind=$1 n=$2 src=$work/reg_${1}${2}.hip
    local insn="v_mov_b32 v$n, 0"
    [ "$kind" = s ] && insn="s_mov_b32 s$n, 0"
    cat >"$src" <<SRC
#include <hip/hip_runtime.h>
__global__ void probe_reg(float *a) { asm volatile("$insn" ::: "$kind$n"); if (a) a[0] = 0; }
SRC
    "$hipcc" -x hip --offload-arch="$target" "${AMD_FLAGS[@]}" --cuda-device-only -O1 -c -o "$work/reg_${kind}${n}.o" "$src" \
        >"$work/reg_${kind}${n}.log" 2>&1
}

# Largest N in [0, hi] the compiler accepts, or -1.
highest() {
    local kind=$1 lo=0 hi=$2 mid
    accepts "$kind" 0 || { echo -1; return; }
    accepts "$kind" "$hi" && { echo "$hi"; return; }
    while [ $((hi - lo)) -gt 1 ]; do
        mid=$(((lo + hi) / 2))
        if accepts "$kind" "$mid"; then lo=$mid; else hi=$mid; fi
    done
    echo "$lo"
}

# Upper ends of the search: beyond any GCN/CDNA/RDNA register name.
vmax=$(highest v 1024)
smax=$(highest s 256)
out=$work/register_limits_$target.txt
{
    echo "# $target: highest register names hipcc accepts in inline asm (tests/build/amd_register_limits.sh)"
    echo "vgpr_max = $vmax"
    echo "sgpr_max = $smax"
} >"$out"
cat "$out"
fail=0
[ "$vmax" -ge 0 ] || { echo "FAIL $target: no VGPR name accepted (see $work/reg_v0.log)"; fail=1; }
[ "$smax" -ge 0 ] || { echo "FAIL $target: no SGPR name accepted (see $work/reg_s0.log)"; fail=1; }
[ "$vmax" -lt 1024 ] || { echo "FAIL $target: every VGPR name accepted: the test is not testing"; fail=1; }
[ "$smax" -lt 256 ] || { echo "FAIL $target: every SGPR name accepted: the test is not testing"; fail=1; }

if [ -n "$src" ]; then
    rl=$isa/microbench_register_limits_register_limits.hip.s
    [ -s "$rl" ] || { echo "FAIL $target: no $rl: the target's compile did not run or failed"; exit 1; }
    awk '/^ *\.name:/ { n = $2 } /^ *\.private_segment_fixed_size:/ { s = $2 }
         /^ *\.vgpr_count:/ && n ~ /gp_reglim_chain/ { r = n; sub(/^_Z15gp_reglim_chainILi/, "", r); sub(/E.*/, "", r)
                                                     print r, $2, s }' "$rl" | sort -n >"$work/reglim_vgprs_$target.txt"
    echo "# register_limits variants on $target: live values, VGPRs, scratch bytes"
    tr '\n' ';' <"$work/reglim_vgprs_$target.txt"; echo
    nvar=$(wc -l <"$work/reglim_vgprs_$target.txt")
    split=$(awk '$3 == 0 && $2 % 8 >= 1 && $2 % 8 <= 4' "$work/reglim_vgprs_$target.txt" | wc -l)
    if [ "$nvar" -lt 2 ]; then
        echo "FAIL $target: no register_limits variants found in the ISA"; fail=1
    elif [ "$split" -eq 0 ]; then
        echo "FAIL $target: no variant compiles to a VGPR count that is 1..4 mod 8: granule 4 and 8 look alike"; fail=1
    else
        echo "ok   $target: $split of $nvar variants separate granule 4 from granule 8"
    fi
fi
exit $fail
