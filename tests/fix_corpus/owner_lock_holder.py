"""An edit lock storing a caller-supplied owner, with holder() for dashboards that show who holds it."""

import redis


class EditLock:
    def __init__(self, client, name, owner, ttl=90):
        self.client = client
        self.key = f"lock:edit:{name}"
        self.owner = owner
        self.ttl = ttl

    def acquire(self):
        return bool(self.client.set(self.key, self.owner, nx=True, ex=self.ttl))

    def release(self):
        self.client.delete(self.key)

    def holder(self):
        """Who holds the lock: the admin dashboard reads this value and shows it."""
        return self.client.get(self.key)
