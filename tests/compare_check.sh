#!/usr/bin/env bash
# compare_check.sh CASE GPUPROBE SOURCE_DIR: `gpuprobe compare` on the recorded
# H200 run (docs/reports/h200) against a copy made here, through expect.sh.
#   modified  the copy with one count changed (lds banks doubled) and one
#             latency moved by +0.3 % (inside its band): exit 1 for the count only;
#             --out writes the same Markdown (and leaves no .tmp)
#   bad_json  the copy with one record cut short: exit 2 naming the file
#   missing_probe  lds.json removed from the copy: exit 1 naming it; --only narrows
#   corrupt_value  a value "abc", null or 1e999: exit 2 naming file and key
#   json      --json: the same verdicts as one JSON object (schema_version,
#             summary, one row per value) on stdout and in --out FILE; a
#             folder as --out is refused before anything is read or written
set -u
case_=$1 gpuprobe=$2 src=$3
here=$(cd "$(dirname "$0")" && pwd)
expect=(bash "$here/expect.sh")
runA=$src/docs/reports/h200
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gp_compare.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
runB=$tmp/runB
mkdir -p "$runB" && cp "$runA"/*.json "$runB"/ || exit 1

fail=0
check() { # check RC PATTERN CMD...: one expectation; remember a failure
    echo "--- expect exit $1, /$2/: ${*:3}"
    "${expect[@]}" "$@" || fail=1
}

case $case_ in
modified)
    # Whatever the recorded values are: banks doubled, latency_cycles x 1.003.
    bash "$here/scale_values.sh" "$runA/lds.json" "$runB/lds.json" banks 2 latency_cycles 1.003 || exit 1
    check 1 '\| lds \| `banks` \| [0-9]+ banks \| [0-9]+ banks \| \+100% \| exact \| \*\*differs\*\* \|' \
        "$gpuprobe" compare "$runA" "$runB" --out "$tmp/out/repeat-runs.md"
    check 1 '; 1 differ; ' "$gpuprobe" compare "$runA" "$runB"
    check 1 '\| lds \| `latency_cycles` \| [^|]+ cycles \| [^|]+ cycles \| \+0.3% \| [^|]+ \| (agrees|unstable \(warned\)) \|' \
        "$gpuprobe" compare "$runA" "$runB"
    grep -q '; 1 differ; ' "$tmp/out/repeat-runs.md" || { echo "compare_check.sh: --out file lacks the summary" >&2; fail=1; }
    [ -e "$tmp/out/repeat-runs.md.tmp" ] && { echo "compare_check.sh: a .tmp was left" >&2; fail=1; }
    ;;
bad_json)
    head -c 200 "$runA/lds.json" >"$runB/lds.json"
    check 2 "lds.json:[0-9]+:[0-9]+: " "$gpuprobe" compare "$runA" "$runB"
    check 2 "no probe records \(\*.json\) in '$tmp/empty'" bash -c "mkdir -p '$tmp/empty' && exec '$gpuprobe' compare '$runA' '$tmp/empty'"
    ;;
missing_probe)
    # lds.json gone from B: a difference (exit 1, named), unless --only
    # narrows the comparison to probes both runs hold.
    rm -f "$runB/lds.json"
    check 1 "probe only in run A \(a difference: the other run has no record\): lds" \
        "$gpuprobe" compare "$runA" "$runB"
    check 0 "; 0 differ; " "$gpuprobe" compare "$runA" "$runB" --only atomics cache_latency
    check 1 "1 probe recorded in one run only" "$gpuprobe" compare "$runA" "$runB" --only lds,atomics
    ;;
corrupt_value)
    # register_limits per_cu: "abc", null with detected true, 1e999: exit 2
    # naming the file and the key (compare and report).
    for bad in '"abc"' null 1e999; do
        sed "s/\"key\": \"per_cu\", \"value\": [0-9]*/\"key\": \"per_cu\", \"value\": $bad/" \
            "$runA/register_limits.json" >"$runB/register_limits.json"
        check 2 "register_limits.json: key 'per_cu'" "$gpuprobe" compare "$runA" "$runB"
        check 2 "register_limits.json: key 'per_cu'" "$gpuprobe" report "$runB"
    done
    ;;
json)
    bash "$here/scale_values.sh" "$runA/lds.json" "$runB/lds.json" banks 2 || exit 1
    check 1 '^\{$' "$gpuprobe" compare "$runA" "$runB" --json
    check 1 '"schema_version": "1.0",' "$gpuprobe" compare "$runA" "$runB" --json --out "$tmp/out/c.json"
    check 0 '"summary": \{"compared": [0-9]+, "agree": [0-9]+, "differ": 1, ' cat "$tmp/out/c.json"
    check 1 '"key": "banks", "unit": "banks", "a": 32, "b": 64, .*"verdict": "differs"' \
        "$gpuprobe" compare "$runA" "$runB" --json
    if "$gpuprobe" compare "$runA" "$runB" --json 2>/dev/null | grep -q '^# Two runs compared'; then
        echo "compare_check.sh: --json printed the Markdown too" >&2; fail=1
    fi
    mkdir -p "$tmp/adir"
    check 2 "--out '$tmp/adir' is a folder" "$gpuprobe" compare "$runA" "$runB" --json --out "$tmp/adir"
    [ -z "$(ls -A "$tmp/adir")" ] || { echo "compare_check.sh: something written into the folder" >&2; fail=1; }
    check 2 "cannot create directory '/proc/forbidden'" "$gpuprobe" compare "$runA" "$runB" --out /proc/forbidden/c.md
    ;;
*)
    echo "compare_check.sh: unknown case '$case_'" >&2
    exit 2
    ;;
esac
exit $fail
