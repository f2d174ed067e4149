#!/usr/bin/env bash
# check_gpu_build.sh TARGET SOURCE_DIR WORK_DIR
#
# Compiles every GPU source of the tree (platform/, microbench/, kernels/) for
# TARGET (sm_NN with nvcc, gfxNNN with hipcc) and reads the compiler's own
# resource report: registers, stack/scratch and local memory per kernel.  A
# kernel may use scratch/local memory only where tests/build/rules.txt allows
# it.  Exit 77 (skipped) when the compiler for TARGET is not installed.
set -u
target=$1 src=$2 work=$3
rules=$src/tests/build/rules.txt
mkdir -p "$work"
report=$work/resource_usage.txt
: >"$report"

case "$target" in
    sm_*)
        nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
        [ -x "$nvcc" ] || { echo "nvcc not found: skipping $target"; exit 77; }
        ;;
    gfx*)
        source "$src/tests/build/amd_hipcc.sh"
        amd_setup "$target" "$work"
        ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac

# Allowed scratch bytes for a kernel: the first rule whose regex matches the
# kernel (and whose targets=REGEX, if given, matches the target), else 0.
allowed_scratch() {
    local name=$1 re max tg
    [ -f "$rules" ] || { echo 0; return; }
    while read -r re max tg _; do
        [[ -z "$re" || "$re" == \#* ]] && continue
        if [[ "$tg" == targets=* ]]; then
            tg=${tg#targets=}
            [[ "$target" =~ $tg ]] || continue
        fi
        if [[ "$name" =~ $re ]]; then echo "${max#scratch_max=}"; return; fi
    done <"$rules"
    echo 0
}

fail=0 nsrc=0 nkern=0
mapfile -t sources < <(cd "$src" && find platform microbench kernels -name '*.hip' 2>/dev/null | sort)
for rel in "${sources[@]}"; do
    nsrc=$((nsrc + 1))
    base=$work/$(echo "$rel" | tr '/' '_')
    case "$target" in
        sm_*)
            if ! "$nvcc" -arch="$target" -cubin -O3 -x cu -Xptxas -v -I"$src/platform" -I"$src/common" -I"$src/kernels" -I"$(dirname "$src/$rel")" \
                    -o "$base.cubin" "$src/$rel" >"$base.log" 2>&1; then
                echo "FAIL $rel: nvcc -arch=$target failed"; cat "$base.log"; fail=1; continue
            fi
            # ptxas -v: "Compiling entry function 'NAME'", then "N bytes stack frame,
            # N bytes spill stores, ...", then "Used N registers, ... N bytes smem".
            # Local memory shows up as stack frame and spills.
            awk '
                /Compiling entry function/ { name = $0; sub(/.*function .\047?/, "", name); sub(/\047.*/, "", name)
                                             stack = spill = smem = 0 }
                /bytes stack frame/ { stack = $1; spill = $5 }
                /Used [0-9]+ registers/ { regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
                                          smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART) + 0
                                          print name, regs, stack + spill, smem }' "$base.log" >"$base.usage"
            ;;
        gfx*)
            if ! "$hipcc" -x hip --offload-arch="$target" "${AMD_FLAGS[@]}" --cuda-device-only -O3 -S \
                    -I"$src/platform" -I"$src/common" -I"$src/kernels" -I"$(dirname "$src/$rel")" -o "$base.s" "$src/$rel" 2>"$base.log"; then
                echo "FAIL $rel: hipcc --offload-arch=$target failed"; cat "$base.log"; fail=1; continue
            fi
            # Kernel metadata (YAML in the .s): .name precedes .private_segment_fixed_size.
            awk '
                /^ *\.group_segment_fixed_size:/ { shared = $2 }
                /^ *\.name:/ { name = $2 }
                /^ *\.private_segment_fixed_size:/ { scratch = $2 }
                /^ *\.sgpr_count:/ { sgpr = $2 }
                /^ *\.vgpr_count:/ { print name, $2 "v/" sgpr "s", scratch, shared }
                /^ *\.wavefront_size:/ { wave = $2 }' "$base.s" >"$base.usage"
            # gfx9 (GCN/CDNA) runs wave64 only; gfx10+ (RDNA) defaults to wave32
            # in HIP, which GP_WAVE_SIZE and every block shape must follow.
            want=64
            [[ "$target" == gfx9* ]] || want=32
            if grep "\.wavefront_size:" "$base.s" | grep -vq ": *$want\$"; then
                echo "FAIL $rel: $target kernel not built for wave$want"; fail=1
            fi
            ;;
    esac
    while read -r name regs scratch shared; do
        [ -n "$name" ] || continue
        nkern=$((nkern + 1))
        allow=$(allowed_scratch "$name")
        printf '%-8s %-40s regs %-10s scratch/local %-6s shared %-6s %s\n' "$target" "$name" "$regs" \
            "$scratch" "$shared" "$rel" >>"$report"
        if [ "$scratch" -gt "$allow" ]; then
            echo "FAIL $rel: kernel $name uses $scratch bytes of scratch/local memory (allowed $allow)"
            fail=1
        fi
    done <"$base.usage"
done
cat "$report"

# The registers a thread that the kernel rules assume (kernels/<k>/<k>_rule.c,
# their occupancy models) must bound what the compiler reports: each line of
# tests/build/rule_regs.txt is "<kernel name regex> <rule file> <macro>".  On
# NVIDIA targets only: ptxas reports registers per thread directly; the AMD
# reports count VGPRs of a 64-lane wave against other limits (the rules'
# AMD register facts come from registers.vgpr_max).
if [[ "$target" == sm_* && -f "$src/tests/build/rule_regs.txt" ]]; then
    while read -r re file macro _; do
        [[ -z "$re" || "$re" == \#* ]] && continue
        bound=$(sed -n "s/^#define $macro \([0-9][0-9]*\).*/\1/p" "$src/$file")
        [ -n "$bound" ] || { echo "FAIL rule_regs: no #define $macro in $file"; fail=1; continue; }
        most=$(awk -v re="$re" '$2 ~ re {if ($4 + 0 > m) m = $4 + 0; n++} END {print (n ? m : -1)}' "$report")
        if [ "$most" -lt 0 ]; then
            echo "FAIL rule_regs: no kernel matches $re for $macro"; fail=1
        elif [ "$most" -gt "$bound" ]; then
            echo "FAIL rule_regs: $re uses up to $most registers, $file assumes $macro = $bound"; fail=1
        else
            echo "rule_regs: $re at most $most registers <= $macro = $bound ($file)"
        fi
    done <"$src/tests/build/rule_regs.txt"
fi
echo "$target: $nsrc sources, $nkern kernels checked"
[ "$nkern" -gt 0 ] || { echo "FAIL: no kernels found in the resource report"; fail=1; }
exit $fail
