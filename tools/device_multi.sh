#!/usr/bin/env bash
# device_multi.sh OUT: issue 20's multi-GPU run, on a machine of two or more
# GPUs (nvidia-h200-x2); what it shows is committed in docs/reports/h200x2/.
#   1. how the GPUs are joined, as the driver says (nvidia-smi topo -m,
#      nvlink -s): the independent view the probe's link notes are read against;
#   2. tools/device_nodes.sh OUT/nodes: characterize --device all, its resume,
#      ctest -L microbench with the generated resource spec (every probe on
#      every GPU, the interconnect's P2P matrices from each GPU's process),
#      and without the spec;
#   3. gpuprobe fleet over the GPUs' live folders (2 of a model: not judged),
#      then with the committed two-GPU node's folders added
#      (docs/reports/h200x2/nodeB: 4 H200s, judged; the committed one-GPU
#      runs lack the interconnect record, which fleet would name, exit 2);
#   4. PyTorch's peer copies, the cross-check of the copy-engine matrix.
# Exit: the number of failed checks of step 2 plus fleet exits other than 0/1.
set -uo pipefail
out=${1:?usage: tools/device_multi.sh OUT}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi nvlink -s; nvidia-smi nvlink -c; } >"$out/topology.txt" 2>&1
bash "$(dirname "$0")/device_nodes.sh" "$out/nodes"
fails=$?
g=build/sm90/app/gpuprobe
live=/tmp/multi_live
rm -rf "$live" && mkdir -p "$live" && tar xzf "$out/nodes/results_spec.tgz" -C "$live"
dirs=$(find "$live/results" -mindepth 1 -maxdepth 1 -type d -name '*_*' | sort)
echo "live folders: $dirs" | tee "$out/fleet.txt"
for f in $dirs; do cp "$f/interconnect.md" "$out/interconnect_$(basename "$f").md" 2>/dev/null; done
# shellcheck disable=SC2086
"$g" fleet $dirs --out "$out/fleet_live" >>"$out/fleet.txt" 2>&1
rc=$?; echo "fleet (live GPUs) exit $rc" | tee -a "$out/fleet.txt"
[ $rc -le 1 ] || fails=$((fails + 1))
# shellcheck disable=SC2086
"$g" fleet $dirs docs/reports/h200x2/nodeB/0000-* --out "$out/fleet_all" >>"$out/fleet.txt" 2>&1
rc=$?; echo "fleet (live + the committed node B) exit $rc" | tee -a "$out/fleet.txt"
[ $rc -le 1 ] || fails=$((fails + 1))
PYTHONUNBUFFERED=1 timeout 120 python3 tools/experiments/p2p_torch.py >"$out/p2p_torch.txt" 2>&1
echo "p2p_torch exit $?" >>"$out/p2p_torch.txt"
echo "$fails failure(s)" | tee -a "$out/fleet.txt"
exit $fails
