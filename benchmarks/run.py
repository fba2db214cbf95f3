#!/usr/bin/env python3
"""leaselint's speed beside Ruff, Fixit, Bandit, Semgrep and bare libcst parsing.

    python benchmarks/run.py [--runs N] [--only a,b,c] [--quick]

Not a test: it measures, prints one report (Markdown tables: seconds, ratios, the issue's
targets met or not, a findings-equality check) and exits 0 whatever the numbers are.
Every tool runs as a child process with its output thrown away; a time is the wall time
of that process, from start to exit. See benchmarks/README.md for what each row means.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import timing
from report import Report
from timing import child_env
from tools import FLOORS, TOOLS, floor_main
from trees import TREES


# --------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5, help="runs of a measurement whose first run takes up to 10 s (default 5)")
    p.add_argument("--fast-runs", type=int, default=15, help="runs of a measurement whose first run takes under 1 s (default 15)")
    p.add_argument("--slow-runs", type=int, default=3, help="runs of a measurement whose first run takes 10 to 45 s, and at least "
                   "this many of every slower leaselint and libcst-floor measurement, which the targets compare (default 3)")
    p.add_argument("--slowest-runs", type=int, default=1, help="runs of a measurement of another tool whose first run takes over 45 s (default 1)")
    p.add_argument("--fixit-runs", type=int, default=1, help="runs of every Fixit measurement (default 1: minutes per run)")
    p.add_argument("--files", type=int, default=2000, help="files in the lease-dense tree (c) (default 2000)")
    p.add_argument("--helper-files", type=int, default=5000, help="modules in the helper-module project tree (d) (default 5000)")
    p.add_argument("--seed", type=int, default=8, help="seed of the generated trees")
    p.add_argument(
        "--only",
        default="",
        help="comma-separated trees (a/stdlib, b/django, c/leases, d/helpers) and/or tools (leaselint, ruff, fixit, bandit, semgrep, "
        "floor, check); default: everything",
    )
    p.add_argument("--quick", action="store_true", help="a smoke run: 1 run each, 300 files in (c), no Fixit on (a)")
    p.add_argument("--work-dir", help="where the trees go (default: a new temporary folder, removed at the end); keep it outside a git repository")
    p.add_argument("--keep", action="store_true", help="keep the work folder")
    p.add_argument("--refresh-django", action="store_true", help="download Django again instead of using benchmarks/.cache")
    p.add_argument("--report", help="also write the report (Markdown) to this file")
    p.add_argument("--note", help="a line for the report's machine table (e.g. which leaselint commit is installed)")
    p.add_argument("--floor", help=argparse.SUPPRESS)
    p.add_argument("--floor-jobs", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument("--floor-kind", choices=[kind for _, kind in FLOORS], default="parse", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.runs = args.fast_runs = args.slow_runs = args.slowest_runs = args.fixit_runs = 1
        if args.files == 2000:
            args.files = 300
        if args.helper_files == 5000:
            args.helper_files = 500
    trees, tools = [], []
    for item in filter(None, (s.strip().lower() for s in args.only.split(","))):
        if item in TREES:
            trees.append(item)
        elif item in TREES.values():
            trees.append(next(k for k, v in TREES.items() if v == item))
        elif item in TOOLS:
            tools.append(item)
        else:
            p.error(f"--only: unknown item {item!r}; trees: a, b, c, d (stdlib, django, leases, helpers); tools: {', '.join(TOOLS)}")
    args.trees = sorted(set(trees)) or list(TREES)
    args.tools = tools or list(TOOLS)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.floor:
        floor_main(args.floor, args.floor_jobs, args.floor_kind)
        return 0
    made = args.work_dir is None
    work = Path(args.work_dir or tempfile.mkdtemp(prefix="leaselint-bench-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    timing.ENV = child_env(work)
    try:
        return Report(args, work).run()
    finally:
        if made and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif args.keep:
            print(f"work folder kept: {work}")


if __name__ == "__main__":
    sys.exit(main())
