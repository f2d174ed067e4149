#!/usr/bin/env bash
# device_bw.sh OUT [exp|tree|all]: the bandwidth-bound kernels' next step
# (issues 16 padding, 17 stencil and scan) on an NVIDIA GPU (the H200 for the
# issues' figures); logs under OUT.
#   exp   the standalone experiments (tools/experiments/*_variants.cu, built
#         with nvcc -arch=native): every variant against the device copy (and
#         CUB for scan), paired ABBA, outputs checked; ~3 min with the builds
#   tree  the sm90 build (device_build.sh; with all it comes first), `gpuprobe
#         verify stencil padding scan` (the 4-wide stencil and the staged
#         padding kernels' first GPU run), `ctest -L kernels` for the three,
#         `gpuprobe bench padding stencil scan` (paired verdicts), a tune sweep
#         of stencil and padding (does it pick vec 4, planes_per_block?), and
#         the SASS of the three kernels' objects where cuobjdump is
#         installed; ~6 min
#   all   both (the default; over the 10-minute limit of one device call
#         where the build is slow: then run exp and tree as two calls)
# What to look for: docs/kernels/{stencil,padding,scan}.md, "Next run".
#   tools/device_bw.sh "$OUT"
set -u
out=${1:?usage: device_bw.sh OUT [exp|tree|all]}
part=${2:-all}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ "$part" = exp ]; then
    t0=$(date +%s)
    step() { echo "== $* ($(($(date +%s) - t0)) s)" | tee -a "$out/steps.txt"; }
else
    . "$(dirname "$0")/device_build.sh" # the step logger and the sm90 build ($g)
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv \
    >"$out/smi.txt" 2>&1

if [ "$part" = exp ] || [ "$part" = all ]; then
    mkdir -p "$out/exp"
    for e in stencil padding scan; do
        step "experiment $e: build"
        "$nvcc" -O3 -std=c++17 -arch=native -Xptxas -v tools/experiments/${e}_variants.cu -o "$out/exp/$e" \
            >"$out/exp/${e}_build.txt" 2>&1 || { tail -20 "$out/exp/${e}_build.txt"; continue; }
    done
    step "experiment stencil 512^3 and 256^3"
    [ -x "$out/exp/stencil" ] && { "$out/exp/stencil" 60 512; "$out/exp/stencil" 60 256; } >"$out/exp/stencil.txt" 2>&1
    step "experiment padding"
    [ -x "$out/exp/padding" ] && "$out/exp/padding" 60 >"$out/exp/padding.txt" 2>&1
    step "experiment scan 2^28"
    [ -x "$out/exp/scan" ] && "$out/exp/scan" 60 28 >"$out/exp/scan.txt" 2>&1
    rm -f "$out/exp/stencil" "$out/exp/padding" "$out/exp/scan"
fi

if [ "$part" = tree ] || [ "$part" = all ]; then
    g=$here/$g
    step verify
    $g verify stencil padding scan >"$out/verify.txt" 2>&1; echo "rc=$?" >>"$out/verify.txt"
    step "ctest -L kernels (stencil padding scan)"
    ctest --test-dir build/sm90 -L kernels -R '(stencil|padding|scan)' --output-on-failure >"$out/ctest.txt" 2>&1
    echo "rc=$?" >>"$out/ctest.txt"
    step bench
    $g bench padding stencil scan --out "$out/bench" --table lookup >"$out/bench.md" 2>"$out/bench_log.txt"
    echo "rc=$?" >>"$out/bench.md"
    grep -hE "^(padding|stencil|scan) .*paired" "$out/bench_log.txt" >"$out/verdicts.txt"
    step "tune stencil padding"
    mkdir -p "$out/tune"
    cp tables/sm_90 "$out/tune/table.txt"
    $g tune stencil padding --out "$out/tune" >"$out/tune.txt" 2>&1; echo "rc=$?" >>"$out/tune.txt"
    if command -v cuobjdump >/dev/null; then
        step sass
        mkdir -p "$out/sass"
        for k in stencil padding scan; do
            o=$(find build/sm90 -name "$k.hip.o" | head -1)
            [ -n "$o" ] && cuobjdump -sass "$o" >"$out/sass/$k.sass" 2>&1
        done
        # Per kernel: the global and shared memory instructions by width.
        for f in "$out"/sass/*.sass; do
            awk '/Function :/ {fn = $3} /(LDG|STG|LDS|STS|BAR)/ {
                     for (i = 1; i <= NF; i++) if ($i ~ /^(LDG|STG|LDS|STS|BAR)/) { sub(/;$/, "", $i); n[fn " " $i]++ } }
                 END {for (k in n) print k, n[k]}' "$f" | sort >"${f%.sass}_ops.txt"
        done
    fi
fi
step done
cat "$out/verdicts.txt" 2>/dev/null
