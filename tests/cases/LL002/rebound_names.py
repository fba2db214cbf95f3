"""LL002 cases: a token attribute set in `__init__` and again before the claim (bound more than once)."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import redis


        class Worker:
            def __init__(self):
                self.conn = redis.Redis()
                self.token = None

            def run(self, job):
                self.token = secrets.token_hex(16)
                if not self.conn.set(f"job:{job}", self.token, nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    self.conn.delete(f"job:{job}")
    """
    ),
    Valid(
        """\
        import redis


        class Worker:
            def __init__(self):
                self.conn = redis.Redis()
                self.token = None

            def run(self, job):
                self.token = "worker-1"
                if job.urgent:
                    self.token = make_token()
                if not self.conn.set(f"job:{job}", self.token, nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    self.conn.delete(f"job:{job}")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import redis


        class Worker:
            def __init__(self):
                self.conn = redis.Redis()
                self.token = None

            def run(self, job):
                self.token = "worker-1"
                if not self.conn.set(f"job:{job}", self.token, nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    self.conn.delete(f"job:{job}")
    """,
        line=11,
        column=44,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class Worker:
            def __init__(self):
                self.conn = redis.Redis()
                self.token = None

            def run(self, job):
                self.token = "worker-1"
                token = secrets.token_hex(16)
                if not self.conn.set(f"job:{job}", token, nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    if not self.conn.eval(LEASE_RELEASE_SCRIPT, 1, f"job:{job}", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"job:{job}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
]
