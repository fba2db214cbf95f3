"""LL004 and LL005 on a real Redis: each pattern is a real bug, and the fix really removes it.

LL004 (check-then-delete). The module reads the key, compares the value in the
client and deletes in a second round trip. Worker A's client is a proxy around
a real client that stalls once inside A's release: right after a GET has
answered (so A saw its own token), or before the first other command when the
release reads nothing. While A stalls its deadline passes and worker B claims
the key. Then A's release goes on, and worker C tries to claim. Unfixed, A's
delete frees B's claim and C gets in beside B. Fixed (`leaselint --fix`, a safe
fix), the compare-and-delete runs in one server step: B keeps the key, C is
refused, and A logs a warning naming the key.

LL005 (claim without deadline). The module claims with `setnx` and sets the
lifetime with a second `expire`. A proxy whose `expire` raises stands for a
worker killed between the two steps: unfixed, the key is left without a
lifetime (`PTTL` -1) and every later worker is refused; fixed (`leaselint --fix
--select LL005`), the claim carries its lifetime, so the same crash cannot
leave such a key.
"""

from __future__ import annotations

import importlib.util
import itertools
import logging
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

SHORT_TTL_MS = 100  # A's lifetime
PAST_DEADLINE_S = 0.3  # how long A stalls inside its release: well past its deadline
LONG_TTL_MS = 10_000  # B's and C's lifetime: they outlive the test

A_TOKEN = "worker-a-token"
B_TOKEN = "worker-b-token"
C_TOKEN = "worker-c-token"

# The `if` guards only the delete: the fix replaces it whole, so the fixed
# release no longer reads the key.
CHECK_THEN_DELETE = textwrap.dedent(
    '''\
    def acquire(client, key, token, ttl_ms):
        return bool(client.set(key, token, nx=True, px=ttl_ms))


    def release(client, key, token):
        if client.get(key) == token:
            client.delete(key)
    '''
)

# A statement between the check and the delete: the fix keeps the `if` (and
# its GET) and replaces only the delete.
CHECK_PAUSE_THEN_DELETE = textwrap.dedent(
    '''\
    import time

    PAUSE_AFTER_GET = 0.0


    def acquire(client, key, token, ttl_ms):
        return bool(client.set(key, token, nx=True, px=ttl_ms))


    def release(client, key, token):
        if client.get(key) == token:
            time.sleep(PAUSE_AFTER_GET)
            client.delete(key)
    '''
)

SETNX_THEN_EXPIRE = textwrap.dedent(
    '''\
    def acquire(client, key, token):
        if client.setnx(key, token):
            client.expire(key, 30)
            return True
        return False


    def release(client, key):
        client.delete(key)
    '''
)

_module_numbers = itertools.count()


# The CLI and the modules --------------------------------------------------------


