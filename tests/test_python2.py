"""Python 2 files: reported as unparsable (LL000), and read for their leases as Python 3 on the same
lines, with no fix."""

from __future__ import annotations

import ast
import textwrap

import pytest

from leaselint.check import PYTHON2, lint_text
from leaselint.python2 import as_python3
from leaselint.settings import Settings
from leaselint.source import SourceText


@pytest.mark.parametrize(
    "line, expected",
    [
        ('print "locked"', 'print("locked")'),
        ("    print key, value,  # progress", "    print(key, value)  # progress"),
        ("print >>sys.stderr, 'busy'", "print('busy', file=sys.stderr)"),
        ("print", "print()"),
        ("except KeyError, error:", "except KeyError as error:"),
        ("    except (IOError, OSError), e:", "    except (IOError, OSError) as e:"),
        ('raise LockError, "held by %s" % owner', 'raise LockError("held by %s" % owner)'),
        ("exec code in namespace", "exec(code in namespace)"),
        ("if a <> b: pass", "if a != b: pass"),
        ("ttl = 30L", "ttl = 30"),
        ("os.chmod(path, 0755)", "os.chmod(path, 0o755)"),
        ("mask = 0xFFFFL", "mask = 0xFFFF"),
        ("token = `os.getpid()`", "token = repr(os.getpid())"),
        ('pattern = ur"^lock:(\\w+)$"', 'pattern = r"^lock:(\\w+)$"'),
        ("\t\treturn key", "                return key"),
        ("    \treturn key", "        return key"),
        ("from ..async.lock import LockBase", "from ..asyn_.lock import LockBase"),
        ("job.run(key, async=True)", "job.run(key, asyn_=True)"),
        ("def async(self):", "def asyn_(self):"),
        ("print job.async", "print(job.asyn_)"),
    ],
)
def test_each_python2_statement_is_written_as_python3_on_its_line(line, expected):
    assert as_python3(line) == expected


def test_python3_text_and_text_in_strings_are_left_as_they_are():
    assert as_python3("print(x)\nkey = 'lock:0755'\nvalue = \"a <> b\"\n") is None
    assert as_python3("sql = \"select `name` from locks\"\nflavour = 'our\"'\nif x:\n    y = 1 # \tnote\n") is None
    assert as_python3("printer = 1\nprint.__doc__\n") is None
    # `async` the keyword, or inside text, is kept.
    assert as_python3("async def f():\n    async with x:\n        y = [a async for a in b]\n") is None
    assert as_python3("note = 'run async now'  # async\n") is None


PY2_LEASE = """\
from django.core.cache import cache


def migrate():
    if not cache.add("migrate-lock", 1, 600):
        print "another migration runs"
        return
    try:
        run_migrations()
    except Exception, error:
        print >>sys.stderr, error
        raise
    finally:
        cache.delete("migrate-lock")
"""


def test_a_python2_file_is_unparsable_and_its_leases_are_found_on_their_lines():
    result = lint_text(SourceText(PY2_LEASE), "migrate.py", Settings())
    found = [(d.code, d.start.line, d.start.column + 1) for d in result.diagnostics]
    assert found == [("LL000", 6, 9), ("LL002", 5, 38), ("LL001", 14, 9)]
    assert all(d.fix is None for d in result.diagnostics)
    assert result.diagnostics[0].message.startswith("syntax error: Missing parentheses in call to 'print'")
    assert result.internal_errors == []


def test_a_python2_file_gets_no_fix_and_the_reason_is_said():
    result = lint_text(SourceText(PY2_LEASE), "migrate.py", Settings(fix=True, unsafe_fixes=True))
    assert result.fixed_text is None
    codes = {d.code: d.message for d in result.diagnostics}
    assert "(no automatic fix:" in codes["LL001"]
    lone = textwrap.dedent(
        """\
        import redis

        r = redis.Redis()


        def once(job):
            if r.set("job:" + job, "1", nx=True, ex=60):
                print "running", job
                r.delete("job:" + job)
        """
    )
    result = lint_text(SourceText(lone), "once.py", Settings(fix=True, unsafe_fixes=True))
    messages = [d.message for d in result.diagnostics if d.code == "LL001"]
    assert messages and messages[0].endswith(f"(no automatic fix: {PYTHON2})")
    assert result.fixed_text is None


def test_a_syntax_error_that_is_no_python2_is_reported_alone():
    text = "import redis\nr = redis.Redis()\nr.set('k', 1, nx=True)\nr.delete('k')\ny = = 2\n"
    result = lint_text(SourceText(text), "bad.py", Settings())
    assert [d.code for d in result.diagnostics] == ["LL000"]


def test_the_written_text_keeps_every_line_where_it_was():
    converted = as_python3(PY2_LEASE)
    assert converted is not None
    assert converted.count("\n") == PY2_LEASE.count("\n")
    ast.parse(converted)


PY2_TABS = "import redis\n\nr = redis.Redis()\n\n\ndef run(job):\n\tif not r.set(\"lock:\" + job, `os.getpid()`, nx=True, ex=60):\n\t\treturn\n        try:\n\t\twork(job)\n\tfinally:\n\t\tr.delete(\"lock:\" + job)\n"


def test_a_python2_file_indented_with_tabs_and_spaces_is_read_for_its_leases():
    # A tab moves to the next multiple of eight, as Python 2 read it: `try:` after eight spaces is
    # at the level of the tabbed `if`.
    result = lint_text(SourceText(PY2_TABS), "jobs.py", Settings())
    assert [(d.code, d.start.line) for d in result.diagnostics] == [("LL000", 7), ("LL002", 7), ("LL001", 12)]


PY36_LEASE = """\
import uuid

import redis

from .async import spawn

r = redis.Redis()


def run(job):
    token = uuid.uuid4().hex
    if r.set("job:" + job, token, nx=True, ex=60):
        try:
            spawn(job, async=False)
        finally:
            r.delete("job:" + job)
"""


def test_a_file_naming_async_as_python_3_6_did_is_read_for_its_leases_on_their_lines():
    result = lint_text(SourceText(PY36_LEASE), "jobs.py", Settings(fix=True))
    found = [(d.code, d.start.line, d.start.column + 1) for d in result.diagnostics]
    assert found == [("LL000", 5, 7), ("LL001", 16, 13)]
    assert result.fixed_text is None
    assert result.diagnostics[1].message.endswith(f"(no automatic fix: {PYTHON2})")
