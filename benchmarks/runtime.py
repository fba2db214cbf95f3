#!/usr/bin/env python3
"""What `pytest --leases` costs a test suite: the same generated suite on a real Redis, timed with the
plugin not loaded, loaded but off, and recording.

    python benchmarks/runtime.py [--tests 200] [--commands 50] [--runs 3]

Not a test: it writes a suite into a temporary folder (each test makes `--commands` Redis commands:
cache reads and writes, a lease claimed and released by a Lua compare, a pipeline), starts a
redis-server on a free loopback port, times `python -m pytest -q` as a child process for each mode,
prints a Markdown table of the best run and the ratio to the plugin not loaded, and exits 0 whatever
the numbers are. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from redis_server import running_redis  # noqa: E402  (the tests' throwaway server)

LIB = '''
import uuid

RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def work(r, n, commands):
    done = 0
    while done < commands:
        token = uuid.uuid4().hex
        if r.set(f"lock:{n}", token, nx=True, px=5000):
            r.eval(RELEASE, 1, f"lock:{n}", token)
        r.set(f"cache:{n}", "value", ex=60)
        r.get(f"cache:{n}")
        r.delete(f"cache:{n}")
        with r.pipeline() as pipe:
            pipe.incr(f"count:{n}")
            pipe.expire(f"count:{n}", 60)
            pipe.execute()
        done += 6
'''

TEST = '''
import os

import pytest
import redis

from app.lib import work


@pytest.fixture(scope="module")
def r():
    return redis.Redis.from_url(os.environ["BENCH_REDIS_URL"])


@pytest.mark.parametrize("n", range({tests}))
def test_work(r, n):
    work(r, n, {commands})
'''

MODES = {
    "plugin not loaded": ["-p", "no:leaselint"],
    "loaded, off": [],
    "--leases": ["--leases"],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=200)
    parser.add_argument("--commands", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="leaselint-runtime-bench-") as folder, running_redis() as url:
        root = Path(folder)
        (root / "app").mkdir()
        (root / "app" / "__init__.py").write_text("")
        (root / "app" / "lib.py").write_text(LIB)
        (root / "tests").mkdir()
        (root / "tests" / "test_bench.py").write_text(TEST.format(tests=args.tests, commands=args.commands))
        env = {**os.environ, "BENCH_REDIS_URL": url, "PYTHONPATH": str(root)}
        env.pop("PYTEST_ADDOPTS", None)
        best: dict[str, float] = {}
        for _ in range(args.runs):
            for mode, extra in MODES.items():
                command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, "tests"]
                start = time.perf_counter()
                done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
                seconds = time.perf_counter() - start
                if done.returncode != 0:
                    print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
                    return 1
                best[mode] = min(seconds, best.get(mode, seconds))
    base = best["plugin not loaded"]
    total = args.tests * args.commands
    print(f"{args.tests} tests, about {total} Redis commands, best of {args.runs}\n")
    print("| mode | seconds | ratio |")
    print("|---|---|---|")
    for mode in MODES:
        print(f"| {mode} | {best[mode]:.2f} | {best[mode] / base:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
