"""A task-queue handler that claims a job, calls the project's own process(job), and releases in finally."""

import os
import socket

import redis

conn = redis.StrictRedis(host="localhost", port=6379, db=0)

LOCK_TTL = 300


def handle(job):
    lock_key = f"job:{job}:lock"
    holder = f"{socket.gethostname()}:{os.getpid()}"
    if not conn.set(lock_key, holder, nx=True, ex=LOCK_TTL):
        return "skipped"
    try:
        process(job)
        return "done"
    finally:
        conn.delete(lock_key)
