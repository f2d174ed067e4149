#!/usr/bin/env bash
# device_final.sh OUT PART: the committed GPU runs of one session, in few
# device calls (each under 10 minutes; B and C reuse A's build when the
# machine is still warm, and rebuild when it is not).
#   A  build; `ctest -L microbench` twice in a row and `gpuprobe compare`
#      (repeat-runs.md); the rules' three-way table: the second run's table
#      (every kernel parameter from the rules) against `tune`'s outcome and
#      the shipped table, benched in one run (rules.md)
#   B  `ctest -L kernels` (every kernel under every table), the new-GPU test
#      (this arch's shipped table hidden), the second-wave benches
#   C  the two microbench runs and their comparison again, the quick test
#      label's duration, and the sm_90 package unpacked outside the build
#      tree: characterize from there, compare with the build tree's run;
#      launch_rate alone from the package against its characterize run
# Logs and results land in OUT (fetch them before the next call empties it).
set -uo pipefail
out=$1 part=$2
preset=${GP_PRESET:-sm90}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
step() { echo "== $* ($(($(date +%s) - t0)) s)" | tee -a "$out/steps.txt"; }
here=$(pwd)
b=build/$preset
g=$here/$b/app/gpuprobe
# Strip this machine's checkout path from a log (committed logs carry none).
clean() { sed -e "s#$here/##g" -e "s#$here#.#g" "$@"; }

step "part $part: configure+build ($preset)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv \
    >"$out/smi_$part.txt" 2>&1
if ! { cmake --preset "$preset" && cmake --build --preset "$preset" -j 16; } >"$out/build_$part.txt" 2>&1; then
    tail -40 "$out/build_$part.txt"
    exit 1
fi
arch=$($g info | awk '$1 == "arch" {print $2}')
kernels1="ssim conv2d transpose reduce"
kernels2=$($g list 2>/dev/null | awk '/^kernels/ {k = 1; next} k && NF {print $1}' | grep -vxE 'ssim|conv2d|transpose|reduce' | tr '\n' ' ')

repeat_runs() {
    # GP_RUNS=1: one run (the build tree's reference for the package compare), no comparison.
    for r in $(seq 1 "${GP_RUNS:-2}"); do
        step "ctest -L microbench, run $r"
        rm -rf "$b/results"
        s=$(date +%s)
        ctest --test-dir "$b" -L microbench --timeout 600 >"$out/ctest_microbench_run$r.raw" 2>&1
        rc=$?
        echo "run $r: ctest -L microbench rc=$rc, $(($(date +%s) - s)) s" >>"$out/ctest_microbench_run$r.raw"
        clean "$out/ctest_microbench_run$r.raw" >"$out/ctest_microbench_run$r.txt" && rm "$out/ctest_microbench_run$r.raw"
        tail -3 "$out/ctest_microbench_run$r.txt"
        rm -rf "$out/run$r" && cp -r "$b/results" "$out/run$r"
    done
    [ "${GP_RUNS:-2}" -ge 2 ] || return 0
    step compare
    $g compare "$out/run1" "$out/run2" --out "$out/repeat-runs.md" >/dev/null
    echo "compare rc=$?"
    grep -m3 -E "agree|differ|one run only" "$out/repeat-runs.md"
}

case $part in
A)
    repeat_runs
    step "tune ($kernels1) on a copy of run 2"
    cp "$out/run2/table.txt" "$out/rule_only"
    rm -rf "$out/tune" && cp -r "$out/run2" "$out/tune"
    $g tune $kernels1 --out "$out/tune" >"$out/tune.md" 2>"$out/tune_log.txt" || tail -20 "$out/tune_log.txt"
    cp "$out/tune/table.txt" "$out/tuned"
    step "bench rule_only / tuned / shipped"
    tables="--table $out/rule_only --table $out/tuned"
    [ -f "tables/$arch" ] && tables="$tables --table tables/$arch"
    $g bench $kernels1 --out "$out/bench1" $tables >"$out/bench1.md" 2>"$out/bench1_log.txt" \
        || tail -20 "$out/bench1_log.txt"
    if [ -n "${GP_WITH_QUICK:-}" ]; then
        step "ctest -L quick"
        ctest --test-dir "$b" -L quick --timeout 600 --output-on-failure >"$out/ctest_quick.raw" 2>&1
        echo "ctest -L quick rc=$?" >>"$out/ctest_quick.raw"
        clean "$out/ctest_quick.raw" >"$out/ctest_quick.txt" && rm "$out/ctest_quick.raw"
        tail -3 "$out/ctest_quick.txt"
    fi
    ;;
