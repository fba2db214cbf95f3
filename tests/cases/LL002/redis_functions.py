"""LL002 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import redis

        r = redis.Redis()


        def mark_seen(event_id):
            return r.set(f"seen:{event_id}", "1", nx=True, ex=86400)
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                work(job)
                r.delete(f"lock:{job}")
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


        def worker_id():
            return f"{socket.gethostname()}:{os.getpid()}"


        def publish(feed):
            key = f"publish:{feed}"
            if not r.set(key, worker_id(), nx=True, ex=120):
                return False
            try:
                send(feed)
            finally:
                r.delete(key)
            return True
    """,
        line=15,
        column=23,
        fixed="""\
        import logging
        import os
        import secrets
        import socket

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def worker_id():
            return f"{socket.gethostname()}:{os.getpid()}"


        def publish(feed):
            key = f"publish:{feed}"
            token = f"{worker_id()}:{secrets.token_hex(8)}"
            if not r.set(key, token, nx=True, ex=120):
                return False
            try:
                send(feed)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    # The only delete runs after the claim failed: the fix has no release to hand a token to (a
    # compare with this attempt's token could never match there).
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key):
            if r.set(key, "1", nx=True, ex=30):
                return True
            else:
                r.delete(key)
            return False
    """,
        line=7,
        column=19,
        message_contains="no automatic fix: no release in reach holds the lease, as the delete runs after the claim failed",
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            if r.set(f"lock:{job}", "1", nx=True, ex=30):
                try:
                    work(job)
                finally:
                    r.delete(f"lock:{job}")
    """,
        line=7,
        column=29,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def run(job):
            token = secrets.token_hex(16)
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    work(job)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"lock:{job}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        WORKER_ID = uuid.uuid4().hex


        def run(job):
            key = f"lock:{job}"
            if not r.set(key, WORKER_ID, nx=True, ex=60):
                return
            try:
                work(job)
            finally:
                r.delete(key)
    """,
        line=11,
        column=23,
        fixed="""\
        import logging
        import secrets
        import uuid

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()
        WORKER_ID = uuid.uuid4().hex


        def run(job):
            key = f"lock:{job}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=60):
                return
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(name):
            return r.set(f"lock:{name}", name, nx=True, ex=30)


        def release(name):
            r.delete(f"lock:{name}")
    """,
        line=7,
        column=34,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def acquire(name):
            token = f"{name}:{secrets.token_hex(8)}"
            return token if r.set(f"lock:{name}", token, nx=True, ex=30) else None


        def release(name, token):
            if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{name}", token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it",
                    f"lock:{name}",
                )
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def enqueue(user):
            key = f"sync:{user}"
            pipe = r.pipeline()
            pipe.watch(key)
            if pipe.exists(key):
                pipe.reset()
                return False
            pipe.multi()
            pipe.set(key, "queued", ex=600)
            pipe.rpush("sync-queue", user)
            pipe.execute()
            return True


        def done(user):
            r.delete(f"sync:{user}")
    """,
        line=14,
        column=19,
        message_contains="(no automatic fix: the claim is a WATCH/MULTI transaction",
    ),
]
