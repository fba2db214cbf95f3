"""The run-time checker on real servers: a module of the project's own code runs against Redis,
Valkey, memcached or Django's cache; what the store received is read as leases, and the findings
must be exactly the lines marked `# expect: LLxxx` (none for a correct release)."""

from __future__ import annotations

import asyncio
import importlib.util
import itertools
import re
import sys
import textwrap
from pathlib import Path

import pytest

from leaselint.runtime import analyze, install, record

_EXPECT = re.compile(r"#\s*expect:\s*((?:LL\d{3}[ ,]*)+)")
_names = itertools.count()


def expected(source: str) -> list[tuple[str, int]]:
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        match = _EXPECT.search(line)
        if match:
            found.extend((code, number) for code in re.findall(r"LL\d{3}", match.group(1)))
    return sorted(found)


class Project:
    """A throwaway project root: modules written under it are the project's own code."""

    def __init__(self, root: Path) -> None:
        self.root = root
        install.install()
        self.recorder = record.start(str(root))

    def module(self, source: str, folder: str = "app"):
        source = textwrap.dedent(source).lstrip("\n")
        path = self.root / folder / f"mod_{next(_names)}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.SOURCE = source
        module.PATH = str(path)
        return module

    def findings(self, module=None) -> list[tuple[str, int]]:
        found = analyze.analyze(list(self.recorder.events))
        if module is not None:
            assert all(f.path == module.PATH for f in found), [(f.path, f.code) for f in found]
        return sorted((f.code, f.line) for f in found)

    def check(self, source: str, *args, call: str = "main", folder: str = "app"):
        module = self.module(source, folder)
        result = getattr(module, call)(*args)
        if asyncio.iscoroutine(result):
            asyncio.run(result)
        assert self.findings(module) == expected(module.SOURCE)
        return module


@pytest.fixture
def project(tmp_path):
    yield Project(tmp_path)
    record.stop()


