#!/usr/bin/env bash
# scratch_probe.sh SOURCE_DIR WORK_DIR
#
# Adding a probe is copying a folder and editing nothing shared
# (docs/adding-a-probe.md).  This proves it: copy the source tree's build
# inputs to WORK_DIR/src, add microbench/scratch_probe/ made from
# microbench/_template/ (files renamed, _template replaced, nothing else
# touched), configure and build the CPU-only build, and check that
# `gpuprobe list` names the new probe, `gpuprobe run scratch_probe` reaches
# it (exit 77: no GPU backend, not 2: unknown probe) and CTest has a
# `microbench.scratch_probe` test.  Fails when registering a probe needs an
# edit outside its folder.
set -u
src=$1 work=$2
new=scratch_probe
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$work" && mkdir -p "$work/src" || fail "cannot create $work"
# The build inputs only: no build trees, no git metadata, no recorded data.
tar -C "$src" --exclude=./build --exclude=./.git --exclude=./tests/data --exclude=./docs -cf - . |
    tar -C "$work/src" -xf - || fail "cannot copy $src"
[ -d "$work/src/microbench/$new" ] && fail "$new already exists in the source tree"

# The new probe: the template folder, copied and renamed.
dir=$work/src/microbench/$new
cp -r "$src/microbench/_template" "$dir" || fail "no microbench/_template"
for f in "$dir"/_template*; do mv "$f" "${f/_template/$new}"; done
sed -i "s/_template/$new/g; s/_TEMPLATE/_$(echo $new | tr a-z A-Z)/g" "$dir"/*
[ -f "$dir/$new.hip" ] || fail "template did not give $new.hip"

bld=$work/build
cmake -S "$work/src" -B "$bld" -DGP_BACKEND=none -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configure with $new added"; }
cmake --build "$bld" --target gpuprobe -j2 >"$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log"; fail "build with $new added"; }

list=$("$bld/app/gpuprobe" list 2>&1) || { echo "$list"; fail "gpuprobe list"; }
echo "$list" | grep -q "^$new " || { echo "$list"; fail "gpuprobe list does not name $new"; }
"$bld/app/gpuprobe" run "$new" --out "$work/results" >"$work/run.log" 2>&1
rc=$?
[ "$rc" -eq 77 ] || { cat "$work/run.log"; fail "gpuprobe run $new: exit $rc, expected 77 (no GPU backend)"; }

tests=$(cd "$bld" && ctest -N 2>&1)
echo "$tests" | grep -q "microbench\.$new\$" || { echo "$tests" | tail -20; fail "ctest -N has no microbench.$new"; }
echo "$new: registered by its folder alone (gpuprobe list, run, ctest -N)"