B)
    [ -f "$b/results/table.txt" ] || { step "no results from part A here: ctest -L microbench"; \
        ctest --test-dir "$b" -L microbench --timeout 600 >"$out/ctest_microbench_B.txt" 2>&1; }
    step "ctest -L kernels"
    ctest --test-dir "$b" -L kernels --timeout 600 --output-on-failure >"$out/ctest_kernels.raw" 2>&1
    echo "ctest -L kernels rc=$?" >>"$out/ctest_kernels.raw"
    clean "$out/ctest_kernels.raw" >"$out/ctest_kernels.txt" && rm "$out/ctest_kernels.raw"
    tail -4 "$out/ctest_kernels.txt"
    if [ -n "$kernels2" ]; then
        step "bench $kernels2"
        (cd "$b" && $g bench $kernels2 --out "$out/bench2" --table lookup --table "$here/tables/generic" \
            >"$out/bench2.md" 2>"$out/bench2_log.txt") || tail -20 "$out/bench2_log.txt"
    fi
    step "ctest -L newgpu"
    ctest --test-dir "$b" -L newgpu --timeout 600 --output-on-failure >"$out/ctest_newgpu.raw" 2>&1
    echo "ctest -L newgpu rc=$?" >>"$out/ctest_newgpu.raw"
    clean "$out/ctest_newgpu.raw" >"$out/ctest_newgpu.txt" && rm "$out/ctest_newgpu.raw"
    tail -3 "$out/ctest_newgpu.txt"
    ;;
C)
    repeat_runs
    # GP_SKIP_QUICK=1: leave the quick label to tools/device_quick.sh (a call of its own).
    if [ -z "${GP_SKIP_QUICK:-}" ]; then
        step "ctest -L quick (the test workflow's GPU part)"
        s=$(date +%s)
        ctest --test-dir "$b" -L quick --timeout 600 --output-on-failure >"$out/ctest_quick.raw" 2>&1
        echo "ctest -L quick rc=$?, $(($(date +%s) - s)) s" >>"$out/ctest_quick.raw"
        clean "$out/ctest_quick.raw" >"$out/ctest_quick.txt" && rm "$out/ctest_quick.raw"
        tail -3 "$out/ctest_quick.txt"
    fi
    step "package-sm90, unpacked outside the build tree"
    rm -rf build/package-sm90
    cmake --workflow --preset package-sm90 >"$out/package.txt" 2>&1 || { tail -20 "$out/package.txt"; exit 1; }
    d=$(mktemp -d /tmp/gp-pkg.XXXX)
    tar xzf build/package-sm90/gpuprobe-*-sm_90-Linux.tar.gz -C "$d"
    p=$(ls -d "$d"/gpuprobe-*-sm_90-Linux)
    (cd "$d" && unset GP_TABLES_DIR && {
        objdump -p "$p/bin/gpuprobe" | grep NEEDED
        "$p/bin/gpuprobe" --version
        "$p/bin/gpuprobe" info
        "$p/bin/gpuprobe" characterize --out "$d/run"
        echo "characterize rc=$?"
    }) >"$out/package_run.raw" 2>&1
    sed -e "s#$d#PKG#g" "$out/package_run.raw" >"$out/package_run.txt" && rm "$out/package_run.raw"
    tail -4 "$out/package_run.txt"
    ref="$b/results"
    [ -f "$ref/table.txt" ] || ref=docs/reports/h200
    step "compare the package's run with $ref"
    $p/bin/gpuprobe compare "$ref" "$d/run" --out "$out/package-compare.md" >/dev/null
    echo "compare rc=$?"
    grep -m3 -E "agree|differ|one run only" "$out/package-compare.md"
    # characterize runs every probe in one process, ctest one process per
    # probe: launch_rate alone from the package says which of the two a
    # launch-cost difference follows (graph_launch_us moved +34 % on
    # 2026-11-23 between the build tree's ctest run and the package's).
    step "launch_rate alone from the package, compared with its characterize run"
    "$p/bin/gpuprobe" run launch_rate --out "$d/solo" >/dev/null 2>&1
    $p/bin/gpuprobe compare "$d/run" "$d/solo" --only launch_rate --out "$out/package-launch-solo.md" >/dev/null
    echo "compare (launch_rate: characterize vs alone) rc=$?"
    grep -E "launch_us" "$out/package-launch-solo.md" | grep "^|"
    ;;
esac
step "part $part done"
