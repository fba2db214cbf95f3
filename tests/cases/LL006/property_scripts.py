"""LL006 cases: release scripts made by a cached_property, and a claim script that reads the key and writes it when absent."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The answer is handed back.
    Valid(
        """\
    import secrets
    from functools import cached_property

    import redis

    CLAIM = "if redis.call('exists', KEYS[1]) == 0 then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0"
    FREE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class Lease:
        def __init__(self, name):
            self.client = redis.Redis()
            self.name = f"lease:{name}"
            self.token = None

        @cached_property
        def _claim(self):
            return self.client.register_script(CLAIM)

        @cached_property
        def _free(self):
            return self.client.register_script(FREE)

        def acquire(self):
            token = secrets.token_hex(16)
            if self._claim(keys=[self.name], args=[token, 30000]):
                self.token = token
                return True
            return False

        def release(self):
            return bool(self._free(keys=[self.name], args=[self.token]))
"""
    ),
]

INVALID = [
    # release drops the release script's answer.
    Invalid(
        """\
    import secrets
    from functools import cached_property

    import redis

    CLAIM = "if redis.call('exists', KEYS[1]) == 0 then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0"
    FREE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class Lease:
        def __init__(self, name):
            self.client = redis.Redis()
            self.name = f"lease:{name}"
            self.token = None

        @cached_property
        def _claim(self):
            return self.client.register_script(CLAIM)

        @cached_property
        def _free(self):
            return self.client.register_script(FREE)

        def acquire(self):
            token = secrets.token_hex(16)
            if self._claim(keys=[self.name], args=[token, 30000]):
                self.token = token
                return True
            return False

        def release(self):
            self._free(keys=[self.name], args=[self.token])
""",
        line=32,
        column=9,
        fixed="""\
    import logging
    import secrets
    from functools import cached_property

    import redis

    CLAIM = "if redis.call('exists', KEYS[1]) == 0 then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0"
    FREE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class Lease:
        def __init__(self, name):
            self.client = redis.Redis()
            self.name = f"lease:{name}"
            self.token = None

        @cached_property
        def _claim(self):
            return self.client.register_script(CLAIM)

        @cached_property
        def _free(self):
            return self.client.register_script(FREE)

        def acquire(self):
            token = secrets.token_hex(16)
            if self._claim(keys=[self.name], args=[token, 30000]):
                self.token = token
                return True
            return False

        def release(self):
            if not self._free(keys=[self.name], args=[self.token]):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", self.name
                )
""",
    ),
]
