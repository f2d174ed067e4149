#!/usr/bin/env bash
# bad_input.sh CASE GPUPROBE SOURCE_DIR: set up one kind of bad input in a
# temporary folder, run gpuprobe on it through expect.sh (exit code 2 and a
# message naming the problem), clean up.  Exit 77 (skipped) where the case
# cannot be set up here.
#   range       a table with a value out of its physical range: table check,
#               and a report whose base table is that table
#   no_tables   GP_TABLES_DIR names no folder: report and characterize
#   unwritable  an output folder gpuprobe may not write in (chmod 0555; as root,
#               gpuprobe runs as nobody; skipped when neither works)
set -u
case_=$1 gpuprobe=$2 src=$3
here=$(cd "$(dirname "$0")" && pwd)
expect=(bash "$here/expect.sh")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gp_bad_input.XXXXXX") || exit 1
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
records=$tmp/records
mkdir -p "$records" && cp "$src"/tests/data/h200/records/*.json "$records"/ || exit 1

fail=0
check() { # check RC PATTERN CMD...: one expectation; remember a failure
    echo "--- expect exit $1, /$2/: ${*:3}"
    "${expect[@]}" "$@" || fail=1
}

case $case_ in
range)
    # per_thread_max is 16..1024 registers: 4096 is no GPU's.
    mkdir "$tmp/tables"
    sed 's/^per_thread_max = 128 /per_thread_max = 4096/' "$src/tables/generic" >"$tmp/tables/generic"
    grep -q 'per_thread_max = 4096' "$tmp/tables/generic" || { echo "bad_input.sh: sed did not apply" >&2; exit 1; }
    check 2 "generic:[0-9]+: registers.per_thread_max = 4096: out of range 16..1024" \
        "$gpuprobe" table check "$tmp/tables/generic"
    # The records are from an sm_90 without tables/sm_90 here: the base table is the bad generic.
    GP_TABLES_DIR=$tmp/tables check 2 "tables/generic:[0-9]+: .*out of range" "$gpuprobe" report "$records"
    ;;
no_tables)
    GP_TABLES_DIR=/nonexistent check 2 "tables directory '/nonexistent' does not exist" \
        "$gpuprobe" report "$records"
    [ -e "$records/table.txt" ] && { echo "bad_input.sh: report wrote a table without tables" >&2; fail=1; }
    # characterize says so before it opens a GPU or runs a probe.
    GP_TABLES_DIR=/nonexistent check 2 "tables directory '/nonexistent' does not exist" \
        "$gpuprobe" characterize --quick --out "$tmp/char"
    ;;
unwritable)
    chmod 0755 "$tmp"
    chmod 0555 "$records"
    as=()
    if touch "$records/.probe" 2>/dev/null; then
        # Root writes anywhere: run gpuprobe as nobody where that is possible.
        rm -f "$records/.probe"
        if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null &&
            runuser -u nobody -- "$gpuprobe" --version >/dev/null 2>&1 &&
            ! runuser -u nobody -- touch "$records/.probe" 2>/dev/null; then
            as=(runuser -u nobody --)
            echo "bad_input.sh: running gpuprobe as nobody (root can write in a 0555 folder)"
        else
            echo "bad_input.sh: $(id -un) can write in a 0555 folder: case skipped (cli.out_unwritable_proc covers --out)"
            exit 77
        fi
    fi
    check 2 "cannot (write|create).*$records" "${as[@]}" "$gpuprobe" report "$records"
    check 2 "cannot (write|create).*$records/out" "${as[@]}" "$gpuprobe" run launch_rate --out "$records/out"
    check 2 "cannot (write|create).*$records" "${as[@]}" "$gpuprobe" characterize --out "$records"
    ;;
*)
    echo "bad_input.sh: unknown case '$case_'" >&2
    exit 2
    ;;
esac
exit $fail
