"""LL009's fix on a real Redis (redis-py, and Django's cache on its Redis backend): a free key is
claimed and a held one refused as before; a worker that claims between the read and the write keeps
its claim (the original wrote over it and ran too)."""

from __future__ import annotations

import textwrap

import redis

from proof_support import fix_copy, load, run_cli, write_module

SOURCE = textwrap.dedent(
    """\
    import secrets

    import redis

    r = redis.Redis()
    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


    def index_site(site, crawl):
        key = f"crawl:{site}:lock"
        if r.exists(key):
            return False
        token = secrets.token_hex(16)
        r.set(key, token, ex=600)
        try:
            crawl()
        finally:
            r.eval(RELEASE, 1, key, token)
        return True


    def render(day, build):
        key = f"render:{day}:lock"
        if r.get(key) is None:
            r.setex(key, 60, secrets.token_hex(16))
            build()
            r.expire(key, 5)  # kept a while, then let go
            return True
        return False


    def rerender(day):
        r.delete(f"render:{day}:lock")
    """
)


class _Contended:
    """The client, where worker B claims the key right before A's write reaches the server: after the
    original's read found the key free, and before the fixed code's one conditional create."""

    def __init__(self, client: redis.Redis, key: str) -> None:
        self._client = client
        self._key = key

    def __getattr__(self, name):
        method = getattr(self._client, name)
        if name not in ("set", "setex"):
            return method

        def write(key, *args, **kwargs):
            if key == self._key:
                self._client.set(key, "b-token", nx=True, ex=100)
            return method(key, *args, **kwargs)

        return write


def _modules(tmp_path):
    original = load(write_module(tmp_path, "original", SOURCE))
    path = fix_copy(tmp_path, SOURCE, "--fix", "--select", "LL009", clean=False)
    again = run_cli(path, "--select", "LL009")
    assert again.returncode == 0 and again.stdout.strip() == "All checks passed!", again.stdout
    return original, load(path)


def test_fix_is_the_conditional_create(tmp_path):
    _, fixed = _modules(tmp_path)
    text = (tmp_path / "fixed.py").read_text()
    assert "if not r.set(key, token, ex=600, nx=True):\n        return False\n" in text
    assert "if r.set(key, secrets.token_hex(16), nx=True, ex=60):\n        build()" in text
    assert "r.setex(" not in text and fixed is not None


def test_ordinary_use_is_unchanged(tmp_path, redis_client, redis_url):
    for module in _modules(tmp_path):
        module.r = redis.Redis.from_url(redis_url)
        ran = []
        assert module.index_site("a", lambda: ran.append("crawl")) is True
        assert redis_client.exists("crawl:a:lock") == 0  # released
        redis_client.set("crawl:a:lock", "other", ex=100)
        assert module.index_site("a", lambda: ran.append("again")) is False
        assert module.render(1, lambda: ran.append("build")) is True
        assert 0 < redis_client.ttl("render:1:lock") <= 5
        assert module.render(1, lambda: ran.append("twice")) is False
        assert ran == ["crawl", "build"]
        redis_client.flushall()


def test_a_claim_before_the_write_is_kept(tmp_path, redis_client, redis_url):
    original, fixed = _modules(tmp_path)
    outcomes = {}
    for label, module in (("original", original), ("fixed", fixed)):
        outcomes[label] = []
        for key, call in (
            ("crawl:b:lock", lambda m: m.index_site("b", lambda: None)),
            ("render:2:lock", lambda m: m.render(2, lambda: None)),
        ):
            module.r = _Contended(redis.Redis.from_url(redis_url), key)
            answer = call(module)
            outcomes[label].append((answer, redis_client.get(key)))
            redis_client.flushall()
    # The original runs the job beside B: it wrote over B's claim (and its release then freed it).
    assert [answer for answer, _ in outcomes["original"]] == [True, True]
    assert outcomes["original"][1][1] != b"b-token"
    # The fixed code refuses, and B's claim stays.
    assert outcomes["fixed"] == [(False, b"b-token"), (False, b"b-token")]


# Django's cache on the real Redis (Django's own RedisCache backend): `cache.get` then `cache.set`
# becomes `cache.add`.
DJANGO = textwrap.dedent(
    """\
    import uuid

    from django.core.cache import cache


    class CronLock:
        def __init__(self, name, timeout=3600):
            self.key = f"cron-lock:{name}"
            self.timeout = timeout

        def lock(self):
            if cache.get(self.key) is None:
                cache.set(self.key, uuid.uuid4().hex, self.timeout)
                return True
            return False

        def release(self):
            cache.delete(self.key)
    """
)


class _ContendedCache:
    """Django's cache, where worker B claims the key right before A's write."""

    def __init__(self, cache, key: str) -> None:
        self._cache = cache
        self._key = key

    def __getattr__(self, name):
        method = getattr(self._cache, name)
        if name not in ("set", "add"):
            return method

        def write(key, *args, **kwargs):
            if key == self._key:
                self._cache.add(key, "b-token", 100)
            return method(key, *args, **kwargs)

        return write


def _django_cache(redis_url):
    import django
    from django.conf import settings

    if not settings.configured:
        settings.configure(
            CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url}}
        )
        django.setup()
    assert settings.CACHES["default"]["LOCATION"] == redis_url
    from django.core.cache import cache

    return cache


def test_django_cache_fix_on_redis(tmp_path, redis_client, redis_url):
    cache = _django_cache(redis_url)
    original = load(write_module(tmp_path, "original", DJANGO))
    path = fix_copy(tmp_path, DJANGO, "--fix", "--select", "LL009", clean=False)
    assert "if cache.add(self.key, uuid.uuid4().hex, self.timeout):\n            return True" in path.read_text()
    fixed = load(path)
    for module in (original, fixed):
        lock = module.CronLock("nightly", timeout=30)
        assert lock.lock() is True
        assert 0 < redis_client.ttl(cache.make_key(lock.key)) <= 30
        assert lock.lock() is False  # held
        lock.release()
        assert lock.lock() is True
        lock.release()
        cache.clear()
    answers = {}
    for label, module in (("original", original), ("fixed", fixed)):
        lock = module.CronLock("nightly", timeout=30)
        module.cache = _ContendedCache(cache, lock.key)
        answers[label] = (lock.lock(), cache.get(lock.key))
        cache.clear()
    assert answers["original"][0] is True and answers["original"][1] != "b-token"  # wrote over B
    assert answers["fixed"] == (False, "b-token")
