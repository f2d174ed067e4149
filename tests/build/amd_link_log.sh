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
#
# This build is also the target's one compile for the other build tests: it
# keeps each GPU source's device assembly (GP_HIP_KEEP_ISA) and puts it in
# WORK_DIR/isa/<source path with / as _>.s, which check_gpu_build.sh (every
# kernel's resources and registers), fma_isa_check.sh, amd_chase_isa.sh and
# amd_register_limits.sh read: the ISA checked is the ISA of the binary built.
set -u
target=$1 src=$2 work=$3
command -v hipcc >/dev/null || { echo "hipcc not found: skipping $target"; exit 77; }
mkdir -p "$work"
log=$work/build.log
{
    cmake -S "$src" -B "$work/build" -DGP_BACKEND=hip -DGP_ARCHS="$target" -DBUILD_TESTING=OFF \
        -DCMAKE_BUILD_TYPE=Release -DGP_HIP_KEEP_ISA=ON 2>&1 &&
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

# The device assembly, by source: -save-temps=obj names it after the source's
# stem, unique in the tree (the build's object folders keep them apart too).
# The templates (microbench/_template, kernels/_template) are not part of the
# build: check_gpu_build.sh compiles them itself.
rm -rf "$work/isa"
mkdir -p "$work/isa"
missing=0 nsrc=0
while read -r rel; do
    nsrc=$((nsrc + 1))
    stem=$(basename "$rel" .hip)
    mapfile -t found < <(find "$work/build" -name "$stem-hip-amdgcn-amd-amdhsa-$target.s")
    if [ ${#found[@]} -ne 1 ]; then
        echo "FAIL $target: ${#found[@]} device assemblies named $stem-hip-amdgcn-amd-amdhsa-$target.s for $rel (want 1)"
        missing=1; continue
    fi
    ln -sf "${found[0]}" "$work/isa/$(echo "$rel" | tr '/' '_').s"
done < <(cd "$src" && find platform microbench kernels -name '*.hip' -not -path '*/_template/*' | sort)
# The rest of the temporaries (preprocessed sources, bitcode) are not read.
find "$work/build" \( -name '*.cui' -o -name '*.bc' \) -delete
[ $missing -eq 0 ] || exit 1
echo "ok   $target: the device assembly of all $nsrc GPU sources kept in $work/isa"
