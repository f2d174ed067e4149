#!/usr/bin/env bash
# newgpu_check.sh GPUPROBE SOURCE_DIR RESULTS_DIR KERNELS...: the "new GPU" case,
# a GPU no shipped table was tuned on.  With the shipped table of this arch hidden (a tables folder
# holding every shipped table but this arch's, through GP_TABLES_DIR), build
# the device's table from its probe records (RESULTS_DIR's when the probes
# ran there, else a fresh `characterize`), so every kernel parameter comes
# from the rules over this device's facts; then every kernel verifies and
# benches under that table.  77 without a GPU.
set -u
bin=$1 src=$2 results=$3; shift 3
"$bin" info >/dev/null 2>&1; rc=$?
[ $rc -eq 77 ] && { echo "no GPU: skipped"; exit 77; }
arch=$("$bin" info 2>/dev/null | awk '$1 == "arch" {print $2}')
[ -n "$arch" ] || { echo "gpuprobe info names no arch"; exit 1; }
work=$(mktemp -d /tmp/gp_newgpu_XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tables" "$work/results"
for t in "$src"/tables/*; do
    [ "$(basename "$t")" = "$arch" ] || cp "$t" "$work/tables/"
done
export GP_TABLES_DIR=$work/tables
if ls "$results"/*.json >/dev/null 2>&1; then
    cp "$results"/*.json "$work/results/"
    "$bin" report "$work/results" || exit 1
else
    "$bin" characterize --out "$work/results" || exit 1
fi
table=$work/results/table.txt
"$bin" table check "$table" || exit 1
# Every kernel value is the rule's: nothing came from a shipped kernel section.
if awk '/^\[kernel\./ {on = 1; next} /^\[/ {on = 0} on && /=/ && !/# rule gp_/' "$table" | grep .; then
    echo "kernel values above are not the rules'"; exit 1
fi
"$bin" verify "$@" --table "$table" || exit 1
"$bin" bench "$@" --out "$work/results" --table "$table" || exit 1
exit 0
