"""A module function that claims with a global client, runs the `work` callable, and releases in finally."""

import redis

r = redis.Redis()


def run_exclusive(name, work, ttl=60):
    key = f"lock:{name}"
    if not r.set(key, "1", nx=True, ex=ttl):
        return False
    try:
        work()
    finally:
        r.delete(key)
    return True