# Each case: a module whose main(r) is run against a real Redis.
REDIS_CASES = {
    "blind delete": """
        import uuid

        def main(r):
            token = uuid.uuid4().hex
            if r.set("lock:a", token, nx=True, ex=30):
                r.delete("lock:a")  # expect: LL001
    """,
    "checked release in Lua": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = uuid.uuid4().hex
            if r.set("lock:a", token, nx=True, ex=30):
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "registered script, called through a helper": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        class Store:
            def __init__(self, r):
                self.r = r
                self.release_script = r.register_script(SCRIPT)

            def claim(self, key, token):
                return self.r.set(key, token, nx=True, px=5000)

            def release(self, key, token):
                return self.release_script(keys=[key], args=[token])

        def main(r):
            store = Store(r)
            token = uuid.uuid4().hex
            if store.claim("lock:a", token):
                store.release("lock:a", token)
    """,
    "blind delete through project helpers": """
        import uuid

        class Store:
            def __init__(self, r):
                self.r = r

            def claim(self, key):
                return self.r.set(key, uuid.uuid4().hex, nx=True, px=5000)

            def drop(self, key):
                self.r.delete(key)  # expect: LL001

        def main(r):
            store = Store(r)
            if store.claim("lock:a"):
                store.drop("lock:a")
    """,
    "redis-py Lock with a timeout": """
        def main(r):
            with r.lock("lock:a", timeout=5):
                pass
    """,
    "redis-py Lock without a timeout": """
        def main(r):
            with r.lock("lock:a"):  # expect: LL005
                pass
    """,
    "a plain claim that succeeds again on a lease the checker thinks open (a flush it did not see)": """
        def main(r):
            for attempt in range(2):
                if r.set("lock:a", "worker-1", nx=True, ex=30):  # expect: LL002
                    if attempt == 0:
                        r.execute_command("FLUSHDB")
                    else:
                        r.delete("lock:a")  # expect: LL001
    """,
    "a forced release by a function named for it": """
        import uuid

        def force_unlock(r, key):
            r.delete(key)

        def main(r):
            if r.set("lock:a", uuid.uuid4().hex, nx=True, ex=30):
                force_unlock(r, "lock:a")
    """,
    "WATCH, compare, MULTI/DEL/EXEC": """
        import uuid

        def main(r):
            token = uuid.uuid4().hex
            if r.set("lock:a", token, nx=True, ex=30):
                with r.pipeline() as pipe:
                    pipe.watch("lock:a")
                    if pipe.get("lock:a") == token.encode():
                        pipe.multi()
                        pipe.delete("lock:a")
                        pipe.execute()
    """,
    "transaction() helper with WATCH": """
        import uuid

        def main(r):
            token = uuid.uuid4().hex
            r.set("lock:a", token, nx=True, ex=30)

            def release(pipe):
                if pipe.get("lock:a") == token.encode():
                    pipe.multi()
                    pipe.delete("lock:a")

            r.transaction(release, "lock:a")
    """,
    "delete in a pipeline": """
        import uuid

        def main(r):
            if r.set("lock:a", uuid.uuid4().hex, nx=True, ex=30):
                pipe = r.pipeline()
                pipe.delete("lock:a")  # expect: LL001
                pipe.execute()
    """,
    "delete in a MULTI without WATCH": """
        import uuid

        def main(r):
            if r.set("lock:a", uuid.uuid4().hex, nx=True, ex=30):
                pipe = r.pipeline(transaction=True)
                pipe.get("lock:a")
                pipe.delete("lock:a")  # expect: LL001
                pipe.execute()
    """,
    "read, compare in the client, delete": """
        import uuid

        def main(r):
            token = uuid.uuid4().hex
            if r.set("lock:a", token, nx=True, ex=30):
                if r.get("lock:a") == token.encode():
                    r.delete("lock:a")  # expect: LL004
    """,
    "fixed value, claimed twice": """
        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            for _ in range(2):
                if r.set("lock:a", "1", nx=True, ex=30):  # expect: LL002
                    r.eval(SCRIPT, 1, "lock:a", "1")
    """,
    "a retry with the same token is one claim": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            r.set("lock:a", "someone else", px=50)
            token = uuid.uuid4().hex
            while not r.set("lock:a", token, nx=True, px=5000):
                pass
            r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "a refused claim in a retry loop is not a second claim": """
        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            import uuid
            r.set("lock:a", "someone else", px=30)
            token = uuid.uuid4().hex
            for _ in range(1000):
                if r.set("lock:a", token, nx=True, px=5000):
                    break
            r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "acquire-or-refresh script answering a refresh": """
        import secrets

        CLAIM = (
            "local held = redis.call('get', KEYS[1]) "
            "if not held then redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) return 1 end "
            "if held == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 2 end return 0"
        )
        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = secrets.token_hex(16)
            for _ in range(3):
                r.eval(CLAIM, 1, "lock:a", token, 5000)
            r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "the same fixed value through the acquire-or-refresh script, after a release": """
        CLAIM = (
            "local held = redis.call('get', KEYS[1]) "
            "if not held then redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) return 1 end "
            "if held == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 2 end return 0"
        )
        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            for _ in range(2):
                r.eval(CLAIM, 1, "lock:a", "worker", 5000)  # expect: LL002
                r.eval(SCRIPT, 1, "lock:a", "worker")
    """,
    "random hex of a UUID's length is no version-1 UUID": """
        import secrets

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            for _ in range(200):
                token = secrets.token_hex(16) + ":" + secrets.token_hex(18)
                if r.set("lock:a", token, nx=True, ex=30):
                    r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "uuid1 without its dashes": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = "worker-" + uuid.uuid1().hex
            if r.set("lock:a", token, nx=True, ex=30):  # expect: LL003
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "host name": """
        import socket

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            if r.set("lock:a", socket.gethostname(), nx=True, ex=30):  # expect: LL002
                r.eval(SCRIPT, 1, "lock:a", socket.gethostname())
    """,
    "host name and pid": """
        import os
        import socket

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            me = f"{socket.gethostname()}:{os.getpid()}"
            if r.set("lock:a", me, nx=True, ex=30):  # expect: LL002
                r.eval(SCRIPT, 1, "lock:a", me)
    """,
    "uuid1": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = str(uuid.uuid1())
            if r.set("lock:a", token, nx=True, ex=30):  # expect: LL003
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "clock reading": """
        import time

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = time.time()
            if r.set("lock:a", token, nx=True, ex=30):  # expect: LL003
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "setnx then expire": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = uuid.uuid4().hex
            if r.setnx("lock:a", token):  # expect: LL005
                r.expire("lock:a", 30)
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "setnx and no lifetime": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = uuid.uuid4().hex
            if r.setnx("lock:a", token):  # expect: LL005
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "a claim that is never released is no lease": """
        def main(r):
            r.set("seen:a", "1", nx=True)
            r.set("seen:a", "1", nx=True)
    """,
    "blind renewal": """
        import uuid

        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = uuid.uuid4().hex
            if r.set("lock:a", token, nx=True, ex=30):
                r.pexpire("lock:a", 30000)  # expect: LL010
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "checked renewal in Lua": """
        import uuid

        RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0"
        SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

        def main(r):
            token = uuid.uuid4().hex
            if r.set("lock:a", token, nx=True, ex=30):
                r.eval(RENEW, 1, "lock:a", token, 30000)
                r.eval(SCRIPT, 1, "lock:a", token)
    """,
    "redis-py Lock's extend": """
        def main(r):
            lock = r.lock("lock:a", timeout=5)
            lock.acquire()
            lock.extend(5)
            lock.reacquire()
            lock.release()
    """,
    "hash field claim, blind HDEL": """
        import uuid

        def main(r):
            if r.hsetnx("locks", "a", uuid.uuid4().hex):  # expect: LL005
                r.hdel("locks", "a")  # expect: LL001
    """,
    "a blind script": """
        import uuid

        def main(r):
            if r.set("lock:a", uuid.uuid4().hex, nx=True, ex=30):
                r.eval("return redis.call('del', KEYS[1])", 1, "lock:a")  # expect: LL001
    """,
    "a claim in a Lua script": """
        CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"

        def main(r):
            for _ in range(2):
                if r.eval(CLAIM, 1, "lock:a", "me", 5000):  # expect: LL002
                    r.delete("lock:a")  # expect: LL001
    """,
}


