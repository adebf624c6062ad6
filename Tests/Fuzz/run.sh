#!/usr/bin/env bash
# Fuzz the spec loader or the passcode normaliser with libFuzzer for a given time.
#
#   Tests/Fuzz/run.sh SECONDS [loader|passcode]     (default: loader)
#
# Builds every file of Sources/AuthFlow plus the target's entry file with
# `swiftc -sanitize=fuzzer,address` into .build-fuzz/TARGET/ (ignored by git and by SwiftPM),
# fuzzes a working corpus there seeded with the committed one (and Specs/ for the loader) for
# SECONDS, then minimises the committed corpus, Tests/Fuzz/corpus/TARGET, to a set cover of the
# coverage edges of everything found, so it stays small and only grows by inputs that reach new
# code. The working corpus keeps everything, for the next run.
#
# Exit status: 0 when the run found nothing; libFuzzer's non-zero status when it found a crash,
# a broken invariant, a timeout (a unit over 10 s) or an out-of-memory unit (over 2 GB), whose
# input is left in .build-fuzz/TARGET/crash-*, timeout-* or oom-* (turn it into a regression
# test); 2 on misuse.
# Each run appends its figures to .build-fuzz/TARGET/runs.tsv.
#
# Environment: FUZZ_NO_MERGE=1 leaves the committed corpus unchanged; FUZZ_OPT overrides -O.
set -euo pipefail

seconds=${1:?usage: Tests/Fuzz/run.sh SECONDS [loader|passcode]}
target=${2:-loader}
case "$target" in
    loader) entry=LoaderFuzz.swift; max_len=16384 ;;
    passcode) entry=PasscodeFuzz.swift; max_len=4096 ;;
    *) echo "unknown target '$target': expected loader or passcode" >&2; exit 2 ;;
esac
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number, not '$seconds'" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/.build-fuzz/$target"
corpus="$here/corpus/$target"
mkdir -p "$work/corpus" "$corpus"

# One run per target at a time: two would race on the corpora.
exec 9>"$work/lock"
flock -n 9 || { echo "another $target fuzzing run is using $work" >&2; exit 2; }

binary="$work/fuzz-$target"
sources=$(find "$root/Sources/AuthFlow" -name '*.swift' | sort)
newest=$(ls -t $sources "$here/$entry" "$0" | head -1)
if [[ ! -x "$binary" || "$newest" -nt "$binary" ]]; then
    echo "building $binary" >&2
    rm -f "$binary"
    # Compile a snapshot, so that editing the sources meanwhile cannot break the build.
    rm -rf "$work/src" && mkdir -p "$work/src"
    cp $sources "$here/$entry" "$work/src/"
    swiftc ${FUZZ_OPT:--O} -sanitize=fuzzer,address -parse-as-library -module-name AuthFlow -package-name authcheck \
        "$work"/src/*.swift -o "$binary" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
    [[ -x "$binary" ]] || { echo "building the fuzzer failed" >&2; exit 2; }
fi

seeds=("$corpus")
if [[ "$target" == loader ]]; then
    mkdir -p "$work/specs"
    cp "$root"/Specs/*.json "$work/specs/" 2>/dev/null || true
    seeds+=("$work/specs")
fi
dict=()
[[ -f "$here/$target.dict" ]] && dict=(-dict="$here/$target.dict")

cd "$work"
log="$work/last-run.log"
# Swift's crash backtracer runs under ASan as a reported stack-buffer-underflow, and outlives the
# fuzzer holding the lock for its 30 s timeout; libFuzzer and ASan print the stack themselves.
export SWIFT_BACKTRACE=enable=no
set +e
"$binary" "$work/corpus" "${seeds[@]}" "${dict[@]}" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/" >"$log" 2>&1
status=$?
set -e

grep -E '^(#[0-9]+ +(INITED|DONE)|stat::|==[0-9]+==|SUMMARY|.*(Fatal error|deadly signal|Test unit written))' "$log" >&2 || true
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
working=$(find "$work/corpus" -type f | wc -l)

if [[ $status -eq 0 && "${FUZZ_NO_MERGE:-0}" != 1 ]]; then
    # Minimise: the fewest inputs that cover every edge reached by the committed corpus, the
    # seeds and the working corpus (hit counts ignored, so the set stays a few hundred files).
    merged="$work/merged"
    rm -rf "$merged" && mkdir -p "$merged"
    "$binary" -set_cover_merge=1 -use_counters=0 -max_len="$max_len" "$merged" "${seeds[@]}" "$work/corpus" \
        >"$work/merge.log" 2>&1
    find "$corpus" -type f -delete
    cp "$merged"/* "$corpus"/ 2>/dev/null || true
fi
committed=$(find "$corpus" -type f | wc -l)
printf '%s\t%s\t%s s\t%s executions\t%s exec/s\tworking corpus %s\tcommitted corpus %s\texit %s\n' \
    "$(date -u +%FT%TZ)" "$target" "$seconds" "${executions:-?}" "${rate:-?}" "$working" "$committed" "$status" \
    | tee -a "$work/runs.tsv" >&2
exit "$status"
