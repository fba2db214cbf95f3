"""LL004 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import redis

        r = redis.Redis()


        def still_mine(key, token):
            return r.get(key) == token


        def acquire(key, token):
            if r.set(key, token, nx=True, ex=30):
                r.delete(key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import logging

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            if not r.set(key, token, nx=True, px=30_000):
                return
            try:
                work(job)
            finally:
                if r.get(key) == token:
                    r.delete(key)
    """,
        line=17,
        column=13,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            if not r.set(key, token, nx=True, px=30_000):
                return
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    log.warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key, token):
            return r.set(key, token, nx=True, ex=30)


        def release(key, token):
            with r.pipeline() as pipe:
                pipe.watch(key)
                if pipe.get(key) == token:
                    pipe.delete(key)
                pipe.unwatch()
    """,
        line=14,
        column=13,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def acquire(key, token):
            return r.set(key, token, nx=True, ex=30)


        def release(key, token):
            with r.pipeline() as pipe:
                pipe.watch(key)
                if not pipe.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
                pipe.unwatch()
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key, token):
            return r.set(key, token, nx=True, ex=30)


        def release(key, token):
            old = r.getdel(key)
            if old != token:
                raise RuntimeError("lost the lease")
    """,
        line=11,
        column=11,
        message_contains="compare and delete in one server step (LL001's compare-and-delete))",
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def book(show, seat, pay):
            token = secrets.token_hex(16)
            if not r.hsetnx(f"seats:{show}", seat, token):
                return False
            try:
                pay(show, seat)
            finally:
                if r.hget(f"seats:{show}", seat) == token.encode():
                    r.hdel(f"seats:{show}", seat)
            return True
    """,
        line=16,
        column=13,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_HDEL_SCRIPT = (
            "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
            "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
        )

        r = redis.Redis()


        def book(show, seat, pay):
            token = secrets.token_hex(16)
            if not r.hsetnx(f"seats:{show}", seat, token):
                return False
            try:
                pay(show, seat)
            finally:
                if not r.eval(LEASE_HDEL_SCRIPT, 1, f"seats:{show}", seat, token.encode()):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"seats:{show}",
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def rebuild(index, run):
            key = "lock:rebuild:" + index
            token = secrets.token_hex(16)
            if not mc.add(key, token, 600):
                return
            try:
                run(index)
            finally:
                if mc.get(key) == token:
                    mc.delete(key)
    """,
        line=17,
        column=13,
        fixed="""\
        import logging
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def rebuild(index, run):
            key = "lock:rebuild:" + index
            token = secrets.token_hex(16)
            if not mc.add(key, token, 600):
                return
            try:
                run(index)
            finally:
                stored, cas_id = mc.gets(key)
                if stored not in (token, token.encode() if isinstance(token, str) else token) or not mc.delete(key, cas=cas_id):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]
