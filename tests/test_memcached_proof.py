"""LL001 and LL008 on a real memcached, through pymemcache.

LL001: the module claims with `add` (a short lifetime) and releases with a
blind `delete`. The same timeline runs on the original and on a copy fixed by
the real CLI:

1. worker A claims the key with `expire=1` (memcached lifetimes are whole seconds);
2. A's deadline passes (the item is gone on the server);
3. worker B claims the key (it succeeds: the key is free);
4. A releases;
5. worker C tries to claim.

Unfixed, A's `delete` removes B's claim and C gets in. Fixed, the release is
compare-and-expire (`gets`, compare the value with A's token, `cas` the item
to an already-past lifetime): A's release is refused and logged, B still holds
the key with its own token, and C is kept out. A further test opens the window
between A's `gets` and its `cas`: A's deadline passes and B claims inside it,
and the `cas` (whose CAS id is A's) refuses.

The module's client is made with `default_noreply=False`: with pymemcache's
default, `add` never waits for the server's answer and returns True even when
the key exists (LL008). The last tests show that on the server, and that
LL008's fix (`noreply=False` on the call) makes `add` answer False.
"""

from __future__ import annotations

import textwrap
import time
from dataclasses import dataclass

import pytest

from proof_support import assert_reported_lost, fix_copy, load, lost_lease_warnings, write_module

SHORT_EXPIRE_S = 1  # A's lifetime: memcached's smallest
LONG_EXPIRE_S = 30  # B's and C's: they outlive the test
EXPIRY_WAIT_S = 3.0  # an item with expire=1 is gone within about a second; give up after this
KEY = "job:nightly"
B_TOKEN = b"worker-b-token"
PLACEHOLDER = '("127.0.0.1", 11211)'

RUN_JOB = textwrap.dedent(
    '''\
    import secrets

    from pymemcache.client.base import Client

    mc = Client(("127.0.0.1", 11211), default_noreply=False)


    def run_job(name, work, expire):
        key = f"job:{name}"
        token = secrets.token_hex(16)
        if not mc.add(key, token, expire=expire):
            return False
        try:
            work()
        finally:
            mc.delete(key)
        return True
    '''
)

# The release the fix writes (LL001's pymemcache case, with this module's names).
FIXED_RELEASE = textwrap.indent(
    textwrap.dedent(
        '''\
        stored, cas_id = mc.gets(key)
        if stored not in (token, token.encode() if isinstance(token, str) else token) or not mc.cas(key, b"", cas_id, expire=-1, noreply=False):
            logging.getLogger(__name__).warning(
                "lease %s expired before release; another worker may hold it", key
            )
        '''
    ),
    " " * 8,
)

# The same job on a client left with pymemcache's default noreply (LL008), and a known token.
DEFAULT_NOREPLY_JOB = textwrap.dedent(
    '''\
    from pymemcache.client.base import Client

    mc = Client(("127.0.0.1", 11211))


    def run_job(name, token, work, expire):
        key = f"job:{name}"
        if not mc.add(key, token, expire=expire):
            return False
        try:
            work()
        finally:
            mc.delete(key)
        return True
    '''
)


def on_server(source: str, server: tuple[str, int]) -> str:
    """The module's source with its client pointed at the test's memcached."""
    assert source.count(PLACEHOLDER) == 1
    return source.replace(PLACEHOLDER, repr(tuple(server)))


@pytest.fixture
def loaded():
    """Imports modules and closes their clients at the end of the test."""
    modules = []

    def load_module(path):
        module = load(path)
        modules.append(module)
        return module

    yield load_module
    for module in modules:
        module.mc.close()


def wait_until_gone(client, key: str) -> bool:
    deadline = time.monotonic() + EXPIRY_WAIT_S
    while client.get(key) is not None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@dataclass
class Timeline:
    a_claimed: bool
    a_value: bytes | None  # what A's claim stored
    expired_before_b: bool  # A's item was gone from the server when B came
    b_claimed: bool
    b_value: bytes | None
    after_a_release: bytes | None  # the key's value right after A released
    c_got_in: bool
    c_value: bytes | None  # the key's value while C (if admitted) runs
    final: bytes | None


