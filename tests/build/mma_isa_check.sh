#!/usr/bin/env bash
# mma_isa_check.sh TARGET SOURCE_DIR ISA_DIR
#
# Reads the code the compiler generates for microbench/matrix_engine/ and
# checks that the loops the probe times hold the matrix instructions it
# counts (matrix_engine.h: GP_MMA_ACC x GP_MMA_INNER per loop trip in the
# throughput kernels, GP_MMA_INNER in the one-accumulator latency kernels),
# for every op the target has, and none where the probe records `none`:
#   sm_80: mma.sync f16, bf16, tf32, s8 (the PTX of check_gpu_build.sh);
#   sm_90: the same plus e4m3, and wgmma.mma_async in the sm_90a compile of
#          matrix_engine_sm90a.hip (made here: the build compiles that file
#          as sm_90a, check_gpu_build.sh as sm_90): each GP_MMA_WGMMA_* op's
#          kernel holds its own instruction (f16, bf16 m64n256k16; tf32
#          m64n256k8; s8, e4m3 m64n256k32), every such op of
#          matrix_engine.h is checked, and ptxas must assemble them without
#          serializing the wgmmas;
#   gfx90a / gfx940: v_mfma in the f16, bf16, f32, i8 (gfx940: xf32, fp8)
#          kernels; gfx1100: v_wmma in f16, bf16, iu8; gfx900, gfx1030:
#          no matrix instruction at all.
# Exit 77 (skipped) when the compiler for TARGET is not installed.
set -u
target=$1 src=$2 isa=$3
dir=$src/microbench/matrix_engine
hdr=$dir/matrix_engine.h
source "$(dirname "$0")/isa_loops.sh"

def() { sed -n "s/^#define $1 \([0-9]*\).*/\1/p" "$hdr"; }
enum() { sed -n "s/^ *$1 = \([0-9]*\),.*/\1/p" "$hdr"; }
acc=$(def GP_MMA_ACC) inner=$(def GP_MMA_INNER)
[ -n "$acc" ] && [ -n "$inner" ] || { echo "FAIL: cannot read GP_MMA_ACC / GP_MMA_INNER from $hdr"; exit 1; }

case "$target" in
    sm_*)
        nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
        [ -x "$nvcc" ] || { echo "nvcc not found: skipping $target"; exit 77; }
        out=$isa/microbench_matrix_engine_matrix_engine.hip.ptx re='mma\.sync\.aligned'
        ;;
    gfx*)
        command -v hipcc >/dev/null || { echo "hipcc not found: skipping $target"; exit 77; }
        out=$isa/microbench_matrix_engine_matrix_engine.hip.s re='v_(mfma|wmma)_'
        ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac
[ -s "$out" ] || { echo "FAIL: no $out: the target's compile (check_gpu_build.sh) did not run or failed"; exit 1; }

fail=0
check() { # what file kernel-name regex want
    local got; got=$(isa_loop_count "$2" "$3" "$4")
    if [ "$got" -lt "$5" ]; then
        echo "FAIL $target $1: $got matrix instructions in the loop body, the probe counts $5"; fail=1
    else
        echo "ok   $target $1: $got matrix instructions in the loop body (counted $5)"
    fi
}
# The throughput and latency kernels of one op: mangled names of the
# template instances (NVIDIA: gp_mma_nv_kernel<op, acc, type>; AMD:
# gp_mma_amd_<op><acc>).
check_op() { # name nv-op nv-type
    case "$target" in
        sm_*) check "$1 x$acc" "$out" "gp_mma_nv_kernelILi${2}ELi${acc}E$3" "$re" $((acc * inner))
              check "$1 chain" "$out" "gp_mma_nv_kernelILi${2}ELi1E$3" "$re" "$inner" ;;
        gfx*) check "$1 x$acc" "$out" "gp_mma_amd_${1}ILi${acc}E" "$re" $((acc * inner))
              check "$1 chain" "$out" "gp_mma_amd_${1}ILi1E" "$re" "$inner" ;;
    esac
}

