"""A context manager guarding a cron job, raising on a busy lock; used in `with` blocks one after another."""

import redis


class JobBusy(Exception):
    pass


class CronGuard:
    def __init__(self, client, name, ttl=300):
        self.client = client
        self.key = f"cron:{name}:lock"
        self.ttl = ttl

    def __enter__(self):
        if not self.client.set(self.key, "1", nx=True, ex=self.ttl):
            raise JobBusy(self.key)
        return self

    def __exit__(self, *exc):
        self.client.delete(self.key)
        return False