@pytest.mark.parametrize("name", list(REDIS_CASES))
def test_redis_case(project, redis_client, name):
    project.check(REDIS_CASES[name], redis_client)


ASYNC_CASES = {
    "asyncio blind delete": """
        import uuid

        async def main(url):
            import redis.asyncio as aioredis

            r = aioredis.Redis.from_url(url)
            if await r.set("lock:a", uuid.uuid4().hex, nx=True, ex=30):
                await r.delete("lock:a")  # expect: LL001
            await r.aclose()
    """,
    "asyncio Lock": """
        async def main(url):
            import redis.asyncio as aioredis

            r = aioredis.Redis.from_url(url)
            async with r.lock("lock:a", timeout=5):
                pass
            await r.aclose()
    """,
    "asyncio WATCH release": """
        import uuid

        async def main(url):
            import redis.asyncio as aioredis

            r = aioredis.Redis.from_url(url)
            token = uuid.uuid4().hex
            if await r.set("lock:a", token, nx=True, ex=30):
                async with r.pipeline() as pipe:
                    await pipe.watch("lock:a")
                    if await pipe.get("lock:a") == token.encode():
                        pipe.multi()
                        pipe.delete("lock:a")
                        await pipe.execute()
            await r.aclose()
    """,
    "asyncio pipeline delete": """
        import uuid

        async def main(url):
            import redis.asyncio as aioredis

            r = aioredis.Redis.from_url(url)
            if await r.set("lock:a", uuid.uuid4().hex, nx=True, ex=30):
                async with r.pipeline(transaction=False) as pipe:
                    pipe.delete("lock:a")  # expect: LL001
                    await pipe.execute()
            await r.aclose()
    """,
}


@pytest.mark.parametrize("name", list(ASYNC_CASES))
def test_asyncio_case(project, redis_client, redis_url, name):
    project.check(ASYNC_CASES[name], redis_url)


def test_a_tests_own_key_is_no_finding(project, redis_client):
    project.check(
        """
        def main(r):
            r.set("lock:a", "1", nx=True)
            r.delete("lock:a")
        """,
        redis_client,
        folder="tests",
    )


def test_a_key_claimed_and_deleted_by_unrelated_modules_is_no_lease(project, redis_client):
    warm = project.module(
        """
        def warm(r):
            r.set("page:home", "<html>", nx=True, ex=60)
        """
    )
    drop = project.module(
        """
        def invalidate(r):
            r.delete("page:home")
        """
    )
    warm.warm(redis_client)
    drop.invalidate(redis_client)
    assert project.findings() == []


