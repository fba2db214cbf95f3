"""Module functions for the SETNX/GETSET timestamp lock: a stale holder's expiry is parsed and taken over."""

# leaselint: no fix

import time

import redis

r = redis.Redis()


def acquire_lock(name, expire=30):
    key = f"lock:{name}"
    expires_at = time.time() + expire
    if r.setnx(key, expires_at):
        return True
    old = r.get(key)
    if old is not None and float(old) < time.time():
        return r.getset(key, expires_at) == old
    return False


def release_lock(name):
    r.delete(f"lock:{name}")
