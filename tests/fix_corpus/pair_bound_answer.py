"""Claim and release helpers for an export job; the job binds the claim's answer and releases in finally."""

import socket

import redis

r = redis.Redis()


def lock_export(name, ttl=120):
    return bool(r.set(f"export:{name}:lock", socket.gethostname(), nx=True, ex=ttl))


def unlock_export(name):
    r.delete(f"export:{name}:lock")


def export(name, work):
    acquired = lock_export(name)
    if not acquired:
        return "busy"
    try:
        work()
    finally:
        unlock_export(name)
    return "done"
