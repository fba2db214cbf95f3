"""A claim function and a release function at module level, called together by a job."""

import redis

r = redis.Redis()


def acquire_lock(name, ttl=30):
    return r.set(f"lock:{name}", "1", nx=True, ex=ttl)


def release_lock(name):
    r.delete(f"lock:{name}")


def nightly():
    if not acquire_lock("nightly"):
        return False
    try:
        work()
    finally:
        release_lock("nightly")
    return True