case "$target" in
    sm_80 | sm_90)
        check_op fp16 0 f; check_op bf16 1 f; check_op tf32 2 f; check_op int8 4 i
        # e4m3 mma.sync: none in sm_80 code (no such instruction) nor in
        # sm_90 code (Hopper emulates it with f16 HMMA; the probe records none).
        check "fp8 none" "$out" 'gp_mma_nv_kernelILi5ELi4Ef' "$re" 0
        n=$(isa_loop_count "$out" 'gp_mma_nv_kernelILi5ELi4Ef' "$re")
        [ "$n" -eq 0 ] || { echo "FAIL $target: e4m3 mma in $target code"; fail=1; }
        if [ "$target" = sm_90 ]; then
            wg=$isa/microbench_matrix_engine_matrix_engine_sm90a.hip.sm_90a
            if ! "$nvcc" -arch=sm_90a -ptx -O3 -x cu -I"$src/platform" -I"$src/common" -I"$dir" -o "$wg.ptx" \
                    "$dir/matrix_engine_sm90a.hip" >"$wg.log" 2>&1 ||
               ! "$(dirname "$nvcc")/ptxas" -arch=sm_90a -m64 -O3 -v "$wg.ptx" -o "$wg.cubin" >>"$wg.log" 2>&1; then
                echo "FAIL sm_90a: matrix_engine_sm90a.hip does not compile"; cat "$wg.log"; fail=1
            else
                # Each op's kernel (gp_mma_wgmma_kernel<op>, the op's number
                # from the header) and the instruction it must issue: a
                # kernel dispatched to the wrong instruction counts 0.
                wgs="FP16:m64n256k16.f32.f16.f16 BF16:m64n256k16.f32.bf16.bf16 TF32:m64n256k8.f32.tf32.tf32
                     INT8:m64n256k32.s32.s8.s8 FP8:m64n256k32.f32.e4m3.e4m3"
                nwg=0
                for w in $wgs; do
                    name=${w%%:*} inst=${w#*:} nwg=$((nwg + 1))
                    op=$(enum "GP_MMA_WGMMA_$name")
                    if [ -z "$op" ]; then
                        echo "FAIL sm_90a: no GP_MMA_WGMMA_$name in $hdr"; fail=1; continue
                    fi
                    check "wgmma $(echo "$name" | tr 'A-Z' 'a-z')" "$wg.ptx" "gp_mma_wgmma_kernelILi${op}E" \
                        "wgmma[.]mma_async[.]sync[.]aligned[.]${inst//./[.]} " "$inner"
                done
                # An op added to the header and not to the list above.
                nhdr=$(grep -cE '^ *GP_MMA_WGMMA_[A-Z0-9]+ = [0-9]+,' "$hdr")
                if [ "$nhdr" -ne "$nwg" ]; then
                    echo "FAIL sm_90a: $hdr has $nhdr GP_MMA_WGMMA_* ops, this check knows $nwg"; fail=1
                fi
                # ptxas serializes wgmmas it cannot prove independent of
                # other accesses to their accumulators, and says so.
                if grep -qi "serializ" "$wg.log"; then
                    echo "FAIL sm_90a: ptxas serializes the wgmmas:"; grep -i "serializ" "$wg.log"; fail=1
                else
                    echo "ok   sm_90a: wgmma kernels assemble, not serialized"
                fi
            fi
        fi
        ;;
    gfx90a) for op in fp16 bf16 fp32 int8; do check_op $op; done ;;
    gfx940) for op in fp16 bf16 fp32 int8 tf32 fp8; do check_op $op; done ;;
    gfx1100) for op in fp16 bf16 int8; do check_op $op; done ;;
    *)
        n=$(grep -cE "$re" "$out")
        if [ "$n" -ne 0 ]; then
            echo "FAIL $target: $n matrix instructions where the probe records no matrix unit"; fail=1
        else
            echo "ok   $target: no matrix instruction (the probe records none)"
        fi
        ;;
esac
exit $fail
