"""A lock class storing the claim time as its value (for logs), released by a plain delete."""

import time

import redis


class FeedLock:
    def __init__(self, client, name, ttl=120):
        self.client = client
        self.key = f"feed:{name}:lock"
        self.ttl = ttl

    def acquire(self):
        stamp = str(time.time())
        return bool(self.client.set(self.key, stamp, nx=True, ex=self.ttl))

    def release(self):
        self.client.delete(self.key)
