"""authcheck's random-path tester against Hypothesis stateful testing, on the broken flows.

For every spec in Tests/AuthFlowCheckerTests/Fixtures/broken/ and every seed it runs
  - `authcheck fuzz SPEC --seed S --format json` (default options: 1000 runs of up to 60 steps), and
  - a `hypothesis.stateful.RuleBasedStateMachine` built from the spec, seeded with `hypothesis.seed(S)`,
    with `max_examples=1000, stateful_step_count=60`,
and records whether a failure was found, the runs (examples) up to and including the first failing
one, the length of the shrunk failure, the site it hit and the wall time. The shortest
counterexample of every site comes from `authcheck check --format json`.

The system Hypothesis tests is this file's own model of the spec semantics (`SpecModel`, a stack
of (state, data keys) frames), not authcheck's runtime: Hypothesis is asked to find the same
spec-property violations authcheck's tester finds, by the same moves (send an event the screen
emits, back where the spec allows it), with the properties checked after every step.

Run through Benchmarks/hypothesis/run.sh, which makes the virtual environment and builds authcheck.
"""

from __future__ import annotations

import argparse
import glob
import json
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time

from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st
from hypothesis.control import current_build_context
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
import hypothesis

SECTION = "Random testing against Hypothesis"
BROKEN = "Tests/AuthFlowCheckerTests/Fixtures/broken"

# Why authcheck does worse than Hypothesis on a flow, written after reading the measured runs.
# Printed only for a flow where the measurement shows authcheck behind; a loss with no entry
# here is printed as unexplained.
EXPLANATIONS: dict[str, str] = {}


# ---------------------------------------------------------------------------------------------
# The harness's model of the spec semantics (docs/spec-by-example.md; not authcheck's code)
# ---------------------------------------------------------------------------------------------

class SpecModel:
    """The states, moves and per-state property rules of one `authflow/1` spec."""

    def __init__(self, spec: dict):
        self.initial: str = spec["initial"]
        self.terminal = set(spec["success"]) | set(spec["abort"])
        steps = {name: step for name, step in spec["steps"].items() if not name.startswith("x-")}
        self.states = list(steps)
        self.requires = {s: set(steps[s].get("requires", [])) for s in self.states}
        # Events in declaration order, each with the data keys it adds.
        self.emits = {s: [(e, set(keys)) for e, keys in steps[s].get("emits", {}).items() if not e.startswith("x-")]
                      for s in self.states}
        self.back_allowed = {s: steps[s].get("back", True) is not False for s in self.states}
        self.table = {(t["from"], t["on"]): t["to"] for t in spec["transitions"]}
        self.has_row = {s: any(f == s for (f, _) in self.table) for s in self.states}
        # A move is an emitted event; it is legal when the table has a row for it.
        self.legal = {s: [e for e, _ in self.emits[s] if (s, e) in self.table] for s in self.states}
        # no-exit: backward reachability of the terminal states over legal forward moves, once.
        predecessors: dict[str, set[str]] = {s: set() for s in self.states}
        for s in self.states:
            for e in self.legal[s]:
                predecessors[self.table[(s, e)]].add(s)
        self.can_exit = set(self.terminal)
        work = list(self.terminal)
        while work:
            for p in predecessors.get(work.pop(), ()):
                if p not in self.can_exit:
                    self.can_exit.add(p)
                    work.append(p)

    def adds(self, state: str, event: str) -> set[str]:
        return next(keys for e, keys in self.emits[state] if e == event)

    def violation(self, state: str, keys: frozenset[str]) -> str | None:
        """The first site the frame violates, in the order authcheck's tester checks them."""
        if not self.requires[state] <= keys:
            return f"unmet-requirement@{state}"
        for event, _ in self.emits[state]:
            if (state, event) not in self.table:
                return f"illegal-transition@{state}.{event}"
        if state in self.terminal:
            if self.emits[state] or self.has_row[state]:
                return f"terminal-exit@{state}"
        elif not self.legal[state]:
            return f"deadlock@{state}"
        elif state not in self.can_exit:
            return f"no-exit@{state}"
        return None


class SiteViolation(AssertionError):
    site = "?"


_SITE_TYPES: dict[str, type] = {}


def site_error(site: str) -> SiteViolation:
    """An error of a type of its own per site, so Hypothesis treats each site as a distinct failure
    and shrinks a failure to a smaller one at the same site (as authcheck's shrinker does)."""
    if site not in _SITE_TYPES:
        _SITE_TYPES[site] = type("Violation_" + "".join(c if c.isalnum() else "_" for c in site),
                                 (SiteViolation,), {"site": site})
    return _SITE_TYPES[site](site)


