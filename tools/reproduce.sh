#!/usr/bin/env bash
# tools/reproduce.sh OUT STEP...
#
# Reproduces the committed GPU figures on a GPU machine, from this checkout,
# as a new user would: each step works on a fresh copy of the tree (a git
# clone of HEAD where the checkout has its history, else a copy of the
# files without any build folder) in $GP_SCRATCH (default /tmp/gpuprobe-fresh),
# kept between steps so later ones reuse the build.  Logs and results go to
# OUT, one <step>.log and one <step>.tar.gz a step (few files: device runners
# and CI artifact stores take few).
#
# Steps:
#   characterize  `cmake --workflow --preset characterize`, timed, on the
#                 fresh copy (the build for this machine's GPUs, every probe,
#                 the table and report, tune); its last test prints each
#                 step's time; the results folder goes to the archive
#   kernels       `ctest -L kernels`: every kernel against its CPU reference
#                 under the device's, the generic, two mistuned and the
#                 measured table (after characterize)
#   quick         the test workflow's GPU part, `ctest -L quick`, timed
#   test          the whole README test command, `cmake --workflow --preset
#                 test`, timed
#   bench         `gpuprobe bench` of every kernel under the device's table,
#                 paired with its baselines (CSV and the Markdown table)
#   multi         every GPU of the node: `characterize --device all`, `fleet`
#                 over them, the P2P matrix (a node of several GPUs)
#   example       the example application built against the installed
#                 library, run against the measured table and with none
#   unseen        the rules on shapes in no bench list (tools/unseen_shapes.txt):
#                 tune --shape, each shape's rule paired with its best
#                 candidate (after characterize)
#   experiments   the standalone experiments (unmaintained/experiments)
# Environment: GP_SCRATCH (the fresh copy), GP_KERNELS (bench: the kernels,
# default all), GP_BENCH_ARGS (more bench options).
set -uo pipefail
out=${1:?usage: tools/reproduce.sh OUT STEP... (characterize kernels quick test bench multi example unseen experiments)}
shift
[ $# -gt 0 ] || { echo "no step named (characterize kernels quick test bench multi example unseen experiments)" >&2; exit 2; }
mkdir -p "$out" && out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
fresh=${GP_SCRATCH:-/tmp/gpuprobe-fresh}
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
say() { echo "== $* ($(($(date +%s) - t0)) s)" | tee -a "$out/steps.txt"; }
# Committed logs carry no machine paths: the fresh copy is "."
clean() { sed -e "s#$fresh/##g" -e "s#$fresh#.#g" -e "s#$here/##g"; }
bin=$fresh/build/default/app/gpuprobe

fresh_copy() {
    [ -d "$fresh/src-ready" ] && return 0
    rm -rf "$fresh" && mkdir -p "$fresh"
    if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
        git clone -q "$here" "$fresh.clone" && rm -rf "$fresh" && mv "$fresh.clone" "$fresh"
    else
        tar -C "$here" --exclude=./build --exclude=./.git -cf - . | tar -C "$fresh" -xf -
    fi
    mkdir -p "$fresh/src-ready"
}

machine() {
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv 2>&1
    echo "cores: $(nproc); date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
}

archive() { # step folder...
    local step=$1
    shift
    tar -C "$fresh" -czf "$out/$step.tar.gz" "$@" 2>/dev/null
}

timed() { # step command...: the command's output into OUT/step.log, its wall time last
    local step=$1 s
    shift
    s=$(date +%s)
    (cd "$fresh" && "$@") 2>&1 | clean >"$out/$step.log"
    local rc=${PIPESTATUS[0]}
    echo "$step: exit $rc after $(($(date +%s) - s)) s on $(nproc) cores" | tee -a "$out/$step.log" "$out/steps.txt"
    return "$rc"
}

rc=0
for step in "$@"; do
    say "$step"
    case "$step" in
    characterize)
        fresh_copy
        machine >"$out/machine.txt"
        rm -rf "$fresh/build/default"
        timed characterize cmake --workflow --preset characterize || rc=1
        tail -12 "$out/characterize.log"
        archive characterize build/default/results build/default/Testing/Temporary/LastTest.log
        ;;
    kernels)
        timed kernels ctest --test-dir build/default -L kernels --output-on-failure || rc=1
        tail -5 "$out/kernels.log"
        ;;
    quick)
        fresh_copy
        (cd "$fresh" && cmake --preset default >/dev/null && cmake --build --preset default >/dev/null) || rc=1
        timed quick ctest --test-dir build/default -L quick --output-on-failure || rc=1
        tail -5 "$out/quick.log"
        archive quick build/default/results-quick
        ;;
    test)
        fresh_copy
        timed test cmake --workflow --preset test || rc=1
        tail -8 "$out/test.log"
        archive test build/default/Testing/Temporary/LastTest.log
        ;;
    bench)
        ks=${GP_KERNELS:-$("$bin" list 2>/dev/null | awk '/^kernels/ {k = 1; next} k && NF {print $1}' | tr '\n' ' ')}
        # shellcheck disable=SC2086
        timed bench "$bin" bench $ks --table lookup --out build/default/results ${GP_BENCH_ARGS:-} || rc=1
        tail -30 "$out/bench.log"
        archive bench build/default/results
        ;;
    multi)
        fresh_copy
        (cd "$fresh" && cmake --preset default >/dev/null && cmake --build --preset default >/dev/null) || rc=1
        nvidia-smi topo -m >"$out/topology.txt" 2>&1
        timed multi bash -c "$bin characterize --device all --out node && $bin fleet node/*/ --out node/fleet" || rc=1
        archive multi node
        ;;
    example)
        fresh_copy
        # With no table (not even the per-device cache: the shipped one),
        # then with the measured one.
        timed example bash -c "bash tests/example_check.sh --gpu --table none build/default . &&
            bash tests/example_check.sh --gpu --table build/default/results/table.txt build/default ." || rc=1
        tail -10 "$out/example.log"
        ;;
    unseen)
        # The rules on shapes no bench list has (tools/unseen_shapes.txt):
        # tune --shape per kernel on a copy of the measured results, each
        # shape's rule paired with its best candidate (rules.md, the log).
        rm -rf "$fresh/unseen" && cp -r "$fresh/build/default/results" "$fresh/unseen"
        timed unseen bash tools/unseen_shapes.sh "$bin" unseen tools/unseen_shapes.txt || rc=1
        grep "paired rule/best" "$out/unseen.log" | tail -60
        archive unseen unseen
        ;;
    experiments)
        fresh_copy
        for e in "$fresh"/unmaintained/experiments/*_variants.cu "$fresh"/unmaintained/experiments/gather_rate.cu; do
            name=$(basename "$e" .cu)
            (nvcc -O3 -std=c++17 -arch=native -lcublas "$e" -o "$fresh/$name" && "$fresh/$name") \
                >"$out/$name.txt" 2>&1 || rc=1
        done
        ;;
    *) echo "unknown step '$step'" >&2; exit 2 ;;
    esac
done
say "done (exit $rc)"
exit $rc
