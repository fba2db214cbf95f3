"""The tools measured (leaselint and its peers), the libcst floors, and the findings check's reading."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import subprocess
import sys
from pathlib import Path

import timing
from trees import python_files

BIN = Path(sys.executable).parent
TOOLS = ("leaselint", "ruff", "fixit", "bandit", "semgrep", "floor", "check")

# --------------------------------------------------------------------------------------------
# Tools


def tool_cmd(name: str) -> list[str] | None:
    """The console script of this interpreter's environment, else the one on PATH."""
    candidate = BIN / name
    if candidate.exists():
        return [str(candidate)]
    found = shutil.which(name)
    return [found] if found else None


def leaselint_cmd() -> tuple[list[str], str]:
    script = BIN / "leaselint"
    if script.exists():
        return [str(script)], f"the console script {script}"
    return [sys.executable, "-m", "leaselint"], f"{sys.executable} -m leaselint (no console script in {BIN})"


def version_of(cmd: list[str]) -> str:
    try:
        out = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=300, env=timing.ENV)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"unavailable ({exc})"
    text = (out.stdout or out.stderr).strip().splitlines()
    if out.returncode != 0 or not text:
        return f"unavailable (exit {out.returncode})"
    return text[0].strip()


SEMGREP_RULE = """\
rules:
  - id: blind-lease-release
    languages: [python]
    severity: WARNING
    message: a key claimed with nx=True is released with a plain delete
    patterns:
      - pattern: $R.delete($K)
      - pattern-inside: |
          if $R.set($K, $V, nx=True, ...):
            ...
"""
FIXIT_RULE = "fixit.rules:NoRedundantFString"
BANDIT_TEST = "B101"


# --------------------------------------------------------------------------------------------
# The floor: bare libcst.parse_module over a tree, as a whole process like leaselint


def _parse_one(data: bytes) -> int:
    import libcst

    libcst.parse_module(data.decode("utf-8"))
    return 0


def _parse_with_positions(data: bytes) -> int:
    """A parse and libcst's own PositionProvider over the tree, as a libcst linter that reports
    positions pays for them (the tree is not copied: nothing changes it)."""
    import libcst
    from libcst.metadata import MetadataWrapper, PositionProvider

    MetadataWrapper(libcst.parse_module(data.decode("utf-8")), unsafe_skip_copy=True).resolve(PositionProvider)
    return 0


# The floors measured on (c): (row name, --floor-kind).
FLOORS = (("libcst floor", "parse"), ("libcst parse + PositionProvider", "positions"))


def floor_cmd(tree: str, jobs: int, kind: str = "parse"):
    """The command of a floor run, as `measure` takes it."""
    return lambda i: [sys.executable, str(Path(__file__).resolve().parent / "run.py"), "--floor", tree, "--floor-jobs", str(jobs), "--floor-kind", kind]


def floor_main(tree: str, jobs: int, kind: str = "parse") -> None:
    """Walk, read every file in this process, parse them in `jobs` processes (fork, like leaselint);
    with kind "positions", also resolve libcst's PositionProvider on each tree."""
    import libcst  # noqa: F401  (timed: leaselint imports it too)

    one = _parse_with_positions if kind == "positions" else _parse_one
    if kind == "positions":
        import libcst.metadata  # noqa: F401  (imported before the pool forks, as leaselint's model is)
    listed = Path(tree) / ".floor-files"
    if listed.exists():  # tree (d): the floor is the parse of the files leaselint must parse
        paths = [Path(tree) / line for line in listed.read_text().splitlines() if line]
    else:
        paths = python_files(Path(tree))
    datas = [path.read_bytes() for path in paths]
    if jobs <= 1:
        for data in datas:
            one(data)
        return
    context = multiprocessing.get_context("fork")
    chunk = max(1, len(datas) // (jobs * 32))  # chunks as leaselint's (CHUNKS_PER_WORKER)
    with context.Pool(jobs) as pool:
        for _ in pool.imap(one, datas, chunksize=chunk):
            pass


# --------------------------------------------------------------------------------------------
# Findings equality


def load_findings(path: Path) -> list[str]:
    """A JSON report as sorted canonical lines, one per finding (fixes included)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return sorted(json.dumps(item, sort_keys=True) for item in json.loads(text or "[]"))