class Probe:
    """What one Hypothesis run observed, across the examples it executed."""

    def __init__(self):
        self.examples = 0
        self.first_failure_at: int | None = None
        self.final_steps: list[str] | None = None


def machine_for(model: SpecModel, probe: Probe) -> type:
    """A RuleBasedStateMachine whose rules are the spec's moves and whose invariants are its properties."""

    class FlowMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            probe.examples += 1
            self.stack: list[tuple[str, frozenset[str]]] = [(model.initial, frozenset())]
            self.steps: list[str] = []

        @property
        def state(self) -> str:
            return self.stack[-1][0]

        def can_go_back(self) -> bool:
            return len(self.stack) >= 2 and self.state not in model.terminal and model.back_allowed[self.state]

        # -- rules: the moves ------------------------------------------------------------------

        @precondition(lambda self: bool(model.emits[self.state]))
        @rule(data=st.data())
        def send(self, data):
            state, keys = self.stack[-1]
            event = data.draw(st.sampled_from([e for e, _ in model.emits[state]]), label="event")
            self.steps.append(event)
            target = model.table.get((state, event))
            if target is not None:   # an event with no row is rejected and changes nothing
                self.stack.append((target, keys | model.adds(state, event)))

        @precondition(lambda self: self.can_go_back())
        @rule()
        def back(self):
            self.steps.append("back")
            self.stack.pop()

        # Hypothesis refuses a state where no rule applies; at a terminal state with nothing to
        # send, where authcheck ends the run, this does nothing (shrinking removes it).
        @precondition(lambda self: not model.emits[self.state] and not self.can_go_back())
        @rule()
        def stay(self):
            pass

        # -- invariants: the properties, checked after every step (and at the start) ------------
        # One invariant checks them in authcheck's order (requirement, illegal events, then
        # terminal-exit / deadlock / no-exit), so a frame breaking two reports the same site.

        @invariant()
        def spec_properties(self):
            state, keys = self.stack[-1]
            site = model.violation(state, keys)
            if site is not None:
                if probe.first_failure_at is None:
                    probe.first_failure_at = probe.examples
                raise site_error(site)

        def teardown(self):
            # Hypothesis replays the minimal failing example last, marked final.
            if current_build_context().is_final:
                probe.final_steps = list(self.steps)

    return FlowMachine


def run_hypothesis(model: SpecModel, run_seed: int) -> dict:
    probe = Probe()
    machine = machine_for(model, probe)
    seed(run_seed)(machine)   # run_state_machine_as_test copies the seed from the machine class
    config = settings(max_examples=1000, stateful_step_count=60, database=None, derandomize=False,
                      # Hypothesis' own defaults for a state machine without settings:
                      deadline=None, suppress_health_check=list(HealthCheck),
                      # Stop generating at the first failure and shrink it, as authcheck does.
                      report_multiple_bugs=False,
                      print_blob=False)
    start = time.perf_counter()
    site = None
    error = None
    try:
        run_state_machine_as_test(machine, settings=config)
    except SiteViolation as failure:
        site = failure.site
    except Exception as other:   # a Hypothesis error (flaky, health check) is reported, not hidden
        error = f"{type(other).__name__}: {other}".splitlines()[0]
    seconds = time.perf_counter() - start
    found = site is not None
    return {"found": found, "site": site, "runs": probe.first_failure_at if found else None,
            "shrunk": len(probe.final_steps) if found and probe.final_steps is not None else None,
            "path": probe.final_steps if found else None, "seconds": seconds, "error": error,
            "examples": probe.examples}


# ---------------------------------------------------------------------------------------------
# authcheck
# ---------------------------------------------------------------------------------------------

def run_authcheck_fuzz(authcheck: str, spec: str, run_seed: int) -> dict:
    out = subprocess.run([authcheck, "fuzz", spec, "--seed", str(run_seed), "--format", "json"],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"authcheck fuzz {spec} --seed {run_seed}: exit {out.returncode}: {out.stderr}")
    report = json.loads(out.stdout)
    found = report["verdict"] == "violated"
    site = None
    if found:
        v = report["violations"][0]
        site = f"{v['property']}@{v['state']}" + (f".{v['event']}" if v.get("event") else "")
    shrink = report.get("shrink") or {}
    return {"found": found, "site": site, "runs": report["stats"]["runs"] if found else None,
            "shrunk": shrink.get("shrunkLength"), "original": shrink.get("originalLength"),
            "shortestKnown": shrink.get("shortestKnown"), "path": shrink.get("path"),
            "seconds": report["stats"]["seconds"]}


def shortest_sites(authcheck: str, spec: str) -> dict[str, int]:
    out = subprocess.run([authcheck, "check", "--format", "json", spec], capture_output=True, text=True)
    report = json.loads(out.stdout)
    return {f"{v['property']}@{v['state']}" + (f".{v['event']}" if v.get("event") else ""): len(v["path"]) - 1
            for v in report["violations"]}


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

