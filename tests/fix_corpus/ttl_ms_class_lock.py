"""A lock class with a millisecond lifetime (ttl_ms, px=) returning the delete count from release()."""

import redis


class PaymentLock:
    def __init__(self, client, name, ttl_ms=5000):
        self.client = client
        self.key = f"lock:payment:{name}"
        self.ttl_ms = ttl_ms

    def acquire(self):
        return bool(self.client.set(self.key, b"1", nx=True, px=self.ttl_ms))

    def release(self):
        """Number of keys removed: 1 when the lock was held, 0 otherwise."""
        return self.client.delete(self.key)
