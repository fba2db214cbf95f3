"""A lock class with read-only helpers locked() and remaining() that status endpoints call."""

import redis


class BackupLock:
    def __init__(self, client, name, ttl=3600):
        self.client = client
        self.key = f"backup:{name}:lock"
        self.ttl = ttl

    def acquire(self):
        if self.client.set(self.key, "backup", nx=True, ex=self.ttl):
            return True
        return False

    def release(self):
        self.client.delete(self.key)

    def locked(self):
        return self.client.exists(self.key) > 0

    def remaining(self):
        """Seconds until the lock lapses, or None when it is free."""
        left = self.client.ttl(self.key)
        return left if left >= 0 else None
