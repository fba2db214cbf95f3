"""A lock class comparing the stored constant before its delete: every holder stores the same "1"."""

import redis


class ThumbnailLock:
    def __init__(self, client, name, ttl=60):
        self.client = client
        self.key = f"thumb:{name}:lock"
        self.ttl = ttl

    def acquire(self):
        return bool(self.client.set(self.key, "1", nx=True, ex=self.ttl))

    def release(self):
        if self.client.get(self.key) == b"1":
            self.client.delete(self.key)
            return True
        return False
