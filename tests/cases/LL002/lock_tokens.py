"""LL002 cases: the holder token a caller gives a lock object (`lock.acquire(token=...)`, python-redis-lock's `id=`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import secrets
        import uuid

        import redis
        import redis_lock

        r = redis.Redis()


        def sync(account):
            lock = r.lock(f"sync:{account}", timeout=30)
            if lock.acquire(token=secrets.token_hex(16), blocking=False):
                try:
                    pull(account)
                finally:
                    lock.release()


        def refresh(name):
            lock = redis_lock.Lock(r, f"refresh:{name}", expire=60, id=str(uuid.uuid4()))
            if lock.acquire(blocking=False):
                try:
                    work(name)
                finally:
                    lock.release()
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import os
        import socket

        import redis

        r = redis.Redis()


        class RunnerConfig:
            def __init__(self, prefix):
                self.value = "%s-%s-%d" % (prefix, socket.getfqdn(), os.getpid())


        class Runner:
            def __init__(self, config: RunnerConfig):
                self.config = config
                self.lock = r.lock("runner", timeout=30)

            def run(self):
                if self.lock.acquire(token=self.config.value, blocking=True):
                    try:
                        work()
                    finally:
                        self.lock.release()
    """,
        line=20,
        column=36,
        fixed=None,
        message_contains="comes from `RunnerConfig.value`, made once per `RunnerConfig` object",
    ),
    Invalid(
        """\
        import socket

        import redis
        import redis_lock

        conn = redis.Redis()


        def refresh(name):
            lock = redis_lock.Lock(conn, f"refresh:{name}", expire=60, id=socket.gethostname())
            if lock.acquire(blocking=False):
                try:
                    work(name)
                finally:
                    lock.release()
    """,
        line=10,
        column=67,
        fixed=None,
        message_contains="comes from the host name",
    ),
]
