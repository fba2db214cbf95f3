"""The run-time checker's two ways in, run as a user runs them on a real Redis: `pytest --leases`
(its summary, `--leases=strict`, `--leases-report`, `# noqa`) and `leaselint trace -- COMMAND`
(every Python process of the command, forked children included)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

LIB = """
import uuid

SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def blind(r):
    if r.set("lock:a", uuid.uuid4().hex, nx=True, ex=30):
        r.delete("lock:a"){noqa}


def checked(r):
    token = uuid.uuid4().hex
    if r.set("lock:b", token, nx=True, ex=30):
        r.eval(SCRIPT, 1, "lock:b", token)
"""

TESTS = """
import os

import redis

from app import lib


def client():
    return redis.Redis.from_url(os.environ["LEASES_REDIS_URL"])


def test_blind():
    lib.blind(client())


def test_checked():
    lib.checked(client())
"""

BLIND_LINE = 8


def make_project(root, noqa: str = "", tests: str = TESTS) -> None:
    (root / "app").mkdir()
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "lib.py").write_text(LIB.lstrip("\n").format(noqa=noqa))
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(tests)


def run(root, redis_url, *args, command=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "LEASES_REDIS_URL": redis_url, "PYTHONPATH": str(root)}
    env.pop("PYTEST_ADDOPTS", None)
    command = command or [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_leases_reports_in_the_summary_with_the_test(tmp_path, redis_url, redis_client):
    make_project(tmp_path)
    result = run(tmp_path, redis_url, "--leases", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
    section = result.stdout.split("leases at run time (leaselint)")[1]
    lines = [line for line in section.splitlines() if ": LL" in line]
    assert lines == [
        f"app/lib.py:{BLIND_LINE}:9: LL001 `DEL` releases lease `lock:a` (claimed at lib.py:7) without checking "
        "the holder (seen in tests/test_lib.py::test_blind)"
    ]
    assert "1 lease bug seen" in section


def test_strict_fails_the_session(tmp_path, redis_url, redis_client):
    make_project(tmp_path)
    assert run(tmp_path, redis_url, "--leases=strict", "tests").returncode == 1
    clean = run(tmp_path, redis_url, "--leases=strict", "tests/test_lib.py::test_checked")
    assert clean.returncode == 0, clean.stdout
    assert "no lease bugs seen (1 claims recorded)" in clean.stdout


def test_report_files(tmp_path, redis_url, redis_client):
    make_project(tmp_path)
    result = run(tmp_path, redis_url, "--leases", "--leases-report", "out.json", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
    items = json.loads((tmp_path / "out.json").read_text())
    assert [(i["code"], i["filename"], i["location"]["row"]) for i in items] == [
        ("LL001", str(tmp_path / "app" / "lib.py"), BLIND_LINE)
    ]
    assert "tests/test_lib.py::test_blind" in items[0]["message"]
    run(tmp_path, redis_url, "--leases", "--leases-report", "out.sarif", "tests")
    sarif = json.loads((tmp_path / "out.sarif").read_text())
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [
        ("LL001", BLIND_LINE)
    ]


@pytest.mark.parametrize(("noqa", "hidden"), [("  # noqa: LL001", True), ("  # noqa", True), ("  # noqa: LL002", False)])
def test_noqa(tmp_path, redis_url, redis_client, noqa, hidden):
    make_project(tmp_path, noqa=noqa)
    result = run(tmp_path, redis_url, "--leases=strict", "tests")
    assert result.returncode == (0 if hidden else 1), result.stdout
    assert ("LL001" in result.stdout) is not hidden


def test_off_unless_asked_for(tmp_path, redis_url, redis_client):
    tests = TESTS + textwrap.dedent(
        """

        def test_not_wrapped():
            import redis.client

            assert "_leaselint_wrapped" not in vars(redis.client.Redis)
        """
    )
    make_project(tmp_path, tests=tests)
    result = run(tmp_path, redis_url, "tests")
    assert result.returncode == 0, result.stdout
    assert "leases at run time" not in result.stdout


SCRIPT = """
import multiprocessing
import os
import sys
import uuid

import redis


def blind(url):
    r = redis.Redis.from_url(url)
    if r.set("lock:child", uuid.uuid4().hex, nx=True, ex=30):
        r.delete("lock:child")


if __name__ == "__main__":
    context = multiprocessing.get_context("fork")
    child = context.Process(target=blind, args=(os.environ["LEASES_REDIS_URL"],))
    child.start()
    child.join()
    sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
"""


def trace(tmp_path, redis_url, *args):
    leaselint = [sys.executable, "-m", "leaselint", "trace", *args]
    return run(tmp_path, redis_url, command=leaselint)


def test_trace_sees_a_forked_child(tmp_path, redis_url, redis_client):
    (tmp_path / "job.py").write_text(SCRIPT)
    result = trace(tmp_path, redis_url, "--", sys.executable, "job.py")
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "job.py:13:9: LL001 `DEL` releases lease `lock:child` (claimed at job.py:12) without checking the holder "
        "(seen at run time)",
        "1 lease bug seen at run time",
    ]
    assert result.stderr == ""


def test_trace_exit_codes_and_json(tmp_path, redis_url, redis_client):
    (tmp_path / "job.py").write_text(SCRIPT)
    assert trace(tmp_path, redis_url, "--exit-zero", "--", sys.executable, "job.py").returncode == 0
    assert trace(tmp_path, redis_url, "--", sys.executable, "job.py", "3").returncode == 3
    missing = trace(tmp_path, redis_url, "--", str(tmp_path / "no-such-program"))
    assert missing.returncode == 2 and "cannot run" in missing.stderr
    result = trace(tmp_path, redis_url, "--output-format", "json", "--", sys.executable, "job.py")
    items = json.loads(result.stdout)
    assert [(i["code"], i["location"]["row"]) for i in items] == [("LL001", 13)]


def test_trace_keeps_the_environments_own_sitecustomize(tmp_path, redis_url, redis_client):
    own = tmp_path / "own"
    own.mkdir()
    (own / "sitecustomize.py").write_text("import os\nos.environ['OWN_SITECUSTOMIZE'] = 'ran'\n")
    (tmp_path / "show.py").write_text("import os\nprint(os.environ.get('OWN_SITECUSTOMIZE'))\n")
    env = {**os.environ, "PYTHONPATH": str(own)}
    result = subprocess.run(
        [sys.executable, "-m", "leaselint", "trace", "--", sys.executable, "show.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "ran"
    assert result.stderr == ""
