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
# Below, B is a copy of the committed H200 run (docs/reports/h200), and every
# refusal is also checked to leave B (and any --out) exactly as it was: no
# table, no report, no SVG, no .tmp.
#   contradict  records that contradict themselves: lds.json naming atomics,
#               an unknown probe, "probe" twice, a value key twice, a value
#               without "key", "check": "banana", a spread of -5,
#               compute_units -132, banks -32; report, compare and fleet each
#               exit 2 naming the file and the key
#   other_gpu   an H100's lds.json in B: report, compare and fleet exit 2
#   csv_bytes   random bytes as lds_conflicts.csv: report exits 2 naming it
#   report_out  report B --out OUT writes nothing into B (a line added to
#               B/table.txt stays); a bad --out, a bad --against or a
#               too-long path is exit 2 with B untouched; an unwritable B
#               (as nobody) is exit 2 without "written"
#   validate    an L1 latency above the L2's, a corrupt --tables DIR/sm_90, a
#               folder named report.html, lds_conflicts.svg or roofline.svg
#               where the report goes: exit 2 naming the record or file,
#               nothing written
#   unreadable  a dangling link, a link loop, a mode-000 file (as nobody) in
#               place of lds.json: exit 2 naming it, nothing written
#   fifo        a FIFO in place of lds.json: report, compare, fleet and table
#               check exit 2 at once ("not a regular file"), never hang
#   schema      a record or a table.txt of a newer major schema_version: exit 2
#               saying so; a newer minor reads
#   smaller     fleet B B/; run --out X without a GPU leaves no X; report of a
#               missing folder says so; a UTF-8 device.name passes table
#               check; table check A B shows the table usage alone; --seed
#               past 2^64-1; resources --out in a missing folder: exit 2
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
h200=$src/docs/reports/h200
B=$tmp/B
fresh_b() { # B: a copy of the committed H200 run, its own table.txt and report included
    rm -rf "$B" && mkdir -p "$B" && cp -r "$h200"/. "$B"/ || exit 1
}
snap() { # snap DIR: every name and content under DIR, to see that nothing changed
    (cd "$1" 2>/dev/null && find . -print | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z |
        xargs -0 -r md5sum)
}
unchanged() { # unchanged DIR BEFORE WHAT: DIR is as BEFORE (a snap) was
    if [ "$(snap "$1")" != "$2" ]; then
        echo "bad_input.sh: $3 changed $1:" >&2
        diff <(printf '%s\n' "$2") <(snap "$1") | head -20 >&2
        fail=1
    fi
}
refuse() { # refuse PATTERN CMD...: exit 2 matching PATTERN, B unchanged
    local before
    before=$(snap "$B")
    check 2 "$@"
    unchanged "$B" "$before" "'${*:2}'"
}
nobody_can() { # set as=(...) to run as a user root is not; 1 when impossible
    as=()
    [ "$(id -u)" -ne 0 ] && return 0
    command -v runuser >/dev/null && runuser -u nobody -- "$gpuprobe" --version >/dev/null 2>&1 || return 1
    as=(runuser -u nobody --)
}
edit() { # edit FILE FROM TO: the first FROM in FILE (a fixed string) becomes TO
    local f=$1 from=$2 to=$3 text
    text=$(cat "$f") || exit 1
    [[ $text == *"$from"* ]] || { echo "bad_input.sh: '$from' not in $f" >&2; exit 1; }
    printf '%s\n' "${text/"$from"/"$to"}" >"$f"
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
contradict)
    export GP_TABLES_DIR=$src/tables
    banks='"key": "banks", "value": 32, "unit": "banks"'
    while IFS='|' read -r what from to key; do
        fresh_b
        if [ -z "$from" ]; then edit "$B/lds.json" '{' "{$to"; else edit "$B/lds.json" "$from" "$to"; fi
        echo "=== $what"
        refuse "lds.json.*$key" "$gpuprobe" report "$B"
        refuse "lds.json.*$key" "$gpuprobe" compare "$h200" "$B"
        refuse "lds.json.*$key" "$gpuprobe" fleet "$B"
    done <<CONTRADICTIONS
