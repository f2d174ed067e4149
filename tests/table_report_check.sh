#!/usr/bin/env bash
# After the probes: build the tuning table and the report from the records,
# then check both.  Skipped (77) when no probe wrote a record (no GPU).
set -u
bin=$1 dir=$2
ls "$dir"/*.json >/dev/null 2>&1 || { echo "no records in $dir: nothing to tabulate"; exit 77; }
"$bin" report "$dir" || exit 1
"$bin" table check "$dir/table.txt" || exit 1
for f in report.md report.html; do
    [ -s "$dir/$f" ] || { echo "missing $dir/$f"; exit 1; }
done
n=$(grep -c "<svg" "$dir/report.html")
echo "report.html: $n plots"
[ "$n" -ge 1 ] || { echo "report.html has no plot"; exit 1; }
exit 0
