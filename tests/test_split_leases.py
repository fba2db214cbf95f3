"""Leases split across modules: a claim in one module, its release in another, by the same key."""

from __future__ import annotations

from leaselint.cache import Cache

from test_project import _parsing, codes, findings, tree

BASE = """\
import redis


class LockCommand:
    def __init__(self, namespace, name):
        self.redis = redis.Redis()
        self.namespace = namespace
        self.name = name

    @property
    def lock_key(self):
        return f"lock:{self.namespace}:{self.name}"
"""

ACQUIRE = """\
from app.base import LockCommand


class Acquire(LockCommand):
    def run(self, ttl=30):
        if not self.redis.set(self.lock_key, "1", nx=True, ex=ttl):
            raise Busy(self.lock_key)
"""

RELEASE = """\
from app.base import LockCommand


class Release(LockCommand):
    def run(self):
        self.redis.delete(self.lock_key)
"""


def split_project(tmp_path, **replaced):
    files = {"app/__init__.py": "", "app/base.py": BASE, "app/acquire.py": ACQUIRE, "app/release.py": RELEASE}
    files.update(replaced)
    return tree(tmp_path, files)


def test_a_release_in_another_module_pairs_with_the_claim_by_its_key(tmp_path):
    found = findings(tmp_path, split_project(tmp_path))
    assert codes(found) == {"app/acquire.py": [("LL002", 6, 46)], "app/release.py": [("LL001", 6, 9)]}
    assert found["app/release.py"][0][3].endswith("(no automatic fix: the lease is claimed in another module (app/acquire.py:6))")
    assert found["app/acquire.py"][0][3].endswith("(no automatic fix: the lease is released in another module (app/release.py:6))")


def test_the_release_alone_in_its_module_is_found_when_the_run_names_only_it(tmp_path):
    """The release's file has no claim word (the prefilter passes over it): the claimed key brings it in."""
    paths = split_project(tmp_path)
    release = [p for p in paths if p.endswith("release.py")]
    acquire = [p for p in paths if p.endswith("acquire.py")]
    found = findings(tmp_path, release + acquire)
    assert codes(found) == {"app/acquire.py": [("LL002", 6, 46)], "app/release.py": [("LL001", 6, 9)]}


def test_a_split_lease_is_found_again_from_the_cache(tmp_path):
    paths = split_project(tmp_path)
    folder = str(tmp_path / ".cache")
    first = findings(tmp_path, paths, cache=Cache(folder))
    again, parsed = _parsing(lambda: findings(tmp_path, paths, cache=Cache(folder)))
    assert codes(first) == codes(again) == {"app/acquire.py": [("LL002", 6, 46)], "app/release.py": [("LL001", 6, 9)]}
    assert parsed == []


def test_a_checked_release_in_another_module_is_no_finding(tmp_path):
    release = """\
        from app.base import LockCommand

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Release(LockCommand):
            def run(self, token):
                if not self.redis.eval(UNLOCK, 1, self.lock_key, token):
                    raise LeaseLost(self.lock_key)
        """
    acquire = ACQUIRE.replace('"1"', "token").replace("def run(self, ttl=30):", "def run(self, token, ttl=30):")
    found = findings(tmp_path, split_project(tmp_path, **{"app/release.py": release, "app/acquire.py": acquire}))
    assert codes(found) == {}


def test_a_cache_entry_written_in_one_module_and_deleted_in_another_is_no_lease(tmp_path):
    """An NX write whose answer nobody reads, of a key that names no lock, is a cache write."""
    files = {
        "app/__init__.py": "",
        "app/fill.py": """\
            import redis

            r = redis.Redis()


            def fill(report):
                r.set(f"report-cache:{report.day}", report.body, nx=True, ex=600)
            """,
        "app/purge.py": """\
            import redis

            r = redis.Redis()


            def purge(report):
                r.delete(f"report-cache:{report.day}")
            """,
    }
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {}


def test_two_modules_that_only_share_a_caller_parameter_are_left_to_the_function_summaries(tmp_path):
    """`acquire(job)` and `release(job)` take their caller's key: no split lease of their own."""
    files = {
        "app/__init__.py": "",
        "app/a.py": """\
            import redis

            r = redis.Redis()


            def acquire(job):
                return r.set(f"lock:{job}", "1", nx=True, ex=30)
            """,
        "app/b.py": """\
            import redis

            r = redis.Redis()


            def release(job):
                r.delete(f"lock:{job}")
            """,
    }
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {}


def test_a_release_in_a_test_module_or_of_another_store_does_not_pair(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/base.py": BASE,
        "app/acquire.py": ACQUIRE,
        "tests/test_release.py": """\
            from app.base import LockCommand


            def test_release():
                command = LockCommand("n", "x")
                command.redis.delete(command.lock_key)
            """,
        "app/other.py": """\
            from django.core.cache import cache


            class Purge:
                lock_key = "lock:n:x"

                def run(self):
                    cache.delete(self.lock_key)
            """,
    }
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {}


STORAGE = """\
import redis


class RedisStorage:
    def __init__(self):
        self.conn = redis.Redis()

    def put_if_empty(self, key, value, ttl=None):
        return self.conn.set(key, value, nx=True, ex=ttl)

    def delete_data(self, key):
        return self.conn.delete(key)
"""

TASK_LOCK = """\
class TaskLock:
    def __init__(self, storage, name):
        self.storage = storage
        self.key = f"lock:{name}"

    def __enter__(self):
        if not self.storage.put_if_empty(self.key, "1", ttl=60):
            raise Busy(self.key)

    def __exit__(self, *exc):
        self.storage.delete_data(self.key)
"""


