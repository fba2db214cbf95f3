"""A worker module with the lease mistakes leaselint finds.

Run `leaselint examples/jobs.py` to see them, `leaselint --diff examples/jobs.py`
for the safe fixes, and add `--unsafe-fixes` for the rest.
"""

import secrets

import redis

r = redis.Redis()


def rebuild_report(report_id):
    """Safe fix: the claim stores a fresh token that the release can reach."""
    token = secrets.token_hex(16)
    if not r.set(f"report:{report_id}:lock", token, nx=True, ex=60):
        return False
    try:
        build(report_id)
    finally:
        r.delete(f"report:{report_id}:lock")
    return True


class ImportLock:
    """Unsafe fix: the claim stores a constant, so a token must be made and carried."""

    def __init__(self, client, feed):
        self.client = client
        self.key = "import:%s" % feed

    def acquire(self):
        return self.client.set(self.key, "1", nx=True, px=30_000)

    def release(self):
        self.client.delete(self.key)


def cache_profile(user_id, profile):
    """Not a finding: a cache entry is not a lease."""
    r.set(f"profile:{user_id}", profile, ex=300)


def forget_profile(user_id):
    r.delete(f"profile:{user_id}")


def build(report_id):
    return report_id
