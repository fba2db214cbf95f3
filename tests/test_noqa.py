"""`# noqa`: what it hides, --add-noqa to adopt leaselint on a codebase with findings, LL100 for stale ones."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from leaselint.cli import main
from leaselint.diagnostics import Diagnostic, Position
from leaselint.runner import check_text
from leaselint.settings import Settings
from leaselint.suppress import add_noqa, directives

RELEASE = '            r.delete(f"lock:{job}")'
SAFE = f'''import redis

r = redis.Redis()


def run(job):
    token = secrets.token_hex(16)
    if r.set(f"lock:{{job}}", token, nx=True, ex=30):
        try:
            work(job)
        finally:
{RELEASE}
'''


def run_cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _finding(line: int, code: str = "LL001") -> Diagnostic:
    return Diagnostic(code, "m", Position(line, 0), Position(line, 1))


# ----------------------------------------------------------------- parsing


def test_directives_come_from_comments_only():
    text = 'a = 1  # noqa: LL001,ll002\nb = "# noqa: LL001"\nc = 3  # type: ignore  # NOQA\n'
    found = directives(text)
    assert sorted(found) == [1, 3]
    assert found[1].codes == ("LL001", "LL002")
    assert found[1].start == 7 and text.splitlines()[0][found[1].start:found[1].end] == "# noqa: LL001,ll002"
    assert found[3].codes == ()
    assert found[3].hides("LL005")


def test_noqa_inside_a_string_does_not_suppress():
    text = SAFE.replace(RELEASE, RELEASE + '; x = "# noqa: LL001"')
    assert [d.code for d in check_text(text, Settings(select=frozenset({"LL001"})))] == ["LL001"]


# ---------------------------------------------------------------- add-noqa


def test_add_noqa_text_merges_and_skips_blanket():
    text = "a = 1\nb = 2  # noqa: E501\nc = 3  # noqa\nd = 4   \n"
    new, count, blocked = add_noqa(text, [_finding(1), _finding(1, "LL002"), _finding(2), _finding(3), _finding(4)])
    assert new == "a = 1  # noqa: LL001, LL002\nb = 2  # noqa: E501, LL001\nc = 3  # noqa\nd = 4  # noqa: LL001\n"
    assert (count, blocked) == (3, [])
    assert add_noqa(new, [_finding(1), _finding(2), _finding(4)])[:2] == (new, 0)


def test_add_noqa_will_not_break_strings_or_continuations():
    text = 'x = """a\nb""" + f(1)\ny = 1 + \\\n    2\n'
    new, count, blocked = add_noqa(text, [_finding(1), _finding(3), _finding(2)])
    assert blocked == [1, 3]
    assert new == 'x = """a\nb""" + f(1)  # noqa: LL001\ny = 1 + \\\n    2\n'
    assert count == 1


def test_add_noqa_cli_is_idempotent_and_silences_findings(cwd):
    a = cwd / "a.py"
    a.write_text(SAFE)
    (cwd / "b.py").write_bytes(SAFE.replace(RELEASE, RELEASE + "  # noqa: E501").replace("\n", "\r\n").encode())
    (cwd / "bad.py").write_text("def f(:\n")
    result = run_cli("--add-noqa", "a.py", "b.py", "bad.py")
    assert result.exit_code == 0
    assert result.stderr == "Added 2 noqa directives.\n"
    assert a.read_text() == SAFE.replace(RELEASE, RELEASE + "  # noqa: LL001")
    b = (cwd / "b.py").read_bytes()
    assert b == SAFE.replace(RELEASE, RELEASE + "  # noqa: E501, LL001").replace("\n", "\r\n").encode()
    assert (cwd / "bad.py").read_text() == "def f(:\n"

    after = {p: p.read_bytes() for p in (a, cwd / "b.py")}
    again = run_cli("--add-noqa", "a.py", "b.py")
    assert again.exit_code == 0
    assert again.stderr == "Added 0 noqa directives.\n"
    assert {p: p.read_bytes() for p in after} == after

    assert run_cli("a.py", "b.py").exit_code == 0
    # Nothing is stale right after adoption.
    assert run_cli("--extend-select", "LL100", "a.py", "b.py").exit_code == 0


def test_add_noqa_keeps_encoding(cwd):
    prefix = "# -*- coding: latin-1 -*-\n# café\n"
    path = cwd / "a.py"
    path.write_bytes((prefix + SAFE).encode("latin-1"))
    assert run_cli("--add-noqa", "a.py").exit_code == 0
    assert path.read_bytes() == (prefix + SAFE.replace(RELEASE, RELEASE + "  # noqa: LL001")).encode("latin-1")


@pytest.mark.parametrize("other", [["--fix"], ["--diff"], ["-"]])
def test_add_noqa_conflicts(cwd, other):
    (cwd / "a.py").write_text(SAFE)
    args = ["--add-noqa", *other] + ([] if other == ["-"] else ["a.py"])
    result = run_cli(*args)
    assert result.exit_code == 2
    assert "--add-noqa cannot be combined" in result.stderr


# ---------------------------------------------------------- LL100 end to end


def test_unused_noqa_reported_when_selected_and_fixed(cwd):
    path = cwd / "a.py"
    text = SAFE.replace(RELEASE, RELEASE + "  # noqa: LL001") + "x = 1  # noqa: LL001, E501\n"
    path.write_text(text)
    assert run_cli("a.py").exit_code == 0
    result = run_cli("--extend-select", "LL100", "--output-format", "concise", "a.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "a.py:13:8: LL100 [*] unused `noqa` directive (unused: `LL001`)"
    assert run_cli("--extend-select", "LL100", "--fix", "a.py").exit_code == 0
    assert path.read_text() == text.replace("x = 1  # noqa: LL001, E501", "x = 1  # noqa: E501")


def test_unused_noqa_does_not_depend_on_selection(cwd):
    """The code a directive names is checked even when only LL100 is selected."""
    (cwd / "a.py").write_text(SAFE.replace(RELEASE, RELEASE + "  # noqa: LL001"))
    assert run_cli("--select", "LL100", "a.py").exit_code == 0
    assert run_cli("--select", "LL100", "--ignore", "LL001", "a.py").exit_code == 0


def test_unused_noqa_can_itself_be_hidden(cwd):
    (cwd / "a.py").write_text("x = 1  # noqa: LL001, LL100\n")
    assert run_cli("--extend-select", "LL100", "a.py").exit_code == 0
