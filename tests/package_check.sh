#!/usr/bin/env bash
# package_check.sh PACKAGE.deb SOURCE_DIR: install a .deb into a scratch root
# with dpkg -x (no root, no dpkg database) and check it runs away from the
# source tree:
#   - the binary needs no library its Depends do not declare (the CUDA
#     runtime static, no cuDNN/cuBLAS; libcuda is the driver's);
#   - --version carries the package's version and a git revision;
#   - list, and table check on every installed table;
#   - info finds the installed tables beside the executable, and exits 77
#     without a GPU (0 with one, saying whether its code runs there);
#   - report regenerates the committed H200 table and report from their
#     records: the same table.txt, the same report.md but for the lines that
#     name the folder and the build;
#   - the library needs no library the package does not declare, and an
#     application builds against the package with find_package and
#     pkg-config and runs (tests/example_check.sh; 77 without a GPU counts
#     as passing here).
# Exit 0 when all hold, 1 with the reason otherwise, 2 on bad usage.
set -u
deb=${1:?usage: package_check.sh PACKAGE.deb SOURCE_DIR} src=${2:?usage: package_check.sh PACKAGE.deb SOURCE_DIR}
[ -f "$deb" ] || { echo "package_check: no package '$deb'" >&2; exit 2; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
src=$(cd "$src" && pwd) || { echo "package_check: no source folder '$2'" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gp_package.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "package_check: FAIL: $*" >&2; fail=1; }

root=$tmp/root
dpkg -x "$deb" "$root" || { echo "package_check: dpkg -x $deb failed" >&2; exit 1; }
bin=$root/usr/bin/gpuprobe
tables=$root/usr/share/gpuprobe/tables
[ -x "$bin" ] || { echo "package_check: $deb has no usr/bin/gpuprobe" >&2; exit 1; }
for f in tuning-table.md probes kernels; do
    [ -e "$root/usr/share/doc/gpuprobe/$f" ] || bad "docs: usr/share/doc/gpuprobe/$f missing"
done
# The vendors' figures the report's datasheet judges against, beside the tables.
[ -f "$root/usr/share/gpuprobe/specs/nvidia-h200.txt" ] || bad "specs: usr/share/gpuprobe/specs/nvidia-h200.txt missing"
# Away from the sources: another folder, no GP_TABLES_DIR.
cd "$tmp" || exit 1
unset GP_TABLES_DIR

echo "--- libraries the binary needs against the package's Depends"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in $(objdump -p "$bin" | awk '/NEEDED/ {print $2}'); do
    case $lib in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*) pkg=libc6 ;;
    libstdc++.so.*) pkg=libstdc++6 ;;
    libgcc_s.so.*) pkg=libgcc-s1 ;;
    libamdhip64.so.5) pkg=libamdhip64-5 ;;
    libcuda.so.*) echo "  $lib: the NVIDIA driver's"; continue ;;
    *) bad "$bin needs $lib, which no declared dependency provides (a vendor library linked at build time?)"; continue ;;
    esac
    if [[ ", $depends," == *", $pkg"[,\ ]* ]]; then
        echo "  $lib: $pkg"
    else
        bad "$bin needs $lib ($pkg), not in Depends: $depends"
    fi
done

echo "--- gpuprobe --version"
version=$(dpkg-deb -f "$deb" Version)
line=$("$bin" --version) || bad "--version exited $?"
echo "$line"
[[ $line == "gpuprobe $version (git "* ]] || bad "--version does not start with 'gpuprobe $version (git ': $line"
[[ $line == *"backend "* && $line == *"baselines: "* ]] || bad "--version lacks the backend or the baselines: $line"

echo "--- gpuprobe list"
"$bin" list >"$tmp/list.txt" || bad "list exited $?"
grep -q '^launch_rate ' "$tmp/list.txt" || bad "list does not name launch_rate"

echo "--- gpuprobe table check, every installed table"
n=0
for t in "$tables"/*; do
    "$bin" table check "$t" || bad "table check $t"
    n=$((n + 1))
done
[ "$n" -ge 2 ] || bad "only $n tables installed in $tables"

echo "--- gpuprobe info"
"$bin" info >"$tmp/info.txt" 2>&1
rc=$?
cat "$tmp/info.txt"
grep -q "^tables  *$tables (from next to the executable" "$tmp/info.txt" ||
    bad "info does not use the installed tables $tables"
if [ "$rc" -eq 0 ]; then
    grep -q '^runs here  *yes' "$tmp/info.txt" || echo "package_check: note: this package's device code does not run on this GPU"
elif [ "$rc" -ne 77 ]; then
    bad "info exited $rc (0 with a GPU, 77 without one)"
fi

echo "--- gpuprobe report: the committed H200 report from its records"
h200=$src/docs/reports/h200
regen=$tmp/h200
mkdir -p "$regen" && cp "$h200"/*.json "$h200"/*.csv "$h200"/table.txt "$regen"/ || exit 1
"$bin" report "$regen" >"$tmp/report.log" 2>&1 || { cat "$tmp/report.log"; bad "report exited nonzero"; }
diff -u "$h200/table.txt" "$regen/table.txt" || bad "report: table.txt differs from the committed one"
# The folder it was written from (twice) and the build line of the records
# are the only lines allowed to differ.
keep() { grep -v -e '^Written by gpuprobe from ' -e '^| measured by | ' -e '^From `.*/table.txt`, verbatim.$' "$1"; }
# The committed records predate build lines: the report says so.
grep -q '^| measured by | gpuprobe 0.1.0 (an older record' "$regen/report.md" ||
    bad "report.md does not show what measured the records"
diff -u <(keep "$h200/report.md") <(keep "$regen/report.md") || bad "report: report.md values differ from the committed one"

echo "--- the library: shared object's libraries, then the example application against the package"
so=$(ls "$root"/usr/lib/libgpuprobe.so.* 2>/dev/null | head -1)
if [ -z "$so" ]; then
    bad "no usr/lib/libgpuprobe.so.* in the package"
else
    for lib in $(objdump -p "$so" | awk '/NEEDED/ {print $2}'); do
        case $lib in
        libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux* | libstdc++.so.* | libgcc_s.so.* | libamdhip64.so.5 | libcuda.so.*) ;;
        *) bad "$so needs $lib, which the package does not provide or declare" ;;
        esac
    done
fi
bash "$src/tests/example_check.sh" "$root/usr" "$src" || bad "the example does not build or run against the package"

[ "$fail" -eq 0 ] && echo "package_check: $deb ok"
exit "$fail"
