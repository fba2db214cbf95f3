"""LL001 cases: Django and Flask caches."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        from django.core.cache import cache


        def forget(user_id):
            cache.delete(f"profile:{user_id}")
    """
    ),
    # A cache's own tests assert what `add` answers: they test the store, not a lease.
    Valid(
        """\
        from django.core.cache import cache
        from django.test import SimpleTestCase


        class BaseCacheTests(SimpleTestCase):
            def test_add_refuses_a_held_key(self):
                self.assertIs(cache.add("addkey1", "value"), True)
                self.assertIs(cache.add("addkey1", "newvalue"), False)
                cache.delete("addkey1")
    """
    ),
    # A client made by another family's module (cachelib) is that family's, whatever its name: its
    # calls are not redis-py's, and no redis-py fix (`eval`) is written for it.
    Valid(
        """\
        # no rule reports this
        import secrets

        from cachelib import RedisCache

        cache = RedisCache()


        def run(job):
            token = secrets.token_hex(16)
            if cache.set(f"lock:{job}", token, nx=True):
                try:
                    work(job)
                finally:
                    cache.delete(f"lock:{job}")
    """
    ),
]

INVALID = [
    # django-redis's cache object: a Django cache, whatever its methods look like; no redis-py fix.
    Invalid(
        """\
        import secrets

        from django.core.cache import cache


        def run(job):
            token = secrets.token_hex(16)
            if cache.set(f"lock:{job}", token, timeout=30, nx=True):
                try:
                    work(job)
                finally:
                    cache.delete(f"lock:{job}")
    """,
        line=12,
        message_contains="the cache API has no compare-and-delete",
    ),
    Invalid(
        """\
        from django.core.cache import cache


        def run(job, token):
            if cache.add(f"lock:{job}", token, 60):
                try:
                    work(job)
                finally:
                    cache.delete(f"lock:{job}")
    """,
        line=9,
        column=13,
        message_contains='the cache API has no compare-and-delete',
    ),
    Invalid(
        """\
        from flask_caching import Cache

        cache = Cache()


        def run(job, token):
            if cache.add(f"lock:{job}", token, timeout=60):
                try:
                    work(job)
                finally:
                    cache.delete(f"lock:{job}")
    """,
        line=11,
        column=13,
        message_contains='the cache API has no compare-and-delete',
    ),
]
