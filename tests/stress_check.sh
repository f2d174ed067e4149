#!/usr/bin/env bash
# stress_check.sh GPUPROBE DIR: a short node-under-load run on this machine's
# GPUs (77 without one): every file written, each GPU's FMA and DRAM phases
# timed with a positive rate, the vendor readings present on NVIDIA (NVML
# comes with the driver), and the verdict printed.  Exit 1 (a GPU flagged)
# fails the test: it names what the driver holds against the GPU.
set -u
gpuprobe=$1 dir=$2
rm -rf "$dir"
out=$("$gpuprobe" stress --device all --quick --out "$dir" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "stress_check: exit $rc"; exit 1; }
for f in stress.json stress.md stress_samples.csv stress_clock.svg stress_power.svg stress_temperature.svg; do
    [ -s "$dir/$f" ] || { echo "stress_check: $f missing"; exit 1; }
done
gpus=$(grep -c '"device": ' "$dir/stress.json")
timed=$(grep -Ec '"alone": \{"launches": [1-9][0-9]*, "median": [0-9.e+]+[,]' "$dir/stress.json")
[ "$timed" -eq $((2 * gpus)) ] || { echo "stress_check: $timed of $((2 * gpus)) phases timed alone"; exit 1; }
if grep -q NVIDIA <<<"$("$gpuprobe" info 2>&1)"; then
    [ "$(wc -l <"$dir/stress_samples.csv")" -gt 10 ] || { echo "stress_check: too few NVML readings"; exit 1; }
fi
grep -q "^GPU [0-9]* (.*): FMA .* TFLOP/s alone" <<<"$out" || { echo "stress_check: no per-GPU line"; exit 1; }
exit 0
