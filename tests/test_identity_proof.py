"""LL002 on a real Redis: a readable identity stored as the lease's value (a host name) stays readable.

The README promises that the fix keeps an identity in front of a fresh part (`<host>:<token>`) and
compares that whole value at the release. Each module here stores the host name: inline, from a
module-level `HOSTNAME`, and from `self.owner` set in `__init__`. The class keeps `owner` as it was
(callers read it), holds its token apart, and a release before any claim holds no token: it deletes
nothing and reports nothing, whoever holds the key.
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

CLASS_OWNER = textwrap.dedent(
    f'''\
    import socket

    import redis

    RELEASE = "{RELEASE}"


    class Lease:
        def __init__(self, client, name):
            self.client = client
            self.key = f"lease:{{name}}"
            self.owner = socket.gethostname()

        def acquire(self):
            return bool(self.client.set(self.key, self.owner, nx=True, ex=60))

        def release(self):
            self.client.eval(RELEASE, 1, self.key, self.owner)
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


def test_class_owner_stays_and_a_release_before_acquire_frees_nothing(tmp_path, redis_client, caplog):
    module = load(fix_copy(tmp_path, CLASS_OWNER, "--fix", "--unsafe-fixes"))
    key = "lease:nightly"

    # Another worker of this host holds the key: one running the fixed code, then one running the
    # code as it was (its value is the bare host name). A release before acquire leaves both alone
    # and reports no lost lease.
    for holder in (module.Lease(redis_client, "nightly"), None):
        redis_client.delete(key)
        if holder is None:
            redis_client.set(key, HOST, ex=60)
        else:
            assert holder.acquire() is True
        held = redis_client.get(key)
        module.Lease(redis_client, "nightly").release()
        assert lost_lease_warnings(caplog, module) == []
        assert redis_client.get(key) == held
    redis_client.delete(key)

    # Its own claim: the identity is in front of the stored value, and `owner` still reads the host name.
    lease = module.Lease(redis_client, "nightly")
    assert lease.acquire() is True
    assert redis_client.get(key).decode().startswith(f"{HOST}:")
    assert lease.owner == HOST
    lease.release()
    assert redis_client.exists(key) == 0
    assert lost_lease_warnings(caplog, module) == []
