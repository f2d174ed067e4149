#!/usr/bin/env bash
# check_gpu_build.sh TARGET SOURCE_DIR WORK_DIR [ISA_DIR]
#
# The one compile of every GPU source of the tree (platform/, microbench/,
# kernels/) for TARGET that every build check of that target reads, and the
# checks on the compiler's own resource report: registers, stack/scratch and
# local memory per kernel.  A kernel may use scratch/local memory only where
# tests/build/rules.txt allows it.
#   sm_NN: nvcc -ptx, then ptxas -v on that PTX (what nvcc -cubin runs): ISA
#          dir holds <src>.ptx, <src>.cubin and <src>.log (the ptxas report);
#   gfxNNN: hipcc --cuda-device-only -S: ISA dir holds <src>.s (ISA and the
#          kernel metadata) and <src>.log;
# <src> is the source's path with / as _ (microbench_lds_lds.hip).  The ISA
# dir is WORK_DIR/isa, or ISA_DIR when given: sources another test compiled
# (gfx900: the gpuprobe build of build.amd_link_log.gfx900, whose device
# assembly it keeps), read as they are; a source missing there fails, except
# the templates' (never built), compiled here.
# Exit 77 (skipped) when the compiler for TARGET is not installed.
set -u
target=$1 src=$2 work=$3 given=${4:-}
rules=$src/tests/build/rules.txt
mkdir -p "$work"
report=$work/resource_usage.txt
: >"$report"
isa=${given:-$work/isa}
mkdir -p "$isa"

case "$target" in
    sm_*)
        nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
        [ -x "$nvcc" ] || { echo "nvcc not found: skipping $target"; exit 77; }
        ptxas=$(dirname "$nvcc")/ptxas
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

