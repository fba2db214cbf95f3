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
