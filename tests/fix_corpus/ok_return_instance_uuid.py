"""A lock class whose acquire() is `ok = client.set(...); return ok`, with a uuid4 made once in __init__."""

import uuid

import redis


class ExportLock:
    def __init__(self, client, name, ttl=45):
        self.client = client
        self.key = f"lock:export:{name}"
        self.ttl = ttl
        self.value = str(uuid.uuid4())

    def acquire(self):
        ok = self.client.set(self.key, self.value, nx=True, ex=self.ttl)
        return ok

    def release(self):
        self.client.delete(self.key)