# Named barriers a block may reserve (NVIDIA): an SM holds 64 among its
# resident blocks, and a kernel that computes a barrier's id at run time
# makes ptxas reserve all 16 of its block's, which caps it at 4 blocks an SM
# whatever its registers and shared memory allow (H200, Nsight Compute's
# "Block Limit Barriers": 16 reserved -> 4 blocks, 5 -> 12, 1 -> 32;
# docs/kernels/ssim.md, "Row groups on their own barriers").  8 keeps 8
# blocks an SM possible.
max_barriers=8
fail=0 nsrc=0 nkern=0
mapfile -t sources < <(cd "$src" && find platform microbench kernels -name '*.hip' 2>/dev/null | sort)
for rel in "${sources[@]}"; do
    nsrc=$((nsrc + 1))
    base=$isa/$(echo "$rel" | tr '/' '_')
    use=$work/$(echo "$rel" | tr '/' '_').usage
    case "$target" in
        sm_*)
            if ! { "$nvcc" -arch="$target" -ptx -O3 -x cu -I"$src/platform" -I"$src/common" -I"$src/kernels" -I"$(dirname "$src/$rel")" \
                       -o "$base.ptx" "$src/$rel" && "$ptxas" -arch="$target" -m64 -O3 -v "$base.ptx" -o "$base.cubin"; } \
                    >"$base.log" 2>&1; then
                echo "FAIL $rel: nvcc -ptx / ptxas -arch=$target failed"; cat "$base.log"; fail=1; continue
            fi
            # ptxas -v: "Compiling entry function 'NAME'", then "N bytes stack frame,
            # N bytes spill stores, ...", then "Used N registers, used N barriers,
            # ... N bytes smem".  Local memory shows up as stack frame and spills.
            awk '
                /Compiling entry function/ { name = $0; sub(/.*function .\047?/, "", name); sub(/\047.*/, "", name)
                                             stack = spill = smem = 0 }
                /bytes stack frame/ { stack = $1; spill = $5 }
                /Used [0-9]+ registers/ { regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
                                          smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART) + 0
                                          bars = 0; if (match($0, /used [0-9]+ barriers/)) bars = substr($0, RSTART + 5) + 0
                                          print name, regs, stack + spill, smem, bars }' "$base.log" >"$use"
            ;;
        gfx*)
            if [ -n "$given" ] && [ -s "$base.s" ]; then
                : # compiled by the test that made ISA_DIR
            elif [ -n "$given" ] && [[ "$rel" != */_template/* ]]; then
                # The templates (microbench/_template, kernels/_template) are
                # not part of the build: compiled here, so a copy of one builds.
                echo "FAIL $rel: $given has no $(basename "$base").s: the build that made it did not compile $rel"; fail=1; continue
            elif ! "$hipcc" -x hip --offload-arch="$target" "${AMD_FLAGS[@]}" --cuda-device-only -O3 -S \
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
                /^ *\.wavefront_size:/ { wave = $2 }' "$base.s" >"$use"
            # gfx9 (GCN/CDNA) runs wave64 only; gfx10+ (RDNA) defaults to wave32
            # in HIP, which GP_WAVE_SIZE and every block shape must follow.
            want=64
            [[ "$target" == gfx9* ]] || want=32
            if grep "\.wavefront_size:" "$base.s" | grep -vq ": *$want\$"; then
                echo "FAIL $rel: $target kernel not built for wave$want"; fail=1
            fi
            ;;
    esac
    while read -r name regs scratch shared bars; do
        [ -n "$name" ] || continue
        nkern=$((nkern + 1))
        allow=$(allowed_scratch "$name")
        printf '%-8s %-40s regs %-10s scratch/local %-6s shared %-6s %s%s\n' "$target" "$name" "$regs" \
            "$scratch" "$shared" "${bars:+barriers $bars }" "$rel" >>"$report"
        if [ "$scratch" -gt "$allow" ]; then
            echo "FAIL $rel: kernel $name uses $scratch bytes of scratch/local memory (allowed $allow)"
            fail=1
        fi
        if [ "${bars:-0}" -gt "$max_barriers" ]; then
            echo "FAIL $rel: kernel $name reserves $bars barriers a block (at most $max_barriers: an SM holds 64 among its blocks; name barriers by constant ids)"
            fail=1
        fi
    done <"$use"
done
cat "$report"

# The clock spin (platform/clock.hip) counts core cycles against the
# constant-rate timer: its kernel must read that timer (s_memrealtime, or on
# gfx11, which has none, s_sendmsg_rtn_b64 MSG_RTN_GET_REALTIME).  HIP 5.2's
# wall_clock64 compiles to the constant -1 on gfx11: 0 ticks, and no clock.
if [[ "$target" == gfx* ]]; then
    spin=$isa/platform_clock.hip.s
    reads=$(awk '/^_Z[_A-Za-z0-9]*gp_clock_spin_kernel[_A-Za-z0-9]*:/ { on = 1; next }
                 on && /^\.Lfunc_end/ { on = 0 }
                 on && /s_memrealtime|MSG_RTN_GET_REALTIME/ { n++ } END { print n + 0 }' "$spin" 2>/dev/null)
    if [ "${reads:-0}" -lt 2 ]; then
        echo "FAIL $target: gp_clock_spin_kernel reads the constant-rate timer ${reads:-0} time(s) ($spin); want 2 (before and after)"; fail=1
    else
        echo "ok   $target: gp_clock_spin_kernel reads the constant-rate timer $reads times"
    fi
fi

# The stream hold (platform/hold.hip) spins on a flag the host writes into
# mapped memory: each read must reach memory past the caches that are not
# coherent with the host, or the kernel never sees the release and every
# held timing waits for the timeout.  NVIDIA: a volatile (or system-scope)
# global load in the PTX.  AMD ([AMDGPU-Usage], the memory model's code
# sequences): glc on gfx9 before gfx94x and on gfx11, glc dlc on gfx10,
# sc0 sc1 on gfx94x (gfx11 names the load flat_load_b32).
case "$target" in
    sm_*) hold_file=$isa/platform_hold.hip.ptx hold_re='ld\.(volatile|relaxed\.sys|acquire\.sys)(\.global)?\.[us]32'
          hold_func='^\.visible \.entry _Z[_A-Za-z0-9]*gp_hold_kernel' hold_end='^}' ;;
    gfx94*) hold_re='(flat|global)_load_(dword|b32) .*sc0 sc1' ;;
    gfx10*) hold_re='(flat|global)_load_(dword|b32) .*glc dlc' ;;
    gfx*) hold_re='(flat|global)_load_(dword|b32) .*glc' ;;
esac
if [[ "$target" == gfx* ]]; then
    hold_file=$isa/platform_hold.hip.s hold_func='^_Z[_A-Za-z0-9]*gp_hold_kernel[_A-Za-z0-9]*:' hold_end='^\.Lfunc_end'
fi
# (The patterns go through the environment: awk -v would eat their backslashes.)
loads=$(F="$hold_func" E="$hold_end" R="$hold_re" awk '$0 ~ ENVIRON["F"] { on = 1; next } on && $0 ~ ENVIRON["E"] { on = 0 }
            on && $0 ~ ENVIRON["R"] { n++ } END { print n + 0 }' "$hold_file" 2>/dev/null)
if [ "${loads:-0}" -lt 1 ]; then
    echo "FAIL $target: gp_hold_kernel has no load of its flag that bypasses the non-coherent caches ($hold_file; want /$hold_re/)"; fail=1
else
    echo "ok   $target: gp_hold_kernel reads its flag past the non-coherent caches ($loads load(s) /$hold_re/)"
fi

# The reduce's last block loads its group's partials 8 a lane before it adds
# them (kernels/reduce/reduce.hip, wave_sum_of), so that they are in flight
# together: one at a time, each add waited out an L2 round trip.  Read the
# longest run of those loads with nothing between them that waits for one:
# an add in the PTX (NVIDIA: volatile loads); on AMD an s_waitcnt vmcnt
# (a volatile load there is followed by one, so gp_ld_from_other_cus is a
# relaxed device-scope atomic load: glc on gfx9 and gfx11, glc dlc on gfx10,
# sc1 on gfx94x).
case "$target" in
    sm_*) red_file=$isa/kernels_reduce_reduce.hip.ptx red_func='^\.visible \.entry _Z16gp_reduce_kernelIfLi4ELi0E'
          red_end='^}' red_load='ld\.volatile\.global\.f32' red_wait='add\.f32' ;;
    gfx94*) red_load='(flat|global)_load_(dword|b32) .*sc1' ;;
    gfx10*) red_load='(flat|global)_load_(dword|b32) .*glc dlc' ;;
    gfx*) red_load='(flat|global)_load_(dword|b32) .*glc' ;;
esac
if [[ "$target" == gfx* ]]; then
    red_file=$isa/kernels_reduce_reduce.hip.s red_func='^_Z16gp_reduce_kernelIfLi4ELi0E[_A-Za-z0-9]*:'
    red_end='^\.Lfunc_end' red_wait='s_waitcnt.*vmcnt'
fi
run=$(F="$red_func" E="$red_end" R="$red_load" W="$red_wait" awk '$0 ~ ENVIRON["F"] { on = 1; next }
        on && $0 ~ ENVIRON["E"] { on = 0 } on && $0 ~ ENVIRON["R"] { if (++r > m) m = r }
        on && $0 ~ ENVIRON["W"] { r = 0 } END { print m + 0 }' "$red_file" 2>/dev/null)
if [ "${run:-0}" -lt 8 ]; then
    echo "FAIL $target: gp_reduce_kernel<float, 4, 0> has at most ${run:-0} partial loads in flight together ($red_file; want 8 of /$red_load/ with no /$red_wait/ between)"; fail=1
else
    echo "ok   $target: gp_reduce_kernel<float, 4, 0> loads its group's partials $run at a time"
fi

# The registers a thread that the kernel rules assume (their occupancy
# models) must bound what the compiler reports.  Each rule file
# kernels/<k>/<k>_rule.c declares its build constants with a line
#   /* regs: EXPR <kernel name regex> [targets=<target regex>] */
# EXPR is evaluated by the C preprocessor in the rule file's own context,
# with GP_RULE_REGS(nv, amd) giving this target's vendor's value
# (kernels/rule.h), and held against every kernel the regex matches:
# ptxas's registers on sm_*; `.vgpr_count` on gfx*, against the value times
# the VGPR file a lane over gfx9's 256 (the same waves a SIMD): x2 on
# gfx90a/gfx94x (VGPRs and AGPRs share 512 a lane: AMD CDNA2 ISA guide), x4
# on RDNA (128 KiB of VGPRs a SIMD32: 1024 a lane in wave32, RDNA
# whitepaper), x1 on the other gfx9.
case "$target" in
    sm_*) pick=nv scale=1 ;;
    gfx90a* | gfx94*) pick=amd scale=2 ;;
    gfx1[0-9]*) pick=amd scale=4 ;;
    *) pick=amd scale=1 ;;
