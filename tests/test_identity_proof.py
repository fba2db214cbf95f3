"""LL002 on a real Redis: a readable identity stored as the lease's value (a host name) stays readable.

The README promises that the fix keeps an identity in front of a fresh part (`<host>:<token>`) and
compares that whole value at the release. Each module here stores the host name: inline, and from a
module-level `HOSTNAME`.
"""

from __future__ import annotations

import socket
import textwrap

from proof_support import fix_copy, load, lost_lease_warnings

HOST = socket.gethostname()
RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

INLINE = textwrap.dedent(
    f'''\
    import socket

    RELEASE = "{RELEASE}"


    def run(client, job, work):
        if not client.set(f"lock:{{job}}", socket.gethostname(), nx=True, ex=60):
            return False
        try:
            work()
        finally:
            client.eval(RELEASE, 1, f"lock:{{job}}", socket.gethostname())
        return True
    '''
)

MODULE_NAME = textwrap.dedent(
    f'''\
    import socket

    HOSTNAME = socket.gethostname()
    RELEASE = "{RELEASE}"


    def run(client, job, work):
        if not client.set(f"lock:{{job}}", HOSTNAME, nx=True, ex=60):
            return False
        try:
            work()
        finally:
            client.eval(RELEASE, 1, f"lock:{{job}}", HOSTNAME)
        return True
    '''
)

def _run_once(module, client) -> bytes:
    """One run of the job: what it stored while working; the run frees its key and reports nothing."""
    seen = []
    assert module.run(client, "nightly", lambda: seen.append(client.get("lock:nightly"))) is True
    assert client.exists("lock:nightly") == 0
    return seen[0]


def test_inline_host_name_stays_in_front_of_the_token(tmp_path, redis_client, caplog):
    path = fix_copy(tmp_path, INLINE, "--fix", "--unsafe-fixes")
    module = load(path)
    first, second = _run_once(module, redis_client), _run_once(module, redis_client)
    assert first.decode().startswith(f"{HOST}:") and second.decode().startswith(f"{HOST}:")
    assert first != second  # fresh at each claim
    assert lost_lease_warnings(caplog, module) == []


def test_module_host_name_stays_in_use_in_front_of_the_token(tmp_path, redis_client, caplog):
    path = fix_copy(tmp_path, MODULE_NAME, "--fix", "--unsafe-fixes")
    fixed = path.read_text(encoding="utf-8")
    assert fixed.count("HOSTNAME") == 2  # made, and still used: no dead code
    module = load(path)
    stored = _run_once(module, redis_client)
    assert stored.decode().startswith(f"{HOST}:")
    assert lost_lease_warnings(caplog, module) == []
