#!/usr/bin/env bash
# Builds authcheck in release and runs the benchmark harness; the report goes to Benchmarks/results.md.
#
#   Benchmarks/run.sh            the full report (about two minutes and 3 GB of SPIN, seconds and 21 MB of authcheck)
#   Benchmarks/run.sh --quick    smaller depths, for a smoke run
#
# Options after the script name go to authcheck-bench (--quick, --repeat N, --no-spin).
# SPIN is compared when `spin` is on the PATH (Debian: apt-get install spin) and a C compiler is.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SCRATCH_PATH:-.build-bench}"
swift build -c release --scratch-path "$scratch" --product authcheck-bench
bench="$scratch/release/authcheck-bench"
partial="$(mktemp)"
trap 'rm -f "$partial"' EXIT
"$bench" --root "$PWD" "$@" | tee "$partial"
# The Hypothesis comparison is measured by Benchmarks/hypothesis/run.sh (about 40 minutes): keep its section.
kept="$(mktemp)"
trap 'rm -f "$partial" "$kept"' EXIT
if [ -f Benchmarks/results.md ]; then
  sed -n '/^## Random testing against Hypothesis/,/^## [^R]/p' Benchmarks/results.md | sed '$!b; /^## [^R]/d' > "$kept"
fi
cp "$partial" Benchmarks/results.md
if [ -s "$kept" ]; then printf '\n' >> Benchmarks/results.md; cat "$kept" >> Benchmarks/results.md; fi
echo "wrote Benchmarks/results.md" >&2
