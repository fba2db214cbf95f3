"""Start and stop a real, throwaway memcached for the proof tests.

The binary is `$LEASELINT_MEMCACHED` when set, otherwise `memcached` on PATH
(Debian package `memcached`). Without one the tests skip, except under CI
(`$CI` set), where they fail and say what .ci/run must install.
"""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
from pathlib import Path
from typing import Iterator

from local_server import find_binary, start, stop

ENV_VAR = "LEASELINT_MEMCACHED"
WHAT = "real-memcached proof"


def answers_version(port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"version\r\n")
            return sock.recv(64).startswith(b"VERSION ")
    except OSError:
        return False


def _command(binary: str):
    def command(ports: list[int], folder: Path) -> list[str]:
        line = [binary, "-l", "127.0.0.1", "-p", str(ports[0]), "-U", "0"]
        if os.geteuid() == 0:
            line += ["-u", "root"]  # memcached refuses to run as root without naming the user
        return line

    return command


@contextlib.contextmanager
def running_memcached() -> Iterator[tuple[str, int]]:
    """A fresh memcached on a free loopback port (TCP only), as (host, port); stopped on exit."""
    binary = find_binary(WHAT, ["memcached"], ENV_VAR, "memcached")
    with tempfile.TemporaryDirectory(prefix="leaselint-memcached-") as tmp:
        process, ports = start(WHAT, _command(binary), answers_version, Path(tmp))
        try:
            yield ("127.0.0.1", ports[0])
        finally:
            stop(process)
