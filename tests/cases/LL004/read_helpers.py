"""LL004 cases: the read made through the project's own helper (`cache_get(key)`, which hands back
`cache.get(key, default)`), compared in the client, then a delete."""

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
]
