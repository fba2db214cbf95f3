"""A lock class making its client with redis.from_url from a url default, storing "1"."""

import redis


class QuotaLock:
    def __init__(self, name, ttl=10, url="redis://localhost:6379/0"):
        self.client = redis.from_url(url)
        self.key = f"quota:{name}:lock"
        self.ttl = ttl

    def acquire(self):
        acquired = self.client.set(self.key, "1", nx=True, ex=self.ttl)
        return bool(acquired)

    def release(self):
        deleted = self.client.delete(self.key)
        return deleted == 1
