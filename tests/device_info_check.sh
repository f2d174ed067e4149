#!/usr/bin/env bash
# The runtime's own report of the device must be complete and plausible.
# Exit 77 when there is no GPU (CTest: skipped).
set -u
# The characterize workflow's clock: the probes start here (workflow_times.sh).
[ -n "${2:-}" ] && bash "$(dirname "$0")/workflow_times.sh" mark "$2" microbench_start
out=$("$1" info 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "gpuprobe info failed with $rc" >&2; exit 1; }
get() { awk -v k="$1" '$1 == k { print $2 }' <<<"$out"; }
fail=0
arch=$(get arch); cus=$(get compute_units); wave=$(get wave_size); l2=$(get l2_bytes)
[[ "$arch" =~ ^(sm_[0-9]+|gfx[0-9a-f]+)$ ]] || { echo "arch '$arch' is not sm_NN or gfxNNN"; fail=1; }
[ "${cus:-0}" -gt 0 ] || { echo "compute_units '$cus' not positive"; fail=1; }
[[ "$wave" == 32 || "$wave" == 64 ]] || { echo "wave_size '$wave' is neither 32 nor 64"; fail=1; }
[ "${l2:-0}" -gt 0 ] || { echo "l2_bytes '$l2' not positive"; fail=1; }
# Which GPU (docs/multi-gpu.md): the folder <bus>_<uuid8> ("nouuid" / "nobus-devN"
# where the runtime reported none) and a uuid line saying where it came from.
folder=$(get folder)
[[ "$folder" =~ ^([0-9a-f]{4,8}-[0-9a-f]{2}-[0-9a-f]{2}\.[0-9a-f]|nobus-dev[0-9]+)_([0-9a-f]{8}|nouuid)$ ]] ||
    { echo "folder '$folder' is not <bus>_<uuid8>"; fail=1; }
grep -Eq '^uuid +(GPU-[0-9a-fA-F-]+ \((cudaDeviceProp.uuid|hipDeviceGetUuid)\)|none \(none: .+\))$' <<<"$out" ||
    { echo "no uuid line with its source"; fail=1; }
case "$arch" in
    sm_*) [ "$wave" = 32 ] || { echo "NVIDIA with wave size $wave"; fail=1; } ;;
    gfx9*) [ "$wave" = 64 ] || { echo "gfx9 with wave size $wave"; fail=1; } ;;
esac
exit $fail
