#!/usr/bin/env bash
# Builds authcheck in release and runs the benchmark harness; the report goes to Benchmarks/results.md.
#
#   Benchmarks/run.sh            the full report (about two minutes and 3 GB of SPIN, seconds and 21 MB of authcheck)
#   Benchmarks/run.sh --quick    smaller depths, for a smoke run
#   Benchmarks/run.sh --traces-only   only `authcheck traces` on generated corpora (writes up to 3.5 GB under .build-bench/traces)
#   Benchmarks/run.sh --real-v2-only  only the lockstep walk on real authflow/2 flows (Benchmarks/specs/) and `authcheck check` on them
#   Benchmarks/run.sh --diff-only     only `authcheck diff` on two versions of the largest flows (Benchmarks/specs/diff/)
#
# Options after the script name go to authcheck-bench (--quick, --repeat N, --no-spin, --traces-only first).
# SPIN is compared when `spin` is on the PATH (Debian: apt-get install spin) and a C compiler is.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SCRATCH_PATH:-.build-bench}"
swift build -c release --scratch-path "$scratch" --product authcheck   # `authcheck traces` and `diff` are measured as shipped
bench="$scratch/release/authcheck-bench"
# `authcheck diff` as shipped on each version pair: the best and the median of 5 runs, the peak memory of the last
# (/usr/bin/time when there is one). Its section and target line go in place in results.md, before ## Targets.
diff_section() {
  python3 - "$scratch/release/authcheck" <<'PY'
import json, os, re, resource, statistics, subprocess, sys, time
authcheck = sys.argv[1]
pairs = [
    ("Specs/sign-in-next-step.json", "Benchmarks/specs/diff/sign-in-next-step-guard.json",
     "the largest flow in `Specs/` (10 states, 21 rows) against the same with one guard changed (`failedCodes` 3 → 2)"),
    ("Benchmarks/specs/elementx-authentication-v2.json", "Benchmarks/specs/diff/elementx-authentication-v2-one-row.json",
     "Element X's authentication flow (31 states, 139 rows) against the same with one row's target changed"),
]
lines = ["## authcheck diff on two versions of a flow", "",
         "`authcheck diff --format json OLD NEW` as shipped (release build), the behavioural search and both versions' checks; "
         "wall time of 5 runs (best, median), peak resident memory of one run.", "",
         "| pair | differences | best s | median s | peak MB |", "|---|---|---|---|---|"]
worst = 0.0
for old, new, what in pairs:
    times = []
    for _ in range(5):
        start = time.perf_counter()
        run = subprocess.run([authcheck, "diff", "--format", "json", old, new], capture_output=True)
        times.append(time.perf_counter() - start)
        if run.returncode not in (0, 1):
            sys.exit(f"authcheck diff {old} {new} exited {run.returncode}: {run.stderr.decode()}")
    report = json.loads(run.stdout)
    peak = "–"
    if os.path.exists("/usr/bin/time"):
        timed = subprocess.run(["/usr/bin/time", "-f", "%M", authcheck, "diff", "--format", "json", old, new], capture_output=True)
        peak = f"{int(timed.stderr.decode().strip().splitlines()[-1]) / 1024:.1f}"
    best, median = min(times), statistics.median(times)
    worst = max(worst, median)
    lines.append(f"| {what}: `{old}` → `{new}` | {len(report['differences'])} | {best:.3f} | {median:.3f} | {peak} |")
section = "\n".join(lines) + "\n"
target = f"- `authcheck diff` on two versions of the largest flows: {worst:.2f} s median at worst (target: under a second)" \
         + (" — met" if worst < 1 else " — missed")
print(section)
text = open("Benchmarks/results.md").read()
pattern = re.compile(r"^## authcheck diff on two versions of a flow\n.*?(?=^## )", re.S | re.M)
text = pattern.sub(lambda _: section + "\n", text, count=1) if pattern.search(text) else text.replace("\n## Targets", "\n" + section + "\n## Targets", 1)
old = re.compile(r"^- `authcheck diff` on .*$", re.M)
if old.search(text):
    text = old.sub(lambda _: target, text, count=1)
else:
    head, sep, rest = text.partition("\n## Targets\n")
    body, nxt, tail = rest.partition("\n## ")
    text = head + sep + body.rstrip("\n") + "\n" + target + "\n" + (nxt + tail if nxt else "")
open("Benchmarks/results.md", "w").write(text)
PY
  echo "wrote the diff section of Benchmarks/results.md" >&2
}
if [ "${1:-}" = "--diff-only" ]; then
  diff_section
  exit 0
