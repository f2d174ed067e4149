#!/usr/bin/env bash
# slurm_check.sh GPUPROBE SOURCE_DIR WORK: the Slurm path of README "Many
# GPUs" on a single-node Slurm started here from Debian's slurm-wlm and munge
# (munged, slurmctld and slurmd as this user, in WORK, on ports of their
# own; the node declares 5 GPUs as a gres of stand-in devices, so the array's
# --gpus-per-task=1 is scheduled as on a cluster).  tools/slurm_fleet.sh
# submits its array over recorded runs (GP_FLEET_REPLAY: each task reports
# one recorded folder; there is no GPU) and the dependent report job:
#   the three H200 runs, an H100's, and an H200 copy with its DRAM bandwidth
#   x 0.92: the report job ends with exit 1, fleet.json has 5 GPUs of 2
#   models and one health flag, and the log names the copy's task folder.
# 77 when slurmctld, slurmd, munged or sbatch is absent.
set -u
gpuprobe=$1 src=$2 work=$3
for t in slurmctld slurmd munged mungekey sbatch scontrol squeue; do
    command -v "$t" >/dev/null || PATH=$PATH:/usr/sbin command -v "$t" >/dev/null ||
        { echo "slurm_check.sh: no $t (Debian: apt-get install slurm-wlm munge): skipped"; exit 77; }
done
export PATH=$PATH:/usr/sbin
rm -rf "$work" && mkdir -p "$work"/{state,spool,shared,munge} || exit 1
work=$(cd "$work" && pwd)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT
fail() { echo "slurm_check.sh: $*" >&2; for f in "$work"/*.log "$work"/shared/logs/*; do [ -f "$f" ] && { echo "== $f"; tail -20 "$f"; }; done; exit 1; }

# munge: a key and a socket of our own.
chmod 755 "$work/munge" # the socket needs others' execute permission
mungekey -c -k "$work/munge/munge.key" || fail "mungekey failed"
chmod 600 "$work/munge/munge.key"
munged -f --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed" ||
    fail "munged did not start"
pids+=("$(cat "$work/munge/munged.pid")")

# Ports of our own (a machine may run another Slurm, or this test twice).
base=$((20000 + ($$ % 20000)))
me=$(id -un)
host=$(hostname -s)
cpus=$(nproc)
cat >"$work/slurm.conf" <<CONF
ClusterName=gpfleet
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=$me
SlurmdUser=$me
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Gres=gpu:5 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF
# Slurm's gres/gpu wants a device file per GPU: five character devices every
# Linux has stand in (task/none: nothing opens or constrains them).
printf 'AutoDetect=off\nNodeName=%s Name=gpu File=/dev/null,/dev/zero,/dev/full,/dev/random,/dev/urandom\n' \
    "$host" >"$work/gres.conf"
export SLURM_CONF=$work/slurm.conf
slurmctld -i || fail "slurmctld did not start"
slurmd -N "$host" || fail "slurmd did not start"
sleep 1
pids+=("$(cat "$work/slurmctld.pid" 2>/dev/null)" "$(cat "$work/slurmd.pid" 2>/dev/null)")
for i in $(seq 1 60); do
    sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)' && break
    sleep 1
done
sinfo -h -o %t | grep -Eq '^(idle|mix|alloc)' || fail "the node did not come up: $(sinfo 2>&1)"

# The recorded runs, one a task, and the lowered copy.
h200=$src/docs/reports/h200
mkdir -p "$work/lowered" && cp "$h200"/*.json "$work/lowered"/ || exit 1
bash "$src/tests/scale_values.sh" "$h200/memory_bandwidth.json" "$work/lowered/memory_bandwidth.json" \
    bandwidth_gbs 0.92 triad_gbs 0.92 || fail "no DRAM bandwidth to lower"
printf '%s\n' "$h200" "$h200/repeat/run1" "$h200/repeat/run2" "$src/tests/data/fleet/h100" "$work/lowered" \
    >"$work/replay.txt"

export GPUPROBE=$gpuprobe GP_FLEET_REPLAY=$work/replay.txt
ids=$(bash "$src/tools/slurm_fleet.sh" submit "$work/shared" 5) || fail "submit failed"
echo "submitted: $ids"
report=${ids##* }
for i in $(seq 1 120); do
    state=$(scontrol show job "$report" 2>/dev/null | grep -o 'JobState=[A-Z]*' | head -1)
    case $state in JobState=COMPLETED | JobState=FAILED | JobState=CANCELLED | JobState=TIMEOUT) break ;; esac
    sleep 1
done
info=$(scontrol show job "$report")
echo "$info" | grep -E "JobState|ExitCode"
grep -q "JobState=FAILED" <<<"$info" && grep -q "ExitCode=1:0" <<<"$info" ||
    fail "the report job did not end with fleet's exit 1 (an outlier): $state"
json=$work/shared/fleet/fleet.json
[ -f "$json" ] || fail "no $json"
grep -q '"health_flags": 1,' "$json" || fail "fleet.json has not one health flag"
[ "$(grep -c '"label": ' "$json")" -eq 5 ] || fail "fleet.json does not list 5 GPUs"
grep -Eq "outlier: ${host}_replay4 memory_bandwidth.bandwidth_gbs = .*\[health\]" "$work/shared/fleet.log" ||
    fail "fleet.log does not name task 4's folder as low DRAM bandwidth"
grep -q "model NVIDIA H100 80GB HBM3 (sm_90): 1 GPU(s), too few to judge" "$work/shared/fleet.log" ||
    fail "the H100 is not its own model"
echo "slurm_check.sh: ok (array of 5 tasks, report job exit 1 naming ${host}_replay4)"