def median(values):
    return statistics.median(values) if values else None


def fmt(value, digits=0):
    if value is None:
        return "—"
    if digits:
        return f"{value:.{digits}f}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def summarise(runs: list[dict]) -> dict:
    found = [r for r in runs if r["found"]]
    shrunk = [r["shrunk"] for r in found if r["shrunk"] is not None]
    return {"found": len(found), "runs": median([r["runs"] for r in found]),
            "shrunk_median": median(shrunk), "shrunk_max": max(shrunk) if shrunk else None,
            "seconds": median([r["seconds"] for r in runs])}


def at_least_as_good(a: dict, h: dict) -> tuple[bool, list[str]]:
    """authcheck is at least as good when it finds as often, and its shrunk median and max are no longer."""
    behind = []
    if a["found"] < h["found"]:
        behind.append(f"found {a['found']}/20 against {h['found']}/20")
    for key, label in (("shrunk_median", "median shrunk length"), ("shrunk_max", "max shrunk length")):
        if h[key] is not None and (a[key] is None or a[key] > h[key]):
            behind.append(f"{label} {fmt(a[key])} against {fmt(h[key])}")
    return (not behind, behind)


def machine_line() -> str:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores ({cpu}), shared with other work"


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def markdown(results: list[dict], seeds: list[int], context: dict) -> str:
    n = len(seeds)
    lines = [f"## {SECTION}", ""]
    lines.append(
        f"`Benchmarks/hypothesis/run.sh`: for each broken flow in `{BROKEN}/` and seeds "
        f"{seeds[0]}…{seeds[-1]}, `authcheck fuzz SPEC --seed S` (default options: 1000 runs of up to 60 "
        f"steps, release build) against Hypothesis {context['hypothesis']} stateful testing (Python "
        f"{context['python']}): a `RuleBasedStateMachine` per spec whose rules are the spec's moves (send an "
        "event the screen emits, drawn with `st.sampled_from`; back where the spec allows it) and whose "
        "invariant checks the five spec properties after every step, in authcheck's order, with "
        "`max_examples=1000, stateful_step_count=60, database=None, derandomize=False`, seeded with "
        "`hypothesis.seed(S)`, shrinking as it does by default. Hypothesis tests the harness's own Python model "
        "of the spec semantics (`compare.py`, `SpecModel`), not authcheck's runtime, which only makes its "
        "steps cheaper. Each site is a distinct error type, so Hypothesis, like authcheck, shrinks a failure to "
        "one at the same site; `report_multiple_bugs=False` makes it stop generating at the first failure, as "
        "authcheck does (deadline and health checks off, as Hypothesis does for a state machine by default).")
    lines.append("")
    lines.append(
        f"Measured on {context['machine']}: one run of each tool per seed, the two tools alternating seed by seed, "
        f"{context['jobs']} flow(s) measured at a time; "
        f"load average {context['load_start']} at the start, {context['load_end']} at the end. "
        "Shortest: the complete checker's shortest counterexample per site (`authcheck check`), in report order. "
        "Runs to failure: authcheck's `stats.runs`, Hypothesis' examples executed up to and including the first "
        "failing one (medians over the seeds that found a failure). Shrunk length: events and backs in the "
        "final counterexample (authcheck's `shrink.shrunkLength`; Hypothesis' rule calls in the minimal example "
        "it replays last). Time: median wall seconds over all seeds, whole run including shrinking "
        "(authcheck's `stats.seconds`, which excludes process start and loading the spec; Hypothesis' "
        "`run_state_machine_as_test` call).")
    lines.append("")
    lines.append("| flow | shortest | authcheck found | Hypothesis found | authcheck runs to failure | "
                 "Hypothesis examples to failure | authcheck shrunk median / max | Hypothesis shrunk median / max | "
                 "authcheck time | Hypothesis time |")
    lines.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in results:
        a, h = r["authcheck_summary"], r["hypothesis_summary"]
        shortest = " / ".join(str(v) for v in r["shortest"].values())
        lines.append(
            f"| {r['flow']} | {shortest} | {a['found']}/{n} | {h['found']}/{n} | {fmt(a['runs'])} | {fmt(h['runs'])} | "
            f"{fmt(a['shrunk_median'])} / {fmt(a['shrunk_max'])} | {fmt(h['shrunk_median'])} / {fmt(h['shrunk_max'])} | "
            f"{fmt(a['seconds'], 3)} s | {fmt(h['seconds'], 3)} s |")
    lines.append("")
    lines.append("Sites hit, and how many shrunk counterexamples are as short as the complete checker's for the "
                 "site they hit (seeds that found a failure):")
    lines.append("")
    lines.append("| flow | authcheck: sites | authcheck at shortest | Hypothesis: sites | Hypothesis at shortest | Hypothesis errors |")
    lines.append("|---|---|--:|---|--:|--:|")
    for r in results:
        cells = []
        for tool in ("authcheck", "hypothesis"):
            found = [x for x in r[tool] if x["found"]]
            sites: dict[str, int] = {}
            for x in found:
                sites[x["site"]] = sites.get(x["site"], 0) + 1
            shortest = sum(1 for x in found if r["shortest"].get(x["site"]) == x["shrunk"])
            cells.append(", ".join(f"{s} ×{c}" for s, c in sorted(sites.items())) or "—")
            cells.append(f"{shortest}/{len(found)}")
        errors = sum(1 for x in r["hypothesis"] if x.get("error"))
        lines.append(f"| {r['flow']} | {' | '.join(cells)} | {errors} |")
    lines.append("")
    lines.append("Per flow, whether authcheck is at least as good as Hypothesis on found rate and on shrunk "
                 "length (median and max):")
    lines.append("")
    for r in results:
        ok, behind = at_least_as_good(r["authcheck_summary"], r["hypothesis_summary"])
        if ok:
            lines.append(f"- {r['flow']}: yes.")
        else:
            why = EXPLANATIONS.get(r["flow"], "not explained yet.")
            lines.append(f"- {r['flow']}: **no** ({'; '.join(behind)}). {why}")
    lines.append("")
    return "\n".join(lines)


