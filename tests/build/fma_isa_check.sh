#!/usr/bin/env bash
# fma_isa_check.sh TARGET SOURCE_DIR ISA_DIR
#
# Reads the code the compiler generates for microbench/fma_throughput/fma_throughput.hip and
# checks that the loops the probe times hold the FMAs the source promises:
#   - the fp32 chain kernel: GP_FMA_ACC x GP_FMA_INNER FMAs in its loop body,
#   - the fp64 chain kernel: GP_FMA_ACC_F64 x GP_FMA_INNER fp64 FMAs,
#   - the loop-shape kernels: >= GP_FMA_LOOP_UNROLL_N (unroll) and
#     >= GP_FMA_LOOP_INNER (double loop) FMAs in their loop bodies, and more
#     FMAs in loop_plain's body than in loop_nounroll's (else they are one
#     shape twice).  A packed v_pk_fma_f32 (gfx90a, gfx940) counts as 2.
# sm_*: the PTX, counting fma.rn.f32/f64 between a label and the branch back
# to it.  gfx*: the assembly, counting v_fma_f32/v_fmac_f32 (v_fma_f64)
# between a loop label and its back-branch.  A multiply and a separate add
# would not count: the check fails if contraction was lost.  On AMD every
# other VALU instruction in those loop bodies fails the check too: the loop
# counter belongs on the scalar unit, and a v_mov_b32 that re-copies an SGPR
# operand each trip (a gfx9 VOP3 reads one SGPR) is issued on the same SIMD
# as the FMAs and would be timed as FMA work.
# The code is the one compile of the target (check_gpu_build.sh, or for
# gfx900 the gpuprobe build of amd_link_log.sh) in ISA_DIR.  Exit 77 (skipped)
# when the compiler for TARGET is not installed.
set -u
target=$1 src=$2 isa=$3
hdr=$src/microbench/fma_throughput/fma_throughput.h

def() { sed -n "s/^#define $1 \([0-9]*\).*/\1/p" "$hdr"; }
acc=$(def GP_FMA_ACC) acc64=$(def GP_FMA_ACC_F64) inner=$(def GP_FMA_INNER) unroll=$(def GP_FMA_LOOP_UNROLL_N) dinner=$(def GP_FMA_LOOP_INNER)
[ -n "$acc" ] && [ -n "$acc64" ] && [ -n "$inner" ] && [ -n "$unroll" ] && [ -n "$dinner" ] || {
    echo "FAIL: cannot read the FMA counts from $hdr"; exit 1; }
chain=$((acc * inner)) chain64=$((acc64 * inner))

case "$target" in
    sm_*)
        command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "nvcc not found: skipping $target"; exit 77; }
        out=$isa/microbench_fma_throughput_fma_throughput.hip.ptx
        f32='fma\.rn\.f32' f64='fma\.rn\.f64'
        ;;
    gfx*)
        command -v hipcc >/dev/null || { echo "hipcc not found: skipping $target"; exit 77; }
        out=$isa/microbench_fma_throughput_fma_throughput.hip.s
        f32='v_(fma|fmac|pk_fma)_f32' f64='v_fma_f64'
        ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac
[ -s "$out" ] || { echo "FAIL: no $out: the target's compile (check_gpu_build.sh) did not run or failed"; exit 1; }

# Largest FMA count (regex $2) in one loop of the kernel whose mangled name
# contains $1 (isa_loops.sh).
source "$(dirname "$0")/isa_loops.sh"
loop_fmas() { isa_loop_count "$out" "$1" "$2"; }

# Largest count of VALU instructions (v_*) that do not match regex $2 in one
# loop of the kernel whose mangled name contains $1, and the first of them,
# for the message (AMD assembly only).
loop_other_valu() {
    awk -v kname="$1" -v re="$2" '
        /^_Z[_A-Za-z0-9]*:/ { inside = index($0, kname) > 0; n = 0; delete at; next }
        !inside { next }
        /^\.L[_A-Za-z0-9]*:/ { lab = $1; sub(/:.*/, "", lab); at[lab] = n; next }
        /^[ \t]+v_/ { n++; if ($1 !~ re) { other[n] = $1 } }
        /s_cbranch|s_branch/ {
            t = $NF
            if (!(t in at)) next
            c = 0; w = ""
            for (i = at[t] + 1; i <= n; i++) if (i in other) { c++; if (w == "") w = other[i] }
            if (c > best) { best = c; what = w } }
        END { print best + 0, (what == "" ? "-" : what) }' "$out"
}

fail=0
check() { # what kernel regex want
    local got other first; got=$(loop_fmas "$2" "$3")
    if [ "$got" -lt "$4" ]; then
        echo "FAIL $target $1: $got FMAs in the loop body, the source promises $4"; fail=1
    else
        echo "ok   $target $1: $got FMAs in the loop body (promised $4)"
    fi
    [[ "$target" == gfx* ]] || return 0
    read -r other first < <(loop_other_valu "$2" "$3")
    if [ "$other" -gt 0 ]; then
        echo "FAIL $target $1: $other other VALU instruction(s) in an FMA loop body (first: $first): timed as FMA work"; fail=1
    else
        echo "ok   $target $1: no VALU instruction but the FMAs in its loop bodies"
    fi
}
check "fp32 chain" 'gp_fma_chain_kernelIfLi' "$f32" "$chain"
check "fp64 chain" 'gp_fma_chain_kernelIdLi' "$f64" "$chain64"
check "loop unroll" 'gp_fma_loop_unroll' "$f32" "$unroll"
check "loop double" 'gp_fma_loop_double' "$f32" "$dinner"
check "loop plain" 'gp_fma_loop_plain' "$f32" 1
check "loop nounroll" 'gp_fma_loop_nounroll' "$f32" 1
# The plain loop (the compiler's unroll) and the rolled one must differ, or
# their comparison measures nothing.
plain=$(loop_fmas 'gp_fma_loop_plain' "$f32") rolled=$(loop_fmas 'gp_fma_loop_nounroll' "$f32")
if [ "$plain" -le "$rolled" ]; then
    echo "FAIL $target loop plain: $plain FMAs per loop body, the same as loop nounroll ($rolled): one shape twice"; fail=1
else
    echo "ok   $target loop plain: $plain FMAs per loop body, nounroll $rolled"
fi
exit $fail
