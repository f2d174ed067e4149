#!/usr/bin/env bash
# workflow_times.sh mark FILE STEP   append "STEP <epoch seconds>" to FILE
# workflow_times.sh print FILE BUILD_DIR
#
# The characterize workflow's clock: configure writes FILE with its own
# start and end (CMakeLists.txt), microbench.device_info marks the probes'
# start, tune_check.sh the tune's start and end; the last test prints each
# step's time, so a user sees where the minutes went.  The build's end is
# the newest of the gpuprobe binary and the unit-test runner (0 s when the
# build had nothing to do).
set -u
mode=$1 file=$2
case "$mode" in
    mark) echo "$3 $(date +%s)" >>"$file"; exit 0 ;;
    print) ;;
    *) echo "usage: workflow_times.sh mark FILE STEP | print FILE BUILD_DIR" >&2; exit 2 ;;
esac
bld=$3
[ -f "$file" ] || { echo "no workflow clock in $file (configure writes it)"; exit 77; }
at() { awk -v s="$1" '$1 == s { t = $2 } END { if (t != "") print t }' "$file"; }
c0=$(at configure_start) c1=$(at configure_end) m0=$(at microbench_start) t0=$(at tune_start) t1=$(at tune_end)
[ -n "$c0" ] && [ -n "$c1" ] && [ -n "$m0" ] && [ -n "$t0" ] && [ -n "$t1" ] ||
    { echo "workflow clock incomplete (probes or tune not run in this workflow):"; cat "$file"; exit 77; }
b1=$c1
for f in "$bld/app/gpuprobe" "$bld/tests/gp_unit_tests"; do
    [ -f "$f" ] && [ "$(stat -c %Y "$f")" -gt "$b1" ] && b1=$(stat -c %Y "$f")
done
printf '%-28s %6s\n' "step" "seconds"
printf '%-28s %6d\n' "configure" $((c1 - c0))
printf '%-28s %6d\n' "build" $((b1 - c1))
printf '%-28s %6d\n' "microbench (probes, table)" $((t0 - m0))
printf '%-28s %6d\n' "tune" $((t1 - t0))
printf '%-28s %6d\n' "microbench + tune" $((t1 - m0))
printf '%-28s %6d\n' "the whole workflow" $((t1 - c0))
printf 'on %s, %s cores\n' "$(hostname)" "$(nproc)"
exit 0
