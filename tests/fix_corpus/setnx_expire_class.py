"""An old-style lock class: setnx then expire(key, self.ttl), released with a plain delete."""

import redis


class SetnxLock:
    def __init__(self, client, name, ttl=60):
        self.client = client
        self.key = f"lock:{name}"
        self.ttl = ttl

    def acquire(self):
        if self.client.setnx(self.key, "1"):
            self.client.expire(self.key, self.ttl)
            return True
        return False

    def release(self):
        self.client.delete(self.key)
