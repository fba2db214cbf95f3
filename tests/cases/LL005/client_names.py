"""LL005 cases: a lock made by a client whose name is a usual one behind an underscore (self._conn) or inside a longer name (redis_client)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The lock has a timeout.
    Valid(
        """\
    class Exporter:
        def __init__(self, conn):
            self._conn = conn

        def export(self, report):
            lock = self._conn.lock(f"export:{report}", timeout=120)
            if not lock.acquire(blocking=False):
                return False
            try:
                return True
            finally:
                lock.release()
"""
    ),
    # No store's client by its name: a file lock's object.
    Valid(
        """\
    import threading


    class Exporter:
        def __init__(self, files):
            self._files = files

        def export(self, report):
            lock = self._files.lock(f"export:{report}")
            if not lock.acquire(blocking=False):
                return False
            try:
                return True
            finally:
                lock.release()
"""
    ),
]

INVALID = [
    # self._conn.lock without a timeout.
    Invalid(
        """\
    class Exporter:
        def __init__(self, conn):
            self._conn = conn

        def export(self, report):
            lock = self._conn.lock(f"export:{report}")
            if not lock.acquire(blocking=False):
                return False
            try:
                return True
            finally:
                lock.release()
""",
        line=6,
        column=16,
        fixed=None,
    ),
    # self.redis_client.lock without a timeout.
    Invalid(
        """\
    class Exporter:
        def __init__(self, redis_client):
            self.redis_client = redis_client

        def export(self, report):
            lock = self.redis_client.lock(f"export:{report}")
            if not lock.acquire(blocking=False):
                return False
            try:
                return True
            finally:
                lock.release()
""",
        line=6,
        column=16,
        fixed=None,
    ),
]
