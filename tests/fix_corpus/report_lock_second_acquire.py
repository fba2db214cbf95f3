"""A lock class whose held flag survives a failed second acquire(): release() still frees the claim."""

import redis


class ReportLock:
    def __init__(self, client, name, ttl=120):
        self.client = client
        self.key = f"lock:report:{name}"
        self.ttl = ttl
        self.held = False

    def acquire(self):
        ok = self.client.set(self.key, "1", nx=True, ex=self.ttl)
        if ok:
            self.held = True
        return bool(ok)

    def release(self):
        if not self.held:
            return False
        self.held = False
        return self.client.delete(self.key) == 1