def replay(module, client) -> Timeline:
    seen: dict = {}

    def work_a():
        seen["a_value"] = client.get(KEY)
        seen["expired"] = wait_until_gone(client, KEY)
        seen["b_claimed"] = client.add(KEY, B_TOKEN, expire=LONG_EXPIRE_S)
        seen["b_value"] = client.get(KEY)

    def work_c():
        seen["c_value"] = client.get(KEY)

    a_claimed = module.run_job("nightly", work_a, SHORT_EXPIRE_S)
    after = client.get(KEY)
    c_got_in = module.run_job("nightly", work_c, LONG_EXPIRE_S)
    assert c_got_in == ("c_value" in seen)  # C's work runs exactly when C gets in
    return Timeline(
        a_claimed, seen["a_value"], seen["expired"], seen["b_claimed"], seen["b_value"],
        after, c_got_in, seen.get("c_value"), client.get(KEY),
    )


def assert_stage_set(t: Timeline) -> None:
    assert t.a_claimed is True
    assert t.a_value is not None and t.a_value != B_TOKEN
    assert t.expired_before_b is True
    assert t.b_claimed is True
    assert t.b_value == B_TOKEN


def test_run_job_original_lets_c_in(tmp_path, memcached_server, memcached_client, loaded, caplog):
    module = loaded(write_module(tmp_path, "original", on_server(RUN_JOB, memcached_server)))
    t = replay(module, memcached_client)
    assert_stage_set(t)
    assert t.after_a_release is None  # A's delete removed B's claim
    assert t.c_got_in is True  # and C runs beside B
    assert t.c_value is not None and t.c_value != B_TOKEN
    assert t.final is None  # C released on its way out
    assert lost_lease_warnings(caplog, module) == []


def test_run_job_fix_keeps_c_out(tmp_path, memcached_server, memcached_client, loaded, caplog):
    path = fix_copy(tmp_path, on_server(RUN_JOB, memcached_server))
    assert FIXED_RELEASE in path.read_text(encoding="utf-8")
    module = loaded(path)
    t = replay(module, memcached_client)
    assert_stage_set(t)
    assert t.after_a_release == B_TOKEN  # A's release left B's claim alone
    assert t.c_got_in is False
    assert t.c_value is None
    assert t.final == B_TOKEN  # B still holds the key
    assert_reported_lost(caplog, module, KEY)
    # A run that ends in time releases its own claim, silently, and the key is free again at once.
    assert module.run_job("daily", lambda: None, LONG_EXPIRE_S) is True
    assert memcached_client.get("job:daily") is None
    assert memcached_client.add("job:daily", b"next", expire=LONG_EXPIRE_S) is True
    assert len(lost_lease_warnings(caplog, module)) == 1


class DeadlineBetweenGetsAndCas:
    """A client whose `gets` of the key returns, then lets A's deadline pass and B claim, before A's `cas`."""

    def __init__(self, client, probe):
        self._client = client
        self._probe = probe
        self.gets_answers = []

    def gets(self, key, *args, **kwargs):
        answer = self._client.gets(key, *args, **kwargs)
        self.gets_answers.append(answer)
        assert wait_until_gone(self._probe, key)
        assert self._probe.add(key, B_TOKEN, expire=LONG_EXPIRE_S) is True
        return answer

    def __getattr__(self, name):
        return getattr(self._client, name)


