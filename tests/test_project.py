"""The project pass: leases whose claim or release is made by a function of another module."""

from __future__ import annotations

import os
import textwrap

import pytest

from leaselint import check, runner
from leaselint.cache import Cache
from leaselint.project import module_name
from leaselint.runner import lint_paths
from leaselint.settings import Settings

REDIS_STORE = """\
import redis

r = redis.Redis()
"""

BLIND_HELPER = """\
from .store import r


def release_lock(key):
    r.delete(key)
"""

CHECKED_HELPERS = """\
import redis

UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


def acquire_lock(conn, name, token, ttl=30):
    return conn.set(f"lock:{name}", token, nx=True, ex=ttl)


def release_lock(conn, name, token):
    return conn.eval(UNLOCK, 1, f"lock:{name}", token)
"""

CLAIM_THEN_HELPER = """\
import secrets

from app.locks import release_lock
from app.store import r


def run(job):
    key = f"lock:{job}"
    token = secrets.token_hex(16)
    if r.set(key, token, nx=True, ex=30):
        try:
            work(job)
        finally:
            release_lock(key)
"""


def tree(root, files: dict[str, str]) -> list[str]:
    paths = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        paths.append(str(path))
    return sorted(paths)


def findings(root, paths, **options) -> dict[str, list[tuple]]:
    settings = options.pop("settings", Settings(root=str(root)))
    found = {}
    for result, _ in lint_paths(paths, settings, jobs=1, **options):
        name = os.path.relpath(result.path, root).replace(os.sep, "/")
        assert not result.internal_errors, result.internal_errors
        found[name] = [(d.code, d.start.line, d.start.column + 1, d.message) for d in result.diagnostics]
    return found


def codes(found: dict) -> dict:
    return {name: [(c, line, col) for c, line, col, _ in items] for name, items in found.items() if items}


def blind_project(tmp_path):
    return tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/locks.py": BLIND_HELPER,
            "app/jobs.py": CLAIM_THEN_HELPER,
        },
    )


def test_a_blind_release_helper_of_another_module_is_reported_at_the_call(tmp_path):
    found = findings(tmp_path, blind_project(tmp_path))
    assert codes(found) == {"app/jobs.py": [("LL001", 14, 13)]}
    message = found["app/jobs.py"][0][3]
    assert message.startswith("`release_lock` releases lease `key` without checking the holder")
    assert "the release is made inside `release_lock` (app/locks.py:5), which must check the holder itself" in message


def test_a_run_of_the_changed_file_alone_agrees_with_the_full_run(tmp_path):
    paths = blind_project(tmp_path)
    full = findings(tmp_path, paths)
    jobs = [p for p in paths if p.endswith("jobs.py")]
    assert findings(tmp_path, jobs, explicit=jobs) == {"app/jobs.py": full["app/jobs.py"]}
    # Walked (not named on the command line) too.
    assert findings(tmp_path, jobs) == {"app/jobs.py": full["app/jobs.py"]}


def test_a_delete_helper_called_on_a_key_nobody_claimed_is_no_finding(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/locks.py": BLIND_HELPER,
            "app/views.py": """\
                from app.locks import release_lock
                from app.store import r


                def forget(user):
                    r.set(f"profile:{user}", "x", ex=60)
                    release_lock(f"profile:{user}")
                """,
        },
    )
    assert codes(findings(tmp_path, paths)) == {}


def test_a_helper_on_another_client_is_no_release_of_this_lease(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/locks.py": BLIND_HELPER,
            "app/jobs.py": CLAIM_THEN_HELPER.replace("from app.store import r", "import redis\n\nr = redis.Redis()"),
        },
    )
    assert codes(findings(tmp_path, paths)) == {}


