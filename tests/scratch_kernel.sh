#!/usr/bin/env bash
# scratch_kernel.sh SOURCE_DIR WORK_DIR
#
# Adding a kernel is copying a folder and editing nothing shared
# (docs/adding-a-kernel.md).  This proves it: copy the source tree's build
# inputs to WORK_DIR/src, add kernels/scratchk/ made from kernels/_template/
# (files renamed, _template replaced, nothing else touched), configure and
# build the CPU-only build with its unit tests, and check that
#   - `gpuprobe list` names the kernel;
#   - `gpuprobe table derive` of a shipped table (written before the kernel
#     existed) fills [kernel.scratchk] from the kernel's own rule;
#   - `gpuprobe verify scratchk` reaches it (exit 77: no GPU backend, not 2:
#     unknown kernel), `--shape 1000` too, and `--shape x` is exit 2 naming
#     the kernel's syntax;
#   - CTest has its kernels.scratchk.* tests, and the unit tests still pass.
# Fails when registering a kernel needs an edit outside its folder.
set -u
src=$1 work=$2
new=scratchk
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$work" && mkdir -p "$work/src" || fail "cannot create $work"
tar -C "$src" --exclude=./build --exclude=./.git -cf - . |
    tar -C "$work/src" -xf - || fail "cannot copy $src"
[ -d "$work/src/kernels/$new" ] && fail "$new already exists in the source tree"

dir=$work/src/kernels/$new
cp -r "$src/kernels/_template" "$dir" || fail "no kernels/_template"
for f in "$dir"/_template*; do mv "$f" "${f/_template/$new}"; done
sed -i "s/_template/$new/g; s/_TEMPLATE/_$(echo $new | tr a-z A-Z)/g" "$dir"/*
[ -f "$dir/$new.hip" ] || fail "template did not give $new.hip"

bld=$work/build
cmake -S "$work/src" -B "$bld" -DGP_BACKEND=none -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configure with $new added"; }
cmake --build "$bld" --target gpuprobe gp_unit_tests gpuprobe_shared gpuprobe_static -j2 >"$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log"; fail "build with $new added"; }
bin=$bld/app/gpuprobe

list=$("$bin" list 2>&1) || { echo "$list"; fail "gpuprobe list"; }
echo "$list" | grep -q "^$new " || { echo "$list"; fail "gpuprobe list does not name $new"; }
derived=$("$bin" table derive "$src/tables/sm_90" 2>&1) || { echo "$derived"; fail "table derive"; }
echo "$derived" | grep -q "^\[kernel\.$new\]" || fail "table derive gives no [kernel.$new]"
echo "$derived" | grep -q "# rule gp_${new}_rule " || fail "[kernel.$new] is not its rule's"
"$bin" verify "$new" >"$work/verify.log" 2>&1
rc=$?
[ "$rc" -eq 77 ] || { cat "$work/verify.log"; fail "gpuprobe verify $new: exit $rc, expected 77 (no GPU backend)"; }
"$bin" verify "$new" --shape 1000 >"$work/verify_shape.log" 2>&1
rc=$?
[ "$rc" -eq 77 ] || { cat "$work/verify_shape.log"; fail "verify $new --shape 1000: exit $rc, expected 77"; }
"$bin" verify "$new" --shape x >"$work/verify_bad.log" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "takes N or 2^K" "$work/verify_bad.log" ||
    { cat "$work/verify_bad.log"; fail "verify $new --shape x: exit $rc, expected 2 naming the syntax"; }

# The shipped tables gain the new kernel's section as a developer would
# give it to them: derived from their facts by its rule.
for t in generic gfx900 sm_80 sm_90; do
    "$bin" table derive "$work/src/tables/$t" -o "$work/src/tables/$t" >/dev/null 2>"$work/derive_$t.log" ||
        { cat "$work/derive_$t.log"; fail "table derive -o tables/$t"; }
done
tests=$(cd "$bld" && ctest -N 2>&1)
echo "$tests" | grep -q "kernels\.$new\.lookup\$" || { echo "$tests" | tail -20; fail "ctest -N has no kernels.$new.lookup"; }
(cd "$bld" && ctest -L unit -j2 -E "scratch|ctest_resource" >"$work/unit.log" 2>&1) ||
    { grep -E "Failed|\*\*\*" "$work/unit.log" | head -20; fail "unit tests with $new added"; }
echo "$new: registered by its folder alone (list, table derive, verify, --shape, ctest -N, unit tests)"
