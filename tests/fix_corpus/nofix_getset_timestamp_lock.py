"""The SETNX/GETSET recipe: the value is an expiry timestamp contenders parse to take over a dead holder."""

# leaselint: no fix

import time

import redis


class ExpiringLock:
    def __init__(self, client, name, expires=60, timeout=0.2):
        self.client = client
        self.key = f"lock:{name}"
        self.expires = expires
        self.timeout = timeout

    def acquire(self):
        waited = 0.0
        while waited <= self.timeout:
            deadline = time.time() + self.expires + 1
            if self.client.setnx(self.key, deadline):
                return True
            current = self.client.get(self.key)
            if current and float(current) < time.time():
                if self.client.getset(self.key, deadline) == current:
                    return True
            waited += 0.05
            time.sleep(0.05)
        return False

    def release(self):
        self.client.delete(self.key)
