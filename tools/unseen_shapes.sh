#!/usr/bin/env bash
# tools/unseen_shapes.sh GPUPROBE DIR SHAPES
# The rules on shapes no bench list has: for each kernel in SHAPES (lines
# "kernel<TAB>spec"; # comments), `gpuprobe tune KERNEL --shape SPEC...
# --out DIR` (DIR: a copy of a characterized results folder, so the
# measured table is there), which times every candidate on each shape and
# pairs the rule's choice with the best one (ABBA).  Then one line per
# shape: the paired rule / best ratio, and the median and worst per kernel
# and over all.  GP_UNSEEN_BUDGET: seconds of tune per kernel (default 12).
set -uo pipefail
bin=${1:?usage: unseen_shapes.sh GPUPROBE DIR SHAPES} dir=${2:?} shapes=${3:?}
[ -f "$dir/table.txt" ] || { echo "unseen_shapes: $dir/table.txt: characterize first" >&2; exit 2; }
[ -f "$shapes" ] || { echo "unseen_shapes: no shapes file $shapes" >&2; exit 2; }
rc=0
summary=$dir/unseen_shapes.md
for k in $(awk -F '\t' '!/^#/ && NF {print $1}' "$shapes" | uniq); do
    args=()
    while IFS= read -r spec; do args+=(--shape "$spec"); done < <(awk -F '\t' -v k="$k" '$1 == k {print $2}' "$shapes")
    echo "=== $k: $((${#args[@]} / 2)) shapes, budget ${GP_UNSEEN_BUDGET:-12} s" >&2
    "$bin" tune "$k" "${args[@]}" --budget "${GP_UNSEEN_BUDGET:-12}" --out "$dir" | tee "$dir/unseen_$k.txt" || rc=1
done
# The tune lines: | kernel | problem | rule X | best Y (params) | paired rule/best R (lo-hi) |
cat "$dir"/unseen_*.txt | awk -F '|' '/paired rule\/best/ {
        k = $2; gsub(/ /, "", k); r = $6; sub(/.*paired rule\/best /, "", r); split(r, a, " ");
        v = (a[1] ~ /^[0-9.]+$/) ? a[1] : 1; print k "\t" v "\t" $3 "\t" $6 }' >"$dir/unseen_ratios.tsv"
{
    echo "| kernel | shapes | median rule / best | worst | worst shape |"
    echo "| --- | --- | --- | --- | --- |"
    for k in $(cut -f1 "$dir/unseen_ratios.tsv" | uniq); do
        awk -F '\t' -v k="$k" '$1 == k' "$dir/unseen_ratios.tsv" | sort -t$'\t' -k2,2g | awk -F '\t' -v k="$k" '
            { v[NR] = $2; s[NR] = $3 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
              printf "| %s | %d | %.3f | %.3f | %s |\n", k, NR, m, v[NR], s[NR] }'
    done
    sort -t$'\t' -k2,2g "$dir/unseen_ratios.tsv" | awk -F '\t' '{ v[NR] = $2 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        n5 = 0; for (i = 1; i <= NR; i++) if (v[i] > 1.05) n5++;
        printf "| all | %d | %.3f | %.3f | %d shapes over 1.05 |\n", NR, m, v[NR], n5 }'
} >"$summary"
cat "$summary"
exit $rc
