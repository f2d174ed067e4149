#!/usr/bin/env bash
# slurm_fleet.sh: characterize every GPU of a Slurm cluster and compare them
# (README "Many GPUs").  One script, three modes:
#
#   slurm_fleet.sh submit SHARED NGPUS [SBATCH_OPTION...]
#       submits a job array of NGPUS tasks, one GPU each (--gpus-per-task=1),
#       each characterizing its GPU into SHARED/<node>_<pci bus id>/, then a
#       job that depends on the whole array (afterany: a failed task must
#       still be reported) and runs `gpuprobe fleet` over SHARED into
#       SHARED/fleet/.  Extra options go to both sbatch calls (--partition,
#       --account, --time ...).  Prints the two job ids.
#   slurm_fleet.sh task SHARED         an array task (sbatch runs this)
#   slurm_fleet.sh report SHARED NGPUS the dependent job (sbatch runs this)
#
# SHARED must be one folder every node sees (a cluster file system).  The
# report job's exit code is fleet's: 0 no outlier, 1 an outlier (the job
# shows FAILED: a health check reads it from sacct), 2 a task's folder
# missing or a record corrupt (named in SHARED/fleet.log).
#
# Environment (submit passes it on with --export=ALL):
#   GPUPROBE            the gpuprobe binary (default: the one on PATH)
#   GP_FLEET_THRESHOLD  fleet's --threshold (default: its own, robust z 3.5)
#   GP_FLEET_REPLAY     a file of recorded results folders, one a line: task i
#                       copies line i+1 instead of measuring (CI, where there is
#                       no GPU: the same array and report over recorded runs)
set -euo pipefail

die() { echo "slurm_fleet.sh: $*" >&2; exit 2; }
gpuprobe=${GPUPROBE:-gpuprobe}

mode=${1:-}
case $mode in
submit)
    [ $# -ge 3 ] || die "usage: slurm_fleet.sh submit SHARED NGPUS [SBATCH_OPTION...]"
    shared=$2 n=$3
    shift 3
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "NGPUS '$n' is not a count of GPUs"
    mkdir -p "$shared/logs" || die "cannot create '$shared/logs'"
    shared=$(cd "$shared" && pwd)
    self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
    # sbatch runs a copy of the script: give it the binary as an absolute path.
    if [[ $gpuprobe == */* ]]; then
        GPUPROBE=$(cd "$(dirname "$gpuprobe")" && pwd)/$(basename "$gpuprobe")
    else
        GPUPROBE=$(command -v "$gpuprobe") || die "no '$gpuprobe' on PATH: set GPUPROBE"
    fi
    export GPUPROBE
    array=$(sbatch --parsable --export=ALL --job-name=gpuprobe-char --array=0-$((n - 1)) --ntasks=1 \
        --gpus-per-task=1 --output="$shared/logs/char-%A_%a.out" "$@" "$self" task "$shared")
    array=${array%%;*}
    report=$(sbatch --parsable --export=ALL --job-name=gpuprobe-fleet --dependency=afterany:"$array" \
        --ntasks=1 --output="$shared/logs/fleet-%j.out" "$@" "$self" report "$shared" "$n")
    echo "array $array report ${report%%;*}"
    ;;
task)
    [ $# -eq 2 ] || die "usage: slurm_fleet.sh task SHARED"
    shared=$2 id=${SLURM_ARRAY_TASK_ID:?not inside a Slurm job array}
    node=${SLURMD_NODENAME:-$(hostname -s)}
    mkdir -p "$shared/.tasks"
    if [ -n "${GP_FLEET_REPLAY:-}" ]; then
        src=$(sed -n "$((id + 1))p" "$GP_FLEET_REPLAY")
        [ -n "$src" ] && [ -d "$src" ] || die "task $id: line $((id + 1)) of $GP_FLEET_REPLAY is no folder"
        name=${node}_replay$id
        mkdir -p "$shared/$name.part" && cp "$src"/*.json "$shared/$name.part"/
    else
        # Slurm gave this task one GPU: it is device 0 of the task.  The folder
        # is named by the node and the GPU's PCI bus id, never by an ordinal.
        pci=$("$gpuprobe" info | awk '$1 == "pci_bus_id" { print $2 }')
        [ -n "$pci" ] || die "task $id on $node: gpuprobe info names no PCI bus id"
        name=${node}_${pci//:/-}
        rm -rf "$shared/$name.part"
        rc=0
        # No --device: device 0 straight into the folder (an explicit --device
        # would add a <bus>_<uuid8>/ level; this folder is named already).
        "$gpuprobe" characterize --out "$shared/$name.part" || rc=$?
        # 1 (a probe's check failed) still leaves records the fleet should see.
        [ $rc -eq 0 ] || [ $rc -eq 1 ] || die "task $id on $node ($pci): characterize exit $rc"
    fi
    rm -rf "${shared:?}/$name"
    mv "$shared/$name.part" "$shared/$name" # whole folders only: the report never reads a half one
    echo "$name" >"$shared/.tasks/$id"
    echo "task $id: $shared/$name"
    ;;
report)
    [ $# -eq 3 ] || die "usage: slurm_fleet.sh report SHARED NGPUS"
    shared=$2 n=$3
    dirs=() missing=()
    for ((i = 0; i < n; i++)); do
        if [ -s "$shared/.tasks/$i" ]; then
            dirs+=("$shared/$(cat "$shared/.tasks/$i")")
        else
            missing+=("$i")
        fi
    done
    args=()
    [ -z "${GP_FLEET_THRESHOLD:-}" ] || args+=(--threshold "$GP_FLEET_THRESHOLD")
    rc=0
    if [ ${#dirs[@]} -gt 0 ]; then
        "$gpuprobe" fleet "${dirs[@]}" "${args[@]}" --out "$shared/fleet" 2>&1 | tee "$shared/fleet.log" ||
            rc=${PIPESTATUS[0]}
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        echo "slurm_fleet.sh: array task(s) ${missing[*]} wrote no results folder (see $shared/logs)" |
            tee -a "$shared/fleet.log" >&2
        rc=2
    fi
    exit $rc
    ;;
*)
    die "usage: slurm_fleet.sh submit SHARED NGPUS [SBATCH_OPTION...] (or task / report, run by sbatch)"
    ;;
esac
