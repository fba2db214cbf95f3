"""Start and stop a real, throwaway single-member etcd (v3 API) for the proof tests.

The binary is `$LEASELINT_ETCD` when set, otherwise `etcd` on PATH (Debian
package `etcd-server`). Without one the tests skip, except under CI (`$CI`
set), where they fail and say what .ci/run must install.

The member runs with a 10 ms heartbeat and a 100 ms election timeout: it
elects itself at once, and its minimum lease TTL (1.5 election timeouts,
rounded up to whole seconds) is 1 s instead of the default 2 s, so a lease
granted with ttl=1 really ends about a second later.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import urllib.request
from pathlib import Path
from typing import Iterator

from local_server import find_binary, start, stop

ENV_VAR = "LEASELINT_ETCD"
WHAT = "real-etcd proof"


_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy


def healthy(port: int, timeout: float = 0.5) -> bool:
    try:
        with _NO_PROXY.open(f"http://127.0.0.1:{port}/health", timeout=timeout) as response:
            return json.loads(response.read()).get("health") == "true"
    except (OSError, ValueError):
        return False


def _command(binary: str):
    def command(ports: list[int], folder: Path) -> list[str]:
        client = f"http://127.0.0.1:{ports[0]}"
        peer = f"http://127.0.0.1:{ports[1]}"
        return [
            binary,
            "--name", "leaselint",
            "--data-dir", str(folder / "data"),
            "--listen-client-urls", client,
            "--advertise-client-urls", client,
            "--listen-peer-urls", peer,
            "--initial-advertise-peer-urls", peer,
            "--initial-cluster", f"leaselint={peer}",
            "--heartbeat-interval", "10",
            "--election-timeout", "100",
            # python-etcd speaks the v2 API (the etcd v2 store's proofs).
            "--enable-v2=true",
        ]

    return command


@contextlib.contextmanager
def running_etcd() -> Iterator[tuple[str, int]]:
    """A fresh etcd on free loopback ports with a temporary data dir, as (host, client port); stopped on exit."""
    binary = find_binary(WHAT, ["etcd"], ENV_VAR, "etcd-server")
    with tempfile.TemporaryDirectory(prefix="leaselint-etcd-") as tmp:
        process, ports = start(WHAT, _command(binary), healthy, Path(tmp), ports=2)
        try:
            yield ("127.0.0.1", ports[0])
        finally:
            stop(process)
