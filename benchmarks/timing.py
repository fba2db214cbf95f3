"""Running a child process and timing it: wall and CPU time, peak memory; runs in turns."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# --------------------------------------------------------------------------------------------
# Running a child and timing it


@dataclass
class Run:
    seconds: float
    cpu: float  # user + system seconds of the child and its reaped children
    maxrss_kb: int
    code: int
    stderr: str


def child_env(work: Path) -> dict[str, str]:
    """Children compile and keep bytecode, as an installed tool does, without writing into the repository.

    PYTHONDONTWRITEBYTECODE (set on some development machines) would make every run of an editable
    install compile its modules again; a bytecode folder inside the work folder avoids that.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env["NO_COLOR"] = "1"
    # Semgrep asks the network for a newer version unless told not to (a minute and more offline).
    env["SEMGREP_ENABLE_VERSION_CHECK"] = "0"
    env["SEMGREP_SEND_METRICS"] = "off"
    return env


ENV: dict[str, str] | None = None


def run_once(cmd: list[str], cwd: str | None = None) -> Run:
    """Wall time, CPU time, peak resident memory and exit code of one child process."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(cmd, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, process.returncode, stderr)


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


@dataclass
class Measure:
    tool: str
    tree: str
    runs: list[Run] = field(default_factory=list)
    note: str = ""
    failed: str = ""  # why there is no number

    @property
    def median(self) -> float | None:
        return statistics.median(r.seconds for r in self.runs) if self.runs and not self.failed else None

    @property
    def cpu(self) -> float | None:
        return statistics.median(r.cpu for r in self.runs) if self.runs and not self.failed else None


# A first run longer than this many seconds makes a measurement slow (--slow-runs), or slowest (--slowest-runs);
# one shorter than FAST makes it fast (--fast-runs: a second's worth of runs is cheap, and noise is largest there).
FAST, SLOW, SLOWEST = 1, 10, 45


class Bench:
    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args = args
        self.work = work
        self.results: dict[tuple[str, str], Measure] = {}
        self.skipped: list[str] = []

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def count_after(self, first: Run, fixed: int | None, at_least: int) -> int:
        """How many runs in all, decided by the first: --fast-runs under 1 s, --runs, --slow-runs over 10 s,
        --slowest-runs over 45 s."""
        if fixed is not None:
            return fixed
        if first.seconds > SLOWEST:
            return max(self.args.slowest_runs, at_least)
        if first.seconds > SLOW:
            return max(self.args.slow_runs, at_least)
        if first.seconds < FAST:
            return max(self.args.fast_runs, self.args.runs)
        return self.args.runs

    def measure(self, tool: str, tree: str, make_cmd, ok=(0, 1), cwd=None, prime=None, runs: int | None = None, at_least: int = 1) -> Measure:
        """Timed runs of `make_cmd(i)`, as many as the first run's duration calls for (and `at_least`);
        `prime()` once before."""
        m = Measure(tool, tree)
        self.results[(tool, tree)] = m
        if prime is not None:
            prime()
        total = 1
        i = 0
        while i < total:
            run = run_once(make_cmd(i), cwd=cwd)
            if run.code not in ok:
                m.failed = f"exit {run.code}: {run.stderr.strip()[-300:]}"
                self.say(f"  {tool} on {tree}: FAILED ({m.failed})")
                return m
            m.runs.append(run)
            if i == 0:
                total = max(1, self.count_after(run, runs, at_least))
            i += 1
        self._said(m)
        return m

    def measure_in_turns(self, tree: str, specs: list[dict], at_least: int = 1) -> list[Measure]:
        """Several measurements run in turns, one run of each per round, so that a change in the machine's
        speed touches each alike (their ratios are what the targets compare). A spec holds `tool` and
        `make_cmd`, and may hold `ok`, `cwd`, `prime`; the slowest first run decides the rounds (at
        least `at_least`)."""
        measures = []
        for spec in specs:
            measures.append(Measure(spec["tool"], tree))
            self.results[(spec["tool"], tree)] = measures[-1]
            if spec.get("prime") is not None:
                spec["prime"]()
        rounds, i = 1, 0
        while i < rounds:
            for spec, m in zip(specs, measures):
                if m.failed:
                    continue
                run = run_once(spec["make_cmd"](i), cwd=spec.get("cwd"))
                if run.code not in spec.get("ok", (0, 1)):
                    m.failed = f"exit {run.code}: {run.stderr.strip()[-300:]}"
                    self.say(f"  {m.tool} on {tree}: FAILED ({m.failed})")
                    continue
                m.runs.append(run)
            if i == 0:
                firsts = [m.runs[0] for m in measures if m.runs]
                rounds = max(1, self.count_after(max(firsts, key=lambda r: r.seconds), None, at_least)) if firsts else 1
            i += 1
        for m in measures:
            if m.runs and not m.failed:
                self._said(m)
        return measures

    def _said(self, m: Measure) -> None:
        times = ", ".join(f"{r.seconds:.2f}" for r in m.runs)
        self.say(
            f"  {m.tool:<26} {m.tree:<7} median {m.median:8.3f} s, cpu {m.cpu:8.2f} s, "
            f"max rss {max(r.maxrss_kb for r in m.runs) / 1024:6.1f} MiB  ({len(m.runs)} runs: {times}; load {load()})"
        )
