#!/usr/bin/env bash
# Builds authcheck in release and runs the benchmark harness; the report goes to Benchmarks/results.md.
#
#   Benchmarks/run.sh            the full report (about two minutes and 3 GB of SPIN, seconds and 21 MB of authcheck)
#   Benchmarks/run.sh --quick    smaller depths, for a smoke run
#   Benchmarks/run.sh --traces-only   only `authcheck traces` on generated corpora (writes up to 3.5 GB under .build-bench/traces)
#   Benchmarks/run.sh --real-v2-only  only the lockstep walk on real authflow/2 flows (Benchmarks/specs/) and `authcheck check` on them
#   Benchmarks/run.sh --diff-only     only `authcheck diff` on two versions of the largest flows (Benchmarks/specs/diff/)
#   Benchmarks/run.sh --ways-in-only  only the ways-in report against `check` without it, on the largest flow in Specs/
#   Benchmarks/run.sh --conformance-only  only the conformance walk against the app's own calls (sync with undo, async; two flows)
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
# The ways-in report (section 6) against `check` without it, on the largest flow in `Specs/` (by configurations):
# the same spec with `factors` and every step's `assurance` taken out is "without". Both sides run interleaved,
# as shipped; CPU seconds (user + system of the child processes) are summed over all runs of a side, in one run
# of this script, since the shared machine's load moves wall time by tens of percent. Section and target line
# go in place in results.md, before ## Targets.
ways_in_section() {
  python3 - "$scratch/release/authcheck" "${WAYS_IN_RUNS:-30}" <<'PY'
import glob, json, os, re, resource, statistics, subprocess, sys, tempfile, time
authcheck, runs = sys.argv[1], int(sys.argv[2])
def report(args):
    run = subprocess.run([authcheck, "check", "--format", "json"] + args, capture_output=True)
    if run.returncode not in (0, 1):
        sys.exit(f"authcheck check {args} exited {run.returncode}: {run.stderr.decode()}")
    return json.loads(run.stdout)
def first(document):
    return document["reports"][0] if "reports" in document else document
sizes = [(first(report([path]))["stats"]["configurations"], path) for path in sorted(glob.glob("Specs/*.json"))]
configurations, largest = max(sizes)
spec = json.load(open(largest))
stripped = dict(spec)
stripped.pop("factors", None)
stripped["steps"] = {name: {k: v for k, v in step.items() if k != "assurance"} for name, step in spec["steps"].items()}
if stripped == spec:
    sys.exit(f"{largest} declares no factors: nothing to measure")
scratch = tempfile.mkdtemp()
without = os.path.join(scratch, os.path.basename(largest))
json.dump(stripped, open(without, "w"), indent=2)
ways = sum(len(v) for v in (first(report([largest])).get("waysIn") or {}).values())
def measure(args):
    """Interleaved runs of `check ARGS` on both sides: (CPU s summed, median wall s, median report s) per side."""
    cpu = {"with": 0.0, "without": 0.0}
    wall = {"with": [], "without": []}
    inner = {"with": [], "without": []}
    for i in range(runs):
        order = (("without", without), ("with", largest)) if i % 2 == 0 else (("with", largest), ("without", without))
        for side, path in order:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            run = subprocess.run([authcheck, "check", "--format", "json"] + args + [path], capture_output=True)
            wall[side].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if run.returncode != 0:
                sys.exit(f"authcheck check {args} {path} exited {run.returncode}: {run.stderr.decode()}")
            cpu[side] += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            inner[side].append(first(json.loads(run.stdout))["stats"]["seconds"])
    return {side: (cpu[side], statistics.median(wall[side]), statistics.median(inner[side])) for side in cpu}
rows = [("whole `check` (the runtime walk too)", []),
        ("`check --property deadlock` (the complete checker alone)", ["--property", "deadlock"])]
measured = [(what, measure(args)) for what, args in rows]
load = os.getloadavg()
lines = ["## Ways in (section 6): what the report costs over the check", "",
         f"`authcheck check --format json` as shipped (release build) on the largest flow in `Specs/`, `{largest}` "
         f"({configurations} configurations, {ways} ways in), against the same spec with `factors` and every step's "
         "`assurance` taken out (no `assurance` property, no ways in). The two sides run interleaved, "
         f"{runs} runs each, in one run of `Benchmarks/run.sh --ways-in-only`. The machine is shared and noisy "
         f"(load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end), so the figure compared is CPU seconds "
         "(user + system) summed over each side's runs, which the load moves less than wall time; the median wall "
         "time and the report's own seconds are shown too.", "",
         "| what | without: CPU s | with ways in: CPU s | difference | without: median wall s | with: median wall s "
         "| without: median report s | with: median report s |",
         "|---|--:|--:|--:|--:|--:|--:|--:|"]
whole = None
for what, m in measured:
    (cw, ww, iw), (cn, wn, i_n) = m["with"], m["without"]
    difference = (cw - cn) / cn * 100 if cn > 0 else 0.0
    if whole is None:
        whole = difference
    lines.append(f"| {what} | {cn:.3f} | {cw:.3f} | {difference:+.1f} % | {wn:.4f} | {ww:.4f} | {i_n:.4f} | {iw:.4f} |")
# Instructions, which the load does not change: one run of each side under callgrind, when valgrind is on the PATH.
def instructions(path, args):
    out = os.path.join(scratch, "callgrind.out")
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", authcheck, "check", "--format", "json"]
                         + args + [path], capture_output=True)
    found = re.search(rb"Collected : (\d+)", run.stderr)
    return int(found.group(1)) if run.returncode == 0 and found else None
