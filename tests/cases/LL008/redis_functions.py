"""LL008 cases: Redis-family clients in module functions."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import redis

        r = redis.Redis()


        def ensure_counter(name):
            r.set(f"counter:{name}", 0, nx=True)
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            acquired = r.set(f"lock:{job}", token, nx=True, ex=30)
            if not acquired:
                return
            work(job)
            r.delete(f"lock:{job}")
    """
    ),
    # Only a caller that asks not to wait (`blocking=False`) can get False: `__enter__` waits.
    Valid(
        """\
        import secrets
        import time

        import redis


        class JobLock:
            def __init__(self, client: redis.Redis, name):
                self.client = client
                self.key = f"job:{name}"
                self.token = None

            def acquire(self, blocking=True):
                token = secrets.token_hex(16)
                while not self.client.set(self.key, token, nx=True, ex=60):
                    if not blocking:
                        return False
                    time.sleep(0.1)
                self.token = token
                return True

            def release(self):
                if not self.client.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, self.key, self.token):
                    raise RuntimeError("lost")

            def __enter__(self):
                self.acquire()
                return self

            def __exit__(self, *exc):
                self.release()
    """
    ),
    # Only a patience the constructor was given leads to False, and `__enter__` asks for the held
    # token after the call.
    Valid(
        """\
        import secrets
        import time

        import redis


        class ReportLock:
            def __init__(self, client: redis.Redis, name, patience=None):
                self.client = client
                self.key = f"report:{name}"
                self.patience = patience
                self.held = None

            def acquire(self):
                token = secrets.token_hex(16)
                deadline = None if self.patience is None else time.monotonic() + self.patience
                while not self.client.set(self.key, token, nx=True, ex=30):
                    if deadline is not None and time.monotonic() > deadline:
                        return False
                    time.sleep(0.1)
                self.held = token
                return True

            def __enter__(self):
                self.acquire()
                if self.held is None:
                    raise RuntimeError("report lock not acquired")
                return self
    """
    ),
]

INVALID = [
    # `__enter__` enters whatever `acquire` answers, and `acquire` gives up after a while.
    Invalid(
        """\
        import secrets
        import time

        import redis


        class JobLock:
            def __init__(self, client: redis.Redis, name, wait=5.0):
                self.client = client
                self.key = f"job:{name}"
                self.wait = wait
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                give_up = time.monotonic() + self.wait
                while time.monotonic() < give_up:
                    if self.client.set(self.key, token, nx=True, ex=60):
                        self.token = token
                        return True
                    time.sleep(0.1)
                return False

            def release(self):
                self.client.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, self.key, self.token)

            def __enter__(self):
                self.acquire()
                return self

            def __exit__(self, *exc):
                self.release()
    """,
        line=28,
        column=9,
        message_contains="`acquire` can answer that it did not get the lease (line 22)",
    ),
]
