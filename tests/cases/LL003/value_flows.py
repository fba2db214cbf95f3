"""LL003 cases: a weak value reached through the project's own helper or clock arithmetic."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def as_bytes(value):
            return value.encode()


        def claim(key):
            token = as_bytes(secrets.token_hex(16))
            if r.set(key, token, nx=True, ex=60):
                return token
            return None


        def release(key):
            r.delete(key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def as_bytes(value):
            return value.encode()


        def claim(key):
            token = as_bytes(uuid.uuid1().hex)
            if r.set(key, token, nx=True, ex=60):
                return token
            return None


        def release(key):
            r.delete(key)
    """,
        line=14,
        column=19,
        message_contains="uuid1",
    ),
    Invalid(
        """\
        import time

        import redis

        r = redis.Redis()


        def hold(name, timeout=30):
            if r.set(f"lock:{name}", time.time() + timeout, nx=True, ex=timeout):
                return True
            return False


        def release(name):
            r.delete(f"lock:{name}")
    """,
        line=9,
        column=30,
        message_contains="time.time()",
        fixed="""\
        import logging
        import secrets
        import time

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def hold(name, timeout=30):
            token = secrets.token_hex(16)
            if r.set(f"lock:{name}", token, nx=True, ex=timeout):
                return token
            return None


        def release(name, token):
            if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{name}", token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it",
                    f"lock:{name}",
                )
    """,
        applicability=Applicability.UNSAFE,
    ),
]
