"""LL006 cases: a release helper of the module whose token-checked release is a lease there and
which hands its answer back (`return bool(result)`), called by code of the same module that throws
the answer away."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The caller logs a lost lease.
    Valid(
        """\
        import logging
        import uuid

        import redis

        r = redis.Redis()
        log = logging.getLogger(__name__)
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def take_report_lock(name, ttl=30):
            token = uuid.uuid4().hex
            if r.set(f"report-lock:{name}", token, nx=True, ex=ttl):
                return token
            return None


        def free_report_lock(name, token):
            result = r.eval(UNLOCK, 1, f"report-lock:{name}", token)
            return bool(result)


        def build_report(name):
            token = take_report_lock(name)
            if token is None:
                return False
            try:
                return True
            finally:
                if not free_report_lock(name, token):
                    log.warning("report lock %s was lost", name)
    """
    ),
]

INVALID = [
    # The caller's `finally` drops the answer.
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def take_report_lock(name, ttl=30):
            token = uuid.uuid4().hex
            if r.set(f"report-lock:{name}", token, nx=True, ex=ttl):
                return token
            return None


        def free_report_lock(name, token):
            result = r.eval(UNLOCK, 1, f"report-lock:{name}", token)
            return bool(result)


        def build_report(name):
            token = take_report_lock(name)
            if token is None:
                return False
            try:
                return True
            finally:
                free_report_lock(name, token)
    """,
        line=28,
        message_contains="by `free_report_lock` (line 17), which returns it, is thrown away",
        fixed="""\
        import logging
        import uuid

        import redis

        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def take_report_lock(name, ttl=30):
            token = uuid.uuid4().hex
            if r.set(f"report-lock:{name}", token, nx=True, ex=ttl):
                return token
            return None


        def free_report_lock(name, token):
            result = r.eval(UNLOCK, 1, f"report-lock:{name}", token)
            return bool(result)


        def build_report(name):
            token = take_report_lock(name)
            if token is None:
                return False
            try:
                return True
            finally:
                if not free_report_lock(name, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"report-lock:{name}",
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]
