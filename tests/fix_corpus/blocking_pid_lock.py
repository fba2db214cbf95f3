"""A blocking lock class: `while not client.set(...)` with a blocking_timeout default, storing the pid."""

import os
import time

import redis


class BlockingLock:
    def __init__(self, client, name, ttl=30, blocking_timeout=0.2):
        self.client = client
        self.key = f"lock:{name}"
        self.ttl = ttl
        self.blocking_timeout = blocking_timeout

    def acquire(self):
        deadline = time.monotonic() + self.blocking_timeout
        while not self.client.set(self.key, f"pid-{os.getpid()}", nx=True, ex=self.ttl):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def release(self):
        self.client.delete(self.key)
