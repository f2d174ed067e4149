#!/usr/bin/env bash
# device_link.sh OUT: the interconnect probe's committed figures (issue 20)
# in one device call.  Builds gpuprobe (preset $GP_PRESET, default sm90),
# reads the link with nvidia-smi before and after (an independent reading of
# what NVML gives the probe), runs `gpuprobe run interconnect` on device
# $GP_DEVICE (default 0) and, where numactl and the GPU's NUMA node are
# known, once more bound to that node.  With two or more GPUs visible the
# same run measures the P2P matrices.  Writes under OUT: build.txt,
# smi_before.txt, smi_after.txt, topo.txt, run.txt (the log, the matrices
# in it), records/ (interconnect.json/.md and the h2d, d2h, p2p CSVs),
# numa/ and run_numa.txt when bound, summary.txt (the figures to commit).
set -uo pipefail
out=$1
preset=${GP_PRESET:-sm90}
dev=${GP_DEVICE:-0}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
here=$(pwd)
g=$here/build/$preset/app/gpuprobe
clean() { sed -e "s#$here/##g" -e "s#$here#.#g" "$@"; }
q=pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max
q=name,pci.bus_id,$q,pcie.link.gen.gpumax

if ! { cmake --preset "$preset" && cmake --build --preset "$preset" -j 16 --target gpuprobe; } >"$out/build.txt" 2>&1; then
    tail -40 "$out/build.txt"
    exit 1
fi
nvidia-smi --query-gpu=$q --format=csv >"$out/smi_before.txt" 2>&1
nvidia-smi topo -m >"$out/topo.txt" 2>&1
$g run interconnect --device "$dev" --out "$out/records" >"$out/run.raw" 2>&1
rc=$?
nvidia-smi --query-gpu=$q --format=csv >"$out/smi_after.txt" 2>&1
clean "$out/run.raw" >"$out/run.txt" && rm "$out/run.raw"
echo "gpuprobe run interconnect rc=$rc" >>"$out/run.txt"

bus=$($g info --device "$dev" 2>/dev/null | awk '$1 == "pci_bus_id" {print tolower($2)}')
node=$(cat "/sys/bus/pci/devices/$bus/numa_node" 2>/dev/null || echo -1)
if command -v numactl >/dev/null && [ "${node:--1}" -ge 0 ]; then
    numactl --cpunodebind="$node" --membind="$node" $g run interconnect --device "$dev" --out "$out/numa" \
        >"$out/run_numa.raw" 2>&1
    echo "numactl node $node rc=$?" >>"$out/run_numa.raw"
    clean "$out/run_numa.raw" >"$out/run_numa.txt" && rm "$out/run_numa.raw"
else
    echo "not bound: numactl $(command -v numactl >/dev/null && echo present || echo absent), NUMA node '$node'" \
        >"$out/run_numa.txt"
fi

{
    echo "# interconnect on $(awk -F', ' 'NR == 2 {print $1}' "$out/smi_before.txt")"
    for d in records numa; do
        # run --device N writes into DIR/<bus>_<uuid8>/ (docs/multi-gpu.md).
        md=$(find "$out/$d" -name interconnect.md 2>/dev/null | head -1)
        [ -n "$md" ] || continue
        echo "## $d (${md#$out/})"
        grep -E '^\| `?(h2d|d2h)_(pinned_gbs|pageable_gbs|fraction_of_link|latency_4b_us|min_bytes_full_bw)|^\| `?(link_gbs|pcie_gen|pcie_width|pcie_max_gen|pcie_max_width|min_transfer_bytes_full_bw|p2p_ce_gbs_min|p2p_ce_bidir_gbs_min)' \
            "$md"
        grep -E "NVML read|pinned .* GB/s H2D|GPU [0-9]+ -> [0-9]+:" "$md"
    done
    echo "## nvidia-smi (before, after)"
    cat "$out/smi_before.txt" "$out/smi_after.txt"
} >"$out/summary.txt"
cat "$out/summary.txt"
exit $rc
