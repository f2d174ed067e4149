#!/usr/bin/env bash
# example_check.sh [--gpu] [--table FILE] FROM SOURCE_DIR: build examples/image_stats against an
# installed libgpuprobe, as an application would, and run it.
#   FROM: a build folder (installed here into a scratch prefix with
#         cmake --install) or an installed prefix (a .deb unpacked:
#         tests/package_check.sh).
# Checks, in order: the umbrella header compiles alone from the installed
# headers (C11 and C++), find_package(gpuprobe CONFIG) builds the example,
# pkg-config's flags build it too, and it runs: 0 (checked against the CPU)
# or 77 (no GPU here, or none the package has code for).
# --table FILE: the example's context takes FILE (GP_TABLE), e.g. a
# measured table; --table none: no table at all, not even the per-device
# cache's (an empty XDG_CACHE_HOME: the shipped or generic one); without
# it, the lookup a user gets (cache, shipped, generic).
# Exit 0 when all hold (the example's 77, no GPU, counts as holding: what
# could be checked was); with --gpu the example's own 0 or 77, so a GPU test
# skips rather than passes where nothing ran.  1 when a step fails; 2 on bad
# usage.
set -u
gpu=0 table=
while [ $# -gt 0 ]; do
    case $1 in
    --gpu) gpu=1; shift ;;
    --table)
        table=${2:?--table needs a file or none}
        [ "$table" = none ] || table=$(cd "$(dirname "$table")" && pwd)/$(basename "$table") || exit 2
        shift 2
        ;;
    *) break ;;
    esac
done
from=${1:?usage: example_check.sh BUILD_DIR|PREFIX SOURCE_DIR} src=${2:?usage: example_check.sh BUILD_DIR|PREFIX SOURCE_DIR}
src=$(cd "$src" && pwd) || { echo "example_check: no source folder '$2'" >&2; exit 2; }
[ -d "$from" ] || { echo "example_check: no folder '$from'" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gp_example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
step() { echo "--- $*"; }
die() { echo "example_check: FAIL: $*" >&2; exit 1; }

if [ -f "$from/CMakeCache.txt" ]; then
    prefix=$tmp/prefix
    step "cmake --install $from --prefix <scratch>"
    cmake --install "$from" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; die "install"; }
else
    prefix=$(cd "$from" && pwd)
fi
inc=$prefix/include/gpuprobe
[ -f "$inc/gpuprobe.h" ] || die "no include/gpuprobe/gpuprobe.h under $prefix"
for lib in libgpuprobe.so libgpuprobe.a; do
    [ -e "$prefix/lib/$lib" ] || die "no lib/$lib under $prefix"
done

step "the umbrella header alone, from the installed headers only"
printf '#include <gpuprobe/gpuprobe.h>\ngp_context *gp_example_unused;\n' >"$tmp/u.c"
cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$tmp/u.c" || die "gpuprobe.h does not compile as C11"
cp "$tmp/u.c" "$tmp/u.cpp"
if command -v c++ >/dev/null; then
    c++ -std=c++17 -Wall -Werror -fsyntax-only -I"$prefix/include" "$tmp/u.cpp" || die "gpuprobe.h does not compile as C++17"
fi

gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
step "find_package(gpuprobe CONFIG): examples/image_stats"
cmake -S "$src/examples/image_stats" -B "$tmp/ex" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release >"$tmp/ex.log" 2>&1 || { cat "$tmp/ex.log"; die "configure against $prefix"; }
grep "image_stats:" "$tmp/ex.log"
cmake --build "$tmp/ex" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; die "build"; }

if command -v pkg-config >/dev/null; then
    step "pkg-config --cflags --libs gpuprobe"
    flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs gpuprobe) || die "pkg-config"
    echo "$flags"
    # shellcheck disable=SC2086
    cc -std=c11 "$src/examples/image_stats/main.c" -o "$tmp/ex_pc" $flags -lm -Wl,-rpath,"$prefix/lib" ||
        die "the example does not build with pkg-config's flags"
else
    echo "--- pkg-config: not installed here, its file not checked"
fi

step "run (away from the sources and the build)"
cd "$tmp" || exit 1
# A library built under AddressSanitizer (the asan preset) needs its
# runtime loaded first; the application is not instrumented itself.
pre=()
if objdump -p "$prefix/lib/libgpuprobe.so" 2>/dev/null | grep -q 'NEEDED.*libasan'; then
    pre=(LD_PRELOAD="$(cc -print-file-name=libasan.so)")
    echo "(libgpuprobe is built under AddressSanitizer: ${pre[0]})"
fi
if [ "$table" = none ]; then
    mkdir -p "$tmp/no-cache"
    env -u GP_TABLES_DIR -u GP_TABLE "${pre[@]}" XDG_CACHE_HOME="$tmp/no-cache" "$tmp/ex/image_stats"
elif [ -n "$table" ]; then
    env -u GP_TABLES_DIR "${pre[@]}" GP_TABLE="$table" "$tmp/ex/image_stats"
else
    env -u GP_TABLES_DIR -u GP_TABLE "${pre[@]}" "$tmp/ex/image_stats"
fi
rc=$?
case $rc in
0) exit 0 ;;
77) [ $gpu = 1 ] && exit 77; echo "example_check: built and installed; the run skipped (no GPU)"; exit 0 ;;
*) die "image_stats exited $rc" ;;
esac
