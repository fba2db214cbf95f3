"""A lock class with acquire()/release() and __enter__/__exit__ on top, acquire() raising when busy."""

import socket

import redis


class LockNotAcquired(Exception):
    pass


class DistributedLock:
    def __init__(self, client, name, timeout=60):
        self.client = client
        self.key = f"lock:{name}"
        self.timeout = timeout
        self.value = socket.gethostname()

    def acquire(self):
        if not self.client.set(self.key, self.value, nx=True, ex=self.timeout):
            raise LockNotAcquired(self.key)
        return True

    def release(self):
        self.client.delete(self.key)

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.release()