if subprocess.run(["which", "valgrind"], capture_output=True).returncode == 0:
    lines += ["", "Instructions (valgrind `--tool=callgrind`, one run of each side, the whole process):", "",
              "| what | without | with ways in | difference |", "|---|--:|--:|--:|"]
    for what, args in rows:
        n, w = instructions(without, args), instructions(largest, args)
        if n and w:
            lines.append(f"| {what} | {n:,} | {w:,} | {(w - n) / n * 100:+.1f} % |")
section = "\n".join(lines) + "\n"
target = (f"- the ways-in report on the largest flow in `Specs/` ({os.path.basename(largest)}, {configurations} "
          f"configurations): {whole:+.1f} % CPU over `check` without it (target: under 10 %)"
          + (" — met" if whole < 10 else " — **not met**"))
print(section)
print(target)
text = open("Benchmarks/results.md").read()
pattern = re.compile(r"^## Ways in \(section 6\): what the report costs over the check\n.*?(?=^## |\Z)", re.S | re.M)
if pattern.search(text):
    text = pattern.sub(lambda _: section + "\n", text, count=1).rstrip("\n") + "\n"
else:
    text = text.replace("\n## Targets", "\n" + section + "\n## Targets", 1)
old = re.compile(r"^- the ways-in report on .*$", re.M)
if old.search(text):
    text = old.sub(lambda _: target, text, count=1)
else:
    head, sep, rest = text.partition("\n## Targets\n")
    body, nxt, tail = rest.partition("\n## ")
    text = head + sep + body.rstrip("\n") + "\n" + target + "\n" + (nxt + tail if nxt else "")
open("Benchmarks/results.md", "w").write(text)
PY
  echo "wrote the ways-in section of Benchmarks/results.md" >&2
}
if [ "${1:-}" = "--ways-in-only" ]; then
  ways_in_section
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
# --conformance-only: the conformance walk against the app's own calls alone; its section and target lines go in place in results.md.
if [ "${1:-}" = "--conformance-only" ]; then
  section="$(mktemp)"
  trap 'rm -f "$section"' EXIT
  "$bench" --root "$PWD" "$@" | tee "$section"
  python3 - "$section" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().rstrip("\n").split("\n")
targets = [line[len("TARGET: "):] for line in lines if line.startswith("TARGET: ")]
section = "\n".join(line for line in lines if not line.startswith("TARGET: ")).rstrip("\n") + "\n"
text = open("Benchmarks/results.md").read()
pattern = re.compile(r"^## The conformance walk against the app's own calls\n.*?(?=^## )", re.S | re.M)
text = pattern.sub(lambda _: section + "\n", text, count=1) if pattern.search(text) else text.replace("\n## The lockstep walk on authflow/2 against", "\n" + section + "\n## The lockstep walk on authflow/2 against", 1)
head, sep, rest = text.partition("\n## Targets\n")
body, nxt, tail = rest.partition("\n## ")
kept = [line for line in body.rstrip("\n").split("\n") if not line.startswith("- the conformance walk of `")]
text = head + sep + "\n".join(kept + targets) + "\n" + (nxt + tail if nxt else "")
open("Benchmarks/results.md", "w").write(text)
PY
  echo "wrote the conformance section of Benchmarks/results.md" >&2
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
ways_in_section
echo "wrote Benchmarks/results.md" >&2
