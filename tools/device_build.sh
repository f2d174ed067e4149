# device_build.sh: sourced by the tools/device_*.sh scripts (after setting
# `out`): the step logger and the sm90 build, leaving the binary in $g.
t0=$(date +%s)
mkdir -p "$out"
step() { echo "== $* ($(( $(date +%s) - t0 )) s)" | tee -a "$out/steps.txt"; }
step configure+build
cmake --preset sm90 >"$out/build.txt" 2>&1 && cmake --build --preset sm90 -j 16 >>"$out/build.txt" 2>&1 \
    || { tail -50 "$out/build.txt"; exit 1; }
g=build/sm90/app/gpuprobe
[ -x "$g" ] || g=build/default/app/gpuprobe
