"""The larger fuzz run: `python scripts/fuzz.py --examples 5000` (CI runs tests/test_fuzz.py with 60).

Runs the same properties as tests/test_fuzz.py with a budget of your choosing, randomised unless
--seed is given; a failing example is printed, shrunk, by hypothesis.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=2000, help="examples per property (default 2000)")
    parser.add_argument("--seed", type=int, help="a fixed seed, to repeat a run")
    args = parser.parse_args()
    env = {**os.environ, "LEASELINT_FUZZ_EXAMPLES": str(args.examples)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", os.path.join(ROOT, "tests", "test_fuzz.py")]
    if args.seed is not None:
        command += ["-p", "hypothesis", f"--hypothesis-seed={args.seed}"]
    else:
        env["LEASELINT_FUZZ_RANDOM"] = "1"
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
