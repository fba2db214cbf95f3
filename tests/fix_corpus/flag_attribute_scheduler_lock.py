"""A scheduler's lock whose claim answer goes to a flag attribute, checked before the release."""

import time

import redis


class PeriodicScheduler:
    def __init__(self, connection, name, interval=60):
        self.connection = connection
        self.lock_key = f"scheduler:{name}:lock"
        self.interval = interval
        self._has_lock = False

    def acquire_lock(self):
        """True when this scheduler may enqueue the next round."""
        self._has_lock = self.connection.set(self.lock_key, time.time(), ex=self.interval + 10, nx=True)
        return self._has_lock

    def remove_lock(self):
        if self._has_lock:
            self.connection.delete(self.lock_key)
            self._has_lock = False
