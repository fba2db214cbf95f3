"""LL003 cases: the holder token a caller gives a lock object (`lock.acquire(token=...)`, python-redis-lock's `id=`)."""

from leaselint.rule import Invalid

VALID = [
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def sync(account):
            lock = r.lock(f"sync:{account}", timeout=30)
            if lock.acquire(token=uuid.uuid1().hex, blocking=False):
                try:
                    pull(account)
                finally:
                    lock.release()
    """,
        line=10,
        column=27,
        fixed=None,
        message_contains="comes from uuid1",
    ),
]
