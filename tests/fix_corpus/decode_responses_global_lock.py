"""A lock class using a module-level client made with decode_responses=True, readers holder()/locked()."""

import redis

r = redis.Redis(host="localhost", decode_responses=True)


class SyncGuard:
    def __init__(self, name, owner, ttl=60):
        self.key = f"lock:{name}"
        self.owner = owner
        self.ttl = ttl

    def acquire(self):
        return bool(r.set(self.key, self.owner, nx=True, ex=self.ttl))

    def release(self):
        r.delete(self.key)

    def holder(self):
        """The owner string the status page prints."""
        return r.get(self.key)

    def locked(self):
        return r.exists(self.key) == 1
