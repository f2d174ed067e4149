#!/usr/bin/env bash
# After the probes: build the tuning table and the report from the records,
# then check both.  The records are in DIR (no resource spec: device 0) or,
# under a CTest resource spec, in one folder per GPU, DIR/<bus>_<uuid8>/
# (README "Many GPUs"): each folder gets its table and report.  Skipped (77)
# when no probe wrote a record (no GPU).
set -u
bin=$1 dir=$2
dirs=()
ls "$dir"/*.json >/dev/null 2>&1 && dirs+=("$dir")
for sub in "$dir"/*/; do
    ls "$sub"*.json >/dev/null 2>&1 && dirs+=("${sub%/}")
done
[ ${#dirs[@]} -gt 0 ] || { echo "no records in $dir or its GPU folders: nothing to tabulate"; exit 77; }
for d in "${dirs[@]}"; do
    echo "== $d"
    "$bin" report "$d" || exit 1
    "$bin" table check "$d/table.txt" || exit 1
    for f in report.md report.html; do
        [ -s "$d/$f" ] || { echo "missing $d/$f"; exit 1; }
    done
    n=$(grep -c "<svg" "$d/report.html")
    echo "report.html: $n plots"
    [ "$n" -ge 1 ] || { echo "$d/report.html has no plot"; exit 1; }
done
exit 0
