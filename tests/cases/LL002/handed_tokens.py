"""LL002 cases: a claim whose key and token are handed together to a release leaselint cannot read
(a method of an object of unknown class): the release compares that token."""

from leaselint.rule import Invalid, Valid

VALID = [
    # Calls that only look like releases: a member's removal, and a cache's delete by version.
    Valid(
        """\
        # no rule reports this
        import socket

        import redis

        r = redis.Redis()
        HOST = socket.gethostname()


        def announce(job, registry):
            key = f"announce:{job}"
            if r.set(key, HOST, nx=True, ex=60):
                registry.remove_member(key, HOST)
                registry.add_member(key, HOST)


        class Marks:
            def __init__(self, backend):
                self.r = redis.Redis()
                self.backend = backend
                self.version = 3

            def mark(self, key):
                return self.r.set(key, self.version, nx=True, ex=3600)

            def drop(self, key):
                self.backend.delete(key, self.version)
    """
    ),
    # A token made fresh for the attempt, handed on with its key.
    Valid(
        """\
        # no rule reports this
        import secrets

        import redis

        r = redis.Redis()


        def publish(issue, releaser):
            key = f"publish:{issue}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=120):
                return
            try:
                send(issue)
            finally:
                releaser.release(key, token)
    """
    ),
    # The fixed value goes to a call of no release: a notice, not a holder check.
    Valid(
        """\
        # no rule reports this
        import socket

        import redis

        r = redis.Redis()
        HOST = socket.gethostname()


        def publish(issue, audit):
            key = f"publish:{issue}"
            if not r.set(key, HOST, nx=True, ex=120):
                return
            audit.record(key, HOST)
            send(issue)
    """
    ),
]

INVALID = [
    # The host name, made once per process, handed to the release with the key.
    Invalid(
        """\
        import socket

        import redis

        r = redis.Redis()
        HOST = socket.gethostname()


        def publish(issue, releaser):
            key = f"publish:{issue}"
            if not r.set(key, HOST, nx=True, ex=120):
                return
            try:
                send(issue)
            finally:
                releaser.release(key, HOST)
    """,
        line=11,
        column=23,
        fixed=None,
        message_contains="comes from a module-level value made once per process: every claim attempt stores the same value, so a stale release matches a later claim (no automatic fix: its release is out of sight)",
    ),
    # A value made once per instance, handed to another object's unlock in another method.
    Invalid(
        """\
        import os

        import redis


        class Exporter:
            def __init__(self, locks):
                self.locks = locks
                self.r = redis.Redis()
                self.owner = f"exporter-{os.getpid()}"

            def start(self, name):
                return self.r.set(f"export:{name}", self.owner, nx=True, ex=300)

            def finish(self, name):
                self.locks.unlock(f"export:{name}", self.owner)
    """,
        line=13,
        column=45,
        fixed=None,
        message_contains="comes from a value made once per instance in `__init__`",
    ),
]
