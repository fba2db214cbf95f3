"""A lock class whose acquire() hands back itself (or None when busy), for `lock = Lock(...).acquire()`."""

import redis


class CacheFillLock:
    def __init__(self, client, name, timeout=20):
        self.client = client
        self.key = f"fill:{name}"
        self.timeout = timeout

    def acquire(self):
        if self.client.set(self.key, "filling", nx=True, ex=self.timeout):
            return self
        return None

    def release(self):
        self.client.delete(self.key)

    def filling(self):
        return self.client.get(self.key) is not None
