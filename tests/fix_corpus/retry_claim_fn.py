"""A module function that retries its claim a few times with sleeps, runs `work`, and releases in finally."""

import time

import redis

r = redis.Redis()


def run_with_lock(name, work, ttl=60, attempts=5, delay=0.05):
    key = f"lock:{name}"
    for _ in range(attempts):
        if r.set(key, "1", nx=True, ex=ttl):
            break
        time.sleep(delay)
    else:
        return False
    try:
        work()
    finally:
        r.delete(key)
    return True
