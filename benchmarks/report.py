"""The run and its report: every measurement, the tables, the ratios against the targets."""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import timing
from generated import helper_tree, lease_module, lease_tree
from timing import Bench, Measure, load, run_once
from tools import BANDIT_TEST, FIXIT_RULE, FLOORS, SEMGREP_RULE, floor_cmd, leaselint_cmd, load_findings, tool_cmd, version_of
from trees import TREES, django_tree, python_files, stdlib_tree

# --------------------------------------------------------------------------------------------
# Machine


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "OS": f"{platform.system()} {platform.release()}",
        "Python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
    }


def leaselint_origin() -> str:
    """Where the measured leaselint comes from, with the commit when it is a git checkout."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", "import leaselint, os; print(os.path.dirname(leaselint.__file__))"],
            capture_output=True, text=True, env=timing.ENV, timeout=60,
        )
        folder = out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not folder:
        return "unknown"
    git = subprocess.run(["git", "-C", folder, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if git.returncode != 0:
        return folder
    dirty = subprocess.run(["git", "-C", folder, "status", "--porcelain", "--", "."], capture_output=True, text=True).stdout.strip()
    return f"{folder} (git {git.stdout.strip()}{', with uncommitted changes' if dirty else ''})"


class Report(Bench):
    def run(self) -> int:
        args, work = self.args, self.work
        started = time.perf_counter()
        self.load_start = load()
        self.outputs: dict[tuple[str, str], Path] = {}  # (tree, variant) -> a JSON report a timed run wrote
        ll, ll_how = leaselint_cmd()
        self.ll = ll
        tools = {name: tool_cmd(name) for name in ("ruff", "fixit", "bandit", "semgrep")}
        versions = {"leaselint": f"{version_of(ll)}, from {leaselint_origin()}"}
        for name, cmd in tools.items():
            versions[name] = version_of(cmd) if cmd else "not installed"
            if cmd is None or versions[name].startswith("unavailable") or versions[name] == "not installed":
                if name in args.tools:
                    self.skipped.append(f"{name} ({versions[name]}; the bench extra installs it: pip install -e '.[bench]')")
                tools[name] = None
        try:
            from importlib.metadata import version

            versions["libcst"] = version("libcst")
        except Exception:  # noqa: BLE001
            versions["libcst"] = "not installed"
        self.say(f"leaselint runs as {ll_how}; load average at start: {self.load_start}")
        for line in self.skipped:
            self.say(f"could not run {line}: going on without it")

        rule = work / "semgrep-rule.yml"
        rule.write_text(SEMGREP_RULE)
        commands = {
            "ruff": lambda path: [*tools["ruff"], "check", "--isolated", "--select", "E9", "--no-cache", path],
            # Semgrep runs in the tree (its root is the project root), so the tree's .semgrepignore applies.
            "semgrep": lambda path: [*tools["semgrep"], "scan", "--config", str(rule), "--metrics=off", "--disable-version-check",
                                     "--quiet", "--max-target-bytes=0", "."],
            "bandit": lambda path: [*tools["bandit"], "-q", "-r", "-t", BANDIT_TEST, path],
            "fixit": lambda path: [*tools["fixit"], "--rules", FIXIT_RULE, "lint", path],
        }

        # Warm-up: every tool once on a one-file tree, untimed, so that no timed run compiles bytecode.
        warm = work / "warmup"
        warm.mkdir()
        (warm / "lease.py").write_text(lease_module(random.Random(0)), encoding="utf-8")
        (warm / ".semgrepignore").write_text("# scan every file\n")
        run_once([*ll, "--isolated", "--no-cache", str(warm)])
        for _, kind in FLOORS:
            run_once(floor_cmd(str(warm), 2, kind)(0))
        for name, cmd in commands.items():
            if tools[name]:
                run_once(cmd(str(warm)), cwd=str(warm))

        # Trees
        trees: dict[str, Path] = {}
        info: dict[str, str] = {}
        for letter in args.trees:
            t0 = time.perf_counter()
            if letter == "a":
                trees["a"] = stdlib_tree(work)
                info["a"] = f"the standard library of Python {platform.python_version()} ({sysconfig.get_paths()['stdlib']}), copied"
            elif letter == "b":
                try:
                    trees["b"], name = django_tree(work, args.refresh_django)
                    info["b"] = f"Django, from {name} (pip download --no-deps django, kept in benchmarks/.cache/django), unpacked"
                except (subprocess.CalledProcessError, OSError, StopIteration) as exc:
                    self.skipped.append(f"tree (b): cannot get Django ({exc})")
                    self.say(f"could not get Django ({exc}): going on without tree (b)")
                    continue
            elif letter == "c":
                trees["c"] = lease_tree(work, args.files, args.seed)
                info["c"] = f"generated lease-dense tree, seed {args.seed}"
            else:
                trees["d"] = helper_tree(work, args.helper_files, args.seed)
                listed = len((trees["d"] / ".floor-files").read_text().splitlines())
                info["d"] = f"generated project whose leases go through helper modules, seed {args.seed}; {listed} files to parse"
            files = python_files(trees[letter])
            size = sum(f.stat().st_size for f in files)
            info[letter] += f"; {len(files)} files, {size / 1e6:.1f} MB"
            # Semgrep's default ignore list skips test/ and tests/ folders; an ignore file of the tree's own
            # replaces it, so that Semgrep scans what the other tools scan.
            (trees[letter] / ".semgrepignore").write_text("# scan every file, like the other tools\n")
            self.say(f"tree ({letter}) {TREES[letter]}: {info[letter]}  [{time.perf_counter() - t0:.1f} s to prepare]")

        want = set(args.tools)
        for letter, tree in trees.items():
            self.say(f"\n== tree ({letter}) {TREES[letter]}")
            path, name = str(tree), TREES[letter]
            # On (a) and (b), whose targets compare leaselint with Ruff, the three run in turns; on (c),
            # leaselint with one and two processes and the floor with as many.
            ruff_in_turns = letter in "ab" and "leaselint" in want and "ruff" in want and bool(tools["ruff"])
            floor_in_turns = letter in "cd" and "leaselint" in want and "floor" in want
            if "leaselint" in want:
                self._leaselint(letter, path, name, commands["ruff"](path) if ruff_in_turns else None, floor_in_turns)
            if "floor" in want and letter in "cd" and not floor_in_turns:
                for jobs in (1, 2):
                    for floor, kind in FLOORS:
                        self.measure(f"{floor}, {jobs} proc", name, floor_cmd(path, jobs, kind), ok=(0,), at_least=args.slow_runs)
            for tool in ("ruff", "semgrep", "bandit", "fixit"):
                if tool not in want or not tools[tool] or (tool == "ruff" and ruff_in_turns):
                    continue
                if tool == "fixit" and args.quick and letter == "a":
                    self.say("  fixit on stdlib: skipped with --quick (minutes a run)")
                    continue
                # Fixit's exit code is a bit set: 1 for lint results, 2 for files it could not lint (syntax errors).
                ok = (0, 1, 2, 3) if tool == "fixit" else (0, 1)
                self.measure(tool, name, lambda i, t=tool: commands[t](path), ok=ok, cwd=path, runs=args.fixit_runs if tool == "fixit" else None)
            if "check" in want:
                self._check(letter, path, name)

        self.elapsed = time.perf_counter() - started
        self.load_end = load()
        report = self._report(ll_how, versions, info)
        print("\n" + report)
        if args.report:
            Path(args.report).write_text(report + "\n", encoding="utf-8")
        return 0

    # ---------------------------------------------------------------------------------------

    def _fresh(self, tag: str) -> str:
        return tempfile.mkdtemp(prefix=f"cache-{tag}-", dir=self.work)

    def _out(self, name: str, label: str, i: int) -> Path:
        folder = self.work / "reports"
        folder.mkdir(exist_ok=True)
        return folder / f"{name}-{label.replace(' ', '_')}-{i}.json"

    def _leaselint(self, letter: str, path: str, name: str, ruff: list[str] | None = None, floor: bool = False) -> None:
        """Cold: a new, empty --cache-dir per run (the cache is written, as on a first run). Warm: the same
        --cache-dir as a run before it, on the unchanged tree. Reports go to a JSON file (as in CI), which
        the findings check then compares. With `ruff`, cold, warm and Ruff run in turns; with `floor` (on
        (c)), cold with one and two processes and the libcst floor with as many."""
        base = [*self.ll, "--isolated", "--output-format", "json"]

        def cold(label: str, extra: list[str]):
            def make(i: int) -> list[str]:
                out = self._out(name, label, i)
                if i == 0:
                    self.outputs[(name, label)] = out
                return [*base, *extra, "--cache-dir", self._fresh("cold"), "--output-file", str(out), path]

            return make

        cores = os.cpu_count() or 1
        if letter in "cd":
            if floor:
                specs = []
                for jobs in (1, 2):
                    specs.append({"tool": f"leaselint cold --jobs {jobs}", "make_cmd": cold(f"jobs {jobs}", ["--jobs", str(jobs)])})
                    for floor, kind in FLOORS:
                        specs.append({"tool": f"{floor}, {jobs} proc", "make_cmd": floor_cmd(path, jobs, kind), "ok": (0,)})
                self.measure_in_turns(name, specs, at_least=self.args.slow_runs)
            else:
                for jobs in (1, 2):
                    self.measure(f"leaselint cold --jobs {jobs}", name, cold(f"jobs {jobs}", ["--jobs", str(jobs)]), at_least=self.args.slow_runs)
            if cores <= 2:
                # The default is --jobs <cores>: the row above is that run.
                self.results[("leaselint cold", name)] = self.results[(f"leaselint cold --jobs {cores}", name)]
                self.outputs[(name, "cold")] = self.outputs[(name, f"jobs {cores}")]
                self.say(f"  leaselint cold ({letter}) is the --jobs {cores} run: the default on this {cores}-core machine")
            else:
                self.measure("leaselint cold", name, cold("cold", []), at_least=self.args.slow_runs)
        elif ruff is None:
            self.measure("leaselint cold", name, cold("cold", []), at_least=self.args.slow_runs)
        warm = self._fresh("warm")

        def make_warm(i: int) -> list[str]:
            out = self._out(name, "warm", i)
            if i == 0:
                self.outputs[(name, "warm")] = out
            return [*base, "--cache-dir", warm, "--output-file", str(out), path]

        def prime_warm() -> None:
            # Two runs: the first fills the cache, the second adds the folder listings, which leaselint
            # remembers from a cache's second run on. Timed runs then find the cache as it stays.
            for _ in range(2):
                run_once([*base, "--cache-dir", warm, "--output-file", os.devnull, path])

        if ruff is not None:
            self.measure_in_turns(
                name,
                [
                    {"tool": "leaselint cold", "make_cmd": cold("cold", [])},
                    {"tool": "leaselint warm", "make_cmd": make_warm, "prime": prime_warm},
                    {"tool": "ruff", "make_cmd": lambda i: ruff, "cwd": path},
                ],
            )
            return
        self.measure("leaselint warm", name, make_warm, prime=prime_warm, at_least=self.args.slow_runs)

    def _check(self, letter: str, path: str, name: str) -> None:
        """Findings with and without the prefilter, the cache (cold and warm), one or two worker processes.

        Reports written by the timed runs are reused; the rest are made here."""
        base = [*self.ll, "--isolated", "--output-format", "json"]
        t0 = time.perf_counter()
        cache = self._fresh("check")
        variants = {
            "no cache": [*base, "--no-cache"],
            "no prefilter": [*base, "--no-cache", "--no-prefilter"],
            "cache cold": [*base, "--cache-dir", cache],
            "cache warm": [*base, "--cache-dir", cache],
            "--jobs 1": [*base, "--no-cache", "--jobs", "1"],
            "--jobs 2": [*base, "--no-cache", "--jobs", "2"],
        }
        reuse = {"cache cold": "cold", "cache warm": "warm", "--jobs 1": "jobs 1", "--jobs 2": "jobs 2"}
        got: dict[str, list[str]] = {}
        made: list[str] = []
        extra_note = ""
        for label, cmd in variants.items():
            out = self.outputs.get((name, reuse.get(label, "")))
            if out is None or (label == "cache warm" and "cache cold" in made):
                out = self._out(name, f"check {label}", 0)
                run = run_once([*cmd, "--output-file", str(out), path])
                made.append(label)
                if label == "no prefilter":
                    extra_note = f"; the --no-prefilter run took {run.seconds:.1f} s with a peak of {run.maxrss_kb * 1024 / 1e6:.0f} MB"
                if run.code not in (0, 1):
                    m = Measure("check", name, failed=f"{label}: exit {run.code}: {run.stderr.strip()[-300:]}")
                    self.results[("check", name)] = m
                    self.say(f"  findings check on {name}: FAILED ({m.failed})")
                    return
            got[label] = load_findings(out)
        reference = got["no cache"]

        def codes(items: list[str]) -> list[str]:
            return [json.loads(i)["code"] for i in items]

        def parsed(items: list[str]) -> list[str]:
            return [i for i in items if json.loads(i)["code"] != "LL000"]

        differences = []
        for label, items in got.items():
            if label == "no prefilter":
                # By design (README) a file the prefilter skips is not checked for syntax either (LL000);
                # every other finding must be the same.
                if parsed(items) != parsed(reference):
                    differences.append(f"{label} ({len(parsed(items))} findings besides LL000 against {len(parsed(reference))})")
            elif items != reference:
                differences.append(f"{label} ({len(items)} findings against {len(reference)})")
        extra_ll000 = codes(got["no prefilter"]).count("LL000") - codes(reference).count("LL000")
        files = {json.loads(i)["filename"] for i in reference}
        per_code: dict[str, int] = {}
        for code in codes(reference):
            per_code[code] = per_code.get(code, 0) + 1
        m = Measure("check", name)
        m.note = (
            f"{len(reference)} findings in {len(files)} files"
            + (f" ({', '.join(f'{k} {v}' for k, v in sorted(per_code.items()))})" if per_code else "")
            + (f"; --no-prefilter adds {extra_ll000} LL000 (syntax errors) in files the prefilter skips, as documented" if extra_ll000 else "")
            + extra_note
        )
        m.failed = "differ: " + "; ".join(differences) if differences else ""
        self.results[("check", name)] = m
        verdict = "identical" if not differences else "DIFFERENT: " + "; ".join(differences)
        self.say(f"  findings {verdict} across {', '.join(variants)}: {m.note}  [{time.perf_counter() - t0:.1f} s, made here: {', '.join(made) or 'none'}]")

    # ---------------------------------------------------------------------------------------

    def _get(self, tool: str, letter: str) -> float | None:
        m = self.results.get((tool, TREES[letter]))
        return m.median if m else None

    def _report(self, ll_how: str, versions: dict[str, str], info: dict[str, str]) -> str:
        out: list[str] = []
        add = out.append
        add("### Machine\n")
        add("| | |\n|---|---|")
        for k, v in machine().items():
            add(f"| {k} | {v} |")
        add(f"| load average (1, 5, 15 min) | at start {self.load_start}; at end {self.load_end} |")
        for k, v in versions.items():
            add(f"| {k} | {v} |")
        add(f"| leaselint ran as | {ll_how} |")
        if self.args.note:
            add(f"| note | {self.args.note} |")
        add("")
        add("### Trees\n")
        for letter, text in info.items():
            add(f"- ({letter}) {TREES[letter]}: {text}")
        add("")
        names = [v for v in TREES.values() if v in {tree for (_, tree) in self.results}]
        header = "| tool | " + " | ".join(f"({k}) {v}" for k, v in TREES.items() if v in names) + " |"
        rule = "|---|" + "---|" * len(names)
        tools_seen = []
        for (tool, _tree) in self.results:
            if tool not in tools_seen and tool != "check":
                tools_seen.append(tool)

        def table(title: str, cell) -> None:
            add(f"### {title}\n")
            add(header)
            add(rule)
            for tool in tools_seen:
                cells = []
                for name in names:
                    m = self.results.get((tool, name))
                    cells.append("" if m is None else "failed" if (m.failed or not m.runs) else cell(m))
                add(f"| {tool} | " + " | ".join(cells) + " |")
            add("")

        def wall(m: Measure) -> str:
            times = [r.seconds for r in m.runs]
            spread = f", {min(times):.3f}–{max(times):.3f}" if len(times) > 1 else ""
            return f"**{m.median:.3f}** (×{len(times)}{spread})"

        table("Wall time, seconds (median; ×runs, min–max)", wall)
        table("CPU time (user + system, child and its workers), seconds, median", lambda m: f"{m.cpu:.2f}")
        if self.skipped:
            add("Not run: " + "; ".join(self.skipped) + "\n")
        for (tool, tree), m in self.results.items():
            if m.failed and tool != "check":
                add(f"- {tool} on {tree} failed: {m.failed}")

        def ratio(a: float | None, b: float | None) -> float | None:
            return a / b if a is not None and b else None

        rows = []  # (label, value, target text, test)
        for letter in ("a", "b", "c"):
            cold, warm, ruff = self._get("leaselint cold", letter), self._get("leaselint warm", letter), self._get("ruff", letter)
            target = letter in "ab"
            # Issue 18's targets: cold at most 1x Ruff on the standard library, 2x on Django; warm at most 1x.
            cold_target = {"a": 1, "b": 2}.get(letter)
            rows.append((
                f"leaselint cold / ruff ({letter})",
                ratio(cold, ruff),
                f"≤ {cold_target}" if cold_target else "",
                (lambda v, t=cold_target: v <= t) if cold_target else None,
            ))
            rows.append((f"leaselint warm / ruff ({letter})", ratio(warm, ruff), "≤ 1" if target else "", (lambda v: v <= 1) if target else None))
            rows.append((f"fixit / leaselint cold ({letter})", ratio(self._get("fixit", letter), cold), "≥ 100" if letter == "b" else "", (lambda v: v >= 100) if letter == "b" else None))
            rows.append((f"semgrep / leaselint cold ({letter})", ratio(self._get("semgrep", letter), cold), "> 1" if letter == "b" else "", (lambda v: v > 1) if letter == "b" else None))
            rows.append((f"bandit / leaselint cold ({letter})", ratio(self._get("bandit", letter), cold), "", None))
        for jobs in (1, 2):
            rows.append((
                f"leaselint --jobs {jobs} / libcst floor, {jobs} proc (c)",
                ratio(self._get(f"leaselint cold --jobs {jobs}", "c"), self._get(f"libcst floor, {jobs} proc", "c")),
                "≤ 2",
                lambda v: v <= 2,
            ))
        for jobs in (1, 2):
            rows.append((
                f"leaselint --jobs {jobs} / libcst parse + PositionProvider, {jobs} proc (c), for reference",
                ratio(self._get(f"leaselint cold --jobs {jobs}", "c"), self._get(f"libcst parse + PositionProvider, {jobs} proc", "c")),
                "",
                None,
            ))
        for jobs in (1, 2):
            rows.append((
                f"leaselint --jobs {jobs} / libcst floor of the files to parse, {jobs} proc (d)",
                ratio(self._get(f"leaselint cold --jobs {jobs}", "d"), self._get(f"libcst floor, {jobs} proc", "d")),
                "≤ 2",
                lambda v: v <= 2,
            ))
        rows.append(("libcst parse + PositionProvider / libcst floor, 1 proc (c), for reference", ratio(self._get("libcst parse + PositionProvider, 1 proc", "c"), self._get("libcst floor, 1 proc", "c")), "", None))
        rows.append(("leaselint --jobs 1 / --jobs 2 (c)", ratio(self._get("leaselint cold --jobs 1", "c"), self._get("leaselint cold --jobs 2", "c")), "≥ 1.7", lambda v: v >= 1.7))
        rows.append(("libcst floor 1 proc / 2 proc (c), for reference", ratio(self._get("libcst floor, 1 proc", "c"), self._get("libcst floor, 2 proc", "c")), "", None))
        add("### Ratios and targets (from the medians, compared unrounded)\n")
        add("| ratio | value | target | met |\n|---|---|---|---|")
        for label, value, target, test in rows:
            if value is None:
                continue
            met = "" if test is None else ("yes" if test(value) else "**no**")
            add(f"| {label} | {value:.2f} | {target} | {met} |")
        m = self.results.get(("leaselint cold", "stdlib"))
        if m and m.runs and not m.failed:
            peak = max(r.maxrss_kb for r in m.runs) * 1024 / 1e6
            add(f"| peak memory of leaselint cold on (a), MB (highest max RSS of {len(m.runs)} runs) | {peak:.1f} | ≤ 250 | {'yes' if peak <= 250 else '**no**'} |")
        checks = [(name, m) for (tool, name), m in self.results.items() if tool == "check"]
        for name, m in checks:
            add(f"| findings identical: prefilter, cache, jobs ({name}) | {'identical' if not m.failed else m.failed} | identical | {'yes' if not m.failed else '**no**'} |")
        add("")
        for name in names:
            m = self.results.get(("leaselint cold", name))
            if m and m.runs and not m.failed:
                add(f"- peak memory of leaselint cold on {name}: {max(r.maxrss_kb for r in m.runs) * 1024 / 1e6:.1f} MB (largest process)")
        for name, m in checks:
            if m.note:
                add(f"- findings on {name}: {m.note}")
        add(
            f"\nWhole run: {self.elapsed / 60:.1f} minutes (--runs {self.args.runs}, --slow-runs {self.args.slow_runs}, "
            f"--slowest-runs {self.args.slowest_runs}, --fixit-runs {self.args.fixit_runs}, --files {self.args.files})."
        )
        return "\n".join(out)

