"""LL006 cases: a project's own error for a lost lease (`LockLost`, `LeaseExpired`), swallowed around a release."""

from leaselint.rule import Invalid, Valid

VALID = [
    # Broad handlers around releases of no lease (a pool's connection, a thread lock).
    Valid(
        """\
        # no rule reports this
        import threading


        def with_connection(pool, fn):
            conn = pool.get()
            try:
                return fn(conn)
            finally:
                try:
                    pool.release(conn)
                except Exception:
                    pass


        def guarded(fn):
            lock = threading.Lock()
            lock.acquire()
            try:
                return fn()
            finally:
                try:
                    lock.release()
                except Exception:
                    pass
    """
    ),
    # The project's error is logged.
    Valid(
        """\
        import logging

        from billing.locks import InvoiceLock, LockLost

        log = logging.getLogger(__name__)


        def close_invoice(invoice):
            lock = InvoiceLock(invoice.id)
            if not lock.acquire():
                return
            try:
                finalize(invoice)
            finally:
                try:
                    lock.release()
                except LockLost:
                    log.warning("invoice %s closed after its lock expired", invoice.id)
    """
    ),
    # An error named for waiting, not for losing the lock.
    Valid(
        """\
        from billing.locks import InvoiceLock, LockTimeout


        def close_invoice(invoice):
            lock = InvoiceLock(invoice.id)
            if not lock.acquire():
                return
            try:
                finalize(invoice)
            finally:
                try:
                    lock.release()
                except LockTimeout:
                    pass
    """
    ),
]

INVALID = [
    # The module's lock class raises its own error when the checked release finds another holder.
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class LostLock(Exception):
            pass


        class ExportLock:
            def __init__(self, key):
                self.key = key
                self.token = None

            def acquire(self):
                self.token = uuid.uuid4().hex
                return r.set(self.key, self.token, nx=True, ex=30)

            def release(self):
                if not r.eval(RELEASE, 1, self.key, self.token):
                    raise LostLock(self.key)


        def export(batch):
            lock = ExportLock(f"export:{batch}")
            if lock.acquire():
                try:
                    write(batch)
                finally:
                    try:
                        lock.release()
                    except LostLock:
                        pass
    """,
        line=35,
        column=20,
        fixed="""\
        import logging
        import uuid

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class LostLock(Exception):
            pass


        class ExportLock:
            def __init__(self, key):
                self.key = key
                self.token = None

            def acquire(self):
                self.token = uuid.uuid4().hex
                return r.set(self.key, self.token, nx=True, ex=30)

            def release(self):
                if not r.eval(RELEASE, 1, self.key, self.token):
                    raise LostLock(self.key)


        def export(batch):
            lock = ExportLock(f"export:{batch}")
            if lock.acquire():
                try:
                    write(batch)
                finally:
                    try:
                        lock.release()
                    except LostLock as exc:
                        logging.getLogger(__name__).warning(
                            "lease lost before release: %s", exc
                        )
    """,
    ),
    # An imported error, named for an expired lease, dropped in `__exit__`.
    Invalid(
        """\
        from jobs.leases import Lease, LeaseExpiredError


        class Step:
            def __init__(self, name):
                self.lease = Lease(f"step:{name}", ttl=60)

            def __enter__(self):
                self.lease.acquire()
                return self

            def __exit__(self, *exc):
                try:
                    self.lease.release()
                except LeaseExpiredError:
                    pass
    """,
        line=15,
        column=16,
        fixed="""\
        import logging

        from jobs.leases import Lease, LeaseExpiredError


        class Step:
            def __init__(self, name):
                self.lease = Lease(f"step:{name}", ttl=60)

            def __enter__(self):
                self.lease.acquire()
                return self

            def __exit__(self, *exc):
                try:
                    self.lease.release()
                except LeaseExpiredError as exc:
                    logging.getLogger(__name__).warning("lease lost before release: %s", exc)
    """,
    ),
    # The project's error suppressed around the release of a handle.
    Invalid(
        """\
        from contextlib import suppress

        from fleet.locking import LockNotOwned, fleet_lock


        def drain(node):
            handle = fleet_lock.acquire(f"drain:{node}", ttl=120)
            try:
                evacuate(node)
            finally:
                with suppress(LockNotOwned):
                    fleet_lock.release(handle)
    """,
        line=11,
        column=14,
    ),
]
