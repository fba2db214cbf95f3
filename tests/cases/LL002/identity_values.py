"""LL002 cases: a holder value made of an object's id() or the requesting user: the same for every attempt of that object or user;
and a readable identity (a host name, an owner), which the fix keeps in front of a fresh part."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A fresh token each claim.
    Valid(
        """\
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
    r = redis.Redis()


    def claim(feed):
        return bool(r.set(f"feed-lock:{feed}", f"worker-{secrets.token_hex(8)}", nx=True, ex=30))


    def release(feed):
        return r.eval(UNLOCK, 1, f"feed-lock:{feed}", f"worker-{secrets.token_hex(8)}") == 1
"""
    ),
    # A fresh token, with the user beside it.
    Valid(
        """\
    import secrets

    from django.core.cache import cache


    def start_edit(request, page_id):
        key = f"edit-lock:{page_id}"
        token = secrets.token_hex(16)
        if not cache.add(key, {"token": token, "user": request.user.id}, 300):
            return False
        request.session[key] = token
        return True


    def stop_edit(request, page_id):
        key = f"edit-lock:{page_id}"
        held = cache.get(key)
        if held and held["token"] == request.session.get(key):
            cache.delete(key)
"""
    ),
    Valid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job, owner=None):
            owner = uuid.uuid4().hex if owner is None else owner
            if not r.set(f"lock:{job}", owner, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, f"lock:{job}", owner):
                    raise LeaseLost(job)
            return True
    """
    ),
]

INVALID = [
    # id(r): the module client's id is one value for every claim of the process.
    Invalid(
        """\
    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
    r = redis.Redis()


    def claim(feed):
        return bool(r.set(f"feed-lock:{feed}", f"worker-{id(r)}", nx=True, ex=30))


    def release(feed):
        return r.eval(UNLOCK, 1, f"feed-lock:{feed}", f"worker-{id(r)}") == 1
""",
        line=8,
        column=44,
        fixed=None,
    ),
    # Every tab of one user stores the same id.
    Invalid(
        """\
    from django.core.cache import cache


    def start_edit(request, page_id):
        key = f"edit-lock:{page_id}"
        if not cache.add(key, request.user.id, 300):
            return False
        return True


    def stop_edit(request, page_id):
        key = f"edit-lock:{page_id}"
        if cache.get(key) == request.user.id:
            cache.delete(key)
""",
        line=6,
        column=27,
        fixed=None,
    ),
    Invalid(
        """\
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job, owner=None):
            owner = socket.gethostname() if owner is None else owner
            if not r.set(f"lock:{job}", owner, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, f"lock:{job}", owner):
                    raise LeaseLost(job)
            return True
    """,
        line=11,
        column=33,
        fixed="""\
        import secrets
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job, owner=None):
            owner = socket.gethostname() if owner is None else owner
            token = f"{owner}:{secrets.token_hex(8)}"
            if not r.set(f"lock:{job}", token, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, f"lock:{job}", token):
                    raise LeaseLost(job)
            return True
    """,
        message_contains="made when the caller passes no `owner`",
    ),
    # The host name inline: it stays in front of a fresh part, and the release compares that whole value.
    Invalid(
        """\
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            if not r.set(f"lock:{job}", socket.gethostname(), nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, f"lock:{job}", socket.gethostname()):
                    raise LeaseLost(job)
            return True
    """,
        line=10,
        column=33,
        fixed="""\
        import secrets
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            token = f"{socket.gethostname()}:{secrets.token_hex(8)}"
            if not r.set(f"lock:{job}", token, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, f"lock:{job}", token):
                    raise LeaseLost(job)
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    # A module-level host name: it stays in use, in front of the fresh part.
    Invalid(
        """\
        import socket

        import redis

        r = redis.Redis()
        HOSTNAME = socket.gethostname()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            key = f"lock:{job}"
            if not r.set(key, HOSTNAME, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, key, HOSTNAME):
                    raise LeaseLost(job)
            return True
    """,
        line=12,
        column=23,
        fixed="""\
        import secrets
        import socket

        import redis

        r = redis.Redis()
        HOSTNAME = socket.gethostname()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            key = f"lock:{job}"
            token = f"{HOSTNAME}:{secrets.token_hex(8)}"
            if not r.set(key, token, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, key, token):
                    raise LeaseLost(job)
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    # `self.owner` stays the host name (callers read it); the object holds its token apart, and a
    # release before any claim holds none and compares nothing.
    Invalid(
        """\
        import socket

        import redis

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Lease:
            def __init__(self, client, name):
                self.client = client
                self.key = f"lease:{name}"
                self.owner = socket.gethostname()

            def acquire(self):
                return bool(self.client.set(self.key, self.owner, nx=True, ex=60))

            def release(self):
                return self.client.eval(RELEASE, 1, self.key, self.owner)
    """,
        line=15,
        column=47,
        fixed="""\
        import secrets
        import socket

        import redis

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Lease:
            _lease_token = None

            def __init__(self, client, name):
                self.client = client
                self.key = f"lease:{name}"
                self.owner = socket.gethostname()

            def acquire(self):
                token = f"{self.owner}:{secrets.token_hex(8)}"
                claimed = bool(self.client.set(self.key, token, nx=True, ex=60))
                if claimed:
                    self._lease_token = token
                return claimed

            def release(self):
                return (self.client.eval(RELEASE, 1, self.key, self._lease_token) if self._lease_token is not None else 0)
    """,
        applicability=Applicability.UNSAFE,
    ),
    # A host name read with double quotes: the f-string takes single ones (Python 3.10 parses it).
    Invalid(
        """\
        import os

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            if not r.set(f"lock:{job}", os.environ["HOSTNAME"], nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, f"lock:{job}", os.environ["HOSTNAME"]):
                    raise LeaseLost(job)
            return True
    """,
        line=10,
        column=33,
        fixed="""\
        import os
        import secrets

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            token = f'{os.environ["HOSTNAME"]}:{secrets.token_hex(8)}'
            if not r.set(f"lock:{job}", token, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(RELEASE, 1, f"lock:{job}", token):
                    raise LeaseLost(job)
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    # The identity is also sent to a renewal: it stays the identity, so that renewal would never
    # match the fresh value; no fix.
    Invalid(
        """\
        import socket

        import redis

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        EXTEND = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) end return 0"


        class Lease:
            def __init__(self, client, name):
                self.client = client
                self.key = f"lease:{name}"
                self.owner = socket.gethostname()

            def acquire(self):
                return bool(self.client.set(self.key, self.owner, nx=True, ex=60))

            def extend(self):
                return self.client.eval(EXTEND, 1, self.key, self.owner, 60) == 1

            def release(self):
                return self.client.eval(RELEASE, 1, self.key, self.owner)
    """,
        line=16,
        column=47,
        fixed=None,
        message_contains="`owner` is also sent to the store at line 19",
    ),
]