def test_a_lease_split_over_modules_by_one_function(project, redis_client, monkeypatch):
    package = project.root / "split"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "store.py").write_text(
        "import uuid\n\n\ndef claim(r, key):\n    return r.set(key, uuid.uuid4().hex, nx=True, ex=30)\n"
    )
    (package / "helpers.py").write_text("def drop(r, key):\n    r.delete(key)\n")
    (package / "job.py").write_text(
        "from split.helpers import drop\nfrom split.store import claim\n\n\n"
        "def run(r):\n    if claim(r, 'lock:a'):\n        drop(r, 'lock:a')\n"
    )
    monkeypatch.syspath_prepend(str(project.root))
    for name in ("split", "split.store", "split.helpers", "split.job"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    importlib.import_module("split.job").run(redis_client)
    found = analyze.analyze(list(project.recorder.events))
    assert [(f.code, f.path, f.line) for f in found] == [("LL001", str(package / "helpers.py"), 2)]


def test_each_finding_names_the_test_that_saw_it(project, redis_client):
    module = project.module(
        """
        def main(r):
            r.set("lock:a", "x", nx=True, ex=5)
            r.delete("lock:a")
        """
    )
    for name in ("tests/test_a.py::test_one", "tests/test_b.py::test_two"):
        project.recorder.test = name
        module.main(redis_client)
    found = analyze.analyze(list(project.recorder.events))
    assert [(f.code, f.line, f.tests) for f in found] == [
        ("LL002", 2, ["tests/test_b.py::test_two"]),
        ("LL001", 3, ["tests/test_a.py::test_one", "tests/test_b.py::test_two"]),
    ]


def test_valkey_delifeq_and_blind_delete(project, valkey9_url):
    valkey = pytest.importorskip("valkey")
    client = valkey.Valkey.from_url(valkey9_url)
    client.flushall()
    project.check(
        """
        import uuid

        def main(r):
            token = uuid.uuid4().hex
            if r.set("lock:a", token, nx=True, ex=30):
                r.execute_command("DELIFEQ", "lock:a", token)
            if r.set("lock:b", token, nx=True, ex=30):
                r.delete("lock:b")  # expect: LL001
        """,
        client,
    )


def test_pymemcache(project, memcached_client):
    project.check(
        """
        import uuid

        def main(mc):
            if mc.add("lock:a", uuid.uuid4().hex, expire=30):
                mc.touch("lock:a", 30)  # expect: LL010
                mc.delete("lock:a")  # expect: LL001
            if mc.add("lock:b", uuid.uuid4().hex):  # expect: LL005
                token = mc.get("lock:b")
                mc.delete("lock:b")  # expect: LL004
        """,
        memcached_client,
    )


@pytest.fixture
def django_caches(redis_url, redis_client):
    django = pytest.importorskip("django")
    from django.conf import settings

    if not settings.configured:
        settings.configure()
    caches = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url},
        "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "leases"},
    }
    from django.core.cache import CacheHandler

    del django
    yield CacheHandler(caches)


def test_django_cache(project, django_caches):
    project.check(
        """
        import uuid

        def main(caches):
            for alias in ("default", "local"):
                cache = caches[alias]
                if cache.add("lock:a", uuid.uuid4().hex, 30):
                    cache.delete("lock:a")  # expect: LL001
                if cache.add("lock:b", uuid.uuid4().hex, None):  # expect: LL005
                    cache.touch("lock:b", 30)  # expect: LL010
                    cache.delete("lock:b")  # expect: LL001
                cache.get_or_set("page:a", "<html>", 30)
                cache.delete("page:a")
        """,
        django_caches,
    )


def test_recording_stops_with_the_recorder(project, redis_client):
    record.stop()
    redis_client.set("lock:a", "1", nx=True)
    redis_client.delete("lock:a")
    assert project.recorder.events == []


def test_a_client_of_another_shape_is_left_alone(capsys):
    class Broken:
        __name__ = "redis.client"

    install._apply("redis.client", Broken())
    assert "leases of redis.client are not recorded" in capsys.readouterr().err


