#!/usr/bin/env bash
# device_quick.sh OUT: on a GPU machine, how long the test workflow's GPU
# part takes now that `tune --quick` pairs only each kernel's headline
# problem's leader with the rule (README "How long each takes").  Builds the
# sm90 preset, runs `ctest -L quick` (timed), and writes to OUT:
#   ctest_quick.txt     the label's tests and times (quick.tune among them)
#   quick_tune_time.txt per kernel: the sweep's and the pairing's seconds, from
#                       quick.tune's own log (`[k] tune time: ...`)
#   rules-quick.md      quick.tune's rules.md ("not paired (quick)" rows)
# Estimate before it (docs/reports/h200/quick-tune-estimate.md): quick.tune
# 84-132 s on an H200 (190 s when every leader was paired), the label
# 153-201 s (259 s).
set -u
out=$1
. "$(dirname "$0")/device_build.sh"
here=$(pwd)
b=build/sm90
[ -d "$b" ] || b=build/default
clean() { sed -e "s#$here/##g" -e "s#$here#.#g" "$@"; }
step "ctest -L quick"
s=$(date +%s)
rm -rf "$b/results-quick"
ctest --test-dir "$b" -L quick --timeout 600 --output-on-failure >"$out/ctest_quick.raw" 2>&1
echo "ctest -L quick rc=$?, $(($(date +%s) - s)) s" >>"$out/ctest_quick.raw"
clean "$out/ctest_quick.raw" >"$out/ctest_quick.txt" && rm "$out/ctest_quick.raw"
grep -E "quick\.tune|Total Test time|rc=" "$out/ctest_quick.txt"
grep -h "tune time:" "$b/Testing/Temporary/LastTest.log" | clean >"$out/quick_tune_time.txt"
cat "$out/quick_tune_time.txt"
sum() { sed -n "s/.*$1 \([0-9.]*\) s.*/\1/p" "$out/quick_tune_time.txt" | awk '{s += $1} END {printf "%.1f", s}'; }
echo "all kernels: sweep $(sum 'candidates') s, pairing $(sum 'paired') s" | tee -a "$out/quick_tune_time.txt"
[ -f "$b/results-quick/rules.md" ] && clean "$b/results-quick/rules.md" >"$out/rules-quick.md"
grep -c "not paired (quick)" "$out/rules-quick.md" 2>/dev/null | sed 's/^/problems not paired (quick): /'
step done
