"""Module-level acquire_lock(key, token)/release_lock(key, token): setnx then expire, a Lua release."""

# overlap: original keeps b

import redis

r = redis.Redis(decode_responses=True)

UNLOCK = """
if redis.call("get", KEYS[1]) == ARGV[1] then
    return redis.call("del", KEYS[1])
else
    return 0
end
"""


def acquire_lock(key, token, ttl=30):
    """True when the caller now holds `key` under `token`."""
    if r.setnx(key, token):
        r.expire(key, ttl)
        return True
    return False


def release_lock(key, token):
    return r.eval(UNLOCK, 1, key, token) == 1
