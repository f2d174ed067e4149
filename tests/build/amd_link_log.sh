#!/usr/bin/env bash
# amd_link_log.sh GFX_TARGET SOURCE_DIR WORK_DIR
#
# Configures and builds the gpuprobe executable with the HIP backend for one
# target and reads the configure and build logs: no step may ask
# rocm_agent_enumerator for the machine's GPUs.  hipcc does that whenever a
# call has no --offload-arch (CMake's compiler checks, the link step), and on
# a machine without an AMD GPU it prints a Python traceback; on one with a
# different GPU it would quietly build for the wrong target.  Incremental
# when WORK_DIR already holds a build.  Exit 77 without hipcc.
set -u
target=$1 src=$2 work=$3
command -v hipcc >/dev/null || { echo "hipcc not found: skipping $target"; exit 77; }
mkdir -p "$work"
log=$work/build.log
{
    cmake -S "$src" -B "$work/build" -DGP_BACKEND=hip -DGP_ARCHS="$target" -DBUILD_TESTING=OFF \
        -DCMAKE_BUILD_TYPE=Release 2>&1 &&
    cmake --build "$work/build" --target gpuprobe -j2 -- VERBOSE=1 2>&1
} >"$log"
rc=$?
[ $rc -eq 0 ] || { tail -40 "$log"; echo "FAIL $target: the HIP build failed (log: $log)"; exit 1; }
n=$(grep -cE 'Traceback|rocm_agent_enumerator|No valid AMD GPU target' "$log")
if [ "$n" -gt 0 ]; then
    grep -nE -B2 -A2 'Traceback|rocm_agent_enumerator' "$log" | head -30
    echo "FAIL $target: $n line(s) of GPU probing (rocm_agent_enumerator) in the build log: a hipcc call without --offload-arch"
    exit 1
fi
links=$(grep -cE -- '-o [^ ]*gpuprobe( |$)' "$log")
echo "ok   $target: configure and build ($links link step(s) in this run) never probe for a GPU"
