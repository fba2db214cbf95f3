#!/usr/bin/env python3
"""leaselint on one lease-dense file of growing size: seconds per size and the fitted slope.

    python benchmarks/dense.py [--sizes 125,250,500,1000] [--formats full,json] [--runs N]

Not a test: it generates the files (benchmarks/generated.py's lease shapes, one module each), times
`leaselint --isolated --no-cache` on each as a child process, prints a Markdown table and the fit, and
exits 0 whatever the numbers are. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import timing
from generated import dense_module
from timing import child_env, run_once
from tools import leaselint_cmd

MB = 1_000_000


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="125,250,500,1000", help="file sizes in KB (1,000 bytes), comma-separated (default 125,250,500,1000)")
    p.add_argument("--formats", default="full,json", help="output formats to time, comma-separated: `full` (the default report, "
                   "which counts the fixes) and/or `json` (no fix counts) (default full,json)")
    p.add_argument("--runs", type=int, default=1, help="runs per size and format; the median is reported (default 1)")
    p.add_argument("--seed", type=int, default=8, help="seed of the generated files (default 8)")
    p.add_argument("--work-dir", help="where the files go (default: a new temporary folder, removed at the end)")
    p.add_argument("--report", help="also write the report (Markdown) to this file")
    args = p.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    args.formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    if len(args.sizes) < 2 or any(s <= 0 for s in args.sizes):
        p.error("--sizes: at least two sizes, each above 0")
    if not args.formats or not set(args.formats) <= {"full", "json"}:
        p.error("--formats: full and/or json")
    return args


def fit(points: list[tuple[float, float]]) -> dict:
    """Least squares: seconds = start + per_mb * MB, and log(seconds) = c + exponent * log(MB)."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    per_mb, start = _line(xs, ys)
    exponent, _ = _line([math.log(x) for x in xs], [math.log(y) for y in ys])
    return {"per_mb": per_mb, "start": start, "exponent": exponent}


def step(before: tuple[float, float] | None, after: tuple[float, float]) -> str:
    """The exponent from the size before: log(seconds ratio) / log(size ratio)."""
    if before is None:
        return ""
    return f"{math.log(after[1] / before[1]) / math.log(after[0] / before[0]):.2f}"


def _line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return slope, my - slope * mx


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    made = args.work_dir is None
    work = Path(args.work_dir or tempfile.mkdtemp(prefix="leaselint-dense-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    timing.ENV = child_env(work)
    cmd, how = leaselint_cmd()
    lines = [f"leaselint: {how}; load {timing.load()}", ""]
    print(lines[0], flush=True)
    try:
        files = []
        for kb in args.sizes:
            path = work / f"dense_{kb}kb.py"
            path.write_text(dense_module(random.Random(args.seed), kb * 1000), encoding="utf-8")
            files.append((kb, path))
        # One untimed run on a small file: bytecode is compiled before the timing starts.
        run_once([*cmd, "--isolated", "--no-cache", str(files[0][1])], cwd=str(work))
        table = [
            "| size | bytes | format | seconds | CPU s | peak MiB | s per MB | exponent from the size before |",
            "|---|---|---|---|---|---|---|---|",
        ]
        fits = []
        for output in args.formats:
            points = []
            for kb, path in files:
                report = work / f"report_{kb}.{output}"
                full = [*cmd, "--isolated", "--no-cache", "--output-format", output, "--output-file", str(report), str(path)]
                runs = [run_once(full, cwd=str(work)) for _ in range(args.runs)]
                failed = [r for r in runs if r.code not in (0, 1)]
                if failed:
                    print(f"  {kb} KB {output}: FAILED (exit {failed[0].code}: {failed[0].stderr.strip()[-300:]})", flush=True)
                    continue
                size = path.stat().st_size
                seconds = statistics.median(r.seconds for r in runs)
                cpu = statistics.median(r.cpu for r in runs)
                peak = max(r.maxrss_kb for r in runs) / 1024
                before = points[-1] if points else None
                points.append((size / MB, seconds))
                row = (
                    f"| {kb} KB | {size:,} | {output} | {seconds:.2f} | {cpu:.2f} | {peak:.0f} | "
                    f"{seconds / (size / MB):.1f} | {step(before, points[-1])} |"
                )
                table.append(row)
                print(f"  {row}  (load {timing.load()})", flush=True)
            if len(points) > 1:
                f = fit(points)
                fits.append(
                    f"- {output}: {f['per_mb']:.1f} s per MB (seconds ≈ {f['start']:.2f} + {f['per_mb']:.2f} × MB); "
                    f"exponent {f['exponent']:.2f} from a log-log fit (1: linear, 2: quadratic; the start-up, "
                    "which does not grow, pulls it below 1)"
                )
        lines += table + ["", "Fit (least squares over the sizes):", "", *fits]
        text = "\n".join(lines) + "\n"
        print("\n" + text, end="")
        if args.report:
            Path(args.report).write_text(text, encoding="utf-8")
    finally:
        if made:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
