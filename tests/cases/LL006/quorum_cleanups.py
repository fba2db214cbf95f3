"""LL006 cases: a Redlock's releases through its own methods, a cleanup after too few claims, raw EVAL."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Redlock:
            def __init__(self, client):
                self.servers = [client]
                self.quorum = len(self.servers) // 2 + 1
                self.val = None

            def _lock_instance(self, server, resource, val, ttl_ms):
                return server.execute_command(f"SET {resource} {val} NX PX {ttl_ms}") == b"OK"

            def _unlock_instance(self, server, resource, val):
                return server.execute_command("EVAL", UNLOCK, 1, resource, val) == 1

            def lock(self, resource, ttl_ms):
                val = secrets.token_hex(16)
                n = 0
                for server in self.servers:
                    if self._lock_instance(server, resource, val, ttl_ms):
                        n += 1
                if n >= self.quorum:
                    self.val = val
                    return True
                # Too few: the claims that were made are cleaned up; no lease was held to lose.
                for server in self.servers:
                    try:
                        self._unlock_instance(server, resource, val)
                    except redis.RedisError:
                        pass
                return False

            def unlock(self, resource):
                released = 0
                for server in self.servers:
                    if self._unlock_instance(server, resource, self.val):
                        released += 1
                return released >= self.quorum
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Redlock:
            def __init__(self, client):
                self.servers = [client]
                self.quorum = len(self.servers) // 2 + 1
                self.val = None

            def _lock_instance(self, server, resource, val, ttl_ms):
                return server.execute_command(f"SET {resource} {val} NX PX {ttl_ms}") == b"OK"

            def _unlock_instance(self, server, resource, val):
                return server.execute_command("EVAL", UNLOCK, 1, resource, val) == 1

            def lock(self, resource, ttl_ms):
                val = secrets.token_hex(16)
                n = 0
                for server in self.servers:
                    if self._lock_instance(server, resource, val, ttl_ms):
                        n += 1
                if n >= self.quorum:
                    self.val = val
                    return True
                # Too few: the claims that were made are cleaned up; no lease was held to lose.
                for server in self.servers:
                    try:
                        self._unlock_instance(server, resource, val)
                    except redis.RedisError:
                        pass
                return False

            def unlock(self, resource):
                for server in self.servers:
                    self._unlock_instance(server, resource, self.val)
    """,
        line=39,
        column=13,
        fixed="""\
        import logging
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Redlock:
            def __init__(self, client):
                self.servers = [client]
                self.quorum = len(self.servers) // 2 + 1
                self.val = None

            def _lock_instance(self, server, resource, val, ttl_ms):
                return server.execute_command(f"SET {resource} {val} NX PX {ttl_ms}") == b"OK"

            def _unlock_instance(self, server, resource, val):
                return server.execute_command("EVAL", UNLOCK, 1, resource, val) == 1

            def lock(self, resource, ttl_ms):
                val = secrets.token_hex(16)
                n = 0
                for server in self.servers:
                    if self._lock_instance(server, resource, val, ttl_ms):
                        n += 1
                if n >= self.quorum:
                    self.val = val
                    return True
                # Too few: the claims that were made are cleaned up; no lease was held to lose.
                for server in self.servers:
                    try:
                        self._unlock_instance(server, resource, val)
                    except redis.RedisError:
                        pass
                return False

            def unlock(self, resource):
                for server in self.servers:
                    if not self._unlock_instance(server, resource, self.val):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            resource,
                        )
    """,
        applicability=Applicability.SAFE,
    ),
]
