"""The `leaselint` command end to end: exit codes, output formats, --fix/--diff, noqa, discovery, encodings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import leaselint
from leaselint import __version__
from leaselint.cli import main
from leaselint.rules import RULES_BY_CODE

from snippets import BLIND_RELEASE

# A lease whose claim already stores a token: LL001 at 12:13 with a safe fix.
SAFE = BLIND_RELEASE

# The claim stores the constant "1": LL001 at 11:13 with an unsafe fix.
# LL002 also reports this constant token, with a safe fix of its own; the tests that
# show LL001's unsafe fix select LL001 alone.
UNSAFE = '''import redis

r = redis.Redis()


def run(job):
    if r.set(f"lock:{job}", "1", nx=True, ex=30):
        try:
            work(job)
        finally:
            r.delete(f"lock:{job}")
'''

# A cache entry (set with ex, then delete) and an idempotency marker (claimed, never released).
CLEAN = '''import redis

r = redis.Redis()


def cache(k, v):
    r.set(k, v, ex=60)
    r.delete(k)


def once(event_id):
    if r.set(f"seen:{event_id}", "1", nx=True, ex=86400):
        handle(event_id)
'''

IMPORTS_FIX = "import logging\n\n"

SCRIPT_FIX = '''
LEASE_RELEASE_SCRIPT = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then "
    "return redis.call('del', KEYS[1]) else return 0 end"
)
'''

WARNING_LINE = (
    "                logging.getLogger(__name__).warning(\n"
    '                    "lease %s expired before release; another worker may hold it",\n'
    '                    f"lock:{job}",\n'
    "                )"
)
RELEASE_FIX = (
    '            if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):\n' + WARNING_LINE + "\n"
)

SAFE_FIXED = (
    IMPORTS_FIX
    + "import redis\n"
    + SCRIPT_FIX
    + '''
r = redis.Redis()


def run(job):
    token = secrets.token_hex(16)
    if r.set(f"lock:{job}", token, nx=True, ex=30):
        try:
            work(job)
        finally:
'''
    + RELEASE_FIX
)

UNSAFE_FIXED = (
    "import logging\nimport secrets\n\nimport redis\n"
    + SCRIPT_FIX
    + '''
r = redis.Redis()


def run(job):
    token = secrets.token_hex(16)
    if r.set(f"lock:{job}", token, nx=True, ex=30):
        try:
            work(job)
        finally:
'''
    + RELEASE_FIX
)

MESSAGE = (
    '`delete` releases lease `f"lock:{job}"` without checking the holder: '
    "after its deadline it frees another worker's claim"
)
SAFE_HELP = "Release with a token-checked compare-and-delete in one server step"
UNSAFE_HELP = (
    "Store a fresh token with the claim and release with a token-checked compare-and-delete in one server step"
)
RELEASE_LINE = '            r.delete(f"lock:{job}")'


def run_cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    # Exits go through sys.exit; anything else is a crash the test should show.
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def write(path, text: str, encoding: str = "utf-8", newline: str = "\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.replace("\n", newline).encode(encoding))
    return path


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- exit codes


def test_clean_file_exits_0(cwd):
    write(cwd / "clean.py", CLEAN)
    result = run_cli("clean.py")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed!\n"
    assert result.stderr == ""


def test_clean_file_quiet_prints_nothing(cwd):
    write(cwd / "clean.py", CLEAN)
    result = run_cli("-q", "clean.py")
    assert result.exit_code == 0
    assert result.stdout == ""


def test_findings_exit_1(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "a.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"a.py:12:13: LL001 [*] {MESSAGE}"


def test_fix_everything_exits_0(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--fix", "a.py")
    assert result.exit_code == 0
    assert result.stdout == "Found 1 error (1 fixed, 0 remaining).\n"


def test_fix_leaving_unsafe_finding_exits_1(cwd):
    path = write(cwd / "b.py", UNSAFE)
    result = run_cli("--select", "LL001", "--fix", "--output-format", "concise", "b.py")
    assert result.exit_code == 1
    assert result.stdout == (
        f"b.py:11:13: LL001 {MESSAGE}\n"
        "Found 1 error.\n"
        "No fixes available (1 hidden fix can be enabled with `--unsafe-fixes`).\n"
    )
    assert path.read_text() == UNSAFE


def test_missing_path_exits_2_and_names_it(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("a.py", "no_such_file.py")
    assert result.exit_code == 2
    assert result.stderr == "leaselint: error: no_such_file.py: no such file or directory\n"
    assert result.stdout == ""


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_unknown_rule_code_exits_2(cwd, option):
    write(cwd / "a.py", SAFE)
    result = run_cli(option, "LL001,LL999", "a.py")
    assert result.exit_code == 2
    known = ", ".join(sorted(RULES_BY_CODE))
    assert result.stderr == f"leaselint: error: unknown rule code 'LL999'; known: {known}\n"
    assert result.stdout == ""


# ------------------------------------------------------------ output formats


def test_concise_format(cwd):
    write(cwd / "a.py", SAFE)
    write(cwd / "b.py", UNSAFE)
    result = run_cli("--select", "LL001", "--output-format", "concise", "a.py", "b.py")
    assert result.exit_code == 1
    assert result.stdout == (
        f"a.py:12:13: LL001 [*] {MESSAGE}\n"
        f"b.py:11:13: LL001 {MESSAGE}\n"
        "Found 2 errors.\n"
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with `--unsafe-fixes`).\n"
    )


def test_concise_format_with_unsafe_fixes_marks_unsafe_fix(cwd):
    write(cwd / "b.py", UNSAFE)
    result = run_cli("--select", "LL001", "--output-format", "concise", "--unsafe-fixes", "b.py")
    assert result.exit_code == 1
    assert result.stdout == (
        f"b.py:11:13: LL001 [*] {MESSAGE}\n"
        "Found 1 error.\n"
        "[*] 1 fixable with `--fix --unsafe-fixes`.\n"
    )


def test_full_format_is_default(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("a.py")
    assert result.exit_code == 1
    carets = "^" * len('r.delete(f"lock:{job}")')
    assert result.stdout == (
        f"a.py:12:13: LL001 [*] {MESSAGE}\n"
        "   |\n"
        f"12 | {RELEASE_LINE}\n"
        f"   | {' ' * 12}{carets} LL001\n"
        f"   = help: {SAFE_HELP}\n"
        "\n"
        "Found 1 error.\n"
        "[*] 1 fixable with the `--fix` option.\n"
    )
    assert run_cli("--output-format", "full", "a.py").stdout == result.stdout


def test_full_format_unsafe_help(cwd):
    write(cwd / "b.py", UNSAFE)
    result = run_cli("--output-format", "full", "b.py")
    assert result.exit_code == 1
    assert f"11 | {RELEASE_LINE}\n" in result.stdout
    assert f"   = help: {UNSAFE_HELP} (unsafe)\n" in result.stdout


def test_json_format(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "json", "a.py")
    assert result.exit_code == 1
    items = json.loads(result.stdout)
    assert isinstance(items, list) and len(items) == 1
    item = items[0]
    assert {"code", "message", "filename", "location", "end_location", "fix"} <= set(item)
    assert item["code"] == "LL001"
    assert item["message"] == MESSAGE
    # The rule's section of the rules' page the package carries.
    assert item["url"] == (Path(leaselint.__file__).parent / "docs" / "rules.md").as_uri() + "#ll001"
    assert os.path.samefile(item["filename"], cwd / "a.py")
    assert os.path.isabs(item["filename"])
    assert item["location"] == {"row": 12, "column": 13}
    assert item["end_location"] == {"row": 12, "column": 36}
    assert item["fix"] == {
        "applicability": "safe",
        "message": SAFE_HELP,
        "edits": [
            {
                "content": IMPORTS_FIX,
                "location": {"row": 1, "column": 1},
                "end_location": {"row": 1, "column": 1},
            },
            {
                "content": SCRIPT_FIX,
                "location": {"row": 2, "column": 1},
                "end_location": {"row": 2, "column": 1},
            },
            {
                "content": RELEASE_FIX.lstrip(" ").rstrip("\n"),
                "location": {"row": 12, "column": 13},
                "end_location": {"row": 12, "column": 36},
            },
        ],
    }


def test_json_format_unsafe_fix_and_clean(cwd):
    write(cwd / "b.py", UNSAFE)
    write(cwd / "clean.py", CLEAN)
    result = run_cli("--select", "LL001", "--output-format", "json", "b.py", "clean.py")
    assert result.exit_code == 1
    items = json.loads(result.stdout)
    assert [(i["code"], i["location"]["row"], i["location"]["column"]) for i in items] == [("LL001", 11, 13)]
    assert items[0]["fix"]["applicability"] == "unsafe"
    assert items[0]["fix"]["message"] == UNSAFE_HELP

    clean = run_cli("--select", "LL001", "--output-format", "json", "clean.py")
    assert clean.exit_code == 0
    assert json.loads(clean.stdout) == []


# ---------------------------------------------------------------------- diff


SAFE_DIFF = (
    '''--- a/a.py
+++ b/a.py
@@ -1,4 +1,11 @@
+import logging
+
 import redis
+
+LEASE_RELEASE_SCRIPT = (
+    "if redis.call('get', KEYS[1]) == ARGV[1] then "
+    "return redis.call('del', KEYS[1]) else return 0 end"
+)
 
 r = redis.Redis()
 
@@ -9,4 +16,8 @@
         try:
             work(job)
         finally:
-            r.delete(f"lock:{job}")
+            if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
'''
    + "".join(f"+{line}\n" for line in WARNING_LINE.splitlines())
)


def test_diff_prints_diff_and_writes_nothing(cwd):
    path = write(cwd / "a.py", SAFE)
    before = path.read_bytes()
    result = run_cli("--diff", "a.py")
    assert result.exit_code == 1
    assert result.stdout == SAFE_DIFF
    assert path.read_bytes() == before
    assert sorted(os.listdir(cwd)) == [".leaselint_cache", "a.py"]


def test_diff_hides_unsafe_fix_unless_asked(cwd):
    path = write(cwd / "b.py", UNSAFE)
    result = run_cli("--select", "LL001", "--diff", "b.py")
    assert result.exit_code == 0
    assert result.stdout == ""

    result = run_cli("--select", "LL001", "--diff", "--unsafe-fixes", "b.py")
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/b.py\n+++ b/b.py\n")
    assert "+import secrets\n" in result.stdout
    assert '-    if r.set(f"lock:{job}", "1", nx=True, ex=30):\n' in result.stdout
    assert "+    token = secrets.token_hex(16)\n" in result.stdout
    assert path.read_text() == UNSAFE


def test_diff_nothing_to_fix_exits_0_silently(cwd):
    path = write(cwd / "clean.py", CLEAN)
    result = run_cli("--diff", "clean.py")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == ""
    assert path.read_text() == CLEAN


# ----------------------------------------------------------------------- fix


def test_fix_writes_safe_fix_and_is_idempotent(cwd):
    path = write(cwd / "a.py", SAFE)
    result = run_cli("--fix", "a.py")
    assert result.exit_code == 0
    assert path.read_text() == SAFE_FIXED
    # The pieces the fix is made of, spelled out.
    lines = path.read_text().splitlines()
    assert lines[0] == "import logging"
    assert lines[2] == "import redis"
    assert lines[4] == "LEASE_RELEASE_SCRIPT = ("
    assert lines[18] == '            if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):'
    assert "\n".join(lines[19:23]) == WARNING_LINE
    assert sorted(os.listdir(cwd)) == [".leaselint_cache", "a.py"]  # no temporary file left behind

    again = run_cli("--fix", "a.py")
    assert again.exit_code == 0
    assert again.stdout == "All checks passed!\n"
    assert path.read_text() == SAFE_FIXED


def test_fix_keeps_file_mode(cwd):
    path = write(cwd / "a.py", SAFE)
    os.chmod(path, 0o640)
    assert run_cli("--fix", "a.py").exit_code == 0
    assert path.read_text() == SAFE_FIXED
    assert os.stat(path).st_mode & 0o777 == 0o640


def test_fix_keeps_mode_0640_and_owner(cwd):
    path = write(cwd / "a.py", SAFE)
    os.chmod(path, 0o640)
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)  # as root: a file of another user (nobody) keeps that owner
    owner = (os.stat(path).st_uid, os.stat(path).st_gid)
    assert run_cli("--fix", "a.py").exit_code == 0
    assert path.read_text() == SAFE_FIXED
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert (os.stat(path).st_uid, os.stat(path).st_gid) == owner


def test_fix_leaves_a_read_only_file_as_it_was(cwd):
    # Refused for root too: the mode has no write bit for anyone.
    locked = write(cwd / "a.py", SAFE)
    os.chmod(locked, 0o444)
    other = write(cwd / "b.py", SAFE)
    result = run_cli("--select", "LL001", "--fix", "--output-format", "concise", "a.py", "b.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"a.py:12:13: LL001 [*] {MESSAGE}",
        "Found 2 errors (1 fixed, 1 remaining).",
        "[*] 1 fixable with the `--fix` option.",
    ]
    assert result.stderr == "leaselint: error: cannot write a.py, left unfixed: read-only (mode 0444); nothing written\n"
    assert locked.read_text() == SAFE
    assert os.stat(locked).st_mode & 0o777 == 0o444
    assert other.read_text() == SAFE_FIXED


def test_fix_reports_a_failed_replace_as_not_fixed(cwd, monkeypatch):
    path = write(cwd / "a.py", SAFE)

    def denied(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", denied)
    result = run_cli("--select", "LL001", "--fix", "--output-format", "concise", "a.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"a.py:12:13: LL001 [*] {MESSAGE}",
        "Found 1 error.",
        "[*] 1 fixable with the `--fix` option.",
    ]
    assert result.stderr == "leaselint: error: cannot write a.py, left unfixed: Permission denied\n"
    assert path.read_text() == SAFE
    assert sorted(os.listdir(cwd)) == [".leaselint_cache", "a.py"]  # the temporary file is gone


def test_fix_unsafe_fixes_on_constant_token(cwd):
    path = write(cwd / "b.py", UNSAFE)
    result = run_cli("--select", "LL001", "--fix", "--unsafe-fixes", "b.py")
    assert result.exit_code == 0
    assert result.stdout == "Found 1 error (1 fixed, 0 remaining).\n"
    text = path.read_text()
    assert text == UNSAFE_FIXED
    assert "\n    token = secrets.token_hex(16)\n" in text
    assert text.startswith("import logging\nimport secrets\n")

    again = run_cli("--select", "LL001", "--fix", "--unsafe-fixes", "b.py")
    assert again.exit_code == 0
    assert path.read_text() == UNSAFE_FIXED


def test_fix_only_touches_files_with_fixes(cwd):
    a = write(cwd / "a.py", SAFE)
    b = write(cwd / "b.py", UNSAFE)
    c = write(cwd / "clean.py", CLEAN)
    result = run_cli("--select", "LL001", "--fix", "--output-format", "concise", "a.py", "b.py", "clean.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"b.py:11:13: LL001 {MESSAGE}",
        "Found 2 errors (1 fixed, 1 remaining).",
        "No fixes available (1 hidden fix can be enabled with `--unsafe-fixes`).",
    ]
    assert a.read_text() == SAFE_FIXED
    assert b.read_text() == UNSAFE
    assert c.read_text() == CLEAN


# ---------------------------------------------------------------------- noqa


def _with_comment(comment: str) -> str:
    return SAFE.replace(RELEASE_LINE + "\n", f"{RELEASE_LINE}  {comment}\n")


@pytest.mark.parametrize("comment", ["# noqa", "# noqa: LL001", "# NOQA:LL001", "# noqa: LL004, LL001"])
def test_noqa_suppresses(cwd, comment):
    write(cwd / "a.py", _with_comment(comment))
    result = run_cli("--output-format", "concise", "a.py")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed!\n"


def test_noqa_other_code_does_not_suppress(cwd):
    path = write(cwd / "a.py", _with_comment("# noqa: LL004"))
    result = run_cli("--output-format", "concise", "a.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"a.py:12:13: LL001 [*] {MESSAGE}",
        "Found 1 error.",
        "[*] 1 fixable with the `--fix` option.",
    ]
    before = path.read_text()
    assert run_cli("--fix", "a.py").exit_code == 0
    assert path.read_text() != before


def test_noqa_suppressed_finding_is_not_fixed(cwd):
    path = write(cwd / "a.py", _with_comment("# noqa: LL001"))
    assert run_cli("--fix", "a.py").exit_code == 0
    assert path.read_text() == _with_comment("# noqa: LL001")


# --------------------------------------------------------------- unparsable


def test_unparsable_file_gives_ll000_and_others_still_linted(cwd):
    write(cwd / "bad.py", "x = 1\ny = = 2\n")
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "bad.py", "a.py")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("bad.py:2:")
    assert " LL000 syntax error: " in lines[0]
    assert lines[1] == f"a.py:12:13: LL001 [*] {MESSAGE}"
    assert lines[2:] == ["Found 2 errors.", "[*] 1 fixable with the `--fix` option."]


def test_unparsable_file_alone_exits_1_and_json(cwd):
    write(cwd / "bad.py", "def f(:\n    pass\n")
    result = run_cli("--output-format", "json", "bad.py")
    assert result.exit_code == 1
    items = json.loads(result.stdout)
    assert [i["code"] for i in items] == ["LL000"]
    assert items[0]["message"].startswith("syntax error: ")
    assert items[0]["fix"] is None


def test_unparsable_file_fix_leaves_it_alone(cwd):
    bad = write(cwd / "bad.py", "x = 1\ny = = 2\n")
    a = write(cwd / "a.py", SAFE)
    result = run_cli("--fix", "bad.py", "a.py")
    assert result.exit_code == 1
    assert bad.read_text() == "x = 1\ny = = 2\n"
    assert a.read_text() == SAFE_FIXED


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"# comment \xff\xfe\nx = 1\n", id="first-line"),
        pytest.param(b"x = 1\ny = 2\nz = 3\n# caf\xe9\n", id="later-line"),
    ],
)
def test_invalid_utf8_gives_cannot_decode(cwd, data):
    (cwd / "enc.py").write_bytes(data)
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "enc.py", "a.py")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("enc.py:1:1: LL000 cannot decode")
    assert lines[1] == f"a.py:12:13: LL001 [*] {MESSAGE}"
    assert (cwd / "enc.py").read_bytes() == data


def test_ignore_ll000_hides_unparsable(cwd):
    write(cwd / "bad.py", "x = 1\ny = = 2\n")
    result = run_cli("--output-format", "concise", "--ignore", "LL000", "bad.py")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed!\n"


# ----------------------------------------------------------------- discovery


def _tree(root):
    for rel in [
        "pkg/m.py",
        "pkg/s.pyi",
        "pkg/notes.txt",
        "pkg/sub/t.py",
        ".venv/lib/v.py",
        "venv/lib/w.py",
        "build/b.py",
        "node_modules/n.py",
        ".hidden/h.py",
        "__pycache__/c.py",
    ]:
        write(root / rel, SAFE)


def _paths(stdout: str) -> list[str]:
    return [line.split(":", 1)[0] for line in stdout.splitlines() if ": LL" in line]


def test_discovery_walks_current_folder_by_default(cwd):
    _tree(cwd)
    result = run_cli("--output-format", "concise")
    assert result.exit_code == 1
    assert _paths(result.stdout) == [
        os.path.join("pkg", "m.py"),
        os.path.join("pkg", "s.pyi"),
        os.path.join("pkg", "sub", "t.py"),
    ]


def test_discovery_walks_named_folder(cwd):
    _tree(cwd / "proj")
    result = run_cli("--output-format", "concise", "proj")
    assert result.exit_code == 1
    assert _paths(result.stdout) == [
        os.path.join("proj", "pkg", "m.py"),
        os.path.join("proj", "pkg", "s.pyi"),
        os.path.join("proj", "pkg", "sub", "t.py"),
    ]


def test_discovery_explicit_files_in_excluded_folders_are_linted(cwd):
    _tree(cwd)
    named = [
        os.path.join(".venv", "lib", "v.py"),
        os.path.join("build", "b.py"),
        os.path.join("node_modules", "n.py"),
        os.path.join(".hidden", "h.py"),
    ]
    result = run_cli("--output-format", "concise", *named)
    assert result.exit_code == 1
    assert _paths(result.stdout) == named


def test_discovery_file_named_twice_is_linted_once(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "a.py", "./a.py", ".")
    assert result.exit_code == 1
    assert _paths(result.stdout) == ["a.py"]


def test_discovery_clean_folder_exits_0(cwd):
    write(cwd / "pkg" / "clean.py", CLEAN)
    write(cwd / "build" / "a.py", SAFE)
    result = run_cli()
    assert result.exit_code == 0
    assert result.stdout == "All checks passed!\n"


# --------------------------------------------------------------- select/ignore


def test_select_ll000_hides_ll001(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "--select", "LL000", "a.py")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed!\n"


def test_ignore_ll001_hides_it(cwd):
    path = write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "--ignore", "LL001", "a.py")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed!\n"
    assert run_cli("--fix", "--ignore", "LL001", "a.py").exit_code == 0
    assert path.read_text() == SAFE


def test_select_is_case_insensitive(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "--select", "ll001", "a.py")
    assert result.exit_code == 1
    assert _paths(result.stdout) == ["a.py"]


# ----------------------------------------------------------------- encodings


@pytest.mark.parametrize(
    ("before", "after", "extra"),
    [
        pytest.param(SAFE, SAFE_FIXED, [], id="safe"),
        pytest.param(UNSAFE, UNSAFE_FIXED, ["--unsafe-fixes"], id="unsafe"),
    ],
)
def test_fix_keeps_crlf(cwd, before, after, extra):
    path = write(cwd / "a.py", before, newline="\r\n")
    result = run_cli("--fix", *extra, "a.py")
    assert result.exit_code == 0
    data = path.read_bytes()
    assert data == after.replace("\n", "\r\n").encode()
    lines = data.split(b"\n")
    assert lines[-1] == b""
    assert all(line.endswith(b"\r") for line in lines[:-1])
    assert data.count(b"\n") == data.count(b"\r\n") == data.count(b"\r")


def test_diff_on_crlf_writes_nothing(cwd):
    path = write(cwd / "a.py", SAFE, newline="\r\n")
    before = path.read_bytes()
    result = run_cli("--diff", "a.py")
    assert result.exit_code == 1
    assert "+import logging" in result.stdout
    assert path.read_bytes() == before


def test_fix_keeps_latin1_encoding(cwd):
    prefix = "# -*- coding: latin-1 -*-\n# café\n"
    path = write(cwd / "a.py", prefix + SAFE, encoding="latin-1")
    assert b"caf\xe9" in path.read_bytes()
    result = run_cli("--fix", "a.py")
    assert result.exit_code == 0
    data = path.read_bytes()
    assert data == (prefix + SAFE_FIXED).encode("latin-1")
    assert data.startswith(b"# -*- coding: latin-1 -*-\n# caf\xe9\nimport logging\n")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")


def test_fix_keeps_utf8_bom(cwd):
    path = cwd / "a.py"
    path.write_bytes(b"\xef\xbb\xbf" + SAFE.encode())
    assert run_cli("--fix", "a.py").exit_code == 0
    assert path.read_bytes() == b"\xef\xbb\xbf" + SAFE_FIXED.encode()


# ------------------------------------------------------------ python -m leaselint


def _module(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "leaselint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_python_m_leaselint_reports_and_exits_1(tmp_path):
    write(tmp_path / "a.py", SAFE)
    proc = _module("--output-format", "concise", "a.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[0] == f"a.py:12:13: LL001 [*] {MESSAGE}"


def test_python_m_leaselint_fix_and_errors(tmp_path):
    path = write(tmp_path / "a.py", SAFE)
    proc = _module("--fix", "a.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert path.read_text() == SAFE_FIXED

    missing = _module("missing.py", cwd=tmp_path)
    assert missing.returncode == 2
    assert "missing.py" in missing.stderr

    version = _module("--version", cwd=tmp_path)
    assert version.returncode == 0
    assert version.stdout == f"leaselint, version {__version__}\n"


def test_python_m_leaselint_writes_all_its_output_and_runs_atexit_functions(tmp_path):
    """The console script ends without tearing the interpreter down: the output must still be whole,
    and atexit functions (coverage tools, logging) must still run."""
    for number in range(60):
        write(tmp_path / f"a{number}.py", SAFE)
    expected = CliRunner().invoke(main, ["--no-cache", "--output-format", "json", str(tmp_path)])
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('atexit ran\\n'))\n"
        "from leaselint.cli import run\n"
        "sys.argv[0] = 'leaselint'\n"
        "run()\n"
    )
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    proc = subprocess.run(
        [sys.executable, "-c", code, "--no-cache", "--output-format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == expected.exit_code == 1
    assert proc.stdout == expected.stdout and len(proc.stdout) > 60_000
    assert proc.stderr.endswith("atexit ran\n")

    # Output smaller than the stream's buffer is only written by the flush before the exit.
    one = str(tmp_path / "a0.py")
    small = CliRunner().invoke(main, ["--no-cache", "--output-format", "concise", one])
    proc = subprocess.run(
        [sys.executable, "-c", code, "--no-cache", "--output-format", "concise", one],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.stdout == small.stdout and 0 < len(proc.stdout) < 8192


# -------------------------------------------------------------------- stdin


def test_stdin_reports_with_stdin_filename(cwd):
    result = CliRunner().invoke(main, ["--output-format", "concise", "--stdin-filename", "pkg/a.py", "-"], input=SAFE)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"pkg/a.py:12:13: LL001 [*] {MESSAGE}"


def test_stdin_without_name_is_dash(cwd):
    result = CliRunner().invoke(main, ["--output-format", "concise", "-"], input=SAFE)
    assert result.exit_code == 1
    assert result.stdout.startswith("-:12:13: LL001 ")


def test_stdin_fix_writes_text_to_stdout_and_findings_to_stderr(cwd):
    result = CliRunner().invoke(main, ["--fix", "--stdin-filename", "a.py", "-"], input=SAFE)
    assert result.exit_code == 0
    assert result.stdout == SAFE_FIXED
    assert result.stderr == "Found 1 error (1 fixed, 0 remaining).\n"
    assert os.listdir(cwd) == []


def test_stdin_fix_echoes_text_when_nothing_to_fix(cwd):
    result = CliRunner().invoke(main, ["--fix", "--select", "LL001", "--output-format", "concise", "-"], input=UNSAFE)
    assert result.exit_code == 1
    assert result.stdout == UNSAFE
    assert f"-:11:13: LL001 {MESSAGE}" in result.stderr.splitlines()


def test_stdin_fix_keeps_crlf_and_bytes_of_undecodable_input(cwd):
    crlf = SAFE.replace("\n", "\r\n").encode()
    result = CliRunner().invoke(main, ["--fix", "-"], input=crlf)
    assert result.stdout_bytes == SAFE_FIXED.replace("\n", "\r\n").encode()
    junk = b"x = 1\n# caf\xe9\n"
    result = CliRunner().invoke(main, ["--fix", "-"], input=junk)
    assert result.exit_code == 1
    assert result.stdout_bytes == junk
    assert "LL000 cannot decode" in result.stderr


def test_stdin_filename_selects_per_file_ignores_and_force_exclude(cwd):
    write(cwd / "pyproject.toml", '[tool.leaselint]\nextend-exclude = ["legacy"]\n[tool.leaselint.per-file-ignores]\n"tests/*" = ["LL001"]\n')
    ignored = CliRunner().invoke(main, ["--stdin-filename", "tests/test_a.py", "-"], input=SAFE)
    assert ignored.exit_code == 0
    linted = CliRunner().invoke(main, ["--stdin-filename", "legacy/a.py", "-"], input=SAFE)
    assert linted.exit_code == 1
    excluded = CliRunner().invoke(main, ["--force-exclude", "--fix", "--stdin-filename", "legacy/a.py", "-"], input=SAFE)
    assert excluded.exit_code == 0
    assert excluded.stdout == SAFE


def test_stdin_diff(cwd):
    result = CliRunner().invoke(main, ["--diff", "--stdin-filename", "a.py", "-"], input=SAFE)
    assert result.exit_code == 1
    assert result.stdout == SAFE_DIFF


def test_stdin_with_other_paths_is_an_error(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("a.py", "-")
    assert result.exit_code == 2
    assert result.stderr == "leaselint: error: `-` (standard input) cannot be combined with other paths\n"


# --------------------------------------------------------------- exit codes


def test_exit_zero_with_findings(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--exit-zero", "--output-format", "concise", "a.py")
    assert result.exit_code == 0
    assert f"a.py:12:13: LL001 [*] {MESSAGE}" in result.stdout
    assert run_cli("--exit-zero", "--diff", "a.py").exit_code == 0
    assert run_cli("--exit-zero", "missing.py").exit_code == 2


def test_exit_non_zero_on_fix(cwd):
    path = write(cwd / "a.py", SAFE)
    result = run_cli("--fix", "--exit-non-zero-on-fix", "a.py")
    assert result.exit_code == 1
    assert path.read_text() == SAFE_FIXED
    assert run_cli("--fix", "--exit-non-zero-on-fix", "a.py").exit_code == 0
