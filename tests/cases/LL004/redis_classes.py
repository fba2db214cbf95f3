"""LL004 cases: Redis-family clients in classes."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid

VALID = []

INVALID = [
    Invalid(
        """\
        import redis


        class Lock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"lock:{name}"
                self.token = None

            def acquire(self, token):
                self.token = token
                return self.client.set(self.key, token, nx=True, ex=30)

            def release(self):
                current = self.client.get(self.key)
                if current is None or current.decode() != self.token:
                    return False
                self.client.delete(self.key)
                return True
    """,
        line=18,
        column=9,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class Lock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"lock:{name}"
                self.token = None

            def acquire(self, token):
                self.token = token
                return self.client.set(self.key, token, nx=True, ex=30)

            def release(self):
                current = self.client.get(self.key)
                if current is None or current.decode() != self.token:
                    return False
                if not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self.token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
                return True
    """,
        applicability=Applicability.SAFE,
    ),
    # A compare through a decoder is a client-side check too; the server would see other bytes.
    Invalid(
        """\
        import os
        import pickle
        import socket

        import redis


        class HostLock:
            def __init__(self, client: redis.Redis, name):
                self.client = client
                self.name = f"host-lock:{name}"

            def acquire(self, owner=None):
                owner = owner or self.default_owner()
                return bool(self.client.set(self.name, pickle.dumps(owner), nx=True, ex=60))

            def release(self, owner=None):
                owner = owner or self.default_owner()
                stored = self.client.get(self.name)
                if stored is not None and pickle.loads(stored) == owner:
                    self.client.delete(self.name)
                    return True
                return False

            @staticmethod
            def default_owner():
                return f"{socket.gethostname()}:{os.getpid()}"
    """,
        line=21,
        column=13,
        message_contains='(no automatic fix: the stored value is compared after `pickle.loads(...)`',
    ),
    # The claim is made by a function inside the method (retried), on another object's client.
    Invalid(
        """\
        class LeaseHandle:
            def __init__(self, owner, name, ttl):
                self.owner = owner
                self.name = name
                self.ttl = ttl

            def acquire(self, attempts=3):
                def attempt():
                    return self.owner.backend.add(self.name, self.owner.member, self.ttl)

                for _ in range(attempts):
                    if attempt():
                        return True
                return False

            def release(self):
                if self.owner.backend.get(self.name) == self.owner.member:
                    self.owner.backend.delete(self.name)
                    return True
                return False
    """,
        line=18,
        column=13,
    ),
]