def replace_section(path: str, section: str) -> None:
    """Replaces the section under `## SECTION` (up to the next `## ` heading) or appends it."""
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    heading = f"## {SECTION}"
    if heading in lines:
        start = lines.index(heading)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        rest = lines[end:]
        new = lines[:start] + section.rstrip("\n").split("\n") + ([""] + rest if rest else [""])
    else:
        new = lines + ([""] if lines and lines[-1] != "" else []) + section.rstrip("\n").split("\n") + [""]
    with open(path, "w") as f:
        f.write("\n".join(new).rstrip("\n") + "\n")


def run_flow(job: tuple[str, list[int], str]) -> dict:
    """Both tools on one flow, every seed, one run at a time."""
    spec, seeds, authcheck = job
    flow = os.path.basename(spec)[:-5]
    with open(spec) as f:
        model = SpecModel(json.load(f))
    entry = {"flow": flow, "spec": spec, "shortest": shortest_sites(authcheck, spec), "authcheck": [], "hypothesis": []}
    for s in seeds:
        entry["authcheck"].append({"seed": s, **run_authcheck_fuzz(authcheck, spec, s)})
        entry["hypothesis"].append({"seed": s, **run_hypothesis(model, s)})
    entry["authcheck_summary"] = summarise(entry["authcheck"])
    entry["hypothesis_summary"] = summarise(entry["hypothesis"])
    a, h = entry["authcheck_summary"], entry["hypothesis_summary"]
    print(f"{flow}: authcheck {a['found']}/{len(seeds)} shrunk {fmt(a['shrunk_median'])}/{fmt(a['shrunk_max'])}, "
          f"Hypothesis {h['found']}/{len(seeds)} shrunk {fmt(h['shrunk_median'])}/{fmt(h['shrunk_max'])}",
          file=sys.stderr, flush=True)
    return entry


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--authcheck", required=True, help="the authcheck binary (release build)")
    parser.add_argument("--seeds", type=int, default=20, help="seeds 1…N (default 20)")
    parser.add_argument("--flows", default="", help="comma-separated flow names (default: every broken flow)")
    parser.add_argument("--results", help="Markdown file whose section to replace")
    parser.add_argument("--json", help="where to write every run's figures")
    parser.add_argument("--jobs", type=int, default=1, help="flows measured at the same time (default 1)")
    args = parser.parse_args()

    specs = sorted(glob.glob(f"{BROKEN}/*.json"))
    if args.flows:
        wanted = set(args.flows.split(","))
        specs = [s for s in specs if os.path.basename(s)[:-5] in wanted]
    seeds = list(range(1, args.seeds + 1))
    context = {"hypothesis": hypothesis.__version__, "python": platform.python_version(),
               "machine": machine_line(), "load_start": load(), "jobs": args.jobs}
    jobs = [(spec, seeds, args.authcheck) for spec in specs]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(run_flow, jobs, chunksize=1)
    else:
        results = [run_flow(job) for job in jobs]
    context["load_end"] = load()
    section = markdown(results, seeds, context)
    print(section)
    if args.results:
        replace_section(args.results, section)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"context": context, "seeds": seeds, "flows": results}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
