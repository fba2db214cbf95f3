"""A lock class taking redis_client and a prefix default, holding a flag and returning bools."""

import redis


class ResourceLock:
    def __init__(self, redis_client, name, timeout=60, prefix="lock"):
        self.redis_client = redis_client
        self.key = f"{prefix}:{name}"
        self.timeout = timeout
        self._locked = False

    def acquire(self):
        ok = self.redis_client.set(self.key, "1", nx=True, ex=self.timeout)
        self._locked = bool(ok)
        return self._locked

    def release(self):
        if not self._locked:
            return False
        self.redis_client.delete(self.key)
        self._locked = False
        return True
