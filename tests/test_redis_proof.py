"""LL001 on a real Redis: the blind release is a real bug, and the fix really removes it.

Each scenario writes a module with the unsafe pattern, fixes a copy with the
real CLI, and replays the same timeline on both with real lifetimes:

1. worker A claims the key with a short lifetime;
2. the deadline passes (the key is gone on the server);
3. worker B claims the key (it succeeds: the key is free);
4. A releases;
5. worker C tries to claim.

Unfixed, A's release deletes B's claim and C gets in beside B. Fixed, A's
release is refused, B still holds the key with its own token, C is kept out,
and A logs a warning naming the key.
"""

from __future__ import annotations

import asyncio
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

from proof_support import (
    assert_idempotent,
    assert_reported_lost,
    load,
    lost_lease_warnings,
    run_cli,
    write_module,
)
import redis
import redis.asyncio

SHORT_TTL_MS = 100  # A's lifetime
PAST_DEADLINE_S = 0.3  # how long A stalls: well past its deadline
LONG_TTL_MS = 10_000  # B's and C's lifetime: they outlive the test

CLASS_LOCK = textwrap.dedent(
    '''\
    import redis


    class JobLease:
        def __init__(self, client, name, ttl_ms):
            self.client = client
            self.key = f"lease:{name}"
            self.ttl_ms = ttl_ms

        def acquire(self):
            return bool(self.client.set(self.key, "1", nx=True, px=self.ttl_ms))

        def release(self):
            self.client.delete(self.key)
    '''
)

RUN_JOB = textwrap.dedent(
    '''\
    import secrets


    def run_job(client, name, work, ttl_ms):
        key = f"job:{name}"
        token = secrets.token_hex(16)
        if not client.set(key, token, nx=True, px=ttl_ms):
            return False
        try:
            work()
        finally:
            client.delete(key)
        return True
    '''
)

ASYNC_RUN_JOB = textwrap.dedent(
    '''\
    import secrets


    async def run_job(client, name, work, ttl_ms):
        key = f"job:{name}"
        token = secrets.token_hex(16)
        if not await client.set(key, token, nx=True, px=ttl_ms):
            return False
        try:
            await work()
        finally:
            await client.delete(key)
        return True
    '''
)



# The CLI and the modules --------------------------------------------------------






def fixed_module(tmp_path: Path, source: str, *flags: str) -> Path:
    """A copy of `source` fixed by the CLI with `flags`; asserts the fix ran, left nothing, and is stable."""
    path = write_module(tmp_path, "fixed", source)
    result = run_cli(path, *flags)
    assert result.returncode == 0, f"leaselint {' '.join(flags)} exited {result.returncode}:\n{result.stdout}{result.stderr}"
    assert "fixed, 0 remaining)" in result.stdout, result.stdout
    fixed = path.read_text(encoding="utf-8")
    assert fixed != source
    assert ".delete(" not in fixed
    assert_idempotent(path)
    return path










# The timelines ------------------------------------------------------------------


@dataclass
class Timeline:
    a_claimed: bool
    a_value: bytes | None  # what A's claim stored
    expired_before_b: bool  # A's key was gone from the server when B came
    b_claimed: bool
    b_value: bytes | None  # what B's claim stored
    after_a_release: bytes | None  # the key's value right after A released
    c_got_in: bool
    c_value: bytes | None  # the key's value while C (if admitted) runs
    final: bytes | None  # the key's value at the end


def replay_class_lock(module, client) -> tuple[Timeline, object]:
    key = "lease:nightly"
    a = module.JobLease(client, "nightly", SHORT_TTL_MS)
    b = module.JobLease(client, "nightly", LONG_TTL_MS)
    c = module.JobLease(client, "nightly", LONG_TTL_MS)
    a_claimed = a.acquire()
    a_value = client.get(key)
    time.sleep(PAST_DEADLINE_S)
    expired = client.exists(key) == 0
    b_claimed = b.acquire()
    b_value = client.get(key)
    a.release()
    after = client.get(key)
    c_got_in = c.acquire()
    c_value = client.get(key) if c_got_in else None
    return Timeline(a_claimed, a_value, expired, b_claimed, b_value, after, c_got_in, c_value, client.get(key)), b


B_TOKEN = "worker-b-token"


def replay_run_job(module, client) -> Timeline:
    key = "job:nightly"
    seen: dict = {}

    def work_a():
        seen["a_value"] = client.get(key)
        time.sleep(PAST_DEADLINE_S)
        seen["expired"] = client.exists(key) == 0
        seen["b_claimed"] = bool(client.set(key, B_TOKEN, nx=True, px=LONG_TTL_MS))
        seen["b_value"] = client.get(key)

    def work_c():
        seen["c_value"] = client.get(key)

    a_claimed = module.run_job(client, "nightly", work_a, SHORT_TTL_MS)
    after = client.get(key)
    c_got_in = module.run_job(client, "nightly", work_c, LONG_TTL_MS)
    assert c_got_in == ("c_value" in seen)  # C's work runs exactly when C gets in
    return Timeline(
        a_claimed, seen["a_value"], seen["expired"], seen["b_claimed"], seen["b_value"],
        after, c_got_in, seen.get("c_value"), client.get(key),
    )


