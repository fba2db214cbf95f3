"""What the throwaway servers of the proof tests share: finding a binary, a free port, starting, stopping.

A binary is the one an environment variable names (and then only it: a wrong
explicit path is an error, not a hint to look elsewhere), otherwise the first
on PATH. Without one the tests skip, except under CI (`$CI` set), where a
missing server must not pass silently as a skip: they fail and name what
.ci/run must install. Test-only Python packages follow the same rule.
"""

from __future__ import annotations

import importlib
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Callable, Sequence

import pytest

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
START_ATTEMPTS = 3  # a free port can be taken between picking it and binding it


def skip_or_fail(what: str, reason: str, remedy: str) -> None:
    """Skip the tests of `what`; under CI fail them instead, saying `remedy`."""
    if os.environ.get("CI"):
        pytest.fail(
            f"CI is set but the {what} tests cannot run: {reason}. {remedy}; refusing to skip them in CI.",
            pytrace=False,
        )
    pytest.skip(f"{what} tests skipped: {reason}")


def find_binary(what: str, names: Sequence[str], env_var: str, debian_package: str) -> str:
    """The server binary: `$env_var` when set, else the first of `names` on PATH."""
    explicit = os.environ.get(env_var)
    if explicit:
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        reason = f"${env_var}={explicit!r} is not an executable file"
    else:
        for name in names:
            found = shutil.which(name)
            if found:
                return found
        reason = f"{' or '.join(names)} not found (set ${env_var} or put it on PATH)"
    skip_or_fail(
        what,
        reason,
        f".ci/run should install the Debian package {debian_package} "
        f"(`apt-get install -y --no-install-recommends {debian_package}`) or set ${env_var}",
    )
    raise AssertionError("unreachable")  # skip_or_fail always raises


def require_module(what: str, module: str, distribution: str):
    """Import a test-only package; skip (fail under CI) when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        skip_or_fail(
            what,
            f"cannot import {module} ({error})",
            f"the `test` extra must install {distribution} (`pip install -e '.[test]'`)",
        )
        raise


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start(
    what: str,
    command_for: Callable[[list[int], Path], list[str]],
    ready: Callable[[int], bool],
    workdir: Path,
    ports: int = 1,
) -> tuple[subprocess.Popen, list[int]]:
    """The running server and its ports, once `ready(ports[0])` answers True.

    `command_for(ports, folder)` gets `ports` free loopback ports and a fresh folder for each attempt:
    a server that exits at start (a port taken since it was picked) is tried again on other ports.
    """
    log_path = workdir / "server.log"
    for attempt in range(START_ATTEMPTS):
        chosen = [free_port() for _ in range(ports)]
        attempt_dir = workdir / f"attempt-{attempt}"
        attempt_dir.mkdir()
        command = command_for(chosen, attempt_dir)
        with open(log_path, "ab") as log:
            process = subprocess.Popen(command, cwd=attempt_dir, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break  # exited early: most likely a port was taken; try other ports
            if ready(chosen[0]):
                return process, chosen
            time.sleep(0.05)
        else:
            stop(process)
            pytest.fail(
                f"{what} ({command[0]}) did not answer on port {chosen[0]} within {START_TIMEOUT_S:.0f} s; "
                f"its output:\n{log_path.read_text(errors='replace')}",
                pytrace=False,
            )
    pytest.fail(
        f"{what} ({command[0]}) exited at start {START_ATTEMPTS} times; its output:\n"
        f"{log_path.read_text(errors='replace')}",
        pytrace=False,
    )