esac
cpp_cmd=$(command -v cpp || echo "")
ndecl=0
for rule_file in "$src"/kernels/*/*_rule.c; do
    rel_rule=${rule_file#$src/}
    while read -r expr re tg; do
        ndecl=$((ndecl + 1))
        if [[ "$tg" == targets=* ]]; then
            [[ "$target" =~ ${tg#targets=} ]] || continue
        fi
        if [ -z "$cpp_cmd" ]; then echo "FAIL rule_regs: no C preprocessor (cpp) to evaluate $expr"; fail=1; continue; fi
        body=$(printf '#include "%s"\n#undef GP_RULE_REGS\n#define GP_RULE_REGS(nv, amd) (%s)\ngp_regs_value = %s\n' \
                   "$rule_file" "$pick" "$expr" |
               "$cpp_cmd" -P -I"$src/platform" -I"$src/common" -I"$src/kernels" -I"$(dirname "$rule_file")" - 2>/dev/null |
               sed -n 's/^gp_regs_value = //p' | tail -1)
        bound=""
        [[ "$body" =~ ^[-0-9()\ +*/?:\<\>=]*$ ]] && bound=$((body)) 2>/dev/null
        if ! [[ "$bound" =~ ^[0-9]+$ ]] || [ "$bound" -lt 1 ]; then
            echo "FAIL rule_regs: $rel_rule: '$expr' does not evaluate to a register count (got '$body')"; fail=1; continue
        fi
        most=$(awk -v re="$re" '$2 ~ re { v = $4; sub(/v.*/, "", v); if (v + 0 > m) m = v + 0; n++ } END { print (n ? m : -1) }' "$report")
        allow=$((bound * scale))
        if [ "$most" -lt 0 ]; then
            echo "FAIL rule_regs: no kernel matches $re for $expr ($rel_rule)"; fail=1
        elif [ "$most" -gt "$allow" ]; then
            echo "FAIL rule_regs: $re uses up to $most registers, $rel_rule assumes $expr = $bound$([ "$scale" -gt 1 ] && echo " (x$scale = $allow on $target)")"; fail=1
        else
            echo "rule_regs: $re at most $most registers <= $expr = $bound$([ "$scale" -gt 1 ] && echo " x$scale")  ($rel_rule)"
        fi
    done < <(sed -n 's|^[[:space:]]*/\* regs: \([^ ]*\) \([^ ]*\)\( targets=[^ ]*\)\{0,1\} *\*/.*|\1 \2\3|p' "$rule_file")
done
[ "$ndecl" -gt 0 ] || { echo "FAIL rule_regs: no '/* regs: ... */' declaration in kernels/*/*_rule.c"; fail=1; }
echo "$target: $nsrc sources, $nkern kernels checked"
[ "$nkern" -gt 0 ] || { echo "FAIL: no kernels found in the resource report"; fail=1; }
exit $fail
