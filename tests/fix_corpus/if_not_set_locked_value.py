"""A lock class whose acquire() is `if not client.set(...): return False`, storing "locked"."""

import logging

import redis

log = logging.getLogger(__name__)


class ImportLock:
    def __init__(self, conn, name, ttl=600):
        self.conn = conn
        self.key = f"import:{name}:lock"
        self.ttl = ttl

    def acquire(self):
        if not self.conn.set(self.key, "locked", nx=True, ex=self.ttl):
            log.info("import %s already running", self.key)
            return False
        return True

    def release(self):
        self.conn.delete(self.key)
        log.info("released %s", self.key)
