#!/usr/bin/env bash
# amd_chase_isa.sh GFX_TARGET SOURCE_DIR WORK_DIR
#
# Reads the AMD ISA of cache_latency's chase kernels and checks that the
# warm-up loop and the timed loop load through the same path:
#   - no scalar load (s_load_*) in any loop of a chase kernel: a uniform
#     pointer chased with s_load_dwordx2 goes through the scalar cache, so
#     a warm-up built that way never fills the vector L1 the timed loop reads;
#   - at least two loops (warm-up, timed) of >= CHASE_UNROLL vector loads each;
#   - every such loop has the same load instruction with the same cache
#     modifiers (the bypass kernel's glc/slc/nt must be in its warm-up too),
#     and the bypass kernel's loads carry a cache-bypass modifier.
# Exit 77 (skipped) without hipcc.
set -u
target=$1 src=$2 work=$3
mkdir -p "$work"
source "$src/tests/build/amd_hipcc.sh"
amd_setup "$target" "$work"
hip=$src/microbench/cache_latency/cache_latency.hip
unroll=$(sed -n 's/^#define CHASE_UNROLL \([0-9]*\).*/\1/p' "$hip")
[ -n "$unroll" ] || { echo "FAIL: cannot read CHASE_UNROLL from $hip"; exit 1; }
out=$work/cache_latency_$target.s
"$hipcc" -x hip --offload-arch="$target" "${AMD_FLAGS[@]}" --cuda-device-only -O3 -S -I"$src/platform" -I"$src/common" \
    -I"$src/microbench" -I"$src/microbench/cache_latency" -o "$out" "$hip" 2>"$work/chase_isa_$target.log" || {
    echo "FAIL: hipcc -S failed"; cat "$work/chase_isa_$target.log"; exit 1; }

# One line per loop of the kernel whose name contains $1 (a label, then a
# later branch back to it): "<loads> <scalar loads> <load signatures>", the
# signature being the mnemonic and its modifiers, registers dropped.
loops() {
    awk -v kname="$1" '
        /^_Z[_A-Za-z0-9]*:/ { inside = index($0, kname) > 0; n = 0; delete at; next }
        !inside { next }
        /^\.L[_A-Za-z0-9]*:/ { lab = $1; sub(/:.*/, "", lab); at[lab] = n; next }
        { sub(/;.*/, ""); if ($1 == "") next; line[++n] = $0 }
        /s_cbranch|s_branch/ {
            t = $NF
            if (!(t in at)) next
            vec = sc = 0; delete sig
            for (i = at[t] + 1; i <= n; i++) {
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
            print vec, sc, all
        }' "$out"
}

fail=0
for k in gp_cache_chase_cached_kernel gp_cache_chase_bypass_kernel; do
    mapfile -t ls < <(loops "$k")
    chase=0 first_sig=""
    for l in "${ls[@]}"; do
        read -r vec sc sig <<<"$l"
        echo "     $target $k loop: $vec vector loads, $sc scalar loads, [$sig]"
        if [ "$sc" -gt 0 ]; then
            echo "FAIL $target $k: a loop chases with scalar loads (s_load): it never touches the vector L1"; fail=1
        fi
        [ "$vec" -ge "$unroll" ] || continue
        chase=$((chase + 1))
        if [ -z "$first_sig" ]; then first_sig=$sig
        elif [ "$sig" != "$first_sig" ]; then
            echo "FAIL $target $k: the loops load differently: [$first_sig] and [$sig]"; fail=1
        fi
    done
    if [ "$chase" -lt 2 ]; then
        echo "FAIL $target $k: $chase loop(s) of >= $unroll vector loads; want 2 (warm-up and timed)"; fail=1
    fi
    if [ "$k" = gp_cache_chase_bypass_kernel ] && ! [[ "$first_sig" =~ (glc|slc|nt|sc0|sc1) ]]; then
        echo "FAIL $target $k: the bypass loads carry no cache-bypass modifier ([$first_sig])"; fail=1
    fi
done
[ $fail -eq 0 ] && echo "ok   $target: warm-up and timed chase loops load through the same vector path"
exit $fail
