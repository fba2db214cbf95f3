"""LL004 cases: the read made through the project's own helper (`cache_get(key)`, which hands back
`cache.get(key, default)`), compared in the client, then a delete."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The helper's read is only tested for presence: no holder is compared.
    Valid(
        """\
        import uuid
        from contextlib import contextmanager

        from django.core.cache import cache


        def fetch(key, default=None):
            try:
                return cache.get(key, default)
            except Exception:
                return default


        @contextmanager
        def task_guard(name, ttl=300):
            key = f"guard:{name}"
            token = uuid.uuid4().hex
            got = cache.add(key, token, ttl)
            try:
                yield got
            finally:
                if got and fetch(key) is not None:
                    cache.delete(key)
    """
    ),
    # The helper reads and, on a bad entry, deletes in one call: its answer is compared after the
    # delete, not before it (the delete is blind, LL001's).
    Valid(
        """\
        import redis

        r = redis.Redis()


        def load(key, strict=True):
            if not strict:
                return r.get(key)
            raw = r.get(key)
            if raw is not None and not raw.startswith(b"v1:"):
                r.delete(key)
                return None
            return raw


        def take(key, ttl=30):
            while True:
                found = load(key)
                if found is None:
                    if r.set(key, b"BUSY", nx=True, ex=ttl):
                        return None
                elif found != b"BUSY":
                    return found
    """
    ),
    # The helper is called twice under one name: the compare is of the second call's value, which
    # comes after the delete the helper may make (LL001's).
    Valid(
        """\
        from django.core.cache import cache


        def current(slot):
            key = "slot:%s" % slot
            entry = cache.get(key)
            if not isinstance(entry, dict):
                cache.delete(key)
                return None
            return entry


        def reserve(slot, owner, ttl=60):
            mine = {"owner": owner}
            found = current(slot)
            if found is None and cache.add("slot:%s" % slot, mine, ttl):
                return True
            found = current(slot)
            return found == mine
    """
    ),
]

INVALID = [
    # Read through the helper, compared with the token, deleted in a second step.
    Invalid(
        """\
        import uuid
        from contextlib import contextmanager

        from django.core.cache import cache


        def fetch(key, default=None):
            try:
                return cache.get(key, default)
            except Exception:
                return default


        @contextmanager
        def task_guard(name, ttl=300):
            key = f"guard:{name}"
            token = uuid.uuid4().hex
            got = cache.add(key, token, ttl)
            try:
                yield got
            finally:
                if got and fetch(key) == token:
                    cache.delete(key)
    """,
        line=23,
        message_contains="(`fetch` then compare)",
    ),
    # A method of the lock class hands back the read of the object's own key.
    Invalid(
        """\
        import uuid

        import redis


        class ReportLock:
            def __init__(self, name, ttl=30):
                self.client = redis.Redis()
                self.key = "report-lock:" + name
                self.ttl = ttl
                self.token = None

            def holder(self):
                return self.client.get(self.key)

            def acquire(self):
                token = uuid.uuid4().hex.encode()
                if self.client.set(self.key, token, nx=True, ex=self.ttl):
                    self.token = token
                    return True
                return False

            def release(self):
                if self.holder() == self.token:
                    self.client.delete(self.key)
    """,
        line=25,
        message_contains="(`holder` then compare)",
        fixed="""\
        import logging
        import uuid

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class ReportLock:
            def __init__(self, name, ttl=30):
                self.client = redis.Redis()
                self.key = "report-lock:" + name
                self.ttl = ttl
                self.token = None

            def holder(self):
                return self.client.get(self.key)

            def acquire(self):
                token = uuid.uuid4().hex.encode()
                if self.client.set(self.key, token, nx=True, ex=self.ttl):
                    self.token = token
                    return True
                return False

            def release(self):
                if self.token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self.token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    # The helper hands back a field of the decoded value: still the read, compared in the client.
    Invalid(
        """\
        import json
        import uuid

        import redis

        r = redis.Redis()


        def holder_of(name):
            raw = r.get("job-lock:" + name)
            if raw is None:
                return None
            return json.loads(raw)["owner"]


        def acquire(name, ttl=30):
            token = uuid.uuid4().hex
            if r.set("job-lock:" + name, json.dumps({"owner": token}), nx=True, ex=ttl):
                return token
            return None


        def release(name, token):
            if holder_of(name) == token:
                r.delete("job-lock:" + name)
    """,
        line=25,
        message_contains="the read value is handed through `holder_of(...)` before the compare",
    ),
]
