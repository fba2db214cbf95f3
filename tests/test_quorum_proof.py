"""LL006 on a real Redis for a Redlock whose release goes through its own method (`_unlock_instance`),
written with raw commands (`execute_command(f"SET ... NX PX ...")`, `execute_command("EVAL", ...)`).

The original and the fixed copy run the same timelines: a lease claimed and released in time; a claim
refused while another worker holds the key (the cleanup after too few claims is no finding, and the
fix leaves it alone); a lease lost mid-job (the key expired, worker B claimed it) and then released.
Both answer the same and leave the same keys; only the fixed copy says that the lease was lost.
"""

from __future__ import annotations

import logging
import textwrap
import time

from leaselint.rules import RULES_BY_CODE
from proof_support import fix_copy, load, lost_lease_warnings
import cases

CASE = textwrap.dedent(next(c.code for c in cases.invalid(RULES_BY_CODE["LL006"]) if "class Redlock" in c.code))


def _timelines(module, client) -> dict:
    found = {}
    lock = module.Redlock(client)
    found["in_time"] = [lock.lock("nightly", 10_000), lock.unlock("nightly"), client.exists("nightly")]
    client.set("nightly", "other", px=10_000)
    found["held"] = [module.Redlock(client).lock("nightly", 10_000), client.get("nightly")]
    client.delete("nightly")
    lock = module.Redlock(client)
    claimed = lock.lock("nightly", 100)
    time.sleep(0.3)  # A's deadline passes
    client.set("nightly", "b-token", nx=True, px=10_000)  # B claims it
    found["lost"] = [claimed, lock.unlock("nightly"), client.get("nightly")]
    client.delete("nightly")
    return found


def test_the_fixed_quorum_release_reports_the_lost_lease_and_changes_nothing_else(tmp_path, redis_client, caplog):
    fixed_path = fix_copy(tmp_path, CASE)
    assert "if not self._unlock_instance(server, resource, self.val):" in fixed_path.read_text(encoding="utf-8")
    original_path = tmp_path / "original.py"
    original_path.write_text(CASE, encoding="utf-8")
    results = []
    for path in (original_path, fixed_path):
        module = load(path)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            found = _timelines(module, redis_client)
        results.append((found, [r.getMessage() for r in lost_lease_warnings(caplog, module)]))
    (before, before_log), (after, after_log) = results
    assert before == after == {
        "in_time": [True, None, 0],
        "held": [False, b"other"],
        "lost": [True, None, b"b-token"],
    }
    assert before_log == []
    assert after_log == ["lease nightly expired before release; another worker may hold it"]
