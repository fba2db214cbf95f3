"""LL010 cases: Redis-family clients in classes."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A job's end that lets its marker run out instead of deleting it is a release, not a renewal.
    Valid(
        """\
        class Worker:
            def __init__(self, redis):
                self.redis = redis

            def start_job(self, job_id, token):
                return self.redis.set(f"in-progress:{job_id}", token, nx=True, px=60000)

            def finish_job(self, job_id, keep_ms):
                if keep_ms is None:
                    self.redis.delete(f"in-progress:{job_id}")
                else:
                    self.redis.pexpire(f"in-progress:{job_id}", keep_ms)
    """
    ),
]

INVALID = [
    # The object's token is replaced before a claim that may fail: a failed second acquire() would
    # leave a token the store never held, so no fix compares with it.
    Invalid(
        """\
        import secrets


        class Holder:
            def __init__(self, client, name):
                self.client = client
                self.name = name
                self.token = None

            def acquire(self):
                self.token = secrets.token_hex(16)
                return bool(self.client.set(self.name, self.token, nx=True, ex=30))

            def renew(self):
                self.client.expire(self.name, 30)

            def release(self):
                self.client.delete(self.name)
    """,
        line=15,
        column=9,
        message_contains='no automatic fix: the renewal cannot see the token this holder stored',
    ),
    # A scheduler's heartbeat renews every held lock on a pipeline.
    Invalid(
        """\
        import redis


        class Scheduler:
            def __init__(self, connection, name, interval=30):
                self.connection = connection
                self.name = name
                self.interval = interval
                self.held = []

            def acquire_locks(self, queues):
                for queue in queues:
                    if self.connection.set(f"scheduler-lock:{queue}", self.name, nx=True, ex=self.interval + 60):
                        self.held.append(queue)

            def heartbeat(self):
                with self.connection.pipeline() as pipe:
                    for queue in self.held:
                        pipe.expire(f"scheduler-lock:{queue}", self.interval + 60)
                    pipe.execute()

            def release_locks(self):
                for queue in self.held:
                    self.connection.delete(f"scheduler-lock:{queue}")
    """,
        line=19,
        column=17,
        message_contains='no automatic fix: the renewal is queued on a pipeline, whose execute() answers it',
    ),
    # A lock class over a cache client it is handed: the claim in a retried inner function, the
    # heartbeat in another method.
    Invalid(
        """\
        class CacheLock:
            def __init__(self, client, name, owner, timeout=30):
                self.client = client
                self.name = name
                self.owner = owner
                self.timeout = timeout

            def acquire(self, attempts=3):
                def _try():
                    return self.client.add(self.name, self.owner, self.timeout)

                return any(_try() for _ in range(attempts))

            def heartbeat(self):
                return bool(self.client.touch(self.name, self.timeout))

            def release(self):
                if self.client.get(self.name) == self.owner:
                    self.client.delete(self.name)
    """,
        line=15,
        column=21,
        message_contains='no automatic fix: the cache API has no compare-and-touch',
    ),
]