def test_fixed_release_refuses_a_claim_made_between_gets_and_cas(tmp_path, memcached_server, memcached_client, loaded, caplog):
    """The compare alone would pass (A's `gets` saw A's token): the CAS id is what refuses."""
    module = loaded(fix_copy(tmp_path, on_server(RUN_JOB, memcached_server)))
    raced = DeadlineBetweenGetsAndCas(module.mc, memcached_client)
    module.mc = raced
    seen = {}
    assert module.run_job("nightly", lambda: seen.setdefault("a_value", memcached_client.get(KEY)), SHORT_EXPIRE_S) is True
    [(stored, cas_id)] = raced.gets_answers
    assert stored == seen["a_value"] and cas_id is not None  # A's compare matched A's own claim
    assert memcached_client.get(KEY) == B_TOKEN  # yet B's claim, made after it, survived A's cas
    assert module.run_job("nightly", lambda: None, LONG_EXPIRE_S) is False  # C is kept out
    assert_reported_lost(caplog, module, KEY)
    module.mc = raced._client


# LL008: pymemcache's default noreply ----------------------------------------------


def replay_held(module, client) -> dict:
    """B holds the key; A runs the job with its own token."""
    assert client.add(KEY, B_TOKEN, expire=LONG_EXPIRE_S) is True
    ran = []
    a_admitted = module.run_job("nightly", b"worker-a-token", lambda: ran.append(client.get(KEY)), LONG_EXPIRE_S)
    module.mc.version()  # a round trip on A's connection: any noreply command before it has run
    return {"a_admitted": a_admitted, "a_ran": bool(ran), "value_seen_by_a": ran[0] if ran else None, "final": client.get(KEY)}


def test_default_noreply_add_admits_everyone(tmp_path, memcached_server, memcached_client, loaded):
    module = loaded(write_module(tmp_path, "original", on_server(DEFAULT_NOREPLY_JOB, memcached_server)))
    seen = replay_held(module, memcached_client)
    assert seen["a_admitted"] is True  # add answered True though B held the key...
    assert seen["a_ran"] is True and seen["value_seen_by_a"] == B_TOKEN  # ...and stored nothing: A ran on B's claim
    assert seen["final"] is None  # and A's delete freed B's claim


def test_ll008_fix_makes_add_answer_false(tmp_path, memcached_server, memcached_client, loaded):
    path = fix_copy(tmp_path, on_server(DEFAULT_NOREPLY_JOB, memcached_server), "--fix", "--select", "LL008", clean=False)
    text = path.read_text(encoding="utf-8")
    assert "mc.add(key, token, expire=expire, noreply=False)" in text
    assert "mc.delete(key)" in text  # only LL008 ran: the release is still the blind one
    module = loaded(path)
    seen = replay_held(module, memcached_client)
    assert seen["a_admitted"] is False  # the server's NOT_STORED reaches the caller
    assert seen["a_ran"] is False
    assert seen["final"] == B_TOKEN
    # And with the key free, the fixed add still claims.
    memcached_client.delete(KEY)
    assert module.run_job("nightly", b"worker-a-token", lambda: None, LONG_EXPIRE_S) is True


# The same job on a client with a serde: `gets` gives back the token as it was stored (a str), not bytes.
SERDE_JOB = RUN_JOB.replace(
    "from pymemcache.client.base import Client\n",
    "from pymemcache import serde\nfrom pymemcache.client.base import Client\n",
).replace("default_noreply=False)", "serde=serde.pickle_serde, default_noreply=False)")


def test_fix_on_a_client_with_a_serde_matches_the_token_as_stored(tmp_path, memcached_server, memcached_client, loaded, caplog):
    assert SERDE_JOB != RUN_JOB
    path = fix_copy(tmp_path, on_server(SERDE_JOB, memcached_server))
    assert FIXED_RELEASE in path.read_text(encoding="utf-8")
    module = loaded(path)
    # A run that ends in time releases its own claim (a bytes compare never matched a str token).
    assert module.run_job("daily", lambda: None, LONG_EXPIRE_S) is True
    assert memcached_client.get("job:daily") is None
    assert lost_lease_warnings(caplog, module) == []
    # A's deadline passes and B claims: A's release leaves B's claim alone and reports the lost lease.
    t = replay(module, memcached_client)
    assert t.a_claimed is True and t.expired_before_b is True and t.b_claimed is True
    assert t.after_a_release == B_TOKEN
    assert t.c_got_in is False
    assert_reported_lost(caplog, module, KEY)
