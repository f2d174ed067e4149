#!/usr/bin/env bash
# On a GPU machine: build, run `ctest -L microbench` twice in a row and
# compare the two runs (issue 6, "noisy machines"), writing into OUT:
#   tools/device_repeat.sh OUT [PRESET]
# OUT/run1, OUT/run2    the two results folders (records, series, table)
# OUT/repeat-runs.md    `gpuprobe compare run1 run2`
# OUT/ctest_run{1,2}.txt
# Exit: compare's (0 all agree, 1 some differ) or the first failing step's.
set -uo pipefail
out=${1:-device-out} preset=${2:-sm90}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
if ! { cmake --preset "$preset" && cmake --build --preset "$preset" -j; } >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"
    exit 1
fi
bin=build/$preset/app/gpuprobe
for r in 1 2; do
    rm -rf "build/$preset/results"
    start=$(date +%s)
    ctest --test-dir "build/$preset" -L microbench --timeout 600 >"$out/ctest_run$r.txt" 2>&1
    rc=$?
    echo "run $r: ctest -L microbench rc=$rc, $(( $(date +%s) - start )) s" | tee -a "$out/ctest_run$r.txt"
    # The log is committed beside the comparison: no path of this machine in it.
    sed -i "s#$(pwd)/##g" "$out/ctest_run$r.txt"
    [ $rc -eq 0 ] || exit $rc
    cp -r "build/$preset/results" "$out/run$r"
done
"$bin" compare "$out/run1" "$out/run2" --out "$out/repeat-runs.md" >/dev/null
rc=$?
echo "compare rc=$rc"
grep -m3 -E "characteristics agree|differ" "$out/repeat-runs.md"
exit $rc
