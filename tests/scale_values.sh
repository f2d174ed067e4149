#!/usr/bin/env bash
# scale_values.sh IN OUT KEY FACTOR [KEY FACTOR...]: copy the probe record IN
# to OUT with each named value multiplied by its factor (one value a line, as
# record.c writes them: {"key": "K", "value": V, ...}); exit 1, naming the
# keys, when not every key was found once.  How the tests make a changed
# copy of a recorded run (compare, fleet, slurm).
set -u
in=$1 out=$2
shift 2
[ $# -ge 2 ] && [ $(($# % 2)) -eq 0 ] || { echo "scale_values.sh: give KEY FACTOR pairs" >&2; exit 2; }
pairs="$*"
awk -v OFMT=%.9g -v CONVFMT=%.9g -v pairs="$pairs" '
    BEGIN { n = split(pairs, p, " "); for (i = 1; i < n; i += 2) { f[p[i]] = p[i + 1]; want++ } }
    {
        for (key in f) {
            k = "\"key\": \"" key "\", \"value\": "
            i = index($0, k)
            if (!i) continue
            pre = substr($0, 1, i - 1 + length(k)); rest = substr($0, i + length(k))
            $0 = pre ((rest + 0) * f[key]) substr(rest, index(rest, ","))
            changed++
        }
        print
    }
    END { if (changed != want) exit 1 }' "$in" >"$out.tmp" && mv "$out.tmp" "$out" ||
    { rm -f "$out.tmp"; echo "scale_values.sh: $in lacks one of the values to change ($pairs)" >&2; exit 1; }
