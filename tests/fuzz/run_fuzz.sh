#!/usr/bin/env bash
# run_fuzz.sh FUZZER SECONDS CORPUS DICT SEED_DIR...: run a libFuzzer target
# for SECONDS on CORPUS (created; new inputs are kept there between runs)
# plus the seed folders.  Exit 0 when nothing was found, 1 on a crash, a hang,
# a leak or a failed property (libFuzzer's own codes mapped to 1, so CTest
# never takes them for a skip).
set -u
fuzzer=$1 seconds=$2 corpus=$3 dict=$4
shift 4
mkdir -p "$corpus" || exit 1
name=$(basename "$fuzzer")
out=$(dirname "$corpus")
echo "run_fuzz.sh: $name for ${seconds}s; corpus $corpus; seeds: $*"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=32768 \
    -dict="$dict" -print_final_stats=1 -error_exitcode=1 -timeout_exitcode=1 \
    -artifact_prefix="$out/$name-" "$corpus" "$@" 2>&1 | grep -vE '^#[0-9]+\s+(NEW|REDUCE|pulse)'
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
    echo "run_fuzz.sh: $name failed (exit $rc); reproduce with: $fuzzer $out/$name-<crash-file>"
    exit 1
fi
echo "run_fuzz.sh: $name: no crash, hang or property failure in ${seconds}s"
exit 0