fi
swift build -c release --scratch-path "$scratch" --product authcheck-bench
# --traces-only: measure `authcheck traces` alone and put its section in place in results.md.
if [ "${1:-}" = "--traces-only" ]; then
  section="$(mktemp)"
  trap 'rm -f "$section"' EXIT
  "$bench" --root "$PWD" "$@" | tee "$section"
  python3 - "$section" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().rstrip("\n").split("\n")
targets = [line[len("TARGET: "):] for line in lines if line.startswith("TARGET: ")]
section = "\n".join(line for line in lines if not line.startswith("TARGET: ")).rstrip("\n") + "\n"
text = open("Benchmarks/results.md").read()
pattern = re.compile(r"^## authcheck traces on generated corpora\n.*?(?=^## )", re.S | re.M)
text = pattern.sub(lambda _: section + "\n", text, count=1) if pattern.search(text) else text.replace("\n## Targets", "\n" + section + "\n## Targets", 1)
for target in targets:
    old = re.compile(r"^- `authcheck traces` on .*$", re.M)
    if old.search(text):
        text = old.sub(lambda _: target, text, count=1)
    else:
        # The last line of the Targets section.
        head, sep, rest = text.partition("\n## Targets\n")
        body, nxt, tail = rest.partition("\n## ")
        text = head + sep + body.rstrip("\n") + "\n" + target + "\n" + ("\n" + nxt + tail if nxt else "")
open("Benchmarks/results.md", "w").write(text)
PY
  echo "wrote the traces section of Benchmarks/results.md" >&2
  exit 0
fi
# --real-v2-only: measure the real authflow/2 flows alone and put their section and target lines in place in results.md.
if [ "${1:-}" = "--real-v2-only" ]; then
  section="$(mktemp)"
  trap 'rm -f "$section"' EXIT
  "$bench" --root "$PWD" "$@" | tee "$section"
  python3 - "$section" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().rstrip("\n").split("\n")
targets = [line[len("TARGET: "):] for line in lines if line.startswith("TARGET: ")]
section = "\n".join(line for line in lines if not line.startswith("TARGET: ")).rstrip("\n") + "\n"
text = open("Benchmarks/results.md").read()
pattern = re.compile(r"^## The lockstep walk on real authflow/2 flows\n.*?(?=^## )", re.S | re.M)
text = pattern.sub(lambda _: section + "\n", text, count=1) if pattern.search(text) else text.replace("\n## Complete ", "\n" + section + "\n## Complete ", 1)
head, sep, rest = text.partition("\n## Targets\n")
body, nxt, tail = rest.partition("\n## ")
kept = [line for line in body.rstrip("\n").split("\n") if not any(line.startswith(t.split(" at depth ")[0]) for t in targets)]
text = head + sep + "\n".join(kept + targets) + "\n" + (nxt + tail if nxt else "")
open("Benchmarks/results.md", "w").write(text)
PY
  echo "wrote the real authflow/2 section of Benchmarks/results.md" >&2
  exit 0
fi
partial="$(mktemp)"
trap 'rm -f "$partial"' EXIT
"$bench" --root "$PWD" "$@" | tee "$partial"
# The Hypothesis comparison is measured by Benchmarks/hypothesis/run.sh (about 40 minutes): keep its section.
kept="$(mktemp)"
trap 'rm -f "$partial" "$kept"' EXIT
# So is the cold start, measured from fresh clones by Benchmarks/cold-start.sh (about 10 minutes).
if [ -f Benchmarks/results.md ]; then
  sed -n '/^## Random testing against Hypothesis/,/^## [^R]/p' Benchmarks/results.md | sed '$!b; /^## [^R]/d' > "$kept"
  sed -n '/^## Cold start/,/^## [^C]/p' Benchmarks/results.md | sed '$!b; /^## [^C]/d' >> "$kept"
fi
cp "$partial" Benchmarks/results.md
if [ -s "$kept" ]; then printf '\n' >> Benchmarks/results.md; cat "$kept" >> Benchmarks/results.md; fi
diff_section
echo "wrote Benchmarks/results.md" >&2