def run_cli(path: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "leaselint", *flags, str(path)],
        cwd=path.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_module(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


def fix_copy(tmp_path: Path, source: str, *flags: str) -> tuple[Path, str]:
    """A copy of `source` fixed by the CLI with `flags`; asserts the run exited 0 with one fix and nothing left."""
    path = write_module(tmp_path, "fixed", source)
    result = run_cli(path, *flags)
    assert result.returncode == 0, f"leaselint {' '.join(flags)} exited {result.returncode}:\n{result.stdout}{result.stderr}"
    assert "Found 1 error (1 fixed, 0 remaining)." in result.stdout, result.stdout
    fixed = path.read_text(encoding="utf-8")
    assert fixed != source
    # A second run with the same flags finds nothing and writes nothing.
    again = run_cli(path, *flags)
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.strip() == "All checks passed!", again.stdout
    assert path.read_text(encoding="utf-8") == fixed
    return path, fixed


def load(path: Path):
    """Import a module from its path under a name no other test uses."""
    name = f"leaselint_release_rules_{path.stem}_{next(_module_numbers)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def warnings_of(caplog, module) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == module.__name__ and r.levelno >= logging.WARNING]


@pytest.fixture
def client(redis_client, redis_url):
    """A client on the emptied session server that answers `str`, so `client.get(key) == token` compares tokens."""
    c = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        yield c
    finally:
        c.close()


# LL004: check-then-delete ------------------------------------------------------


class StallingClient:
    """Worker A's client: a real client that runs `stall` once, inside A's release.

    It stalls right after a GET has answered (A has seen its value), or, if the
    release sends anything else first, before that command goes out.
    """

    def __init__(self, client, stall):
        self._client = client
        self._stall = stall
        self.calls: list[str] = []  # the commands A's release sent, in order
        self.got: list = []  # what each GET answered

    @property
    def stalled(self) -> bool:
        return self._stall is None

    def _stall_once(self) -> None:
        if self._stall is not None:
            stall, self._stall = self._stall, None
            stall()

    def get(self, *args, **kwargs):
        self.calls.append("get")
        value = self._client.get(*args, **kwargs)
        self.got.append(value)
        self._stall_once()
        return value

    def __getattr__(self, name):
        command = getattr(self._client, name)

        def call(*args, **kwargs):
            self.calls.append(name)
            self._stall_once()
            return command(*args, **kwargs)

        return call


@dataclass
class Timeline:
    a_claimed: bool
    expired_before_b: bool  # A's key was gone from the server when B came
    b_claimed: bool
    b_value: str | None  # what B's claim stored
    after_a_release: str | None  # the key's value right after A released
    c_got_in: bool
    final: str | None  # the key's value at the end
    a_client: StallingClient


def replay(module, client) -> Timeline:
    """A claims; A releases, stalling inside the release while its deadline passes and B claims; C tries."""
    key = "lease:nightly"
    seen: dict = {}

    def a_stalls_and_b_claims():
        time.sleep(PAST_DEADLINE_S)
        seen["expired"] = client.exists(key) == 0
        seen["b_claimed"] = module.acquire(client, key, B_TOKEN, LONG_TTL_MS)
        seen["b_value"] = client.get(key)

    a_claimed = module.acquire(client, key, A_TOKEN, SHORT_TTL_MS)
    a_client = StallingClient(client, a_stalls_and_b_claims)
    module.release(a_client, key, A_TOKEN)
    assert a_client.stalled  # B's claim happened inside A's release, in every variant
    after = client.get(key)
    c_got_in = module.acquire(client, key, C_TOKEN, LONG_TTL_MS)
    return Timeline(
        a_claimed, seen["expired"], seen["b_claimed"], seen["b_value"], after, c_got_in, client.get(key), a_client
    )


def assert_stage_set(t: Timeline) -> None:
    """A claimed, its deadline passed during its release, and B claimed: whichever module ran."""
    assert t.a_claimed is True
    assert t.expired_before_b is True
    assert t.b_claimed is True
    assert t.b_value == B_TOKEN


RULE_MODULES = pytest.mark.parametrize(
    "source",
    [pytest.param(CHECK_THEN_DELETE, id="guard-only"), pytest.param(CHECK_PAUSE_THEN_DELETE, id="guard-with-pause")],
)


@RULE_MODULES
def test_check_then_delete_frees_b_claim(tmp_path, client, caplog, source):
    module = load(write_module(tmp_path, "original", source))
    t = replay(module, client)
    assert_stage_set(t)
    # A read its own token before the deadline, then deleted after it: B's claim.
    assert t.a_client.calls == ["get", "delete"]
    assert t.a_client.got == [A_TOKEN]
    assert t.after_a_release is None
    assert t.c_got_in is True  # C now runs beside B
    assert t.final == C_TOKEN
    assert warnings_of(caplog, module) == []


def test_check_then_delete_fix_text(tmp_path):
    _, fixed = fix_copy(tmp_path, CHECK_THEN_DELETE, "--fix")
    assert ".delete(" not in fixed
    assert ".get(" not in fixed  # the `if` guarded only the delete: replaced whole
    assert "    if not client.eval(LEASE_RELEASE_SCRIPT, 1, key, token):\n" in fixed
    assert fixed.startswith("import logging\n")


def test_check_then_delete_fix_is_not_offered_as_unsafe(tmp_path):
    path = write_module(tmp_path, "original", CHECK_THEN_DELETE)
    result = run_cli(path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "LL004 [*]" in result.stdout
    assert "(unsafe)" not in result.stdout
    assert path.read_text(encoding="utf-8") == CHECK_THEN_DELETE


@RULE_MODULES
def test_check_then_delete_fixed_keeps_b_claim(tmp_path, client, caplog, source):
    path, fixed = fix_copy(tmp_path, source, "--fix")
    assert ".delete(" not in fixed
    module = load(path)
    t = replay(module, client)
    assert_stage_set(t)
    if source is CHECK_THEN_DELETE:
        assert t.a_client.calls == ["eval"]  # no GET left: A stalled just before its one server step
    else:
        assert t.a_client.calls == ["get", "eval"]  # same timeline as the original: A saw its own token
        assert t.a_client.got == [A_TOKEN]
    assert t.after_a_release == B_TOKEN  # A's release left B's claim alone
    assert t.c_got_in is False
    assert t.final == B_TOKEN
    records = warnings_of(caplog, module)
    assert len(records) == 1, [r.getMessage() for r in records]
    assert records[0].levelno == logging.WARNING
    assert "lease:nightly" in records[0].getMessage()
    # B's own release, on time, still frees the key and reports nothing.
    module.release(client, "lease:nightly", B_TOKEN)
    assert client.exists("lease:nightly") == 0
    assert len(warnings_of(caplog, module)) == 1


# LL005: claim without deadline ------------------------------------------------


class CrashBeforeExpire:
    """A real client whose `expire` raises: the worker dies between the claim and its lifetime."""

    def __init__(self, client):
        self._client = client
        self.calls: list[str] = []

    def expire(self, *args, **kwargs):
        self.calls.append("expire")
        raise RuntimeError("worker killed before EXPIRE")

    def __getattr__(self, name):
        command = getattr(self._client, name)

        def call(*args, **kwargs):
            self.calls.append(name)
            return command(*args, **kwargs)

        return call


KEY5 = "lease:report"


def test_setnx_then_expire_without_crash_sets_a_lifetime(tmp_path, client):
    module = load(write_module(tmp_path, "original", SETNX_THEN_EXPIRE))
    assert module.acquire(client, KEY5, A_TOKEN) is True
    assert 0 < client.pttl(KEY5) <= 30_000  # both steps ran: the gap, not the result, is the bug


def test_setnx_then_expire_crash_leaves_a_key_that_never_expires(tmp_path, client):
    module = load(write_module(tmp_path, "original", SETNX_THEN_EXPIRE))
    crashing = CrashBeforeExpire(client)
    with pytest.raises(RuntimeError, match="worker killed before EXPIRE"):
        module.acquire(crashing, KEY5, A_TOKEN)
    assert crashing.calls == ["setnx", "expire"]
    assert client.get(KEY5) == A_TOKEN
    assert client.pttl(KEY5) == -1  # the key exists and has no lifetime
    # Every later worker is refused, and stays refused after any plausible lifetime.
    assert module.acquire(client, KEY5, B_TOKEN) is False
    time.sleep(0.25)
    assert client.pttl(KEY5) == -1
    assert module.acquire(client, KEY5, C_TOKEN) is False
    assert client.get(KEY5) == A_TOKEN


def test_setnx_then_expire_fixed_claims_with_a_lifetime(tmp_path, client):
    path, fixed = fix_copy(tmp_path, SETNX_THEN_EXPIRE, "--fix", "--select", "LL005")
    assert "client.set(key, token, nx=True, ex=30)" in fixed
    assert "expire(" not in fixed
    assert "setnx(" not in fixed
    assert "client.delete(key)" in fixed  # only LL005 was selected: the release is untouched
    module = load(path)
    # The same crash now has no gap to fall into: the claim is one command.
    crashing = CrashBeforeExpire(client)
    assert module.acquire(crashing, KEY5, A_TOKEN) is True
    assert crashing.calls == ["set"]
    pttl = client.pttl(KEY5)
    assert 0 < pttl <= 30_000
    assert client.get(KEY5) == A_TOKEN
    assert module.acquire(client, KEY5, B_TOKEN) is False  # still a lease: B is refused while A holds it
    module.release(client, KEY5)
    assert client.exists(KEY5) == 0
