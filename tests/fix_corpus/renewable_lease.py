"""A lease class with acquire(), renew() by expire, and release() by delete, storing the owner."""

import redis


class WorkerLease:
    def __init__(self, client, name, owner, ttl=30):
        self.client = client
        self.key = f"lease:{name}"
        self.owner = owner
        self.ttl = ttl

    def acquire(self):
        return bool(self.client.set(self.key, self.owner, nx=True, ex=self.ttl))

    def renew(self):
        return bool(self.client.expire(self.key, self.ttl))

    def release(self):
        self.client.delete(self.key)
