#!/usr/bin/env bash
# amd_chase_isa.sh GFX_TARGET SOURCE_DIR ISA_DIR
#
# Reads the AMD ISA of cache_latency's chase kernels and checks that the
# warm-up loop and the timed loop load through the same path:
#   - no scalar load (s_load_*) in any loop of a chase kernel: a uniform
#     pointer chased with s_load_dwordx2 goes through the scalar cache, so
#     a warm-up built that way never fills the vector L1 the timed loop reads;
#   - at least two loops (warm-up, timed) of >= CHASE_UNROLL vector loads each;
#   - every such loop has the same load instruction with the same cache
#     modifiers (the bypass kernel's bits must be in its warm-up too);
#   - the bypass kernel's loads carry the bits that make them miss the CU's
#     first level on this target (LLVM AMDGPUUsage memory model, agent-scope
#     loads): glc on gfx9 before gfx940 and on gfx11, glc and dlc on gfx10,
#     sc1 on gfx94x.  slc, dlc (gfx11) or nt alone are cache-policy hints that
#     still hit there;
#   - the cycle counter: where it is gfx11's 20-bit HW_REG_SHADER_CYCLES, the
#     timed loop reads it (a lap per block of loads, platform/gp_cycle_span.h)
#     so no lap wraps; where it is s_memtime (64 bits), no loop reads it and
#     the timed loop is loads alone.
# The ISA is the target's one compile (check_gpu_build.sh, or the gfx900
# gpuprobe build of amd_link_log.sh) in ISA_DIR.  Exit 77 (skipped) without
# hipcc.
set -u
target=$1 src=$2 isa=$3
command -v hipcc >/dev/null || { echo "hipcc not found: skipping $target"; exit 77; }
hip=$src/microbench/cache_latency/cache_latency.hip
unroll=$(sed -n 's/^#define CHASE_UNROLL \([A-Z_0-9]*\).*/\1/p' "$hip")
[ "$unroll" = GP_CYCLE_LAP_WORK ] && unroll=$(sed -n 's/^#define GP_CYCLE_LAP_WORK \([0-9]*\).*/\1/p' "$src/platform/gp_cycle_span.h")
[[ "$unroll" =~ ^[0-9]+$ ]] || { echo "FAIL: cannot read CHASE_UNROLL from $hip"; exit 1; }
out=$isa/microbench_cache_latency_cache_latency.hip.s
[ -s "$out" ] || { echo "FAIL: no $out: the target's compile did not run or failed"; exit 1; }
case "$target" in
    gfx94*) want_bits="sc1" ;;
    gfx10*) want_bits="glc dlc" ;;
    *) want_bits="glc" ;;
esac
narrow=0
[[ "$target" == gfx11* ]] && narrow=1

# One line per loop of the kernel whose name contains $1 (a label, then a
# later branch back to it): "<loads> <scalar loads> <counter reads>
# inner|outer <load signatures>" (outer: another loop header inside it), the
# signature being the mnemonic and its modifiers, registers dropped.
loops() {
    awk -v kname="$1" '
        /^_Z[_A-Za-z0-9]*:/ { inside = index($0, kname) > 0; n = 0; delete at; next }
        !inside { next }
        /^\.L[_A-Za-z0-9]*:/ { lab = $1; sub(/:.*/, "", lab); at[lab] = n
                               if ($0 ~ /Loop Header/) line[++n] = "#loop"
                               next }
        { sub(/;.*/, ""); if ($1 == "") next; line[++n] = $0 }
        /s_cbranch|s_branch/ {
            t = $NF
            if (!(t in at)) next
            vec = sc = clk = nest = 0; delete sig
            for (i = at[t] + 1; i <= n; i++) {
                if (line[i] == "#loop" && i > at[t] + 1) nest++
                if (line[i] ~ /s_memtime|HW_REG_SHADER_CYCLES/) clk++
                if (line[i] !~ /_load_/) continue
                split(line[i], w, /[ \t,]+/)
                m = ""; s = ""
                for (j = 1; j in w; j++) {
                    if (w[j] == "") continue
                    if (m == "") { m = w[j]; continue }
                    if (w[j] ~ /^(glc|slc|dlc|nt|sc0|sc1|nv)$/) s = s " " w[j]
                }
                if (m ~ /^s_/) sc++; else { vec++; sig[m s] = 1 }
            }
            all = ""
            for (k in sig) all = all (all == "" ? "" : "|") k
            print vec, sc, clk, (nest ? "outer" : "inner"), all
        }' "$out"
}

fail=0
for k in gp_cache_chase_cached_kernel gp_cache_chase_bypass_kernel; do
    mapfile -t ls < <(loops "$k")
    chase=0 first_sig="" timed_laps=0
    for l in "${ls[@]}"; do
        read -r vec sc clk nest sig <<<"$l"
        echo "     $target $k $nest loop: $vec vector loads, $sc scalar loads, $clk counter reads, [$sig]"
        if [ "$sc" -gt 0 ]; then
            echo "FAIL $target $k: a loop chases with scalar loads (s_load): it never touches the vector L1"; fail=1
        fi
        [ "$vec" -ge "$unroll" ] || continue
        chase=$((chase + 1))
        [ "$nest" = inner ] && [ "$clk" -gt 0 ] && timed_laps=$((timed_laps + 1))
        if [ "$narrow" -eq 0 ] && [ "$nest" = inner ] && [ "$clk" -gt 0 ]; then
            echo "FAIL $target $k: a chase loop reads the 64-bit cycle counter: the timed loads are not bare"; fail=1
        fi
        if [ -z "$first_sig" ]; then first_sig=$sig
        elif [ "$sig" != "$first_sig" ]; then
            echo "FAIL $target $k: the loops load differently: [$first_sig] and [$sig]"; fail=1
        fi
    done
    if [ "$chase" -lt 2 ]; then
        echo "FAIL $target $k: $chase loop(s) of >= $unroll vector loads; want 2 (warm-up and timed)"; fail=1
    fi
    if [ "$narrow" -eq 1 ] && [ "$timed_laps" -lt 1 ]; then
        echo "FAIL $target $k: no chase loop reads the 20-bit cycle counter: a pass of many loads wraps it"; fail=1
    fi
    if [ "$k" = gp_cache_chase_bypass_kernel ]; then
        for b in $want_bits; do
            if ! [[ " $first_sig " == *" $b "* ]]; then
                echo "FAIL $target $k: the bypass loads [$first_sig] lack $b: on $target they still hit the CU's first level"; fail=1
            fi
        done
    fi
done
[ $fail -eq 0 ] && echo "ok   $target: warm-up and timed chase loops load through the same vector path; bypass loads carry $want_bits"
exit $fail
