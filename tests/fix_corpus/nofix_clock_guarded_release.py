"""A timestamp lock whose release is guarded only by a local clock check against its own deadline."""

# leaselint: no fix

import time

import redis


class LockTimeout(Exception):
    pass


class ClockLock:
    def __init__(self, client, name, expires=30):
        self.client = client
        self.key = f"lock:{name}"
        self.expires = expires
        self.expires_at = 0.0

    def __enter__(self):
        expires_at = time.time() + self.expires + 1
        if self.client.setnx(self.key, expires_at):
            self.expires_at = expires_at
            return self
        current = self.client.get(self.key)
        if current and float(current) < time.time():
            if self.client.getset(self.key, expires_at) == current:
                self.expires_at = expires_at
                return self
        raise LockTimeout(self.key)

    def __exit__(self, *exc):
        # Only delete while our deadline stands: after it another holder may own the key.
        if time.time() < self.expires_at:
            self.client.delete(self.key)
