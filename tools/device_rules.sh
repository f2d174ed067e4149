#!/usr/bin/env bash
# device_rules.sh OUT [KERNELS...]: on a GPU machine, how close the rules land
# (issue 13).  Builds the sm90 preset, characterizes (every kernel parameter
# from the rules over this run's facts: the rule-only table), tunes a copy
# (each candidate on each bench problem at full size; the rule's choice kept
# unless beaten beyond the spread: the tuned table, and tune's per-problem
# rule / kept / best verdicts), then benches the rule-only, tuned and shipped
# tables on the same problems in one run, and writes OUT/rules.md: the
# three-way tables with times and ratios and the commands that made them.
# About 7 minutes on an H200 (characterize ~170 s, tune ~150 s, bench ~60 s).
set -u
out=$1; shift
kernels=${*:-ssim conv2d transpose reduce}
. "$(dirname "$0")/device_build.sh"
arch=$($g info | awk '$1 == "arch" {print $2}')
step characterize
run=$out/run
$g characterize --out "$run" >"$out/characterize.txt" 2>&1 || { tail -30 "$out/characterize.txt"; exit 1; }
cp "$run/table.txt" "$out/rule_only"
step tune
cp -r "$run" "$out/tune"
$g tune $kernels --out "$out/tune" >"$out/tune.md" 2>"$out/tune_log.txt" || { tail -30 "$out/tune_log.txt"; exit 1; }
cp "$out/tune/table.txt" "$out/tuned"
step bench
tables="--table $out/rule_only --table $out/tuned"
[ -f "tables/$arch" ] && tables="$tables --table tables/$arch"
$g bench $kernels --out "$out/bench" $tables >"$out/bench.md" 2>"$out/bench_log.txt" \
    || { tail -30 "$out/bench_log.txt"; exit 1; }
step report
{
    echo "# Rule-derived, tuned and best parameters: $($g info | awk -F'  +' '$1 == "name" {print $2}') ($arch), $(date -u +%F)"
    echo
    echo "Made by \`tools/device_rules.sh OUT $kernels\` at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'):"
    echo
    echo '```'
    echo "$g characterize --out run                # rule_only = run/table.txt"
    echo "$g tune $kernels --out tune      # tuned = tune/table.txt, verdicts below"
    echo "$g bench $kernels --out bench $tables"
    echo '```'
    echo
    echo "rule_only: every kernel parameter from the rules over this run's facts (no sweep, no shipped"
    echo "kernel section); tuned: tune's outcome; shipped: tables/$arch (swept on one H200)."
    echo
    echo "## tune's verdicts (median ms per candidate and problem; best = fastest candidate)"
    sed '1,/^$/d' "$out/tune/rules.md"
    echo
    echo "## The three tables on the bench problems (one run; rule / best ratio per problem in tune's table)"
    echo
    grep -E '^\| (kernel|---|[a-z0-9]+ \|)' "$out/bench.md" | grep -E '^\| (kernel|---)|rule_only|tuned|shipped'
} >"$out/rules.md"
step done
cat "$out/rules.md"
