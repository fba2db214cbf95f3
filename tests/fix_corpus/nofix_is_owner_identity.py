"""A lock whose is_owner() compares the stored value with self.owner: other code reads the identity."""

# leaselint: no fix

import redis


class OwnedLock:
    def __init__(self, client, name, owner, ttl=60):
        self.client = client
        self.key = f"lock:{name}"
        self.owner = owner
        self.ttl = ttl

    def acquire(self):
        return bool(self.client.set(self.key, self.owner, nx=True, ex=self.ttl))

    def is_owner(self):
        """True when this owner holds the lock; the admin tools compare owners the same way."""
        value = self.client.get(self.key)
        return value is not None and value.decode() == self.owner

    def release(self):
        if self.is_owner():
            self.client.delete(self.key)
            return True
        return False
