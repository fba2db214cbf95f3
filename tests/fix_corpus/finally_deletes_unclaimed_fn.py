"""A handler whose finally deletes the key even when its own claim failed: it frees the other worker's."""

import redis

r = redis.Redis()


def sync_account(name, work, ttl=60):
    key = f"lock:sync:{name}"
    acquired = r.set(key, "1", nx=True, ex=ttl)
    try:
        if not acquired:
            return "busy"
        work()
        return "synced"
    finally:
        r.delete(key)