lds.json naming atomics|"probe": "lds"|"probe": "atomics"|atomics
an unknown probe|"probe": "lds"|"probe": "ldx"|ldx
"probe" twice||"probe": "lds",|probe
a value key twice, 32 and 999|{$banks|{$banks, "spread": null, "detected": true, "note": ""}, {"key": "banks", "value": 999, "unit": "banks"|banks
a value without "key"|{"key": "banks", |{|key
"check": "banana"|"check": "ok"|"check": "banana"|banana
a spread of -5|"spread": null|"spread": -5|spread
compute_units -132|"compute_units": 132|"compute_units": -132|compute_units
banks -32|"key": "banks", "value": 32|"key": "banks", "value": -32|banks
CONTRADICTIONS
    ;;
other_gpu)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    cp "$src/docs/reports/h100/lds.json" "$B/lds.json" || exit 1
    refuse "mixes devices.*lds.json NVIDIA H100" "$gpuprobe" report "$B"
    refuse "mixes devices" "$gpuprobe" compare "$h200" "$B"
    refuse "mixes devices" "$gpuprobe" fleet "$h200" "$B"
    ;;
csv_bytes)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    head -c 4096 /dev/urandom | tr -d '\000' >"$B/lds_conflicts.csv"
    refuse "lds.json: its series lds_conflicts.csv:1:" "$gpuprobe" report "$B"
    printf 'stride,bytes\n1,2\001\002\n' >"$B/lds_conflicts.csv"
    refuse "lds_conflicts.csv:2: text after the last" "$gpuprobe" report "$B"
    ;;
report_out)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    echo "# a line a user added" >>"$B/table.txt"
    before=$(snap "$B")
    check 0 "report: $tmp/out/report.html and report.md written" "$gpuprobe" report "$B" --out "$tmp/out"
    unchanged "$B" "$before" "report --out"
    grep -q "a line a user added" "$B/table.txt" || { echo "bad_input.sh: the user's line was lost" >&2; fail=1; }
    for f in table.txt report.html report.md roofline.svg lds_conflicts.svg; do
        [ -s "$tmp/out/$f" ] || { echo "bad_input.sh: report --out wrote no $f" >&2; fail=1; }
    done
    refuse "cannot create directory '/proc/forbidden'" "$gpuprobe" report "$B" --out /proc/forbidden/r
    refuse "--against /nonexistent-gp: results folder '/nonexistent-gp' does not exist" \
        "$gpuprobe" report "$B" --against /nonexistent-gp
    long=$tmp/$(printf 'x%.0s' {1..1100})
    refuse "path too long|bad directory path" "$gpuprobe" report "$B" --out "$long"
    refuse "path too long|bad directory path" "$gpuprobe" report "$B" --out "$long" --against "$h200"
    if nobody_can; then
        chmod -R a+rX "$tmp" && chmod 0555 "$B"
        out=$("${as[@]}" "$gpuprobe" report "$B" 2>&1)
        rc=$?
        printf '%s\n' "$out"
        [ $rc -eq 2 ] && grep -q "cannot write '$B/table.txt.tmp'" <<<"$out" ||
            { echo "bad_input.sh: report into an unwritable B: exit $rc" >&2; fail=1; }
        grep -q "written" <<<"$out" && { echo "bad_input.sh: 'written' said for an unwritable B" >&2; fail=1; }
        unchanged "$B" "$before" "report into an unwritable B"
        chmod 0755 "$B"
    else
        echo "bad_input.sh: no user without write access here: the unwritable-B part skipped"
    fi
    ;;
validate)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    sed -i 's/"key": "l1_latency_cycles", "value": [0-9.e+-]*/"key": "l1_latency_cycles", "value": 900/' \
        "$B/cache_latency.json"
    grep -q '"l1_latency_cycles", "value": 900,' "$B/cache_latency.json" ||
        { echo "bad_input.sh: sed did not apply" >&2; exit 1; }
    refuse "cache_latency.json: l1_latency_cycles = 900.*breaks the table.*not above cache.l1.latency_cycles" \
        "$gpuprobe" report "$B"
    fresh_b
    mkdir "$tmp/tables" && cp "$src"/tables/* "$tmp/tables"/ || exit 1
    sed -i 's/^banks\( *\)= 32 /banks\1= -32/' "$tmp/tables/sm_90"
    grep -q '^banks *= -32' "$tmp/tables/sm_90" || { echo "bad_input.sh: sed did not apply" >&2; exit 1; }
    GP_TABLES_DIR=$tmp/tables refuse "tables/sm_90:[0-9]+: lds.banks = -32" "$gpuprobe" report "$B"
    for blocker in report.html lds_conflicts.svg roofline.svg; do
        rm -rf "$tmp/out" && mkdir -p "$tmp/out/$blocker" || exit 1
        before_out=$(snap "$tmp/out")
        refuse "cannot write '$tmp/out/$blocker': it exists and is a directory" \
            "$gpuprobe" report "$B" --out "$tmp/out"
        unchanged "$tmp/out" "$before_out" "a report blocked by $blocker"
    done
    # The same in B itself: not one of its outputs replaced.
    rm -f "$B/roofline.svg" && mkdir "$B/roofline.svg"
    refuse "cannot write '$B/roofline.svg': it exists and is a directory" "$gpuprobe" report "$B"
    ;;
unreadable)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    rm "$B/lds.json" && ln -s nowhere.json "$B/lds.json"
    refuse "cannot read '$B/lds.json': a symbolic link to nothing" "$gpuprobe" report "$B"
    refuse "lds.json" "$gpuprobe" compare "$h200" "$B"
    rm "$B/lds.json" && ln -s loop.json "$B/lds.json" && ln -s lds.json "$B/loop.json"
    refuse "cannot read '$B/lds.json': a loop of symbolic links" "$gpuprobe" report "$B"
    rm "$B/lds.json" "$B/loop.json" && cp "$h200/lds.json" "$B/lds.json"
    if nobody_can; then
        chmod -R a+rX "$tmp" && chmod -R a+w "$B" && chmod 000 "$B/lds.json"
        refuse "cannot read '$B/lds.json': Permission denied" "${as[@]}" "$gpuprobe" report "$B"
    else
        echo "bad_input.sh: every user reads a mode-000 file here: that part skipped"
    fi
    ;;
fifo)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    rm "$B/lds.json" && mkfifo "$B/lds.json" || exit 77
    refuse "'$B/lds.json' is not a regular file \(a FIFO\)" timeout 20 "$gpuprobe" report "$B"
    refuse "'$B/lds.json' is not a regular file \(a FIFO\)" timeout 20 "$gpuprobe" compare "$h200" "$B"
    refuse "'$B/lds.json' is not a regular file \(a FIFO\)" timeout 20 "$gpuprobe" fleet "$B"
    refuse "is not a regular file \(a FIFO\): gpuprobe reads a tuning table" \
        timeout 20 "$gpuprobe" table check "$B/lds.json"
    ;;
schema)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    edit "$B/lds.json" '{' '{"schema_version": "2.0",'
    refuse "lds.json: schema_version 2.0 is newer than this gpuprobe reads \(1.x\)" "$gpuprobe" report "$B"
    refuse "schema_version 2.0 is newer" "$gpuprobe" compare "$h200" "$B"
    refuse "schema_version 2.0 is newer" "$gpuprobe" fleet "$B"
    edit "$B/lds.json" '{"schema_version": "2.0",' '{"schema_version": "1.7",'
    check 0 "of [0-9]+ characteristics agree" "$gpuprobe" compare "$h200" "$B"
    fresh_b
    edit "$B/table.txt" 'schema_version = 1.1' 'schema_version = 2.0'
    refuse "table.txt:[0-9]+: schema_version 2.0 is newer" "$gpuprobe" report "$B"
    refuse "table.txt:[0-9]+: schema_version 2.0 is newer" "$gpuprobe" table check "$B/table.txt"
    ;;
smaller)
    export GP_TABLES_DIR=$src/tables
    fresh_b
    refuse "results folder '$B/' is given twice \(also as '$B'\)" "$gpuprobe" fleet "$B" "$B/"
    check "77|0|1" "" "$gpuprobe" run lds --out "$tmp/X"
    [ -d "$tmp/X" ] && [ -z "$(ls -A "$tmp/X")" ] && { echo "bad_input.sh: run left an empty $tmp/X" >&2; fail=1; }
    check 2 "results folder '/nonexistent-gp' does not exist" "$gpuprobe" report /nonexistent-gp
    sed 's/^name\( *\)= NVIDIA H200 /name\1= NVIDIA H200 ™ Ünïcode /' "$src/tables/sm_90" >"$tmp/utf8"
    grep -q "Ünïcode" "$tmp/utf8" || { echo "bad_input.sh: sed did not apply" >&2; exit 1; }
    check 0 "utf8: ok" "$gpuprobe" table check "$tmp/utf8"
    out=$("$gpuprobe" table check A B 2>&1)
    printf '%s\n' "$out"
    grep -q "table needs 'show FILE'" <<<"$out" && grep -q "gpuprobe table check FILE" <<<"$out" &&
        ! grep -q "characterize" <<<"$out" ||
        { echo "bad_input.sh: table check A B: not the table usage alone" >&2; fail=1; }
    check 2 "--seed: '18446744073709551616' is larger than 18446744073709551615" \
        "$gpuprobe" verify ssim --seed 18446744073709551616
    check 2 "resources: --out: cannot write '/nonexistent-gp/x': folder '/nonexistent-gp' does not exist" \
        "$gpuprobe" resources --out /nonexistent-gp/x
    ;;
kernel_args)
    # verify/bench check every argument before they look for a GPU: a
    # mistyped table is exit 2 on any machine, never a skip (77).
    export GP_TABLES_DIR=$src/tables
    k=transpose
    check 2 "cannot read table '/nonexistent'" "$gpuprobe" verify $k --table /nonexistent
    head -c 3000 /dev/urandom >"$tmp/garbage.bin"
    check 2 "garbage.bin" "$gpuprobe" verify $k --table "$tmp/garbage.bin"
    awk '/^\[cache.l1\]/ {s = 1} /^\[/ && !/cache.l1/ {s = 0}
         s && /^latency_cycles/ {sub(/= *[0-9.]+/, "= 900")} {print}' "$src/tables/sm_90" >"$tmp/l1_over_l2"
    grep -q "= 900" "$tmp/l1_over_l2" || { echo "bad_input.sh: awk did not apply" >&2; exit 1; }
    check 2 "l1_over_l2:[0-9]+: .*latency" "$gpuprobe" verify $k --table "$tmp/l1_over_l2"
    check 2 "is a directory" "$gpuprobe" verify $k --mistuned "$src/tables"
    : >"$tmp/a_file"
    check 2 "--out '$tmp/a_file' is not a directory" "$gpuprobe" bench $k --out "$tmp/a_file"
    check 2 "--shape '12x': .*takes RxC" "$gpuprobe" bench $k --shape 12x
    check 2 "--shape needs exactly one kernel" "$gpuprobe" verify $k reduce --shape 12x12
    check 2 "--budget: 'soon' is not a number of seconds" "$gpuprobe" tune $k --budget soon
    check 2 "--random-shapes: '0' is not a count in 1..16" "$gpuprobe" verify $k --random-shapes 0
    check 2 "option --random-shapes is for verify only|random-shapes" "$gpuprobe" bench $k --random-shapes 3
    check 2 "--shape and --random-shapes: 17 shapes" "$gpuprobe" verify $k --shape 2x2 --random-shapes 16
    ;;
*)
    echo "bad_input.sh: unknown case '$case_'" >&2
    exit 2
    ;;
esac
exit $fail
