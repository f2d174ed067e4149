#!/usr/bin/env bash
# fleet_check.sh CASE GPUPROBE SOURCE_DIR: `gpuprobe fleet` on recorded runs,
# through expect.sh.  The H200 runs: docs/reports/h200 and its two repeat
# runs (one GPU measured three times: three GPUs of one model to the fleet);
# the H100 run: tests/data/fleet/h100.
#   models     H100 + H200: two models, grouped, one GPU each, not judged: exit 0
#   lowered    the three H200 runs + a copy of the first with its DRAM bandwidth
#              (bandwidth_gbs, triad_gbs) x 0.92: exit 1, the copy named as low
#              DRAM bandwidth in stdout, fleet.md, the HTML's strip plot label
#              and the JSON; the same fleet with the copy unchanged: exit 0
#   percent    the lowered fleet under --threshold 10%: the 8 % is inside (the
#              fleet still exits 1 there: a percent rule judges the best block
#              size, an arg-max that moved 256 -> 512 -> 768 over the three
#              runs, by the same 10 %, where the z rule scales it by its MAD);
#              under --threshold 5%: the copy is named
#   corrupt    a copy with memory_bandwidth.json cut short: exit 2 naming it
#   missing    a copy without lds.json: exit 2 naming the folder and the probe
#   nodes      the four H200s of two 2-GPU nodes (docs/reports/h200x2): exit 1,
#              naming node A's first GPU for its math-function rates (the
#              clock-calibration fault the fleet found, +6 %) and node B's
#              second for its graph launch time, and nothing else; node B's
#              two GPUs and a copy whose node listed one GPU (p2p_gpus 1):
#              the count of the node's GPUs is neither judged nor listed
#   twice      one folder given twice (as itself, through a link, with a
#              slash): exit 2 naming it; nothing counted twice
#   json       --json: fleet.json's object on stdout (schema_version, the
#              outlier named), the summary lines on stderr
#   blocked    a folder named fleet.html in --out: exit 2, and neither
#              fleet.md nor fleet.json is left there
#   vendor     one GPU alone against its product (specs/): the H200 run within
#              its bands on clock and DRAM bandwidth, exit 0; its copy at 0.92x
#              the DRAM bandwidth (0.83 of NVIDIA's 4.8 TB/s, under the 0.85
#              band) exit 1 alone, named below the product's band; a bad
#              specs/ file exit 2 naming it (--tables pointing beside it)
#   health     the two H200s of 2026-11-28 (docs/reports/h200x2/2026-11-28),
#              whose records carry NVML's health counters: exit 0, the
#              counters' gauges in the Prometheus file at 0; a copy of the
#              second whose newest record holds a pending row remap: exit 1,
#              named in stdout and fleet.md, healthy 0, findings 1; a copy
#              whose PCIe link read x8 of x16 and whose probe saw two XIDs:
#              exit 1, both named
#   prometheus --prometheus FILE: node-exporter's text format, every sample
#              line `name{labels} value` under its HELP and TYPE, the lowered
#              copy's health 0 and the real run's 1, no .tmp left
set -u
case_=$1 gpuprobe=$2 src=$3
here=$(cd "$(dirname "$0")" && pwd)
expect=(bash "$here/expect.sh")
h200=$src/docs/reports/h200
h100=$src/tests/data/fleet/h100
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gp_fleet.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check RC PATTERN CMD...: one expectation; remember a failure
    echo "--- expect exit $1, /$2/: ${*:3}"
    "${expect[@]}" "$@" || fail=1
}
copy() { # copy NAME: the first H200 run's records into $tmp/NAME
    mkdir -p "$tmp/$1" && cp "$h200"/*.json "$tmp/$1"/ || exit 1
}
lower() { # lower DIR FACTOR: scale the DRAM bandwidth values of DIR's memory_bandwidth.json
    bash "$here/scale_values.sh" "$1/memory_bandwidth.json" "$1/memory_bandwidth.json" \
        bandwidth_gbs "$2" triad_gbs "$2" || exit 1
}
h200s=("$h200" "$h200/repeat/run1" "$h200/repeat/run2")
prom_format() { # prom_format FILE: every line a comment or `name{labels} value`;
    # every family's samples after its own HELP and TYPE
    awk '/^# HELP / {fam = $3; next} /^# TYPE / {if ($3 != fam || $4 != "gauge") bad = 1; next}
         { n = index($0, "{"); name = substr($0, 1, n - 1);
           if (name != fam || $0 !~ /^[a-z_]+\{([a-z_]+="([^"\\]|\\.)*",?)+\} -?[0-9.e+-]+$/) { print "bad: " $0; bad = 1 } }
         END { exit bad }' "$1" || { echo "fleet_check.sh: $1 is not the text format" >&2; fail=1; }
}

case $case_ in
models)
    check 0 "fleet: 2 GPUs, 2 model\(s\); 0 value\(s\) outside" "$gpuprobe" fleet "$h100" "$h200"
    check 0 "model NVIDIA H100 80GB HBM3 \(sm_90\): 1 GPU\(s\), too few to judge" "$gpuprobe" fleet "$h100" "$h200"
    check 0 "model NVIDIA H200 \(sm_90\): 1 GPU\(s\), too few to judge" "$gpuprobe" fleet "$h100" "$h200"
    # The H100 next to three H200 runs: still its own model, never an H200 outlier.
    check 0 "fleet: 4 GPUs, 2 model\(s\); 0 value\(s\) outside" "$gpuprobe" fleet "${h200s[@]}" "$h100"
    ;;
lowered)
    copy same
    check 0 "fleet: 4 GPUs, 1 model\(s\); 0 value\(s\) outside" "$gpuprobe" fleet "${h200s[@]}" "$tmp/same"
    copy lowered
    lower "$tmp/lowered" 0.92
    check 1 "outlier: lowered memory_bandwidth.bandwidth_gbs = [0-9.]+ GB/s \(low; .*-8\.[0-9]+ %\) \[health\]" \
        "$gpuprobe" fleet "${h200s[@]}" "$tmp/lowered" --out "$tmp/report"
    check 1 "1 low clock or DRAM bandwidth" "$gpuprobe" fleet "${h200s[@]}" "$tmp/lowered"
    # Only the lowered copy is named: the three real runs stay inside.
    out=$("$gpuprobe" fleet "${h200s[@]}" "$tmp/lowered" | grep "outlier:")
    if grep -v "outlier: lowered memory_bandwidth\.\(bandwidth\|triad\)_gbs" <<<"$out" | grep -q .; then
        echo "fleet_check.sh: outliers beyond the lowered DRAM bandwidth: $out" >&2; fail=1
    fi
    check 0 "low DRAM bandwidth" cat "$tmp/report/fleet.md"
    check 0 "class=\"label\"[^>]*>lowered</text>" cat "$tmp/report/fleet.html"
    check 0 "\"health_flags\": 1," cat "$tmp/report/fleet.json"
    ls "$tmp/report"/*.tmp 2>/dev/null && { echo "fleet_check.sh: a .tmp file left" >&2; fail=1; }
    ;;
percent)
    copy lowered
    lower "$tmp/lowered" 0.92
    check 1 "fleet: 4 GPUs" "$gpuprobe" fleet "${h200s[@]}" "$tmp/lowered" --threshold 10%
    if "$gpuprobe" fleet "${h200s[@]}" "$tmp/lowered" --threshold 10% | grep -q "outlier: lowered"; then
        echo "fleet_check.sh: an 8 % lower bandwidth is outside a 10 % threshold" >&2; fail=1
    fi
    check 1 "outlier: lowered memory_bandwidth.bandwidth_gbs" "$gpuprobe" fleet "${h200s[@]}" "$tmp/lowered" \
        --threshold 5%
    check 2 "--threshold: 'x5' is not a robust z" "$gpuprobe" fleet "${h200s[@]}" --threshold x5
    ;;
corrupt)
    copy corrupt
    head -c 300 "$h200/memory_bandwidth.json" >"$tmp/corrupt/memory_bandwidth.json"
    check 2 "corrupt/memory_bandwidth.json:[0-9]+:[0-9]+" "$gpuprobe" fleet "${h200s[@]}" "$tmp/corrupt"
    check 2 "results folder '/nonexistent-gpu' does not exist" "$gpuprobe" fleet "$h200" /nonexistent-gpu
    ;;
missing)
    copy missing
    rm "$tmp/missing/lds.json"
    check 2 "results folder '.*/missing' has no record of probe 'lds' \(missing lds.json" \
        "$gpuprobe" fleet "${h200s[@]}" "$tmp/missing"
    ;;
nodes)
    x2=$src/docs/reports/h200x2
    a0=$x2/nodeA/0000-00-06.0_ed3558e1 a1=$x2/nodeA/0000-00-07.0_ee2252e9
    b0=$x2/nodeB/0000-00-06.0_2b96c738 b1=$x2/nodeB/0000-00-07.0_bfa9765f
    check 1 "fleet: 4 GPUs, 1 model\(s\); 24 value\(s\) outside on 2 GPU\(s\)" "$gpuprobe" fleet "$a0" "$a1" "$b0" "$b1"
    check 1 "outlier: 0000-00-06.0_ed3558e1 math_functions.identity_f32_per_cycle_per_cu = [0-9.]+ ops/cycle/CU \(high; .*\+6\.[0-9]+ %\)" \
        "$gpuprobe" fleet "$a0" "$a1" "$b0" "$b1"
    out=$("$gpuprobe" fleet "$a0" "$a1" "$b0" "$b1" | grep "outlier:")
    if grep -v "outlier: 0000-00-06.0_ed3558e1 math_functions\.\|outlier: 0000-00-07.0_bfa9765f launch_rate\.graph_launch_us" \
        <<<"$out" | grep -q .; then
        echo "fleet_check.sh: outliers beyond the two known: $out" >&2; fail=1
    fi
    mkdir -p "$tmp/onegpu" && cp "$b0"/*.json "$tmp/onegpu"/ || exit 1
    bash "$here/scale_values.sh" "$tmp/onegpu/interconnect.json" "$tmp/onegpu/interconnect.json" p2p_gpus 0.5 || exit 1
    # (The copy doubles b0's values, so b1's own differences show; only the
    # node count matters here.)
    check "0|1" "fleet: 3 GPUs, 1 model\(s\)" "$gpuprobe" fleet "$b0" "$b1" "$tmp/onegpu"
    if "$gpuprobe" fleet "$b0" "$b1" "$tmp/onegpu" | grep -q "p2p_gpus"; then
        echo "fleet_check.sh: the node's GPU count (p2p_gpus) was judged as a GPU's value" >&2; fail=1
    fi
    ;;
twice)
    check 2 "results folder '$h200' is given twice \(also as '$h200'\)" "$gpuprobe" fleet "$h200" "$h200"
    ln -s "$h200" "$tmp/link"
    check 2 "results folder '$tmp/link' is given twice" "$gpuprobe" fleet "$h200" "$h100" "$tmp/link"
    ;;
json)
    copy lowered
    lower "$tmp/lowered" 0.92
    out=$("$gpuprobe" fleet "${h200s[@]}" "$tmp/lowered" --json 2>"$tmp/err")
    rc=$?
    printf '%s\n' "$out"
    [ $rc -eq 1 ] || { echo "fleet_check.sh: --json exit $rc, wanted 1" >&2; fail=1; }
    [ "${out:0:1}" = "{" ] && grep -q '"schema_version": "1.3",' <<<"$out" && grep -q '"health_flags": 1,' <<<"$out" ||
        { echo "fleet_check.sh: --json is not fleet.json's object" >&2; fail=1; }
    grep -q "outlier: lowered memory_bandwidth.bandwidth_gbs" "$tmp/err" ||
        { echo "fleet_check.sh: --json: the summary is not on stderr" >&2; fail=1; }
    ;;
vendor)
    check 0 "h200 against the NVIDIA H200 SXM 141GB \(specs/nvidia-h200.txt\): clock_mhz 1.000 within; .*dram_gbs 0.90[0-9] within" \
        "$gpuprobe" fleet "$h200"
    copy lowered
    lower "$tmp/lowered" 0.92
    check 1 "lowered against the NVIDIA H200 .*dram_gbs 0.83[0-9] low; .*\[health: below the product's band\]" \
        "$gpuprobe" fleet "$tmp/lowered"
    check 1 "1 GPU\(s\) with a clock or DRAM bandwidth below the product's band" "$gpuprobe" fleet "$tmp/lowered"
    check 1 "\"verdict\": \"low\"" "$gpuprobe" fleet "$tmp/lowered" --json
    mkdir -p "$tmp/tree/tables" "$tmp/tree/specs"
    cp "$src/tables/sm_90" "$tmp/tree/tables/" && printf 'name = X\nmatch = H200\ndram_gbs = 1\n' >"$tmp/tree/specs/x.txt"
    check 2 "x.txt:3: a figure without its source" "$gpuprobe" fleet "$h200" --tables "$tmp/tree/tables"
    ;;
health)
    node=$src/docs/reports/h200x2/2026-11-28/fleet
    gpus=("$node"/*/)
    check 0 "2 GPUs, 1 model" "$gpuprobe" fleet "${gpus[@]}" --prometheus "$tmp/prom/node.prom"
    check 0 '^gpuprobe_gpu_health_findings\{gpu="0000-00-06.0_1904f39e",.*\} 0$' cat "$tmp/prom/node.prom"
    check 0 '^gpuprobe_gpu_remap_pending\{gpu="0000-00-07.0_79a4e941",.*\} 0$' cat "$tmp/prom/node.prom"
    check 0 '^gpuprobe_gpu_pcie_replays\{gpu="0000-00-06.0_1904f39e",.*\} 1$' cat "$tmp/prom/node.prom"
    mkdir -p "$tmp/remap" && cp "${gpus[1]}"/*.json "$tmp/remap"/ || exit 1
    sed -i 's/"remap_pending": 0/"remap_pending": 1/' "$tmp/remap/memory_bandwidth.json"
    check 1 "1 GPU\(s\) with a finding in their health counters" "$gpuprobe" fleet "${gpus[0]}" "$tmp/remap" \
        --out "$tmp/remap_out" --prometheus "$tmp/prom/remap.prom"
    check 0 "a row remap is pending" cat "$tmp/remap_out/fleet.md"
    check 0 '^gpuprobe_gpu_healthy\{gpu="remap",.*\} 0$' cat "$tmp/prom/remap.prom"
    check 0 '^gpuprobe_gpu_health_findings\{gpu="remap",.*\} 1$' cat "$tmp/prom/remap.prom"
    prom_format "$tmp/prom/node.prom"
    prom_format "$tmp/prom/remap.prom"
    check 0 '"health_counters": \{"source": "nvml"' cat "$tmp/remap_out/fleet.json"
    # A link read below its maximum after the copies, and an XID during a probe: findings too.
    mkdir -p "$tmp/link" && cp "$src"/docs/reports/h200x4/2026-11-28/node/0000-00-07.0_83657e67/*.json "$tmp/link"/ || exit 1
    bash "$here/scale_values.sh" "$tmp/link/interconnect.json" "$tmp/link/interconnect.json" pcie_width 0.5 || exit 1
    sed -i 's/"power_limit_w"/"xids": 2, "last_xid": 79, "power_limit_w"/' "$tmp/link/fma_throughput.json"
    check 1 "1 GPU\\(s\\) with a finding in their health counters" "$gpuprobe" fleet "$tmp/link" --out "$tmp/link_out"
    check 0 "PCIe link Gen5 x8 after copies, below its Gen5 x16" cat "$tmp/link_out/fleet.md"
    check 0 "2 XID event\\(s\\) during the run \\(last XID 79\\)" cat "$tmp/link_out/fleet.md"
    # The records of 2026-11-21 carry no counters: no gauge, no finding.
    check 0 "Prometheus text format" "$gpuprobe" fleet "$h200" --prometheus "$tmp/prom/old.prom"
    grep -q '^gpuprobe_gpu_health_findings{' "$tmp/prom/old.prom" && { echo "fleet_check.sh: counters invented" >&2; fail=1; }
    ;;
prometheus)
    copy lowered
    lower "$tmp/lowered" 0.92
    check 1 "Prometheus text format" "$gpuprobe" fleet "$h200" "$tmp/lowered" --prometheus "$tmp/prom/gpus.prom"
    f=$tmp/prom/gpus.prom
    check 0 '^gpuprobe_gpu_healthy\{gpu="h200",bus="[0-9a-f:.]+",model="NVIDIA H200",arch="sm_90"\} 1$' cat "$f"
    check 0 '^gpuprobe_gpu_healthy\{gpu="lowered",.*\} 0$' cat "$f"
    check 0 '^gpuprobe_vendor_fraction\{gpu="lowered",.*figure="dram_gbs",band=">= 0.85"\} 0.83' cat "$f"
    prom_format "$f"
    [ "$(grep -c '^gpuprobe_value{' "$f")" -gt 100 ] || { echo "fleet_check.sh: too few values" >&2; fail=1; }
    # A label value with a quote and a backslash (a folder's name) is escaped.
    odd='odd"na\me'
    mkdir -p "$tmp/$odd" && cp "$h200"/*.json "$tmp/$odd"/ || exit 1
    check 0 "Prometheus text format" "$gpuprobe" fleet "$tmp/$odd" --prometheus "$tmp/prom/odd.prom"
    check 0 '^gpuprobe_gpu_healthy\{gpu="odd\\"na\\\\me",' cat "$tmp/prom/odd.prom"
    ls "$tmp/prom"/*.tmp 2>/dev/null && { echo "fleet_check.sh: a .tmp file left" >&2; fail=1; }
    ;;
blocked)
    mkdir -p "$tmp/report/fleet.html"
    check 2 "cannot write '$tmp/report/fleet.html': it exists and is a directory" \
        "$gpuprobe" fleet "${h200s[@]}" --out "$tmp/report"
    [ "$(ls -A "$tmp/report")" = "fleet.html" ] || { echo "fleet_check.sh: files left beside fleet.html" >&2; fail=1; }
    check 2 "cannot create directory '/proc/forbidden'" "$gpuprobe" fleet "${h200s[@]}" --out /proc/forbidden/f
    ;;
*)
    echo "fleet_check.sh: unknown case '$case_'" >&2
    exit 2
    ;;
esac
exit $fail
