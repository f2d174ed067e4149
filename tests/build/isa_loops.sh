# isa_loops.sh: sourced by the build checks that count instructions in the
# loops of a compiled kernel (fma_isa_check.sh, mma_isa_check.sh).
#
# isa_loop_count FILE KNAME REGEX: the largest count of lines matching REGEX
# in one loop of the kernel whose mangled name contains KNAME, a loop being
# the lines between a label and a later branch back to it.  Works for PTX
# ($L__BB3_2: ... bra $L__BB3_2;) and AMDGPU assembly (.LBB3_1: ...
# s_cbranch_scc1 .LBB3_1).  A packed v_pk_fma counts twice (two FMAs).
isa_loop_count() {
    awk -v kname="$2" -v re="$3" '
        # Start of a kernel: PTX ".entry NAME(" or an AMDGPU "NAME:" label.
        /\.entry [_A-Za-z0-9]+/ || /^_Z[_A-Za-z0-9]*:/ {
            name = $0; inside = index(name, kname) > 0; nl = 0; delete at; next }
        !inside { next }
        /^[$.]L[_A-Za-z0-9]*:/ { lab = $1; sub(/:.*/, "", lab); at[lab] = count; next }
        $0 ~ re { count += ($0 ~ /pk_fma/) ? 2 : 1 }
        /bra|s_cbranch|s_branch/ {
            t = $NF; sub(/;$/, "", t)
            if (t in at && count - at[t] > best) best = count - at[t] }
        END { print best + 0 }' "$1"
}
