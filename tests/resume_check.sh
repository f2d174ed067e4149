#!/usr/bin/env bash
# resume_check.sh GPUPROBE DIR: an interrupted characterization loses nothing
# and resumes.  Starts `gpuprobe characterize --quick --out DIR`, kills it
# (SIGKILL) as soon as the first record appears, checks that every record
# left is whole, reruns, and checks that the rerun reused the earlier records
# untouched and named every probe that was missing.  Exit 77 without a GPU.
set -u
gp=$1 dir=$2
"$gp" info >/dev/null 2>&1
if [ $? -eq 77 ]; then
    echo "resume_check.sh: no GPU: skipped"
    exit 77
fi
rm -rf "$dir"
mkdir -p "$dir" || exit 1
log1=$dir.run1.log log2=$dir.run2.log
fail=0
bad() { echo "resume_check.sh: FAIL: $*"; fail=1; }

# Probe names, as the registry lists them (up to the blank line before the kernels).
mapfile -t probes < <("$gp" list | awk 'NF == 0 {exit} {print $1}')
[ ${#probes[@]} -gt 1 ] || { echo "resume_check.sh: gpuprobe list gave ${#probes[@]} probes"; exit 1; }

"$gp" characterize --quick --out "$dir" >"$log1" 2>&1 &
pid=$!
first=""
for ((i = 0; i < 6000; i++)); do # up to 10 minutes for the first record
    first=$(cd "$dir" && ls -- *.json 2>/dev/null | head -1)
    [ -n "$first" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
if [ -z "$first" ]; then
    echo "resume_check.sh: no record appeared; first run's output:"
    cat "$log1"
    exit 1
fi
echo "first record: $first; killed the first run (pid $pid)"

# Every record the kill left is whole: it parses as far as a shell can tell
# (ends with '}' and names its probe) and its series files are there.
declare -A sum checkok
survivors=()
for p in "${probes[@]}"; do
    f=$dir/$p.json
    [ -e "$f" ] || continue
    survivors+=("$p")
    sum[$p]=$(cksum <"$f")
    tail -c 3 "$f" | grep -q '}' || bad "$f is cut short"
    grep -q "\"probe\": \"$p\"" "$f" || bad "$f does not name its probe"
    for csv in $(grep -oE '"file": "[^"]+"' "$f" | sed 's/"file": "//; s/"$//'); do
        [ -s "$dir/$csv" ] || bad "$f names $csv, which is missing"
    done
    grep -q '"check": "ok"' "$f" && checkok[$p]=1
done
echo "records left by the killed run: ${survivors[*]}"
ls "$dir"/*.tmp 2>/dev/null && echo "(partial files of the interrupted write, above)"

"$gp" characterize --quick --out "$dir" >"$log2" 2>&1
rc=$?
echo "--- rerun (exit $rc):"
cat "$log2"
echo "---"
case $rc in 0 | 1) ;; *) bad "the rerun exited $rc" ;; esac

for p in "${probes[@]}"; do
    if [ -n "${sum[$p]:-}" ]; then
        if [ -n "${checkok[$p]:-}" ]; then
            grep -qF "[$p] reused" "$log2" || bad "$p had a valid record but the rerun did not say it reused it"
            [ "$(cksum <"$dir/$p.json")" = "${sum[$p]}" ] || bad "$p.json changed although it was reused"
        else
            grep -qF "[$p] to run: its check" "$log2" || bad "$p's failed check was not named as the reason to rerun it"
        fi
    else
        grep -qF "[$p] to run: no record" "$log2" || bad "the rerun did not name $p as missing"
        grep -E "missing or stale:.*\b$p\b" "$log2" >/dev/null || bad "$p is not in the rerun's missing list"
    fi
    [ -e "$dir/$p.json" ] || bad "after the rerun $p.json is missing"
done
[ -e "$dir/report.md" ] || bad "the rerun wrote no report.md"
[ $fail -eq 0 ] && echo "resume_check.sh: ok: ${#survivors[@]} record(s) survived the kill and were reused;" \
    "$((${#probes[@]} - ${#survivors[@]})) missing probe(s) named and run"
exit $fail
