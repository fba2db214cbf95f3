"""A web app's page edit lock storing the editing user's identity, with holder() for the edit page banner."""

import redis


class PageEditLock:
    def __init__(self, conn, name, identity, ttl=300):
        self.conn = conn
        self.key = f"page:{name}:editor"
        self.identity = identity
        self.ttl = ttl

    def acquire(self):
        if not self.conn.set(self.key, self.identity, nx=True, ex=self.ttl):
            return False
        return True

    def release(self):
        return self.conn.delete(self.key) > 0

    def holder(self):
        """The user shown in the "being edited by" banner; the page template reads this value."""
        value = self.conn.get(self.key)
        return value.decode("utf-8") if value is not None else None
