"""A lock class that releases with unlink() and stores an id made once in __init__ from the worker."""

import os

import redis


class SnapshotLock:
    def __init__(self, connection, name, worker_id, ttl=60):
        self.connection = connection
        self.key = f"snapshot:{name}:lock"
        self.ttl = ttl
        self.ident = f"{worker_id}:{os.getpid()}"

    def acquire(self):
        return bool(self.connection.set(self.key, self.ident, nx=True, ex=self.ttl))

    def release(self):
        return self.connection.unlink(self.key)
