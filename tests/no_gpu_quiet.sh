#!/usr/bin/env bash
# no_gpu_quiet.sh GPUPROBE: without a GPU, `gpuprobe run launch_rate` exits 77
# with the no-GPU message and nothing before it (no "running (1 of 1)" line
# announcing a probe that cannot run).  With a GPU the probe runs: exit 0 or 1.
set -u
out=$("$1" run launch_rate --quick --out "${TMPDIR:-/tmp}/gp_no_gpu_quiet.$$" 2>&1)
rc=$?
rm -rf "${TMPDIR:-/tmp}/gp_no_gpu_quiet.$$"
printf '%s\n' "$out"
case $rc in
77)
    if grep -q "running (" <<<"$out"; then
        echo "no_gpu_quiet.sh: 'running' printed before the no-GPU error" >&2
        exit 1
    fi
    grep -Eq "no GPU|no usable GPU" <<<"$out" || { echo "no_gpu_quiet.sh: no no-GPU message" >&2; exit 1; }
    grep -q "insufficient" <<<"$out" && { echo "no_gpu_quiet.sh: the runtime's driver wording leaked" >&2; exit 1; }
    exit 0 ;;
0|1) exit 0 ;;
*) echo "no_gpu_quiet.sh: exit $rc" >&2; exit 1 ;;
esac
