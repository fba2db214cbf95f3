"""LL001 on a real etcd (v3 API), through python-etcd3.

The module claims a key bound to an etcd lease and releases it with a blind
`delete`. The same timeline runs on the original and on a copy fixed by the
real CLI:

1. worker A claims the key under a lease of its own;
2. A's lease ends (the key is gone on the server);
3. worker B claims the key (it succeeds: the key is free);
4. A releases;
5. worker C tries to claim.

Unfixed, A's `delete` removes B's claim and C gets in. Fixed, the release is a
transaction that deletes the key only while its value is A's token: it
answers False, A logs a warning naming the key, B still holds the key and C is
kept out.

Two claim forms: a transaction on `create(key) == 0` under a lease of
ttl=1 s that really expires (the test server's minimum TTL is 1 s, see
etcd_server.py), and `put_if_not_exists` under a lease the test revokes, as
the expiry would.

python-etcd3 0.12's generated protobuf code only imports under protobuf >= 4
with the pure-Python implementation, so the variable is set before the import.
"""

from __future__ import annotations

import os

os.environ["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = "python"  # before anything imports protobuf

import textwrap
import time
from dataclasses import dataclass

import pytest

from proof_support import assert_reported_lost, fix_copy, load, lost_lease_warnings, write_module

KEY = "/jobs/nightly"
B_TOKEN = b"worker-b-token"
SHORT_TTL_S = 1
LONG_TTL_S = 60
EXPIRY_WAIT_S = 5.0  # a ttl=1 lease ends within about 1.5 s on the test server; give up after this
PLACEHOLDER = 'etcd3.client(host="127.0.0.1", port=2379)'

# python-etcd3's generated protobuf code calls descriptor constructors that protobuf deprecates.
pytestmark = pytest.mark.filterwarnings(r"ignore:Call to deprecated create function:DeprecationWarning")

# The claim is a transaction; the module grants the lease itself.
TRANSACTION_JOB = textwrap.dedent(
    '''\
    import secrets

    import etcd3

    etcd = etcd3.client(host="127.0.0.1", port=2379)


    def run_job(name, work, ttl):
        key = f"/jobs/{name}"
        token = secrets.token_hex(16)
        lease = etcd.lease(ttl)
        ok, _ = etcd.transaction(
            compare=[etcd.transactions.create(key) == 0],
            success=[etcd.transactions.put(key, token, lease)],
            failure=[],
        )
        if not ok:
            return False
        try:
            work()
        finally:
            etcd.delete(key)
        return True
    '''
)

# The claim is put_if_not_exists; the caller gives the lease.
PUT_IF_NOT_EXISTS_JOB = textwrap.dedent(
    '''\
    import secrets

    import etcd3

    etcd = etcd3.client(host="127.0.0.1", port=2379)


    def run_job(name, work, lease):
        key = f"/jobs/{name}"
        token = secrets.token_hex(16)
        if not etcd.put_if_not_exists(key, token, lease):
            return False
        try:
            work()
        finally:
            etcd.delete(key)
        return True
    '''
)

# The release the fix writes (LL001's etcd case).
FIXED_RELEASE = (
    "if not etcd.transaction(compare=[etcd.transactions.value(key) == token], "
    "success=[etcd.transactions.delete(key)], failure=[])[0]:\n"
    "            logging.getLogger(__name__).warning(\n"
    '                "lease %s expired before release; another worker may hold it", key\n'
    "            )\n"
)


def on_server(source: str, server: tuple[str, int]) -> str:
    """The module's source with its client pointed at the test's etcd."""
    host, port = server
    assert source.count(PLACEHOLDER) == 1
    return source.replace(PLACEHOLDER, f'etcd3.client(host="{host}", port={port})')


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
        module.etcd.close()


def value(client, key: str) -> bytes | None:
    return client.get(key)[0]


def wait_until_gone(client, key: str) -> bool:
    deadline = time.monotonic() + EXPIRY_WAIT_S
    while value(client, key) is not None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@dataclass
class Timeline:
    a_claimed: bool
    a_value: bytes | None
    expired_before_b: bool
    b_claimed: bool
    b_value: bytes | None
    after_a_release: bytes | None
    c_got_in: bool
    c_value: bytes | None
    final: bytes | None


def replay(client, run_a, run_c, end_a_lease) -> Timeline:
    """`run_a(work)` and `run_c(work)` run the module's job for A and C; `end_a_lease()` ends A's lease."""
    seen: dict = {}
    b_lease = client.lease(LONG_TTL_S)

    def work_a():
        seen["a_value"] = value(client, KEY)
        end_a_lease()
        seen["expired"] = wait_until_gone(client, KEY)
        seen["b_claimed"] = client.put_if_not_exists(KEY, B_TOKEN, b_lease)
        seen["b_value"] = value(client, KEY)

    def work_c():
        seen["c_value"] = value(client, KEY)

    a_claimed = run_a(work_a)
    after = value(client, KEY)
    c_got_in = run_c(work_c)
    assert c_got_in == ("c_value" in seen)
    return Timeline(
        a_claimed, seen["a_value"], seen["expired"], seen["b_claimed"], seen["b_value"],
        after, c_got_in, seen.get("c_value"), value(client, KEY),
    )


def replay_transaction_job(module, client) -> Timeline:
    # A's lease really expires: nothing to do but wait.
    return replay(
        client,
        lambda work: module.run_job("nightly", work, SHORT_TTL_S),
        lambda work: module.run_job("nightly", work, LONG_TTL_S),
        lambda: None,
    )


def replay_put_if_not_exists_job(module, client) -> Timeline:
    a_lease = client.lease(LONG_TTL_S)
    return replay(
        client,
        lambda work: module.run_job("nightly", work, a_lease),
        lambda work: module.run_job("nightly", work, client.lease(LONG_TTL_S)),
        a_lease.revoke,  # what the expiry of A's lease does: its keys are deleted
    )


SCENARIOS = {
    "transaction-claim-ttl-expiry": (TRANSACTION_JOB, replay_transaction_job),
    "put-if-not-exists-revoked-lease": (PUT_IF_NOT_EXISTS_JOB, replay_put_if_not_exists_job),
}


def assert_stage_set(t: Timeline) -> None:
    assert t.a_claimed is True
    assert t.a_value is not None and t.a_value != B_TOKEN
    assert t.expired_before_b is True
    assert t.b_claimed is True
    assert t.b_value == B_TOKEN


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_original_lets_c_in(scenario, tmp_path, etcd_server, etcd_client, loaded, caplog):
    source, replay_job = SCENARIOS[scenario]
    module = loaded(write_module(tmp_path, "original", on_server(source, etcd_server)))
    t = replay_job(module, etcd_client)
    assert_stage_set(t)
    assert t.after_a_release is None  # A's delete removed B's claim
    assert t.c_got_in is True
    assert t.c_value is not None and t.c_value != B_TOKEN
    assert t.final is None  # C released on its way out
    assert lost_lease_warnings(caplog, module) == []


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_fix_keeps_c_out(scenario, tmp_path, etcd_server, etcd_client, loaded, caplog):
    source, replay_job = SCENARIOS[scenario]
    path = fix_copy(tmp_path, on_server(source, etcd_server))
    assert FIXED_RELEASE in path.read_text(encoding="utf-8")
    module = loaded(path)
    t = replay_job(module, etcd_client)
    assert_stage_set(t)
    assert t.after_a_release == B_TOKEN  # A's transaction left B's claim alone
    assert t.c_got_in is False
    assert t.c_value is None
    assert t.final == B_TOKEN  # B still holds the key
    assert_reported_lost(caplog, module, KEY)


def test_fixed_release_in_time_deletes_silently(tmp_path, etcd_server, etcd_client, loaded, caplog):
    module = loaded(fix_copy(tmp_path, on_server(PUT_IF_NOT_EXISTS_JOB, etcd_server)))
    seen = []
    assert module.run_job("daily", lambda: seen.append(value(etcd_client, "/jobs/daily")), etcd_client.lease(LONG_TTL_S))
    assert seen and seen[0] is not None  # A held the key while it worked
    assert value(etcd_client, "/jobs/daily") is None  # and its own release deleted it
    assert lost_lease_warnings(caplog, module) == []
    assert module.run_job("daily", lambda: None, etcd_client.lease(LONG_TTL_S)) is True  # free again