async def replay_async_run_job(module, url: str) -> Timeline:
    key = "job:nightly"
    seen: dict = {}
    client = redis.asyncio.Redis.from_url(url)
    try:

        async def work_a():
            seen["a_value"] = await client.get(key)
            await asyncio.sleep(PAST_DEADLINE_S)
            seen["expired"] = await client.exists(key) == 0
            seen["b_claimed"] = bool(await client.set(key, B_TOKEN, nx=True, px=LONG_TTL_MS))
            seen["b_value"] = await client.get(key)

        async def work_c():
            seen["c_value"] = await client.get(key)

        a_claimed = await module.run_job(client, "nightly", work_a, SHORT_TTL_MS)
        after = await client.get(key)
        c_got_in = await module.run_job(client, "nightly", work_c, LONG_TTL_MS)
        assert c_got_in == ("c_value" in seen)
        final = await client.get(key)
    finally:
        await client.aclose()
    return Timeline(
        a_claimed, seen["a_value"], seen["expired"], seen["b_claimed"], seen["b_value"],
        after, c_got_in, seen.get("c_value"), final,
    )


def assert_stage_set(t: Timeline) -> None:
    """Steps 1-3 happened as the scenario says, whichever module ran them."""
    assert t.a_claimed is True
    assert t.a_value is not None
    assert t.expired_before_b is True
    assert t.b_claimed is True
    assert t.b_value is not None


def assert_bug(t: Timeline) -> None:
    assert_stage_set(t)
    assert t.after_a_release is None  # A deleted B's claim
    assert t.c_got_in is True  # and C now runs beside B
    assert t.c_value is not None


def assert_safe(t: Timeline) -> None:
    assert_stage_set(t)
    assert t.b_value != t.a_value  # B's token is not A's, so A's release can tell them apart
    assert t.after_a_release == t.b_value  # A's release left B's claim alone
    assert t.c_got_in is False
    assert t.c_value is None
    assert t.final == t.b_value  # B still holds the key


# (a) a class-based lock: unsafe fix ----------------------------------------------


def test_class_lock_original_lets_c_in(tmp_path, redis_client, caplog):
    module = load(write_module(tmp_path, "original", CLASS_LOCK))
    timeline, _ = replay_class_lock(module, redis_client)
    assert_bug(timeline)
    assert timeline.b_value == b"1" and timeline.a_value == b"1"  # every worker stores the same value
    assert lost_lease_warnings(caplog, module) == []


def test_class_lock_safe_fix_leaves_it_alone(tmp_path):
    path = write_module(tmp_path, "original", CLASS_LOCK)
    result = run_cli(path, "--fix")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "LL001" in result.stdout
    assert "(unsafe)" in result.stdout  # the fix is offered, marked unsafe
    # LL001 (blind release) and LL002 (the constant "1" as token), both unsafe across methods.
    assert "2 hidden fixes can be enabled with `--unsafe-fixes`" in result.stdout
    assert "fixed" not in result.stdout
    assert path.read_text(encoding="utf-8") == CLASS_LOCK


def test_class_lock_unsafe_fix_keeps_c_out(tmp_path, redis_client, caplog):
    module = load(fixed_module(tmp_path, CLASS_LOCK, "--fix", "--unsafe-fixes"))
    timeline, b = replay_class_lock(module, redis_client)
    assert_safe(timeline)
    assert timeline.b_value.decode() in vars(b).values()  # the stored value is the token B's object keeps
    assert_reported_lost(caplog, module, "lease:nightly")
    # B's own release, on time, still works and reports nothing.
    b.release()
    assert redis_client.exists("lease:nightly") == 0
    assert len(lost_lease_warnings(caplog, module)) == 1


# (b) a function with a fresh token: safe fix -------------------------------------


def test_run_job_original_lets_c_in(tmp_path, redis_client, caplog):
    module = load(write_module(tmp_path, "original", RUN_JOB))
    timeline = replay_run_job(module, redis_client)
    assert_bug(timeline)
    assert timeline.final is None  # C, admitted, released on its way out
    assert lost_lease_warnings(caplog, module) == []


def test_run_job_safe_fix_keeps_c_out(tmp_path, redis_client, caplog):
    module = load(fixed_module(tmp_path, RUN_JOB, "--fix"))
    timeline = replay_run_job(module, redis_client)
    assert_safe(timeline)
    assert timeline.final == B_TOKEN.encode()
    assert_reported_lost(caplog, module, "job:nightly")
    # A run that finishes in time still releases its own claim, silently.
    assert module.run_job(redis_client, "daily", lambda: None, LONG_TTL_MS) is True
    assert redis_client.exists("job:daily") == 0
    assert len(lost_lease_warnings(caplog, module)) == 1


# (c) the asyncio variant of (b): safe fix ---------------------------------------


def test_async_run_job_original_lets_c_in(tmp_path, redis_client, redis_url, caplog):
    module = load(write_module(tmp_path, "original", ASYNC_RUN_JOB))
    timeline = asyncio.run(replay_async_run_job(module, redis_url))
    assert_bug(timeline)
    assert timeline.final is None
    assert lost_lease_warnings(caplog, module) == []


def test_async_run_job_safe_fix_keeps_c_out(tmp_path, redis_client, redis_url, caplog):
    module = load(fixed_module(tmp_path, ASYNC_RUN_JOB, "--fix"))
    timeline = asyncio.run(replay_async_run_job(module, redis_url))
    assert_safe(timeline)
    assert timeline.final == B_TOKEN.encode()
    assert_reported_lost(caplog, module, "job:nightly")
    assert redis_client.get("job:nightly") == B_TOKEN.encode()
