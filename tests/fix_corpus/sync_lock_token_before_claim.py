"""A sync lock that assigns its token attribute in acquire() before the claim is known to succeed."""

import uuid

import redis


class SyncLock:
    def __init__(self, client, name, timeout=300):
        self.client = client
        self.key = f"sync:{name}:lock"
        self.timeout = timeout
        self.token = None

    def acquire(self):
        self.token = uuid.uuid4().hex
        ok = self.client.set(self.key, self.token, nx=True, ex=self.timeout)
        return bool(ok)

    def release(self):
        self.client.delete(self.key)
