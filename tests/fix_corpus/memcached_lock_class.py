"""A lock class on pymemcache, as cache-backed apps write it: add() to claim, delete() to release."""

from pymemcache.client.base import Client


class CacheLock:
    def __init__(self, name, server=("127.0.0.1", 11211), ttl=30):
        self.client = Client(server, default_noreply=False)
        self.key = f"lock:{name}"
        self.ttl = ttl

    def acquire(self):
        return self.client.add(self.key, "1", expire=self.ttl)

    def release(self):
        self.client.delete(self.key)
