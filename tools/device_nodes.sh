#!/usr/bin/env bash
# device_nodes.sh OUT: every GPU of this node, on a GPU machine (docs/multi-gpu.md).
#   1. gpuprobe info: the PCI bus id, the UUID and the folder name;
#   2. characterize --device all --quick: one folder per GPU named <bus>_<uuid8>,
#      OUT/node/index.md with one row per GPU, each "ok";
#   3. rerun of 2: every record reused (resume per GPU);
#   4. gpuprobe resources -> gpus.json; ctest -L microbench with it: every probe
#      on each GPU into results/<bus>_<uuid8>/ (GP_TEST_GPUS = the GPU count),
#      and the table and report there;
#   5. without the spec file: results/ as before (device 0).
# Every step's output is under OUT; the checks print "ok:" or "FAIL:" and the
# exit code is the number of failed checks.
set -uo pipefail
out=${1:?usage: tools/device_nodes.sh OUT}
source "$(dirname "$0")/device_build.sh"
fails=0
check() { if eval "$2"; then echo "ok: $1" | tee -a "$out/checks.txt"; else echo "FAIL: $1" | tee -a "$out/checks.txt"; fails=$((fails + 1)); fi; }

step info
"$g" info >"$out/info.txt" 2>&1
folder=$(awk '$1 == "folder" { print $2 }' "$out/info.txt")
uuid=$(awk '$1 == "uuid" { print $2 }' "$out/info.txt")
ngpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || echo 1)
cat "$out/info.txt"
check "info names a folder <bus>_<uuid8> ($folder)" '[[ $folder =~ ^[0-9a-f]{4}-[0-9a-f]{2}-[0-9a-f]{2}\.[0-9a-f]_([0-9a-f]{8}|nouuid)$ ]]'
check "info's UUID is nvidia-smi's" 'nvidia-smi -L | grep -q "UUID: $uuid)"'

step characterize --device all
node=$out/node
"$g" characterize --device all --quick --out "$node" >"$out/characterize_all.txt" 2>&1
rc=$?
check "characterize --device all exit 0 (got $rc)" '[ $rc -eq 0 ]'
check "progress 'GPU 1 of $ngpus'" 'grep -q "GPU 1 of $ngpus: device 0: .* -> $node/$folder: ok" "$out/characterize_all.txt"'
check "index.md: $ngpus row(s), all ok" '[ "$(grep -c "| ok |" "$node/index.md")" -eq "$ngpus" ]'
check "device 0's folder has records, table and report" '[ -s "$node/$folder/launch_rate.json" ] && [ -s "$node/$folder/table.txt" ] && [ -s "$node/$folder/report.md" ]'
check "its records carry the UUID" 'grep -q "\"uuid\": \"$uuid\"" "$node/$folder/lds.json"'
check "the parent held no context on the GPU: no other process seen" 'grep -q "\"other_processes\": 0" "$node/$folder/lds.json"'
check "no entry file left" '! ls "$node"/.gpu*.entry >/dev/null 2>&1'
cp "$node/index.md" "$out/index.md"

step characterize --device all again: resumes per GPU
"$g" characterize --device all --quick --out "$node" >"$out/characterize_all_again.txt" 2>&1
check "rerun reuses every record" 'grep -q "every probe has a valid record" "$out/characterize_all_again.txt"'

step characterize --device 99
"$g" characterize --device 99 --quick --out "$out/range" >"$out/device_range.txt" 2>&1
rc=$?
check "--device 99: exit 2 naming the count" '[ $rc -eq 2 ] && grep -q "device 99 does not exist ($ngpus device" "$out/device_range.txt"'

step ctest -L microbench with the resource spec
"$g" resources --out build/sm90/gpus.json >"$out/resources.txt" 2>&1
cp build/sm90/gpus.json "$out/gpus.json"
cmake build/sm90 -DGP_TEST_GPUS="$ngpus" >>"$out/build.txt" 2>&1
rm -rf build/sm90/results
(cd build/sm90 && ctest -L microbench --resource-spec-file gpus.json -j "$ngpus" --output-on-failure) \
    >"$out/ctest_microbench_spec.txt" 2>&1
rc=$?
check "ctest -L microbench with the spec: exit 0 (got $rc)" '[ $rc -eq 0 ]'
nprobes=$("$g" list | sed '/^$/q' | grep -c .)
check "results/$folder holds every probe's record ($nprobes)" \
    '[ "$(ls build/sm90/results/"$folder"/*.json | wc -l)" -ge "$nprobes" ]'
check "results/$folder has its table and report" '[ -s build/sm90/results/"$folder"/table.txt ] && [ -s build/sm90/results/"$folder"/report.html ]'
tar czf "$out/results_spec.tgz" -C build/sm90 results

step ctest -L microbench without the spec: device 0 into results/ as before
cmake build/sm90 -DGP_TEST_GPUS=1 >>"$out/build.txt" 2>&1
rm -rf build/sm90/results
(cd build/sm90 && ctest -L microbench --output-on-failure) >"$out/ctest_microbench_plain.txt" 2>&1
rc=$?
check "ctest -L microbench without a spec: exit 0 (got $rc)" '[ $rc -eq 0 ]'
check "records straight in results/, no GPU folder" '[ -s build/sm90/results/launch_rate.json ] && ! [ -d build/sm90/results/"$folder" ]'
step done
echo "$fails failed check(s)" | tee -a "$out/checks.txt"
exit $fails
