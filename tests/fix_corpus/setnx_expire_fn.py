"""A module function using setnx then expire(key, ttl), calling the project's work(), releasing in finally."""

import redis

r = redis.Redis()


def nightly_cleanup(name, ttl=600):
    key = f"lock:{name}"
    if not r.setnx(key, "1"):
        return False
    r.expire(key, ttl)
    try:
        work()
    finally:
        r.delete(key)
    return True
