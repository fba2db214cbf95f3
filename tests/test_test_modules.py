"""A test module, told by its path: its functions are tests' (a worker function a test starts)."""

from __future__ import annotations

import os

import pytest

from leaselint.paths import is_test_path
from leaselint.runner import lint_paths
from leaselint.settings import Settings

WORKER = """\
import redis


def worker(name):
    conn = redis.Redis()
    with conn.lock(name):
        run(name)


def job(name):
    conn = redis.Redis()
    if conn.set(f"job:{name}", "1", nx=True, ex=30):
        try:
            run(name)
        finally:
            conn.delete(f"job:{name}")
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tests/helper.py", True),
        ("test/unit/locks.py", True),
        ("pkg/test_locks.py", True),
        ("pkg/locks_test.py", True),
        ("pkg/conftest.py", True),
        ("integration_tests/run.py", True),
        ("pkg/locks.py", False),
        ("pkg/testing_tools.py", False),
        ("contest/locks.py", False),
    ],
)
def test_a_test_module_is_told_by_its_path_under_the_root(tmp_path, path, expected):
    assert is_test_path(str(tmp_path / path), str(tmp_path)) is expected


def test_a_folder_named_test_above_the_root_makes_no_test_module(tmp_path):
    root = tmp_path / "test" / "project"
    assert not is_test_path(str(root / "app" / "locks.py"), str(root))


def _found(tmp_path, relative: str) -> list[tuple]:
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(WORKER)
    results = list(lint_paths([str(path)], Settings(root=str(tmp_path)), jobs=1))
    return [(d.code, d.start.line) for result, _ in results for d in result.diagnostics]


def test_a_test_modules_lock_objects_are_the_tests_own(tmp_path):
    # Outside the tests the lock without timeout is reported; in a test module it is the test's.
    # A claim whose answer decides what runs is a lease in a test too (as in a test function).
    assert _found(tmp_path, "app/worker.py") == [("LL005", 6), ("LL002", 12), ("LL001", 16)]
    assert _found(tmp_path, "tests/worker.py") == [("LL002", 12), ("LL001", 16)]


def test_the_cache_keeps_a_test_module_apart_from_the_same_text_elsewhere(tmp_path):
    from leaselint.cache import Cache

    settings = Settings(root=str(tmp_path))
    app, tests = settings.for_file(os.path.join(tmp_path, "app", "w.py")), settings.for_file(os.path.join(tmp_path, "tests", "w.py"))
    assert not app.tests and tests.tests
    assert Cache.key(WORKER.encode(), app) != Cache.key(WORKER.encode(), tests)


def test_a_file_outside_the_root_is_told_by_its_own_folder_alone(tmp_path):
    root = tmp_path / "project"
    assert not is_test_path(str(tmp_path / "testing" / "app" / "locks.py"), str(root))
    assert is_test_path(str(tmp_path / "other" / "tests" / "locks.py"), str(root))
