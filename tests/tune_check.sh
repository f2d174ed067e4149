#!/usr/bin/env bash
# tune.kernels: after the probes wrote DIR/table.txt, time each kernel's
# candidate parameters (gpuprobe tune), check the table now holds tune's
# outcome for each (all swept where a candidate beat the rule beyond the
# spread, else all the rule's) and rules.md its per-problem verdict, and
# rebuild the report so it shows the tuned table.
# Skipped (77) without a measured table (no GPU, or microbench not run).
# tune_check.sh BIN DIR [--quick] KERNEL...: --quick (the test workflow's
# smoke run) times each candidate briefly; the sweep's path is the same.
set -u
bin=$1 dir=$2; shift 2
quick=()
[ "${1:-}" = --quick ] && { quick=(--quick); shift; }
[ -f "$dir/table.txt" ] || { echo "no measured table in $dir: run ctest -L microbench first"; exit 77; }
mark() { [ -n "${GP_WORKFLOW_TIMES:-}" ] && bash "$(dirname "$0")/workflow_times.sh" mark "$GP_WORKFLOW_TIMES" "$1"; }
mark tune_start
"$bin" tune "$@" "${quick[@]}" --out "$dir" || exit $?  # full runs: full-size timings; quick ones favour small tiles
"$bin" table check "$dir/table.txt" || exit 1
for k in "$@"; do
    grep -q "^\[kernel\.$k\]" "$dir/table.txt" || { echo "no [kernel.$k] in $dir/table.txt"; exit 1; }
    kinds=$(awk -v s="[kernel.$k]" '$0 == s {on = 1; next} /^\[/ {on = 0}
                on && /# swept / {print "swept"} on && /# rule gp_'"$k"'_rule / {print "rule"}
                on && /=/ && !/# swept / && !/# rule gp_'"$k"'_rule / {print "other"}' "$dir/table.txt" | sort -u)
    [ "$kinds" = swept ] || [ "$kinds" = rule ] \
        || { echo "kernel.$k: values not all swept or all the rule's: $kinds"; exit 1; }
    grep -q "^## $k\$" "$dir/rules.md" && awk -v s="## $k" '$0 == s {on = 1; next} /^## / {on = 0} on' "$dir/rules.md" \
        | grep -q "(headline)" || { echo "rules.md: no per-problem verdict for $k"; exit 1; }
done
"$bin" report "$dir" || exit 1
grep -Eq "swept|rule gp_" "$dir/report.md" || { echo "report.md does not show the kernel parameters' provenance"; exit 1; }
mark tune_end
exit 0
