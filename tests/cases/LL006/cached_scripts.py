"""LL006 cases: a release script object cached and made again when missing (a name bound twice)."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class ReportLock:
            _scripts = {}

            def __init__(self, client, name):
                self.client = client
                self.key = f"report-lock:{name}"
                self.token = None

            def __enter__(self):
                token = secrets.token_hex(16)
                if not self.client.set(self.key, token, nx=True, ex=30):
                    raise Busy(self.key)
                self.token = token
                return self

            def __exit__(self, *exc):
                script = self._scripts.get("unlock")
                if script is None:
                    script = self.client.register_script(UNLOCK)
                    self._scripts["unlock"] = script
                if not script(keys=[self.key], args=[self.token]):
                    raise LeaseLost(self.key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class ReportLock:
            _scripts = {}

            def __init__(self, client, name):
                self.client = client
                self.key = f"report-lock:{name}"
                self.token = None

            def __enter__(self):
                token = secrets.token_hex(16)
                if not self.client.set(self.key, token, nx=True, ex=30):
                    raise Busy(self.key)
                self.token = token
                return self

            def __exit__(self, *exc):
                script = self._scripts.get("unlock")
                if script is None:
                    script = self.client.register_script(UNLOCK)
                    self._scripts["unlock"] = script
                script(keys=[self.key], args=[self.token])
    """,
        line=28,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class ReportLock:
            _scripts = {}

            def __init__(self, client, name):
                self.client = client
                self.key = f"report-lock:{name}"
                self.token = None

            def __enter__(self):
                token = secrets.token_hex(16)
                if not self.client.set(self.key, token, nx=True, ex=30):
                    raise Busy(self.key)
                self.token = token
                return self

            def __exit__(self, *exc):
                script = self._scripts.get("unlock")
                if script is None:
                    script = self.client.register_script(UNLOCK)
                    self._scripts["unlock"] = script
                if not script(keys=[self.key], args=[self.token]):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]
