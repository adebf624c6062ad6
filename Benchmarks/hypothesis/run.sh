#!/usr/bin/env bash
# authcheck's random-path tester against Hypothesis stateful testing on the broken flows.
# Makes a virtual environment in Benchmarks/hypothesis/.venv with a pinned Hypothesis from PyPI,
# builds authcheck in release, runs compare.py, prints the Markdown section and replaces the
# section "Random testing against Hypothesis" of Benchmarks/results.md (the rest is left as is).
#
#   Benchmarks/hypothesis/run.sh                          every broken flow, seeds 1…20 (about half an hour)
#   Benchmarks/hypothesis/run.sh --seeds 3 --flows deep   a smoke run (still rewrites the section)
#
# Options go to compare.py (--seeds N, --flows a,b, --jobs N). JOBS (default 2) is how many flows
# are measured at the same time. SCRATCH_PATH is the Swift build folder (default .build-bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Benchmarks/hypothesis
hypothesis_version=6.170.15
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import hypothesis, sys; sys.exit(hypothesis.__version__ != '$hypothesis_version')" 2>/dev/null; then
    "$venv/bin/pip" install --quiet "hypothesis==$hypothesis_version"
fi
scratch="${SCRATCH_PATH:-.build-bench}"
swift build -c release --scratch-path "$scratch" --product authcheck >&2
"$venv/bin/python" "$here/compare.py" --authcheck "$scratch/release/authcheck" --jobs "${JOBS:-2}" \
    --results Benchmarks/results.md --json "$here/results.json" "$@"
echo "wrote Benchmarks/results.md and $here/results.json" >&2
