"""LL002 on a real Redis: a fixed holder token lets a stale release of one worker free its own later claim.

One worker (same host, same pid, so the same fixed token) claims, its claim
expires while the job stalls, the same worker claims again for the next run,
and the stale release of the first attempt still matches and deletes the
second claim, so another worker walks in. After `leaselint --fix` (the LL002
fix is safe here: claim and release are in one function) every attempt stores
its own token and the stale release deletes nothing.
"""

from __future__ import annotations

import importlib.util
import itertools
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

FIXED_TOKEN_JOB = textwrap.dedent(
    """\
    import socket

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    def run_job(client, name, work, ttl_ms):
        key = f"job:{name}"
        owner = socket.gethostname()
        if not client.set(key, owner, nx=True, px=ttl_ms):
            return False
        try:
            work()
        finally:
            client.eval(RELEASE, 1, key, owner)
        return True
    """
)
KEY = "job:nightly"
_numbers = itertools.count()


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"leaselint_fresh_{next(_numbers)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _replay(module, client) -> dict:
    """First attempt stalls past its deadline; the same worker's second attempt claims; the first releases."""
    second_claimed, second_may_finish = threading.Event(), threading.Event()
    seen: dict = {}

    def second_work():
        seen["second_value"] = client.get(KEY)
        second_claimed.set()
        second_may_finish.wait(10)

    def first_work():
        time.sleep(0.3)
        seen["expired"] = client.exists(KEY) == 0
        def second_attempt():
            seen["second"] = module.run_job(client, "nightly", second_work, 10_000)

        second = threading.Thread(target=second_attempt)
        second.start()
        assert second_claimed.wait(10)
        seen["thread"] = second

    seen["first"] = module.run_job(client, "nightly", first_work, 100)
    seen["after_stale_release"] = client.get(KEY)
    seen["other_worker_got_in"] = bool(client.set(KEY, "other", nx=True, px=10_000))
    second_may_finish.set()
    seen.pop("thread").join(10)
    return seen


def test_fixed_token_stale_release_frees_the_next_claim(tmp_path, redis_client):
    path = tmp_path / "jobs.py"
    path.write_text(FIXED_TOKEN_JOB, encoding="utf-8")
    seen = _replay(_load(path), redis_client)
    assert seen["first"] is True and seen["expired"] is True and seen["second"] is True
    # The stale release matched the second attempt's equal token and deleted its claim.
    assert seen["after_stale_release"] is None
    assert seen["other_worker_got_in"] is True


def test_after_fix_each_attempt_has_its_own_token(tmp_path, redis_client):
    path = tmp_path / "jobs.py"
    path.write_text(FIXED_TOKEN_JOB, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "leaselint", "--fix", "--select", "LL002", str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fixed = path.read_text(encoding="utf-8")
    # The host name stays readable in front of the fresh part.
    assert '    owner = f"{socket.gethostname()}:{secrets.token_hex(8)}"\n' in fixed
    assert fixed.startswith("import secrets\nimport socket\n")

    seen = _replay(_load(path), redis_client)
    assert seen["first"] is True and seen["expired"] is True and seen["second"] is True
    assert seen["second_value"].decode().startswith(f"{socket.gethostname()}:")
    # The stale release compared its own token and left the second attempt's claim alone.
    assert seen["after_stale_release"] == seen["second_value"]
    assert seen["other_worker_got_in"] is False
