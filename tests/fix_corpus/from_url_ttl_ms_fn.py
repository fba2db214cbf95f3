"""A module function using redis.from_url, a millisecond lifetime, and a `fn` callable."""

import redis

store = redis.from_url("redis://localhost")


def with_lock(name, fn, ttl_ms=10_000):
    key = f"lock:{name}"
    got = store.set(key, "held", nx=True, px=ttl_ms)
    if not got:
        raise RuntimeError(f"{key} is held by another worker")
    try:
        return fn()
    finally:
        store.delete(key)
