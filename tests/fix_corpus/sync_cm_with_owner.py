"""A context manager for a web app's checkout step storing the worker name given to the constructor."""

import redis


class CheckoutBusy(Exception):
    pass


class CheckoutLock:
    def __init__(self, conn, name, worker, ttl=15):
        self.conn = conn
        self.key = f"checkout:{name}"
        self.worker = worker
        self.ttl = ttl

    def __enter__(self):
        if not self.conn.set(self.key, self.worker, nx=True, ex=self.ttl):
            raise CheckoutBusy(f"{self.key} held")
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.conn.delete(self.key)