def test_a_recording_error_never_reaches_the_program(project, redis_client, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("broken recorder")

    monkeypatch.setattr(project.recorder, "add", broken)
    monkeypatch.setattr(record, "_warned", [])
    assert redis_client.set("lock:a", "1", nx=True, ex=5) is True
    assert redis_client.delete("lock:a") == 1
    assert capsys.readouterr().err.splitlines() == [
        "leaselint: a lease event was not recorded (RuntimeError: broken recorder)"
    ]


def test_a_script_made_before_the_wraps_is_read_from_the_object_calling_it(project, redis_client, monkeypatch):
    """redis-py's Lock keeps its scripts on the class: made once, perhaps before the checker was
    installed, so their SHA was never seen. The script object on the stack says what it runs."""
    from leaselint.runtime import redis_hooks

    redis_client.lock("lock:warm", timeout=5).acquire()  # the class's scripts exist from here on
    monkeypatch.setattr(redis_hooks, "SCRIPTS", {})
    project.check(REDIS_CASES["redis-py Lock without a timeout"], redis_client)
    assert any("redis.call('del'" in source for source in redis_hooks.SCRIPTS.values())


def test_the_client_packages_command_layers_are_never_the_users_line(project, redis_client, monkeypatch):
    """Run on a client library's own tests (the project is the client): a command made by the
    client's own command method is reported at the caller's line, not inside the client."""
    from leaselint.runtime import record as recording

    monkeypatch.setattr(recording, "LIBRARY_PATHS", {str(project.root / "client")})
    helper = project.module(
        """
        def claim_flag(r, key):
            return r.set(key, "1", nx=True, ex=30)
        """,
        folder="client",
    )
    caller = project.module(
        """
        def main(r, claim_flag):
            for _ in range(2):
                if claim_flag(r, "lock:a"):  # expect: LL002
                    r.delete("lock:a")  # expect: LL001
        """
    )
    caller.main(redis_client, helper.claim_flag)
    found = analyze.analyze(list(project.recorder.events))
    assert all(f.path == caller.PATH for f in found), [(f.path, f.line) for f in found]
    assert sorted((f.code, f.line) for f in found) == expected(caller.SOURCE)


STORAGE_PRIMITIVES = """
    import functools
    import json


    def timed(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            return function(*args, **kwargs)

        return wrapper


    @timed
    def put_if_empty(r, key, value):
        return bool(r.set("store:" + key, json.dumps(value), nx=True))


    def delete_data(r, key):
        return r.delete("store:" + key)


    def run_once(r, name):
        if r.set("once:" + name, "1", nx=True):  # expect: LL002 LL005
            r.delete("once:" + name)  # expect: LL001
"""


def test_storage_primitives_a_test_calls_one_by_one_are_no_lease(project, redis_client):
    """A test drives a store wrapper's primitives (the key and value its own): no lease of the
    project's. A function of the project that claims and releases the key it is given still is one."""
    storage = project.module(STORAGE_PRIMITIVES)
    driver = project.module(
        """
        def test_primitives(r, storage):
            for _ in range(2):
                assert storage.put_if_empty(r, "k1", {"a": 1})
                assert storage.delete_data(r, "k1")
                storage.run_once(r, "nightly")
        """,
        folder="tests",
    )
    driver.test_primitives(redis_client, storage)
    assert project.findings() == expected(storage.SOURCE)


def test_storage_primitives_a_test_runs_in_tasks_of_their_own_are_no_lease(project, redis_url):
    """`asyncio.wait_for` runs the primitive in a task of its own: no frame of the project made the
    key, so it came from outside (here, the test)."""
    storage = project.module(
        """
        import json


        async def put_if_empty(r, key, value):
            return bool(await r.set("store:" + key, json.dumps(value), nx=True))


        async def delete_data(r, key):
            return await r.delete("store:" + key)
        """
    )
    driver = project.module(
        """
        import asyncio

        import redis.asyncio as aioredis


        async def test_primitives(url, storage):
            r = aioredis.Redis.from_url(url)
            for _ in range(2):
                assert await asyncio.wait_for(storage.put_if_empty(r, "k1", "v1"), 5)
                assert await asyncio.wait_for(storage.delete_data(r, "k1"), 5)
            await r.aclose()
        """,
        folder="tests",
    )
    asyncio.run(driver.test_primitives(redis_url, storage))
    assert project.findings() == []
