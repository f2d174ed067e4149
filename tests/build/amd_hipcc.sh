# Sourced by the AMD build tests (bash).  Sets `hipcc` (exit 77 without it)
# and AMD_FLAGS for a target:
#   amd_setup TARGET WORK_DIR
# Debian 12's ROCm 5.2 device libraries carry no oclc_isa_version_NNNN.bc for
# targets newer than the release (gfx1100 among them), and hipcc then refuses
# to compile for them.  That file only defines the constant __oclc_ISA_version
# (e.g. 10300 for gfx1030, read with llvm-dis); for such a target a copy of
# the library folder gets one generated for it, so the device code (and the
# ocml math it inlines) compiles as a newer ROCm would compile it.  Only the
# build tests use this: the ISA they read is for inspection, never run.
amd_setup() {
    local target=$1 work=$2
    hipcc=$(command -v hipcc || true)
    [ -n "$hipcc" ] || { echo "hipcc not found: skipping $target"; exit 77; }
    export HIP_PLATFORM=amd
    AMD_FLAGS=()
    local libs="" d
    for d in /usr/lib/x86_64-linux-gnu/amdgcn/bitcode /usr/lib/amdgcn/bitcode /opt/rocm/amdgcn/bitcode; do
        [ -f "$d/ocml.bc" ] && { libs=$d; break; }
    done
    local num=${target#gfx}
    [ -n "$libs" ] && [ ! -f "$libs/oclc_isa_version_$num.bc" ] || return 0
    local llas
    llas=$(command -v llvm-as-15 || ls /usr/lib/llvm-15/bin/llvm-as 2>/dev/null || true)
    [ -n "$llas" ] || { echo "no $libs/oclc_isa_version_$num.bc and no llvm-as-15: skipping $target"; exit 77; }
    # gfxMMmS: major MM (one or two digits), minor m, stepping S (hex).
    local ver
    ver=$(printf '%s' "$num" | sed -E 's/^([0-9]+)([0-9a-f])([0-9a-f])$/\1 \2 \3/')
    read -r maj min step <<<"$ver"
    ver=$((10#$maj * 1000 + 16#$min * 100 + 16#$step))
    local shim=$work/device-libs
    mkdir -p "$shim"
    ln -sf "$libs"/*.bc "$shim"/
    printf '%s\n' 'target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"' \
        'target triple = "amdgcn-amd-amdhsa"' \
        "@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 $ver, align 4" \
        >"$shim/isa_$num.ll"
    "$llas" "$shim/isa_$num.ll" -o "$shim/oclc_isa_version_$num.bc" || {
        echo "FAIL: cannot generate oclc_isa_version_$num.bc"; exit 1; }
    echo "note: $libs has no oclc_isa_version_$num.bc; compiling with a generated one (__oclc_ISA_version = $ver)"
    AMD_FLAGS=(--rocm-device-lib-path="$shim")
}