def test_a_claim_helper_then_a_plain_delete_is_a_blind_release(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/locks.py": """\
                import redis

                r = redis.Redis()


                def take(name, token):
                    return r.set(f"job:{name}", token, nx=True, px=30000)
                """,
            "app/jobs.py": """\
                import secrets

                from app.locks import r, take


                def run(job):
                    if take(job, secrets.token_hex(16)):
                        work(job)
                        r.delete(f"job:{job}")
                """,
        },
    )
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL001", 9, 9)]}
    assert "(no automatic fix: the claim is made inside `take` (app/locks.py:7))" in found["app/jobs.py"][0][3]


def test_a_constant_token_passed_to_the_projects_claim_helper_is_reported_at_the_argument(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/locks.py": CHECKED_HELPERS,
            "app/jobs.py": """\
                from . import locks


                def run(conn, job):
                    if locks.acquire_lock(conn, job, "worker"):
                        try:
                            work(job)
                        finally:
                            if not locks.release_lock(conn, job, "worker"):
                                raise RuntimeError("lease lost")
                """,
        },
    )
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL002", 5, 38)]}
    assert "lease `f\"lock:{job}\"` comes from a constant" in found["app/jobs.py"][0][3]


DISCARDING_CALLER = """\
import secrets

from app.locks import acquire_lock, release_lock


def run(conn, job):
    token = secrets.token_hex(16)
    if acquire_lock(conn, job, token):
        try:
            work(job)
        finally:
            release_lock(conn, job, token)


def test_release(conn):
    release_lock(conn, "job", "t")
"""


def test_the_answer_of_the_projects_checked_release_thrown_away_is_ll006_and_the_fix_logs_it(tmp_path):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/locks.py": CHECKED_HELPERS, "app/jobs.py": DISCARDING_CALLER})
    settings = Settings(root=str(tmp_path), fix=True)
    results = {os.path.basename(r.path): r for r, _ in lint_paths(paths, settings, jobs=1)}
    jobs = results["jobs.py"]
    assert [(d.code, d.start.line, d.start.column + 1) for d in jobs.diagnostics] == []
    assert jobs.fixed_text == DISCARDING_CALLER.replace("import secrets\n", "import logging\nimport secrets\n").replace(
        "            release_lock(conn, job, token)\n",
        "            if not release_lock(conn, job, token):\n"
        "                logging.getLogger(__name__).warning(\n"
        '                    "lease %s expired before release; another worker may hold it",\n'
        '                    f"lock:{job}",\n'
        "                )\n",
    )
    unfixed = findings(tmp_path, paths)
    assert codes(unfixed) == {"app/jobs.py": [("LL006", 12, 13)]}
    assert "by `release_lock` (app/locks.py:11), which returns it," in unfixed["app/jobs.py"][0][3]


def test_a_caller_without_a_store_word_is_read_for_the_names_it_imports(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/claims.py": """\
                from app.store import r


                def acquire(name, token):
                    return r.set(f"lock:{name}", token, nx=True, ex=60)
                """,
            "app/locks.py": BLIND_HELPER,
            "app/jobs.py": """\
                import secrets

                from app.claims import acquire
                from app.locks import release_lock


                def run(job):
                    if acquire(job, secrets.token_hex(16)):
                        try:
                            work(job)
                        finally:
                            release_lock(f"lock:{job}")
                """,
        },
    )
    assert codes(findings(tmp_path, paths)) == {"app/jobs.py": [("LL001", 12, 13)]}
    # A file named on the command line (as pre-commit names the changed ones) is always parsed.
    jobs = [p for p in paths if p.endswith("jobs.py")]
    assert codes(findings(tmp_path, jobs, explicit=jobs)) == {"app/jobs.py": [("LL001", 12, 13)]}
    # A warm run parses nothing: the caller's result with the summaries it uses is in the cache.
    folder = tmp_path / "cache"
    assert codes(findings(tmp_path, paths, cache=Cache(folder))) == {"app/jobs.py": [("LL001", 12, 13)]}
    warm, parsed = _parsing(lambda: findings(tmp_path, paths, cache=Cache(folder)))
    assert codes(warm) == {"app/jobs.py": [("LL001", 12, 13)]}
    assert parsed == []


def _parsing(run):
    """What `run()` gives, and the texts parsed meanwhile."""
    parsed: list[str] = []
    real_parse = check.parse

    def counting(text, strict=False):
        parsed.append(text)
        return real_parse(text, strict)

    check.parse, saved = counting, check.parse
    try:
        return run(), parsed
    finally:
        check.parse = saved


@pytest.mark.parametrize("kept", [True, False], ids=["kept", "past-the-budget"])
def test_a_passed_over_caller_is_read_once_while_its_bytes_are_kept(tmp_path, monkeypatch, kept):
    """The project pass looks for the helpers' names in the bytes the first look read; past the
    budget of kept bytes, the file is read again, with the same findings (twice: for the helpers'
    names, and for the key of the lease `locks.py` holds, which another module may release)."""
    from leaselint import project_pass

    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/locks.py": """\
                from .store import r

                UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


                def acquire_lock(name, token):
                    return r.set(f"lock:{name}", token, nx=True, ex=60)


                def release_lock(name, token):
                    return r.eval(UNLOCK, 1, f"lock:{name}", token)
                """,
            "app/jobs.py": """\
                import secrets

                from .locks import acquire_lock, release_lock


                def run(job):
                    token = secrets.token_hex(16)
                    if acquire_lock(job, token):
                        try:
                            work(job)
                        finally:
                            release_lock(job, token)
                """,
        },
    )
    reads: list[str] = []
    real = check.read

    def counting(path, settings):
        reads.append(os.path.basename(path))
        return real(path, settings)

    monkeypatch.setattr(runner, "read", counting)
    monkeypatch.setattr(project_pass, "read", counting)
    if not kept:
        monkeypatch.setattr(runner, "KEPT_BYTES", 0)
    assert codes(findings(tmp_path, paths)) == {"app/jobs.py": [("LL006", 12, 13)]}
    assert reads.count("jobs.py") == (1 if kept else 3)
    # Many names: the regex alone looks for them.
    monkeypatch.setattr(project_pass, "PLAIN_NAMES", 0)
    assert codes(findings(tmp_path, paths)) == {"app/jobs.py": [("LL006", 12, 13)]}


def test_helpers_that_are_a_lease_at_home_are_reported_there_only(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/locks.py": """\
                import secrets

                from app.store import r


                def acquire_lock(name):
                    token = secrets.token_hex(16)
                    return r.set(f"lock:{name}", token, nx=True, ex=60)


                def release_lock(name):
                    r.delete(f"lock:{name}")
                """,
            "app/store.py": REDIS_STORE,
            "app/jobs.py": """\
                from app.locks import acquire_lock, release_lock


                def run(job):
                    if acquire_lock(job):
                        try:
                            work(job)
                        finally:
                            release_lock(job)
                """,
        },
    )
    assert codes(findings(tmp_path, paths)) == {"app/locks.py": [("LL001", 12, 5)]}


def test_a_module_outside_the_run_is_read_for_its_summary_in_a_src_layout(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.leaselint]\n")
    paths = tree(
        tmp_path,
        {
            "src/app/store.py": REDIS_STORE,
            "src/app/locks.py": BLIND_HELPER,
            "src/app/jobs.py": CLAIM_THEN_HELPER,
        },
    )
    jobs = [p for p in paths if p.endswith("jobs.py")]
    assert module_name(jobs[0], (str(tmp_path / "src"),))[:2] == ("app.jobs", False)
    assert codes(findings(tmp_path, jobs)) == {"src/app/jobs.py": [("LL001", 14, 13)]}


def test_editing_a_helper_module_checks_its_callers_again_and_nothing_else(tmp_path, monkeypatch):
    paths = blind_project(tmp_path)
    (tmp_path / "app" / "other.py").write_text("import redis\n\nr = redis.Redis()\nr.set('x', 1, nx=True)\n")
    paths.append(str(tmp_path / "app" / "other.py"))
    folder = tmp_path / "cache"
    assert codes(findings(tmp_path, paths, cache=Cache(folder))) == {"app/jobs.py": [("LL001", 14, 13)]}
    linted: list[str] = []
    original = runner._lint_one

    def counting(job):
        linted.append(os.path.basename(job[1]))
        return original(job)

    monkeypatch.setattr(runner, "_lint_one", counting)
    assert codes(findings(tmp_path, paths, cache=Cache(folder))) == {"app/jobs.py": [("LL001", 14, 13)]}
    assert linted == []
    locks = tmp_path / "app" / "locks.py"
    locks.write_text(
        "from .store import r\n\nUNLOCK = 'if redis.call(\"get\", KEYS[1]) == ARGV[1] then return redis.call(\"del\", KEYS[1]) end'\n\n\n"
        "def release_lock(key, token=None):\n    return r.eval(UNLOCK, 1, key, token)\n"
    )
    found = findings(tmp_path, paths, cache=Cache(folder))
    assert codes(found) == {"app/jobs.py": [("LL006", 14, 13)]}
    assert sorted(linted) == ["jobs.py", "locks.py"]


@pytest.mark.parametrize("call", ["locks.release_lock(key)", "release(key)"])
def test_module_and_aliased_imports_resolve(tmp_path, call):
    head = "from . import locks" if call.startswith("locks.") else "from .locks import release_lock as release"
    caller = CLAIM_THEN_HELPER.replace("from app.locks import release_lock", head).replace("release_lock(key)", call)
    paths = tree(
        tmp_path,
        {"app/__init__.py": "", "app/store.py": REDIS_STORE, "app/locks.py": BLIND_HELPER, "app/jobs.py": caller},
    )
    assert codes(findings(tmp_path, paths)) == {"app/jobs.py": [("LL001", 14, 13)]}


def _load(folder, module: str):
    import importlib
    import sys

    for name in [n for n in sys.modules if n == "app" or n.startswith("app.")]:
        del sys.modules[name]
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == "app" or n.startswith("app.")]:
            del sys.modules[name]


def test_the_fix_at_a_call_of_the_projects_checked_release_keeps_what_it_does_on_redis(tmp_path, redis_client, caplog):
    caller = DISCARDING_CALLER.split("\n\n\ndef test_release")[0] + "\n"
    original = tmp_path / "original"
    paths = tree(original, {"app/__init__.py": "", "app/locks.py": CHECKED_HELPERS, "app/jobs.py": caller})
    results = {os.path.basename(r.path): r for r, _ in lint_paths(paths, Settings(root=str(original), fix=True), jobs=1)}
    assert results["locks.py"].fixed_text is None
    fixed = tmp_path / "fixed"
    tree(fixed, {"app/__init__.py": "", "app/locks.py": CHECKED_HELPERS, "app/jobs.py": results["jobs.py"].fixed_text})

    def outcome(folder, overlap: bool):
        redis_client.flushall()
        jobs = _load(folder, "app.jobs")

        def work(job):
            if overlap:  # the lease ran out and worker B claimed the key
                redis_client.delete(f"lock:{job}")
                redis_client.set(f"lock:{job}", "B", nx=True, ex=30)

        jobs.work = work
        caplog.clear()
        answer = jobs.run(redis_client, "nightly")
        return answer, redis_client.get("lock:nightly"), [r.levelname for r in caplog.records]

    assert outcome(original, False) == outcome(fixed, False) == (None, None, [])
    assert outcome(original, True) == (None, b"B", [])
    assert outcome(fixed, True) == (None, b"B", ["WARNING"])


def test_a_key_made_with_methods_and_keyword_arguments_of_a_parameter_is_the_callers_key(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/locks.py": """\
                from .store import r


                def release_lock(name):
                    r.delete("lock:{n}".format(n=name.lower()))
                """,
            "app/jobs.py": """\
                import secrets

                from app.locks import release_lock
                from app.store import r


                def run(job):
                    if r.set("lock:{n}".format(n=job.lower()), secrets.token_hex(16), nx=True, ex=30):
                        try:
                            work(job)
                        finally:
                            release_lock(job)
                """,
        },
    )
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL001", 12, 13)]}
    assert "lease `\"lock:{n}\".format(n=job.lower())`" in found["app/jobs.py"][0][3]


def test_the_import_lines_of_a_passed_over_file_say_what_it_may_call():
    from leaselint.project import import_wants

    data = b"""import os
import app.locks as locks
from . import helpers
from ..store import (
    acquire_lock,
    r as client,
)
from redis import Redis  # a store's module: no project function
"""
    assert import_wants(data, {"acquire_lock", "drop"}) == (
        (0, "app.locks.acquire_lock"),
        (0, "app.locks.drop"),
        (1, "helpers"),
        (1, "helpers.acquire_lock"),
        (1, "helpers.drop"),
        (2, "store.acquire_lock"),
        (2, "store.r"),
        (2, "store.r.acquire_lock"),
        (2, "store.r.drop"),
    )


LOCKS_AT_HOME = """\
from app.store import r


def acquire_lock(name, token):
    return r.set(f"lock:{name}", token, nx=True, ex=60)


def release_lock(name):
    r.delete(f"lock:{name}")
"""

FIXED_TOKEN_CALLER = """\
from app.redis import acquire_lock, unlock


def nightly():
    if not acquire_lock("nightly", "worker"):
        return
    try:
        run()
    finally:
        unlock("nightly")
"""


def reexport_project(tmp_path, init: str) -> list[str]:
    return tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/redis/__init__.py": init,
            "app/redis/locks.py": LOCKS_AT_HOME,
            "app/jobs.py": FIXED_TOKEN_CALLER,
        },
    )


@pytest.mark.parametrize(
    "init",
    [
        '"""Store helpers."""\nfrom .locks import acquire_lock, release_lock as unlock\n',
        "from app.redis.locks import (\n    acquire_lock,\n    release_lock as unlock,\n)\n",
        # Through a second package `__init__`.
        "from .inner import acquire_lock, unlock\n",
    ],
)
def test_a_helper_re_exported_by_a_package_init_is_followed_there(tmp_path, init):
    paths = reexport_project(tmp_path, init)
    if "inner" in init:
        paths += tree(tmp_path, {"app/redis/inner/__init__.py": "from ..locks import acquire_lock, release_lock as unlock\n"})
    found = codes(findings(tmp_path, paths))
    # The helper pair is a lease at home, reported there; the caller's constant token at the caller.
    assert found == {"app/jobs.py": [("LL002", 5, 36)], "app/redis/locks.py": [("LL001", 9, 5)]}
    jobs = [p for p in paths if p.endswith("jobs.py")]
    assert codes(findings(tmp_path, jobs, explicit=jobs)) == {"app/jobs.py": [("LL002", 5, 36)]}


def test_a_name_the_init_does_not_re_export_is_not_followed(tmp_path):
    paths = reexport_project(tmp_path, "from .locks import acquire_lock\n\n\ndef unlock(name):\n    pass\n")
    assert codes(findings(tmp_path, paths)) == {"app/redis/locks.py": [("LL001", 9, 5)]}


def test_a_release_helper_that_is_a_lease_at_home_pairs_with_the_callers_claim_but_is_reported_at_home(tmp_path):
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": REDIS_STORE,
            "app/locks.py": LOCKS_AT_HOME,
            "app/jobs.py": """\
                import os

                from app.locks import acquire_lock, release_lock


                def run(job):
                    if not acquire_lock(job, os.getpid()):
                        release_lock(job)
                        return
                    work(job)
                    release_lock(job)
                """,
        },
    )
    found = findings(tmp_path, paths)
    # The pid is a fixed token (LL002); the release in the branch where the claim failed frees another
    # worker's claim (LL001 at the call); the plain release is the helper's own finding.
    assert codes(found) == {
        "app/jobs.py": [("LL002", 7, 30), ("LL001", 8, 9)],
        "app/locks.py": [("LL001", 9, 5)],
    }
    assert "runs after the claim failed" in found["app/jobs.py"][1][3]


def test_a_passed_over_caller_read_on_demand_for_its_own_summary_is_still_checked(tmp_path):
    # `worker.py` claims (so it is parsed) and imports `sched.py`, which the prefilter passed over:
    # sched.py is then read for its summary, and must still be checked for the helper it calls.
    paths = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/locks.py": CHECKED_HELPERS,
            "app/sched.py": DISCARDING_CALLER.split("\n\n\ndef test_release")[0] + "\n",
            "app/worker.py": """\
                import redis

                from app.sched import run

                r = redis.Redis()


                def start(job, token):
                    if r.set(f"start:{job}", token, nx=True, ex=5):
                        run(r, job)
                """,
        },
    )
    assert codes(findings(tmp_path, paths)) == {"app/sched.py": [("LL006", 12, 13)]}


KEY_HELPER_LOCKS = """\
import redis

r = redis.Redis()


def _lock_key(name, kind="job"):
    return f"lock:{kind}:{name}"


def acquire(name, token):
    return r.set(_lock_key(name), token, nx=True, ex=30)


def release(name):
    r.delete(_lock_key(name))
"""


@pytest.mark.parametrize(
    ("caller", "where"),
    [
        # Both through the helpers: the key maker is named as the caller reaches it.
        (
            """\
            from app import locks


            def run(job):
                if not locks.acquire(job, "1"):
                    return
                try:
                    work(job)
                finally:
                    locks.release(job)
            """,
            ("LL002", 5, 31),
        ),
        # A claim of the caller's own, with the helper module's key maker and client.
        (
            """\
            from app.locks import _lock_key, r, release


            def run(job):
                if not r.set(_lock_key(job), "1", nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    release(job)
            """,
            ("LL002", 5, 34),
        ),
        (
            """\
            from app import locks


            def run(job):
                if not locks.r.set(locks._lock_key(job), "1", nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    locks.release(job)
            """,
            ("LL002", 5, 46),
        ),
    ],
)
def test_a_key_made_by_the_helper_modules_own_function_pairs_at_the_caller(tmp_path, caller, where):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/locks.py": KEY_HELPER_LOCKS, "app/jobs.py": caller})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [where], "app/locks.py": [("LL001", 15, 5)]}


def test_a_key_maker_of_the_helper_module_is_no_key_of_a_caller_that_makes_another(tmp_path):
    # The caller's own `_lock_key` builds other keys: its claim is not the helper's lease.
    caller = """\
        from app.locks import r, release


        def _lock_key(name):
            return f"other:{name}"


        def run(job):
            if not r.set(_lock_key(job), "1", nx=True, ex=30):
                return
            release(job)
        """
    paths = tree(tmp_path, {"app/__init__.py": "", "app/locks.py": KEY_HELPER_LOCKS, "app/jobs.py": caller})
    assert codes(findings(tmp_path, paths)) == {"app/locks.py": [("LL001", 15, 5)]}


# A store wrapper class of the project (a backend of a task-once decorator, a huey storage): its
# methods claim and release the key they are given on the client the object holds.
GUARD_CLASS = """\
UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class Guard:
    def __init__(self, client, prefix="once"):
        self.client = client
        self.prefix = prefix

    def try_claim(self, key, token, ttl=300):
        return self.client.set(key, token, nx=True, ex=ttl)

    def drop(self, key):
        self.client.delete(key)

    def release(self, key, token):
        return self.client.eval(UNLOCK, 1, key, token)
"""

GUARD_AT_MODULE = """\
import secrets

from redis import Redis

from app.guard import Guard

guard = Guard(Redis())


def run_once(job_id):
    key = f"once:{job_id}"
    token = secrets.token_hex(16)
    if not guard.try_claim(key, token, 600):
        return False
    try:
        work(job_id)
    finally:
        guard.drop(key)
    return True
"""

GUARD_ON_SELF = """\
import secrets

from .guard import Guard


class Worker:
    def __init__(self, client):
        self.guard = Guard(client)

    def handle(self, job_id):
        key = f"job:{job_id}"
        token = secrets.token_hex(16)
        if self.guard.try_claim(key, token):
            try:
                self.process(job_id)
            finally:
                self.guard.release(key, token)
"""


def test_a_method_of_the_projects_store_class_releasing_blindly_is_reported_at_the_call(tmp_path):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/guard.py": GUARD_CLASS, "app/tasks.py": GUARD_AT_MODULE})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/tasks.py": [("LL001", 18, 9)]}
    message = found["app/tasks.py"][0][3]
    assert message.startswith("`drop` releases lease `key` without checking the holder")
    assert "the release is made inside `Guard.drop` (app/guard.py:13), which must check the holder itself" in message
    # The changed file alone (pre-commit) finds the same: the class's module is read for its summary.
    tasks = [p for p in paths if p.endswith("tasks.py")]
    assert findings(tmp_path, tasks, explicit=tasks) == {"app/tasks.py": found["app/tasks.py"]}


def test_the_checked_release_of_a_store_object_held_on_self_thrown_away_is_ll006(tmp_path):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/guard.py": GUARD_CLASS, "app/worker.py": GUARD_ON_SELF})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/worker.py": [("LL006", 17, 17)]}
    assert "by `Guard.release` (app/guard.py:16), which returns it," in found["app/worker.py"][0][3]


@pytest.mark.parametrize(
    "caller, line",
    [
        # A parameter: its class is told by `try_claim`, the project's one method of that name.
        (GUARD_AT_MODULE.replace("guard = Guard(Redis())\n\n\ndef run_once(job_id):", "def run_once(guard, job_id):"), 15),
        # The object is made twice: both are Guards, and the claim and the release use the same one.
        (GUARD_AT_MODULE.replace("guard = Guard(Redis())\n", "guard = Guard(Redis())\nguard = Guard(Redis(db=1))\n"), 19),
    ],
    ids=["parameter", "bound-twice"],
)
def test_an_object_of_the_projects_store_class_told_by_its_distinctive_method(tmp_path, caller, line):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/guard.py": GUARD_CLASS, "app/caller.py": caller})
    assert codes(findings(tmp_path, paths)) == {"app/caller.py": [("LL001", line, 9)]}


@pytest.mark.parametrize(
    "caller",
    [
        # The answer is read: a lost lease is reported.
        GUARD_ON_SELF.replace(
            "                self.guard.release(key, token)\n",
            "                if not self.guard.release(key, token):\n                    log.warning('lost %s', key)\n",
        ),
        # A delete of a key nobody claimed through the object (a cache entry).
        GUARD_AT_MODULE.replace("    if not guard.try_claim(key, token, 600):\n        return False\n", ""),
        # Another object of the class: another client, no lease.
        GUARD_AT_MODULE.replace("guard = Guard(Redis())\n", "guard = Guard(Redis())\nother = Guard(Redis(db=2))\n").replace(
            "        guard.drop(key)", "        other.drop(key)"
        ),
    ],
    ids=["answer-read", "never-claimed", "other-object"],
)
def test_calls_of_the_projects_store_class_that_are_no_finding(tmp_path, caller):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/guard.py": GUARD_CLASS, "app/caller.py": caller})
    assert codes(findings(tmp_path, paths)) == {}


def test_a_test_module_driving_the_projects_store_class_is_no_finding(tmp_path):
    test = """\
        from app.guard import Guard


        def test_drop(redis_client):
            guard = Guard(redis_client)
            assert guard.try_claim("k", "t")
            guard.drop("k")
        """
    paths = tree(tmp_path, {"app/__init__.py": "", "app/guard.py": GUARD_CLASS, "tests/test_guard.py": test})
    assert codes(findings(tmp_path, paths)) == {}


READ_CLAIM_HELPERS = """\
import secrets

import redis

r = redis.Redis()


def acquire(key, ttl=30):
    if r.exists(key):
        return None
    token = secrets.token_hex(16)
    r.set(key, token, ex=ttl)
    return token


def release(key):
    r.delete(key)
"""


def test_a_module_named_for_locks_is_read_as_naming_a_lock(tmp_path):
    """Its text never says "lock", but its name does: the prefilter looks for a read, then a write
    there (LL009), in a walked run as in a run that names the file, and the cache keeps the two
    readings apart (the same bytes under another name are passed over)."""
    paths = tree(tmp_path, {"app/__init__.py": "", "app/locks.py": READ_CLAIM_HELPERS, "app/helpers.py": READ_CLAIM_HELPERS})
    expected = [("LL009", 12, 5), ("LL001", 17, 5)]
    assert codes(findings(tmp_path, paths)) == {"app/locks.py": expected}
    locks = [p for p in paths if p.endswith("locks.py")]
    assert codes(findings(tmp_path, locks, explicit=locks)) == {"app/locks.py": expected}
    cache = Cache(str(tmp_path / "cache"))
    assert codes(findings(tmp_path, paths, cache=cache)) == {"app/locks.py": expected}
    cache = Cache(str(tmp_path / "cache"))
    assert codes(findings(tmp_path, paths, cache=cache)) == {"app/locks.py": expected}


def test_a_project_asks_the_file_system_once_per_path(tmp_path, monkeypatch):
    from leaselint.project import Project

    for folder in ("app", "app/jobs"):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    files = [str(tmp_path / "app" / "jobs" / f"job{i}.py") for i in range(5)]
    asked: list[str] = []
    real = os.path.isfile
    monkeypatch.setattr(os.path, "isfile", lambda path: asked.append(path) or real(path))
    project = Project(str(tmp_path), lambda path: ())
    names = [project.name_of(path)[:2] for path in files]
    assert names == [(f"app.jobs.job{i}", False) for i in range(5)]
    assert project._file_of("app.jobs", str(tmp_path)) == str(tmp_path / "app" / "jobs" / "__init__.py")
    assert project._file_of("app.jobs", str(tmp_path)) == str(tmp_path / "app" / "jobs" / "__init__.py")
    assert len(asked) == len(set(asked))
    assert sorted(set(asked)) == sorted(
        [str(tmp_path / p) for p in ("__init__.py", "app/__init__.py", "app/jobs/__init__.py", "app/jobs.py")]
    )


WRAPPED_STORE = """\
import redis

client = redis.Redis()


def put_if_absent(key, value, ttl):
    return client.set(key, value, nx=True, ex=ttl)


def remove(key):
    client.delete(key)
"""

WRAPPER_OF_WRAPPER = {
    "app/__init__.py": "",
    "app/store.py": WRAPPED_STORE,
    # A second layer of the project's own code, with no lease of its own.
    "app/hold.py": """\
        from app import store


        def hold(key, owner):
            return store.put_if_absent(key, owner, 60)


        def unhold(key):
            store.remove(key)
        """,
    # A third layer, named for neither claims nor releases.
    "app/guard.py": """\
        from app.hold import hold, unhold


        def enter(key, owner):
            return hold(key, owner)


        def leave(key):
            unhold(key)
        """,
    "app/jobs.py": """\
        import socket

        from app.guard import enter, leave


        def nightly(name):
            key = f"job:{name}"
            if not enter(key, socket.gethostname()):
                return
            try:
                work(name)
            finally:
                leave(key)
        """,
}


def test_summaries_compose_through_wrappers_of_wrappers_in_other_modules(tmp_path):
    paths = tree(tmp_path, WRAPPER_OF_WRAPPER)
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL002", 8, 23), ("LL001", 13, 9)]}
    assert "the release is made inside `leave` (app/guard.py:9)" in found["app/jobs.py"][1][3]


def test_composed_summaries_agree_with_a_warm_run_and_a_run_of_the_caller_alone(tmp_path):
    paths = tree(tmp_path, WRAPPER_OF_WRAPPER)
    cold = findings(tmp_path, paths)
    folder = tmp_path / "cache"
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    warm, parsed = _parsing(lambda: findings(tmp_path, paths, cache=Cache(folder)))
    assert warm == cold and parsed == []
    jobs = [p for p in paths if p.endswith("jobs.py")]
    assert findings(tmp_path, jobs, explicit=jobs) == {"app/jobs.py": cold["app/jobs.py"]}


def test_composition_stops_after_its_rounds(tmp_path, monkeypatch):
    from leaselint import project_pass

    monkeypatch.setattr(project_pass, "ROUNDS", 1)
    found = findings(tmp_path, tree(tmp_path, WRAPPER_OF_WRAPPER))
    # One round reads the store's helpers alone: the layers above them stay unknown.
    assert codes(found) == {}


IMPORTED_SCRIPT = {
    "app/__init__.py": "",
    "app/scripts.py": """\
        # The release, compare-and-delete in one step.
        GIVE_BACK = '''
        if redis.call('get', KEYS[1]) == ARGV[1] then
          return redis.call('del', KEYS[1])
        end
        return 0
        '''
        NOT_A_SCRIPT = "job:{name}"
    """,
    "app/jobs.py": """\
        import uuid

        import redis

        from app.scripts import GIVE_BACK


        class Export:
            def __init__(self, conn: redis.Redis, name: str):
                self.conn = conn
                self.key = f"export:{name}"
                self.token = None
                self._give_back = conn.register_script(GIVE_BACK)

            def start(self) -> bool:
                token = uuid.uuid4().hex
                if self.conn.set(self.key, token, nx=True, ex=60):
                    self.token = token
                    return True
                return False

            def finish(self) -> None:
                self._give_back(keys=[self.key], args=[self.token])
    """,
}


def test_a_script_imported_from_another_module_is_read_from_there(tmp_path):
    paths = tree(tmp_path, IMPORTED_SCRIPT)
    cold = findings(tmp_path, paths)
    assert codes(cold) == {"app/jobs.py": [("LL006", 23, 9)]}
    folder = tmp_path / "cache"
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    jobs = [p for p in paths if p.endswith("jobs.py")]
    assert findings(tmp_path, jobs, explicit=jobs) == {"app/jobs.py": cold["app/jobs.py"]}


def test_a_script_name_of_no_module_of_the_project_is_no_release(tmp_path):
    files = dict(IMPORTED_SCRIPT)
    del files["app/scripts.py"]
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {}



# Tokens another module makes: a value made once per process, a helper of no parameter.
IMPORTED_VALUES = {
    "app/__init__.py": "",
    "app/ids.py": """\
        import os
        import socket
        import uuid

        WORKER = f"{socket.gethostname()}:{os.getpid()}"
        SESSION = uuid.uuid4().hex
        PREFIX = "worker"


        def worker_name():
            return "{}-{}".format(socket.gethostname(), os.getpid())


        def fresh_token():
            return uuid.uuid4().hex
    """,
    "app/jobs.py": """\
        import redis

        from app import ids
        from app.ids import WORKER, fresh_token, worker_name

        r = redis.Redis()


        def nightly(day):
            if not r.set(f"nightly:{day}", WORKER, nx=True, ex=600):
                return
            try:
                run_nightly(day)
            finally:
                r.delete(f"nightly:{day}")


        def compact(shard):
            if not r.set(f"compact:{shard}", worker_name(), nx=True, ex=60):
                return
            try:
                run_compaction(shard)
            finally:
                r.delete(f"compact:{shard}")


        def reindex(index):
            if not r.set(f"reindex:{index}", ids.SESSION, nx=True, ex=60):
                return
            try:
                run_reindex(index)
            finally:
                r.delete(f"reindex:{index}")


        def export(name):
            # A token made fresh for this claim by the other module's helper: no fixed token.
            if not r.set(f"export:{name}", fresh_token(), nx=True, ex=60):
                return
            try:
                run_export(name)
            finally:
                r.delete(f"export:{name}")
    """,
}


def test_a_token_made_in_another_module_is_read_from_there(tmp_path):
    paths = tree(tmp_path, IMPORTED_VALUES)
    cold = findings(tmp_path, paths)
    fixed = [(line, col, message) for code, line, col, message in cold["app/jobs.py"] if code == "LL002"]
    assert [(line, col) for line, col, _ in fixed] == [(10, 36), (19, 38), (28, 38)]
    assert "comes from a module-level value made once per process" in fixed[0][2]
    assert "comes from the host name and the process id" in fixed[1][2]
    assert "comes from a module-level value made once per process" in fixed[2][2]
    folder = tmp_path / "cache"
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    jobs = [p for p in paths if p.endswith("jobs.py")]
    assert findings(tmp_path, jobs, explicit=jobs) == {"app/jobs.py": cold["app/jobs.py"]}


def test_a_value_of_a_module_outside_the_project_is_known_only_by_its_capitals(tmp_path):
    """Unread, `WORKER` and `ids.SESSION` are still another module's module-level values, made once
    per process; what `worker_name()` returns is unknown. No fix: other code may read them back."""
    files = dict(IMPORTED_VALUES)
    del files["app/ids.py"]
    found = findings(tmp_path, tree(tmp_path, files))
    weak = [(line, message) for code, line, _, message in found["app/jobs.py"] if code == "LL002"]
    assert [line for line, _ in weak] == [10, 28]
    assert "comes from `WORKER`, another module's value made once per process" in weak[0][1]
    assert "comes from `ids.SESSION`, another module's value made once per process" in weak[1][1]
    assert all("no automatic fix: other modules may read the value back" in message for _, message in weak)


# A client wrapper class of another module, reached through its factory.
FACTORY_CLIENT = {
    "app/__init__.py": "",
    "app/cache.py": """\
        import redis.asyncio as aioredis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class CacheClient:
            def __init__(self, url):
                self.connection = aioredis.from_url(url)

            async def adelete(self, key):
                try:
                    return await self.connection.delete(key)
                except ConnectionError:
                    raise

            async def release(self, key, token):
                return await self.connection.eval(UNLOCK, 1, key, token)


        _client = None


        async def get_cache():
            global _client
            if _client is None:
                _client = CacheClient("redis://cache")
            return _client
    """,
    "app/sync.py": """\
        import secrets

        from app.cache import get_cache


        async def sync_account(account, ttl=30):
            key = f"sync:{account}"
            cache = None
            try:
                cache = await get_cache()
                if not await cache.connection.set(key, b"1", nx=True, ex=ttl):
                    return
            except ConnectionError:
                cache = None
            try:
                await pull(account)
            finally:
                if cache is not None:
                    await cache.adelete(key)


        async def sync_owner(owner, ttl=30):
            key = f"owner-sync:{owner}"
            token = secrets.token_hex(16)
            cache = await get_cache()
            if not await cache.connection.set(key, token, nx=True, ex=ttl):
                return
            try:
                await pull(owner)
            finally:
                if not await cache.release(key, token):
                    log_lost(key)
    """,
}


def test_a_client_class_reached_through_its_factory_is_read_from_its_module(tmp_path):
    paths = tree(tmp_path, FACTORY_CLIENT)
    cold = findings(tmp_path, paths)
    assert codes(cold) == {"app/sync.py": [("LL002", 11, 48), ("LL001", 19, 19)]}
    assert "the release is made inside `CacheClient.adelete` (app/cache.py:12)" in cold["app/sync.py"][1][3]
    folder = tmp_path / "cache"
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    sync = [p for p in paths if p.endswith("sync.py")]
    assert findings(tmp_path, sync, explicit=sync) == {"app/sync.py": cold["app/sync.py"]}


def test_a_factory_of_no_summarised_class_hands_its_callers_nothing(tmp_path):
    files = dict(FACTORY_CLIENT)
    files["app/cache.py"] = files["app/cache.py"].replace("_client = CacheClient(", "_client = make_client(")
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {}


# The class named by an annotation: a factory's return type, a parameter's type.
ANNOTATED_CLIENT = {
    "app/__init__.py": "",
    "app/cache.py": FACTORY_CLIENT["app/cache.py"],
    "app/registry.py": """\
        from app.cache import CacheClient

        INSTANCES = {}


        async def cache_client() -> CacheClient:
            return INSTANCES["cache"]
    """,
    "app/sync.py": """\
        from app.cache import CacheClient
        from app.registry import cache_client


        async def sync_account(account, ttl=30):
            key = f"sync:{account}"
            cache = await cache_client()
            if not await cache.connection.set(key, b"1", nx=True, ex=ttl):
                return
            try:
                await pull(account)
            finally:
                await cache.adelete(key)


        async def sync_owner(cache: CacheClient, owner, ttl=30):
            key = f"owner-sync:{owner}"
            if not await cache.connection.set(key, b"1", nx=True, ex=ttl):
                return
            try:
                await pull(owner)
            finally:
                await cache.adelete(key)
    """,
}


def test_a_client_class_named_by_an_annotation_is_read_from_its_module(tmp_path):
    paths = tree(tmp_path, ANNOTATED_CLIENT)
    cold = findings(tmp_path, paths)
    assert codes(cold) == {
        "app/sync.py": [("LL002", 8, 44), ("LL001", 13, 15), ("LL002", 18, 44), ("LL001", 23, 15)]
    }
    folder = tmp_path / "cache"
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    assert findings(tmp_path, paths, cache=Cache(folder)) == cold
    sync = [p for p in paths if p.endswith("sync.py")]
    assert findings(tmp_path, sync, explicit=sync) == {"app/sync.py": cold["app/sync.py"]}


def test_a_wrappers_own_claim_known_by_its_name_pairs_with_its_summarised_release(tmp_path):
    files = dict(FACTORY_CLIENT)
    files["app/cache.py"] = files["app/cache.py"].replace(
        "    async def release(self, key, token):",
        "    async def asetNx(self, key, value, ttl=3600):\n"
        "                done = await self.connection.setnx(key, value)\n"
        "                await self.connection.expire(key, ttl)\n"
        "                return bool(done) or False\n\n"
        "            async def release(self, key, token):",
    )
    files["app/sync.py"] = """\
        from app.cache import get_cache


        async def seed():
            cache = await get_cache()
            if not await cache.asetNx("seed:defaults", "1"):
                return
            try:
                await write_defaults()
            finally:
                await cache.adelete("seed:defaults")
    """
    found = findings(tmp_path, tree(tmp_path, files))
    # The wrapper's own `setnx`, then `expire`, is a lease at home too (its `adelete` frees the key).
    assert codes(found) == {"app/cache.py": [("LL005", 17, 22)], "app/sync.py": [("LL002", 6, 48), ("LL001", 11, 15)]}


def test_a_factory_typed_with_a_class_of_no_summarised_method_leaves_the_method_name_to_tell(tmp_path):
    # `Pool` reaches the factory through the package's `__init__`, whose summary holds no method of it:
    # the object's class is unknown there, and its distinctive method's name still finds the method.
    files = {
        "app/__init__.py": "from app.pool import Pool\n",
        "app/pool.py": """\
            import redis.asyncio as aioredis

            GIVE_BACK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            class Pool:
                def __init__(self):
                    self.client = aioredis.Redis()

                async def give_back_slot(self, key, token):
                    return await self.client.eval(GIVE_BACK, 1, key, token)
        """,
        "app/common.py": """\
            from app import Pool

            POOLS = {}


            async def take_pool(name) -> Pool:
                return POOLS[name]
        """,
        "app/routes.py": """\
            import secrets

            from app.common import take_pool


            async def handle(name):
                pool = await take_pool(name)
                token = secrets.token_hex(16)
                if not await pool.client.set(f"slot:{name}", token, nx=True, ex=30):
                    return None
                try:
                    return await forward(name)
                finally:
                    await pool.give_back_slot(f"slot:{name}", token)
        """,
    }
    found = codes(findings(tmp_path, tree(tmp_path, files)))
    assert found.get("app/routes.py") == [("LL006", 14, 15)]


def test_a_method_of_an_imported_project_class_is_no_store_claim_by_its_name(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/inflight.py": """\
            import threading


            class InFlight:
                # An in-process registry: no store behind these names.
                def __init__(self):
                    self.items, self.guard = {}, threading.Lock()

                def put_if_absent(self, key, value):
                    with self.guard:
                        return self.items.setdefault(key, value) is value

                def delete(self, key):
                    with self.guard:
                        self.items.pop(key, None)
        """,
        "app/service.py": """\
            from app.inflight import InFlight

            INFLIGHT = InFlight()


            def serve(request_id, work):
                if not INFLIGHT.put_if_absent(f"req:{request_id}", work):
                    return "busy"
                try:
                    return work()
                finally:
                    INFLIGHT.delete(f"req:{request_id}")
        """,
    }
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {}


def test_a_module_making_tokens_with_uuid_alone_is_read_for_them(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/ids.py": """\
            import uuid

            SESSION = uuid.uuid4().hex
        """,
        "app/jobs.py": """\
            import redis

            from app.ids import SESSION

            r = redis.Redis()


            def nightly(day):
                if not r.set(f"nightly:{day}", SESSION, nx=True, ex=600):
                    return
                try:
                    run_nightly(day)
                finally:
                    r.delete(f"nightly:{day}")
        """,
    }
    found = codes(findings(tmp_path, tree(tmp_path, files)))
    assert ("LL002", 9, 36) in found["app/jobs.py"]


def test_a_function_typed_with_a_class_of_the_standard_library_is_no_factory(tmp_path):
    from leaselint.model.build import build_model
    from leaselint.model.summary import exports

    import libcst as cst

    module = cst.parse_module(
        "from decimal import Decimal\n"
        "from app.cache import Client\n\n\n"
        "def parse(text) -> Decimal:\n    return Decimal(text)\n\n\n"
        "def client() -> Client:\n    return CLIENTS['main']\n"
    )
    names = [entry[0] for entry in exports(build_model(module))]
    assert "parse" not in names and "client" in names


# A module-level object of the project's class, imported by name; its claim stores a value of its own.
SHARED_OBJECT = {
    "app/__init__.py": "",
    "app/slots.py": """\
        import redis


        class Slots:
            def __init__(self):
                self.conn = redis.Redis()

            def take(self, key, ttl=120):
                return self.conn.set(key, "taken", nx=True, ex=ttl)

            def give_back(self, key):
                return self.conn.delete(key)


        slots = Slots()
    """,
    "app/imports.py": """\
        from app.slots import slots


        def import_feed(feed):
            key = f"feed-import:{feed}"
            if not slots.take(key):
                return False
            try:
                load(feed)
            finally:
                slots.give_back(key)
            return True
    """,
}


def test_an_imported_object_is_of_the_class_its_module_makes_it_with(tmp_path):
    found = findings(tmp_path, tree(tmp_path, SHARED_OBJECT))
    assert codes(found) == {"app/imports.py": [("LL002", 6, 12), ("LL001", 11, 9)]}
    assert "comes from a constant that `Slots.take` (app/slots.py:9) stores" in found["app/imports.py"][0][3]
    assert "the release is made inside `Slots.give_back` (app/slots.py:12)" in found["app/imports.py"][1][3]


def test_an_imported_object_made_by_no_summarised_class_is_of_none(tmp_path):
    """Its class is not taken from the import; the distinctive name `give_back` still finds its
    method, and so the class the object shows by it (model/calls.py)."""
    files = dict(SHARED_OBJECT)
    files["app/slots.py"] = files["app/slots.py"].replace("slots = Slots()", "slots = make_slots()")
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {"app/imports.py": [("LL002", 6, 12), ("LL001", 11, 9)]}


def test_a_value_of_a_claim_that_is_a_lease_at_home_is_reported_there_alone(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/locks.py": """\
            import redis

            r = redis.Redis()


            def acquire(key, ttl=60):
                return r.set(key, "1", nx=True, ex=ttl)


            def release(key):
                r.delete(key)
        """,
        "app/jobs.py": """\
            from app import locks


            def nightly(day):
                if not locks.acquire(f"nightly:{day}"):
                    return
                try:
                    run(day)
                finally:
                    locks.release(f"nightly:{day}")
        """,
    }
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {"app/locks.py": [("LL002", 7, 23), ("LL001", 11, 5)]}


def test_classmethods_of_another_module_called_on_the_class_are_its_helpers(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/util.py": """\
            import redis


            class Slots:
                conn = redis.Redis()

                @classmethod
                def occupy(cls, key, ttl=90):
                    return cls.conn.set(key, "on", nx=True, ex=ttl)

                @classmethod
                def vacate(cls, key):
                    cls.conn.delete(key)
        """,
        "app/jobs.py": """\
            from app.util import Slots


            def rebuild(index):
                if not Slots.occupy(f"rebuild:{index}"):
                    return
                try:
                    run(index)
                finally:
                    Slots.vacate(f"rebuild:{index}")
        """,
    }
    found = findings(tmp_path, tree(tmp_path, files))
    assert codes(found) == {"app/jobs.py": [("LL002", 5, 12), ("LL001", 10, 9)]}
    assert "comes from a constant that `Slots.occupy` (app/util.py:9) stores" in found["app/jobs.py"][0][3]


# A store wrapper class whose conditional create sets the lifetime by a second call, reached through
# a factory typed with it, itself called through a helper of the caller's module.
WRAPPED_STORE = {
    "app/__init__.py": "",
    "app/store.py": """\
        import redis


        class KV:
            def __init__(self, url):
                self.conn = redis.Redis.from_url(url)

            def putNx(self, key, value, expiration=300):
                done = self.conn.setnx(key, value)
                self.conn.expire(key, expiration)
                if not done:
                    return False
                return True

            def delete(self, key):
                return self.conn.delete(key)
    """,
    "app/registry.py": """\
        from app.store import KV

        _kv = None


        def shared_kv() -> KV:
            global _kv
            if _kv is None:
                _kv = KV("redis://kv")
            return _kv
    """,
    "app/sweep.py": """\
        SWEEP_KEY = "app:sweep"


        def _kv():
            try:
                from app.registry import shared_kv
                return shared_kv()
            except ImportError:
                return None


        def sweep():
            redis = _kv()
            if not redis.putNx(SWEEP_KEY, 1, expiration=120):
                return
            try:
                run_sweep()
            finally:
                redis.delete(SWEEP_KEY)
    """,
}


def test_a_wrapper_class_reached_through_a_helper_of_a_factory(tmp_path):
    found = findings(tmp_path, tree(tmp_path, WRAPPED_STORE))
    assert codes(found) == {
        "app/store.py": [("LL005", 9, 16)],
        "app/sweep.py": [("LL002", 14, 35), ("LL001", 19, 9)],
    }
    assert "gets its lifetime from a second call (`expire`)" in found["app/store.py"][0][3]


# A claim in one module and the release of its key in another, through one shared client.
ACROSS_MODULES = {
    "app/__init__.py": "",
    "app/conn.py": """\
        import redis

        r = redis.Redis()
    """,
    "app/keys.py": """\
        def report_lock(report_id):
            return f"report-lock:{report_id}"
    """,
    "app/start.py": """\
        from app.conn import r
        from app.keys import report_lock


        def begin_export(export_id):
            if not r.set(f"export-lock:{export_id}", "1", nx=True, ex=600):
                return False
            queue_export(export_id)
            return True


        def begin_report(report_id):
            if not r.set(report_lock(report_id), "1", nx=True, ex=600):
                return False
            queue_report(report_id)
            return True


        def cache_user(uid, data):
            return r.set(f"user:{uid}", data, nx=True, ex=60)
    """,
    "app/finish.py": """\
        from app import conn
        from app.conn import r
        from app.keys import report_lock


        def on_export_done(export_id):
            r.delete(f"export-lock:{export_id}")


        def on_report_done(report_id):
            conn.r.delete(report_lock(report_id))


        def forget_user(uid):
            r.delete(f"user:{uid}")
    """,
}


def test_a_key_of_its_own_text_or_maker_pairs_across_modules(tmp_path):
    """The release-only module is read for the key another module claims (its literal text); a key of
    a parameter pairs when its text or maker names a lock (`user:` does not); `conn.r` is `r`."""
    found = findings(tmp_path, tree(tmp_path, ACROSS_MODULES))
    assert codes(found) == {
        "app/finish.py": [("LL001", 7, 5), ("LL001", 11, 5)],
        "app/start.py": [("LL002", 6, 46), ("LL002", 13, 42)],
    }
    assert "(no automatic fix: the lease is claimed in another module (app/start.py:6))" in found["app/finish.py"][0][3]


HELD_ELSEWHERE = {
    "app/__init__.py": "",
    "app/locks.py": """\
        import redis

        redis_client = redis.Redis()


        def acquire_edit_lock(doc_id, token, ttl=180):
            return redis_client.set(f"edit-lock:{doc_id}", token, nx=True, ex=ttl)


        def release_edit_lock(doc_id, token):
            if redis_client.get(f"edit-lock:{doc_id}") == token:
                redis_client.delete(f"edit-lock:{doc_id}")
    """,
    "app/routes.py": """\
        from app.locks import redis_client


        def publish(doc_id, user):
            lock_key = f"edit-lock:{doc_id}"
            holder = redis_client.get(lock_key)
            if holder and holder != user.token:
                raise PermissionError(doc_id)
            save(doc_id)
            redis_client.delete(lock_key)


        def remove(doc_id):
            drop(doc_id)
            redis_client.delete(f"edit-lock:{doc_id}")


        def forget_draft(doc_id, user):
            if redis_client.get(f"draft:{doc_id}") == user.token:
                redis_client.delete(f"draft:{doc_id}")
    """,
    "app/reports.py": """\
        from app.locks import redis_client


        def queue_report(rid):
            if redis_client.set(f"report-status:{rid}", "pending", nx=True, ex=3600):
                generate(rid)
    """,
    "app/report_views.py": """\
        from app.locks import redis_client


        def retry(rid):
            status = redis_client.get(f"report-status:{rid}")
            if status != b"failed":
                raise ValueError(rid)
            redis_client.delete(f"report-status:{rid}")
    """,
    "app/other.py": """\
        import redis

        other = redis.Redis(db=3)


        def publish(doc_id, user):
            if other.get(f"edit-lock:{doc_id}") != user.token:
                return
            other.delete(f"edit-lock:{doc_id}")
    """,
}


def test_a_release_after_a_compare_pairs_with_another_modules_lease_on_its_client(tmp_path):
    """`app/locks.py` claims and releases `edit-lock:*` on its module client; `app/routes.py` imports
    that client, compares the holder and deletes: LL004 there, with no fix. A blind delete of the same
    key beside no compare (a document's removal clearing its lock) is a cleanup's, and a key the lock
    module never claims (`draft:*`), or another client of the same key text, is no lease; nor is a
    status another module sets if absent and this one deletes after comparing it (`report-status:*`)."""
    found = findings(tmp_path, tree(tmp_path, HELD_ELSEWHERE))
    assert codes(found)["app/routes.py"] == [("LL004", 10, 5)]
    assert {"app/other.py", "app/reports.py", "app/report_views.py"}.isdisjoint(codes(found))
    assert "(no automatic fix: the lease is claimed in another module (app/locks.py:7))" in found["app/routes.py"][0][3]


def test_what_a_wrapper_method_names_does_not_reach_objects_it_does_not_make(tmp_path):
    """A local class of the same method name is its own (an in-process memo); a wrapper's own
    checked `delete` is no blind store call; a value made once per instance is its callers' to judge."""
    store = """\
        import uuid

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class KV:
            def __init__(self):
                self.conn = redis.Redis()
                self.token = uuid.uuid4().hex

            def putNx(self, key, value, ttl=60):
                return self.conn.set(key, value, nx=True, ex=ttl)

            def take(self, key, ttl=60):
                return self.conn.set(key, self.token, nx=True, ex=ttl)

            def delete(self, key):
                return self.conn.eval(UNLOCK, 1, key, self.token)
    """
    files = {
        "app/__init__.py": "",
        "app/kv.py": store,
        "app/memo.py": """\
            from app.kv import KV

            shared = KV()


            class Memo:
                def __init__(self):
                    self.data = {}

                def putNx(self, key, value):
                    if key in self.data:
                        return False
                    self.data[key] = value
                    return True

                def delete(self, key):
                    self.data.pop(key, None)


            def render_once(page):
                memo = Memo()
                if not memo.putNx(f"page:{page}", page):
                    return
                try:
                    render(page)
                finally:
                    memo.delete(f"page:{page}")
        """,
        "app/jobs.py": """\
            from app.kv import KV


            def nightly(day):
                redis = KV()
                if not redis.take(f"nightly:{day}"):
                    return
                try:
                    run(day)
                finally:
                    if not redis.delete(f"nightly:{day}"):
                        raise RuntimeError("lease lost")
        """,
    }
    assert codes(findings(tmp_path, tree(tmp_path, files))) == {}


def test_a_key_of_long_text_with_a_parameter_pairs_across_modules(tmp_path):
    """A task handed the id deletes a key whose own text is long enough to name one lease (the
    view's part made by a call of its own is the view's value); a short text does not pair."""
    files = {
        "app/__init__.py": "",
        "app/views.py": """\
            from django.core.cache import cache


            def manifest(request, asset):
                try:
                    uid = resolve(request.path).kwargs.get("uid")
                except LookupError:
                    uid = None
                if uid and not cache.add(f"rebuild_paired_data_{uid}", True, timeout=900):
                    return serve_stale(asset)
                rebuild.delay(asset.pk, uid)
                if not cache.add(f"stats_{asset.pk}", True, timeout=60):
                    return None
                count_views(asset)
        """,
        "app/tasks.py": """\
            from django.core.cache import cache


            def rebuild(asset_id, uid):
                try:
                    build_paired_data(asset_id, uid)
                finally:
                    cache.delete(f"rebuild_paired_data_{uid}")


            def reset_stats(asset_id):
                cache.delete(f"stats_{asset_id}")
        """,
    }
    found = findings(tmp_path, tree(tmp_path, files))
    assert codes(found) == {
        "app/tasks.py": [("LL001", 8, 9)],
        "app/views.py": [("LL002", 9, 60)],
    }
    assert "the lease is released in another module (app/tasks.py:8)" in found["app/views.py"][0][3]


def test_store_calls_in_lambdas_a_helper_runs_are_the_helpers_claim_and_release(tmp_path):
    """`safe_add` hands back what its lambda's `cache.add` answers; `safe_delete` deletes its key."""
    files = {
        "app/__init__.py": "",
        "app/cache_tools.py": """\
            import logging

            from django.core.cache import cache

            logger = logging.getLogger(__name__)


            def _safe(operation, default=None):
                try:
                    return operation()
                except ConnectionError:
                    logger.warning("cache down")
                    return default


            def safe_add(key, value, timeout=None):
                return _safe(lambda: cache.add(key, value, timeout), False)


            def safe_delete(key):
                _safe(lambda: cache.delete(key))
        """,
        "app/render.py": """\
            from app.cache_tools import safe_add, safe_delete


            def publish(key):
                lock = f"{key}_lock"
                if not safe_add(lock, "true", 60):
                    return
                try:
                    push(key)
                finally:
                    safe_delete(lock)
        """,
    }
    found = findings(tmp_path, tree(tmp_path, files))
    assert codes(found) == {"app/render.py": [("LL002", 6, 27), ("LL001", 11, 9)]}


def test_a_token_passed_to_another_modules_lease_helper_is_reported_at_the_argument(tmp_path):
    """The helper claims and releases at home with the token its caller passes: Celery's `app.oid`
    passed from another module is reported there, as in the helper's own module; a fresh token is
    not; a caller's own delete of the key inside the `with` is a blind release of that claim."""
    files = {
        "app/__init__.py": "",
        "app/utils.py": """\
            import time
            from contextlib import contextmanager

            from django.core.cache import cache

            LOCK_EXPIRE = 600


            @contextmanager
            def task_lock(lock_id, holder):
                deadline = time.monotonic() + LOCK_EXPIRE - 3
                acquired = cache.add(lock_id, holder, LOCK_EXPIRE)
                try:
                    yield acquired
                finally:
                    if acquired and time.monotonic() < deadline:
                        cache.delete(lock_id)
        """,
        "app/tasks.py": """\
            import uuid

            from celery import shared_task
            from django.core.cache import cache

            from app.utils import task_lock


            @shared_task(bind=True)
            def sync_feed(self, feed):
                with task_lock(f"sync-feed-{feed}", self.app.oid) as acquired:
                    if acquired:
                        return pull(feed)


            @shared_task
            def sync_user(user):
                with task_lock(f"sync-user-{user}", uuid.uuid4().hex) as acquired:
                    if acquired:
                        pull(user)
                        cache.delete(f"sync-user-{user}")
        """,
    }
    found = findings(tmp_path, tree(tmp_path, files))
    assert codes(found) == {
        "app/utils.py": [("LL001", 17, 13)],
        "app/tasks.py": [("LL002", 11, 41), ("LL001", 21, 13)],
    }
    assert "(no automatic fix: the release is made inside `task_lock` (app/utils.py:17)" in found["app/tasks.py"][0][3]
    assert "(no automatic fix: the claim is made inside `task_lock` (app/utils.py:12))" in found["app/tasks.py"][1][3]


def test_a_file_the_second_look_passes_over_is_still_read_for_the_helpers_it_calls(tmp_path):
    """A caller whose bytes hold a claim's words (a lock API's `acquire(...)`, a holder's name) but
    whose tree holds no claim is passed over at the prefilter's second look; it still calls another
    module's checked release and drops the answer."""
    files = {
        "app/__init__.py": "",
        "app/lease.py": """\
            import secrets

            import redis

            r = redis.Redis()
            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            class Lease:
                def __init__(self):
                    self.owner = None

                def acquire(self, name, ttl):
                    self.owner = secrets.token_hex(16)
                    return bool(r.set(name, self.owner, nx=True, ex=ttl))

                def release(self, name):
                    return bool(r.eval(UNLOCK, 1, name, self.owner))
        """,
        "app/held.py": """\
            from app.lease import Lease


            class Held:
                \"\"\"Holds a lease for its owner while the block runs.\"\"\"

                def __init__(self, name):
                    self.lease = Lease()
                    self.name = name
                    self.acquired = False

                def __enter__(self):
                    self.acquired = self.lease.acquire(self.name, 60)
                    return self.acquired

                def __exit__(self, *exc):
                    if self.acquired:
                        self.lease.release(self.name)
        """,
    }
    found = findings(tmp_path, tree(tmp_path, files))
    assert codes(found) == {"app/held.py": [("LL006", 18, 13)]}


NAMED_LOCK_CLASS = """\
import uuid

UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class StoreLock:
    def __init__(self, client, name, ttl=10):
        self.client = client
        self.name = name
        self.ttl = ttl
        self.owner = None

    def acquire_lock(self):
        self.owner = str(uuid.uuid4())
        return self.client.set(self.name, self.owner, nx=True, ex=self.ttl)

    def release_lock(self):
        return self.client.eval(UNLOCK, 1, self.name, self.owner)
"""

NAMED_LOCK_CALLER = """\
from app.lockutil import StoreLock
from app.store import r

IMPORT_LOCK = StoreLock(r, "import:lock")


def import_rows(rows):
    if IMPORT_LOCK.acquire_lock():
        try:
            save(rows)
        finally:
            IMPORT_LOCK.release_lock()
"""


def test_a_lock_class_of_another_module_with_methods_named_for_locking_answers_its_callers(tmp_path):
    paths = tree(
        tmp_path,
        {"app/__init__.py": "", "app/store.py": REDIS_STORE, "app/lockutil.py": NAMED_LOCK_CLASS, "app/importer.py": NAMED_LOCK_CALLER},
    )
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/importer.py": [("LL006", 12, 13)]}
    assert found["app/importer.py"][0][3].startswith("`release_lock` answers whether the lease was still held (app/lockutil.py:18)")


STORE_API = """\
import redis


class Store:
    def __init__(self, url):
        self.client = redis.Redis.from_url(url)

    def add(self, key, value, ttl):
        return self.client.set(key, value, nx=True, ex=ttl)

    def remove(self, key):
        self.client.delete(key)


store = Store("redis://localhost")
"""

STORE_API_CALLER = """\
from app.store import store


def nightly(job):
    key = f"nightly:{job}"
    if not store.add(key, "running", 600):
        return
    try:
        run(job)
    finally:
        store.remove(key)
"""


def test_a_store_api_the_second_look_passes_over_hands_its_callers_its_claims_and_releases(tmp_path):
    # Both files are passed over by the prefilter: the API claims only its caller's key, and the
    # caller names no store word. The API's module-level object is searched for in the caller.
    paths = tree(tmp_path, {"app/__init__.py": "", "app/store.py": STORE_API, "app/jobs.py": STORE_API_CALLER})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL002", 6, 27), ("LL001", 11, 9)]}
    assert "the release is made inside `Store.remove` (app/store.py:12)" in found["app/jobs.py"][1][3]


CACHE_HELPERS = """\
import logging

from django.core.cache import cache

log = logging.getLogger(__name__)


def cache_add(key, value, timeout=None):
    try:
        return bool(cache.add(key, value, timeout=timeout))
    except Exception:
        log.warning("add failed for %s", key)
        return False


def cache_get(key, default=None):
    try:
        return cache.get(key, default)
    except Exception:
        return default


def cache_delete(key):
    try:
        cache.delete(key)
        return True
    except Exception:
        return False
"""

CACHE_HELPER_LOCK = """\
import uuid
from contextlib import contextmanager

from app.cache_helpers import cache_add, cache_delete, cache_get


@contextmanager
def job_lock(name, timeout=300):
    key = f"job-lock:{name}"
    token = uuid.uuid4().hex
    acquired = cache_add(key, token, timeout=timeout)
    try:
        yield acquired
    finally:
        if acquired and cache_get(key) == token:
            cache_delete(key)
"""


def test_a_read_through_another_modules_helper_is_the_read_of_a_check_then_delete(tmp_path):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/cache_helpers.py": CACHE_HELPERS, "app/locks.py": CACHE_HELPER_LOCK})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/locks.py": [("LL004", 16, 13)]}
    assert "(`cache_get` then compare) and released by `cache_delete`" in found["app/locks.py"][0][3]


TRANSACTION_SETTINGS = """\
LOCK_PREFIX = "crawler:lock:"
"""

TRANSACTION_LOCKS = """\
import uuid

import redis

from app.settings import LOCK_PREFIX


def acquire_lock(conn, name, timeout=10):
    token = str(uuid.uuid4())
    name = LOCK_PREFIX + name
    if conn.set(name, token, ex=timeout, nx=True):
        return token
    return None


def release_lock(conn, name, token):
    pipe = conn.pipeline(True)
    name = LOCK_PREFIX + name
    while True:
        try:
            pipe.watch(name)
            if pipe.get(name).decode() == token:
                pipe.multi()
                pipe.delete(name)
                pipe.execute()
                return True
            pipe.unwatch()
            break
        except redis.exceptions.WatchError:
            pass
    return False
"""

TRANSACTION_CALLER = """\
from app.locks import acquire_lock, release_lock


def schedule(conn, task):
    token = acquire_lock(conn, task)
    if not token:
        return None
    try:
        return push(task)
    finally:
        release_lock(conn, task, token)
"""


def test_a_transaction_release_helper_answering_by_literals_is_dropped_by_another_modules_caller(tmp_path):
    paths = tree(
        tmp_path,
        {"app/__init__.py": "", "app/settings.py": TRANSACTION_SETTINGS, "app/locks.py": TRANSACTION_LOCKS, "app/jobs.py": TRANSACTION_CALLER},
    )
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL006", 11, 9)]}
    assert "by `release_lock` (app/locks.py:24), which returns it, is thrown away" in found["app/jobs.py"][0][3]


MARKER_HELPERS = """\
import logging

import redis

log = logging.getLogger(__name__)


def get_client():
    return redis.Redis(decode_responses=True)


def is_export_running(export_id):
    try:
        r = get_client()
        return bool(r.get(f"export_lock:{export_id}"))
    except redis.RedisError:
        log.exception("could not read the export marker")
        return False


def mark_export_running(export_id, ttl=1800):
    try:
        r = get_client()
        r.set(f"export_lock:{export_id}", "running", ex=ttl)
    except redis.RedisError:
        log.exception("could not set the export marker")


def clear_export_running(export_id):
    try:
        r = get_client()
        r.delete(f"export_lock:{export_id}")
    except redis.RedisError:
        log.exception("could not clear the export marker")
"""

MARKER_ROUTES = """\
from app.markers import clear_export_running, is_export_running, mark_export_running


def start_export(export_id):
    if is_export_running(export_id):
        raise RuntimeError("an export is running")
    mark_export_running(export_id)
    try:
        return build(export_id)
    finally:
        clear_export_running(export_id)
"""


def test_a_marker_read_and_written_through_another_modules_helpers_is_claimed_by_a_read(tmp_path):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/markers.py": MARKER_HELPERS, "app/routes.py": MARKER_ROUTES})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/routes.py": [("LL002", 7, 5), ("LL009", 7, 5), ("LL001", 11, 9)]}
    assert "claimed by reading it (`is_export_running`) and then writing it (`mark_export_running`)" in found["app/routes.py"][1][3]


def test_a_cache_read_and_filled_through_another_modules_helpers_is_no_claim(tmp_path):
    helpers = MARKER_HELPERS.replace('"running"', "payload").replace("(export_id, ttl=1800)", "(export_id, payload, ttl=1800)")
    helpers = helpers.replace("export_lock:", "export:")
    routes = MARKER_ROUTES.replace("mark_export_running(export_id)", "mark_export_running(export_id, render(export_id))")
    routes = routes.replace("app.markers", "app.export_locks")  # (a module named for a lock is read for LL009)
    paths = tree(tmp_path, {"app/__init__.py": "", "app/export_locks.py": helpers, "app/routes.py": routes})
    assert codes(findings(tmp_path, paths)) == {}


SIBLING_LOCKS = """\
import redis


def acquire_guard(db: redis.Redis, order_id, token, ttl=30):
    return db.set(f"order-guard:{order_id}", token, nx=True, ex=ttl) is True


def clear_guard(db: redis.Redis, order_id):
    db.delete(f"order-guard:{order_id}")
"""

SIBLING_APP = """\
import uuid

import redis

from locks import acquire_guard, clear_guard

db = redis.Redis()


def checkout(order_id):
    token = str(uuid.uuid4())
    if not acquire_guard(db, order_id, token):
        return 409
    try:
        return pay(order_id)
    finally:
        clear_guard(db, order_id)
"""


@pytest.mark.parametrize("package", [True, False])
def test_a_module_imported_by_its_bare_name_from_beside_the_caller_is_read(tmp_path, package):
    # A service run from its own folder (`from locks import ...` in order/app.py), a package or not.
    files = {"order/locks.py": SIBLING_LOCKS, "order/app.py": SIBLING_APP}
    if package:
        files["order/__init__.py"] = ""
    paths = tree(tmp_path, files)
    found = findings(tmp_path, paths)
    assert codes(found) == {"order/app.py": [("LL001", 17, 9)]}
    assert "the release is made inside `clear_guard` (order/locks.py:9)" in found["order/app.py"][0][3]


def test_a_bare_import_found_at_the_root_is_not_read_from_beside_the_caller(tmp_path):
    # `locks` at the project's root is the one Python imports; the folder's own `locks.py` is not.
    root_locks = "def acquire_guard(*args):\n    return True\n\n\ndef clear_guard(*args):\n    pass\n"
    paths = tree(tmp_path, {"locks.py": root_locks, "order/locks.py": SIBLING_LOCKS, "order/app.py": SIBLING_APP})
    assert "order/app.py" not in codes(findings(tmp_path, paths))


EXPIRY_UTILS = """\
def apply_expiry(client, key, expiry, prior_version=None):
    if expiry is None:
        return False
    ms = max(0, int(expiry * 1000.0))
    return bool(client.pexpire(key, ms))
"""

EXPIRY_JOBS = """\
import uuid

import redis

from app import redis_utils

UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


class Job:
    def __init__(self, client: redis.Redis, name, expiry=30.0):
        self.client = client
        self.owner_key = f"job:{name}.owner"
        self.expiry = expiry

    def claim(self, token):
        return self.client.set(self.owner_key, token, nx=True, px=int(self.expiry * 1000))

    def extend_expiry(self, expiry):
        return redis_utils.apply_expiry(self.client, self.owner_key, expiry)

    def abandon(self, token):
        if not self.client.eval(UNLOCK, 1, self.owner_key, token):
            raise RuntimeError("job lost")
"""


def test_a_renewal_through_another_modules_helper_is_a_blind_renewal_of_the_callers_lease(tmp_path):
    paths = tree(tmp_path, {"app/__init__.py": "", "app/redis_utils.py": EXPIRY_UTILS, "app/jobs.py": EXPIRY_JOBS})
    found = findings(tmp_path, paths)
    assert codes(found) == {"app/jobs.py": [("LL010", 20, 16)]}
    assert "`apply_expiry` renews lease `self.owner_key` without checking the holder" in found["app/jobs.py"][0][3]
    assert "the renewal is made inside `apply_expiry` (app/redis_utils.py:5)" in found["app/jobs.py"][0][3]