def test_a_wrapper_method_called_on_an_object_of_no_known_class_is_the_projects_one_method(tmp_path):
    """`self.storage.put_if_empty(...)`: the class of `storage` is unknown, the project defines the method once."""
    paths = tree(tmp_path, {"app/__init__.py": "", "app/storage.py": STORAGE, "app/locks.py": TASK_LOCK})
    found = findings(tmp_path, paths)
    # The lifetime the caller passes (`ttl=60`) is the claim's: no LL005.
    assert codes(found) == {"app/locks.py": [("LL002", 7, 52), ("LL001", 11, 9)]}
    assert "(no automatic fix: the release is made inside `RedisStorage.delete_data` (app/storage.py:12)" in found["app/locks.py"][1][3]


def test_a_method_name_two_classes_define_or_a_common_one_carries_no_summary(tmp_path):
    second = STORAGE.replace("class RedisStorage:", "class OtherStorage:")
    common = (
        TASK_LOCK.replace("delete_data", "delete").replace("put_if_empty", "add")
        .replace("class TaskLock", "class Reservation").replace('f"lock:{name}"', 'f"reservation:{name}"')
    )
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/storage.py": STORAGE,
            "app/other.py": second,
            "app/locks.py": TASK_LOCK,
            "app/common.py": common,
            "app/common_storage.py": STORAGE.replace("put_if_empty", "add").replace("delete_data", "delete"),
        },
    )
    assert codes(findings(tmp_path, paths)) == {}


def test_an_object_shown_by_one_distinctive_method_lends_its_class_to_its_common_methods(tmp_path):
    """`self.storage.put_if_empty(...)` says `storage` is a RedisStorage: its `remove(key)` is that
    class's too, though `remove` alone names no one method."""
    storage = STORAGE.replace("def delete_data", "def remove")
    lock = TASK_LOCK.replace("self.storage.delete_data", "self.storage.remove")
    paths = tree(tmp_path, {"app/__init__.py": "", "app/storage.py": storage, "app/locks.py": lock})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/locks.py": [("LL002", 7, 52), ("LL001", 11, 9)]}
    assert "`RedisStorage.remove` (app/storage.py:12)" in found["app/locks.py"][1][3]


def test_a_common_method_on_another_object_or_an_object_of_two_classes_stays_unknown(tmp_path):
    storage = STORAGE.replace("def delete_data", "def remove")
    # The common method is called on another object than the one the distinctive method told.
    other = TASK_LOCK.replace("self.storage.delete_data(self.key)", "self.archive.remove(self.key)")
    paths = tree(tmp_path, {"app/__init__.py": "", "app/storage.py": storage, "app/locks.py": other})
    assert codes(findings(tmp_path, paths)) == {}


def test_the_lifetime_a_wrapper_takes_is_the_callers_argument(tmp_path):
    no_ttl = TASK_LOCK.replace(', ttl=60', '')
    paths = tree(tmp_path, {"app/__init__.py": "", "app/storage.py": STORAGE, "app/locks.py": no_ttl})
    assert [c for c, *_ in codes(findings(tmp_path, paths))["app/locks.py"]] == ["LL005", "LL002", "LL001"]


LOCK_CLASS = """\
import secrets

import redis

UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class RedisLock:
    def __init__(self, client, name, ttl=30):
        self.client = client
        self.key = f"lock:{name}"
        self.ttl = ttl
        self.token = None

    def acquire(self):
        token = secrets.token_hex(16)
        if self.client.set(self.key, token, nx=True, ex=self.ttl):
            self.token = token
            return True
        return False

    def release(self):
        released = self.client.eval(UNLOCK, 1, self.key, self.token)
        return bool(released)
"""

JOBS = """\
import redis

from app.locks import RedisLock

r = redis.Redis()


def nightly():
    lock = RedisLock(r, "nightly")
    lock.acquire()
    try:
        run_all()
    finally:
        lock.release()


def weekly():
    lock = RedisLock(r, "weekly")
    if not lock.acquire():
        return
    try:
        run_all()
    finally:
        if not lock.release():
            raise LeaseLost("weekly")
"""


def test_another_modules_lock_class_whose_answers_are_dropped(tmp_path):
    """`lock.acquire()` and `lock.release()` thrown away, where the lock class (another module's)
    answers a failed claim and a lost lease: LL008 and LL006 at the calls, naming where it answers."""
    paths = tree(tmp_path, {"app/__init__.py": "", "app/locks.py": LOCK_CLASS, "app/jobs.py": JOBS})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL008", 10, 5), ("LL006", 14, 9)]}
    assert "(app/locks.py:20)" in found["app/jobs.py"][0][3]
    assert "(app/locks.py:24)" in found["app/jobs.py"][1][3]


def test_a_test_module_or_a_call_with_arguments_drops_nothing(tmp_path):
    test_module = JOBS.replace("def nightly():", "def test_nightly():").replace("def weekly():", "def test_weekly():")
    with_arguments = JOBS.replace("    lock.acquire()\n", "    lock.acquire(blocking=True)\n")
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/locks.py": LOCK_CLASS,
            "tests/test_jobs.py": test_module,
            "app/other.py": with_arguments.replace("        lock.release()\n", "        released = lock.release()\n        log(released)\n"),
        },
    )
    assert codes(findings(tmp_path, paths)) == {}
