"""Hostile inputs: each is reported (LL000 or a warning naming the file and the reason), never a crash.

Every test runs the real command in a child process, next to an ordinary lease file, so a crash of
the interpreter (a native parser overflowing its stack) shows as a failed test, and the test also
shows that the other files are still linted and what the exit code says.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from snippets import BLIND_RELEASE

from leaselint.discover import discover
from leaselint.runner import lint_paths
from leaselint.settings import Settings

# A lease released blindly: LL001 at 12:13, with a safe fix.
LEASE = BLIND_RELEASE
LEASE_FINDING = "lease.py:12:13: LL001 "


def leaselint(*args: str, cwd, timeout: int = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "leaselint", "--no-cache", "--output-format", "concise", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        env=env,
    )


def lines(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stdout.splitlines() if ": LL" in line]


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "lease.py").write_text(LEASE)
    return tmp_path


def check_reported(tree, name: str, data: bytes, reason: str, line: int = 1) -> subprocess.CompletedProcess:
    """`name` holding `data` is one LL000 finding with `reason`; lease.py is still linted; exit 1."""
    (tree / name).write_bytes(data)
    proc = leaselint(name, "lease.py", cwd=tree)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""
    found = lines(proc)
    assert len(found) == 2, proc.stdout
    assert found[0].startswith(f"{name}:{line}:"), found
    assert f" LL000 {reason}" in found[0], found[0]
    assert found[1].startswith(LEASE_FINDING)
    assert (tree / name).read_bytes() == data
    return proc


def check_linted(tree, name: str, data: bytes, finding: str | None) -> subprocess.CompletedProcess:
    """`name` is linted like any file: `finding` (a `path:row:col: CODE` prefix) or nothing."""
    (tree / name).write_bytes(data)
    proc = leaselint(name, "lease.py", cwd=tree)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == "", proc.stderr
    found = lines(proc)
    expected = ([finding] if finding else []) + [LEASE_FINDING]
    assert [line[: len(prefix)] for line, prefix in zip(found, expected)] == expected, proc.stdout
    assert len(found) == len(expected), proc.stdout
    return proc


# ------------------------------------------------------------------ text that does not parse


def test_syntax_error(tree):
    check_reported(tree, "bad.py", b"x = 1\ny = = 2\n", "syntax error: invalid syntax", line=2)


def test_python2_code(tree):
    check_reported(tree, "py2.py", b'print "hello"\nexec "x = 1"\n', "syntax error: Missing parentheses in call to 'print'")


def test_nul_bytes(tree):
    check_reported(tree, "nul.py", b"x = 1\x00\ny = 2\n", "syntax error: source code string cannot contain null bytes")


@pytest.mark.parametrize("literal", [b'"a\x00b"', b'"\\N{NO SUCH NAME}"', b"b'\\N{X}' b'\x00'"])
def test_a_string_python_cannot_evaluate_is_linted_without_error(tree, literal):
    """libcst reads these strings and CPython refuses them: the rest of the file is still linted
    (before, the model failed on the string and the lease went unreported)."""
    data = LEASE.encode().replace(b"import redis\n", b"import redis\nodd = " + literal + b"\n", 1)
    assert data != LEASE.encode()
    check_linted(tree, "odd.py", data, "odd.py:13:13: LL001 ")


def _codes(text: str) -> list[tuple[str, int]]:
    from leaselint.runner import lint_bytes
    from leaselint.settings import Settings

    result, _ = lint_bytes(text.encode(), "x.py", Settings())
    assert not result.internal_errors
    return [(d.code, d.start.line) for d in result.diagnostics]


@pytest.mark.parametrize(
    "claimed, released, expected",
    [
        ('"a\\N{X}"', '"b\\N{Y}"', []),  # two keys Python cannot evaluate are not one lease
        ('"a\\N{X}"', '"a\\N{X}"', [("LL002", 2), ("LL001", 4)]),  # the same text is
        ('"a\x00"', '"b\x00"', []),
        ('"k{\u00b2}".format(x)', '"k{\u00b2}".format(x)', [("LL002", 2), ("LL001", 4)]),  # int("²") fails
    ],
)
def test_keys_python_cannot_evaluate_pair_by_their_code(claimed, released, expected):
    text = (
        "def work(r, x):\n"
        f"    if not r.set({claimed}, \"1\", nx=True, px=30000):\n"
        "        return\n"
        f"    r.delete({released})\n"
    )
    assert _codes(text) == expected


def test_binary_data(tree):
    check_reported(
        tree, "blob.py", bytes(range(256)) * 16,
        "cannot decode as utf-8, the default without a coding cookie: invalid start byte at line 2, column 118 (0x80)",
    )


# ------------------------------------------------------------------------------ encodings


def test_non_utf8_without_cookie(tree):
    check_reported(
        tree, "latin.py", b'x = "caf\xe9"\n',
        "cannot decode as utf-8, the default without a coding cookie: invalid continuation byte at line 1, column 9 (0xe9)",
    )


def test_non_utf8_with_cookie_is_linted(tree):
    data = ("# -*- coding: latin-1 -*-\n# café\n" + LEASE).encode("latin-1")
    check_linted(tree, "latin.py", data, "latin.py:14:13: LL001 ")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        pytest.param(b'# -*- coding: utf-8 -*-\nx = "caf\xe9"\n', "cannot decode as utf-8: invalid continuation byte at line 2, column 9 (0xe9)", id="utf8-cookie-latin1-bytes"),
        pytest.param(b"# -*- coding: klingon -*-\nx = 1\n", "cannot decode: the coding cookie names an unknown encoding, klingon", id="unknown"),
        pytest.param(b"# coding: utf-16\nx = 1\n", "cannot decode: the coding cookie names utf-16, which is not ASCII-compatible", id="not-ascii-compatible"),
        pytest.param(b"\xef\xbb\xbf# coding: latin-1\nx = 1\n", "cannot decode: the file starts with a UTF-8 BOM, but its coding cookie names latin-1", id="bom-and-other-cookie"),
    ],
)
def test_wrong_coding_cookie(tree, data, reason):
    proc = check_reported(tree, "enc.py", data, reason)
    # What failed is said once.
    assert lines(proc)[0].count("cannot decode") == 1


def test_utf8_bom_is_linted(tree):
    check_linted(tree, "bom.py", b"\xef\xbb\xbf" + LEASE.encode(), "bom.py:12:13: LL001 ")


# ------------------------------------------------------------------- newlines and whitespace


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_newlines_are_linted_at_the_right_line(tree, newline):
    check_linted(tree, "nl.py", LEASE.replace("\n", newline).encode(), "nl.py:12:13: LL001 ")


def test_mixed_newlines(tree):
    text = LEASE.replace("\n", "\r\n", 4).replace("\n\n\ndef", "\r\r\ndef")
    check_linted(tree, "mixed.py", text.encode(), "mixed.py:12:13: LL001 ")


def test_tabs_and_form_feeds(tree):
    text = "\x0c\n" + LEASE.replace("    ", "\t").replace("r = redis", "\x0cr = redis")
    check_linted(tree, "ws.py", text.encode(), "ws.py:13:4: LL001 ")


# --------------------------------------------------------------------------------- size


def test_20000_character_line(tree):
    long_list = "DATA = [" + ", ".join(str(i % 10) for i in range(6700)) + "]\n"
    long_text = "TEXT = '" + "x" * 20_000 + "'\n"
    assert len(long_list) > 20_000
    check_linted(tree, "long.py", (long_list + long_text + LEASE).encode(), "long.py:14:13: LL001 ")


def _ten_megabytes(tail: str = "") -> bytes:
    row = '    ("sensor-%06d", %d, %d.5, "ok"),\n'
    body = "".join(row % (i, i, i) for i in range(230_000))
    data = ("DATA = [\n" + body + "]\n" + tail).encode()
    assert len(data) > 10_000_000
    return data


UNCHECKED = "leaselint: warning: leasy.py: not checked: 10.1 MiB, past max-file-size (4 MiB); raise max-file-size to check it\n"


def test_10_megabyte_file(tree):
    """Past max-file-size: CPython's parser and the prefilter decide, in seconds. A file that could
    hold a finding gets a warning, not a finding, unless --exit-non-zero-on-unchecked asks."""
    plain = _ten_megabytes()
    (tree / "data.py").write_bytes(plain)
    proc = leaselint("data.py", "lease.py", cwd=tree)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""
    assert [line[: len(LEASE_FINDING)] for line in lines(proc)] == [LEASE_FINDING]

    (tree / "leasy.py").write_bytes(_ten_megabytes(LEASE))
    proc = leaselint("leasy.py", cwd=tree)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "All checks passed!\n", UNCHECKED)
    proc = leaselint("--exit-non-zero-on-unchecked", "leasy.py", cwd=tree)
    assert (proc.returncode, proc.stderr) == (1, UNCHECKED)
    proc = leaselint("--exit-zero", "--exit-non-zero-on-unchecked", "leasy.py", cwd=tree)
    assert proc.returncode == 0

    check_reported(tree, "broken.py", _ten_megabytes()[:-3], "syntax error: '[' was never closed")


def test_max_file_size_is_settable(tree):
    """`--max-file-size` and `max-file-size` move the limit (MiB; 0: none); the command line wins."""
    padding = "# " + "x" * 1000 + "\n"
    (tree / "lease.py").write_text(padding * 1100 + LEASE)  # 1.1 MB
    warning = "leaselint: warning: lease.py: not checked: 1.1 MiB, past max-file-size (1 MiB)"
    finding = "lease.py:1112:13: LL001 "

    proc = leaselint("--isolated", "--max-file-size", "1", "lease.py", cwd=tree)
    assert (proc.returncode, lines(proc)) == (0, [])
    assert proc.stderr.startswith(warning), proc.stderr
    for limit in ("2", "0"):
        proc = leaselint("--isolated", "--max-file-size", limit, "lease.py", cwd=tree)
        assert proc.returncode == 1 and proc.stderr == "", proc.stderr
        assert [line[: len(finding)] for line in lines(proc)] == [finding]

    (tree / "pyproject.toml").write_text("[tool.leaselint]\nmax-file-size = 1\n")
    proc = leaselint("lease.py", cwd=tree)
    assert (proc.returncode, lines(proc)) == (0, [])
    assert proc.stderr.startswith(warning), proc.stderr
    proc = leaselint("--max-file-size", "0", "lease.py", cwd=tree)
    assert [line[: len(finding)] for line in lines(proc)] == [finding]

    # With a cache, every run warns again: an unchecked file is never remembered as clean.
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-m", "leaselint", "--cache-dir", str(tree / "cache"), "lease.py"],
            cwd=tree, capture_output=True, text=True, timeout=120,
        )
        assert (proc.returncode, proc.stdout) == (0, "All checks passed!\n")
        assert proc.stderr.startswith(warning), proc.stderr

    (tree / "pyproject.toml").write_text('[tool.leaselint]\nmax-file-size = "4MB"\n')
    proc = leaselint("lease.py", cwd=tree)
    assert proc.returncode == 2
    assert "max-file-size: expected a whole number of MiB, 0 for no limit, got '4MB' (a string)" in proc.stderr


# ------------------------------------------------------------------------------- nesting


def _deep(kind: str) -> str:
    return {
        # Native-parser crashes before: a 10,000-term sum overflowed the 8 MiB main stack.
        "sum": "x = " + "+".join(["1"] * 10_000) + "\n",
        "unary": "x = " + "-" * 5000 + "1\n",
        "parentheses": "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n",
        "calls": "x = " + "f(" * 3000 + ")" * 3000 + "\n",
        "elif": "if a:\n    pass\n" + "elif a:\n    pass\n" * 3000,
    }[kind]


@pytest.mark.parametrize("kind", ["sum", "unary", "parentheses", "calls", "elif"])
def test_nesting_too_deep_is_reported(tree, kind):
    check_reported(tree, "deep.py", _deep(kind).encode(), "too deeply nested to check")


@pytest.mark.parametrize(
    "prefix",
    [
        pytest.param("x = " + "[" * 150 + "]" * 150 + "\n", id="lists-150"),
        pytest.param("x = " + "+".join(["1"] * 2000) + "\n", id="sum-2000"),
        pytest.param("x = (" + " ".join(["'a'"] * 3000) + ")\n", id="implicit-concatenation-3000"),
        pytest.param("x = " + " or ".join(["a"] * 5000) + "\n", id="or-5000"),
    ],
)
def test_deep_but_valid_nesting_is_linted(tree, prefix):
    """Deep for libcst's Python code (recursion), fine for Python: linted, not refused."""
    check_linted(tree, "deep.py", (prefix + LEASE).encode(), "deep.py:13:13: LL001 ")


# ------------------------------------------------------------------- files that are not files


def test_empty_file(tree):
    (tree / "empty.py").write_bytes(b"")
    proc = leaselint("empty.py", cwd=tree)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "All checks passed!\n", "")


def test_directory_named_like_a_module(tree):
    folder = tree / "pkg" / "x.py"
    folder.mkdir(parents=True)
    (folder / "inner.py").write_text(LEASE)
    for args in (["pkg"], ["pkg/x.py"], ["."]):
        proc = leaselint(*args, cwd=tree)
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr == ""
        assert [line.split(":")[0] for line in lines(proc)][-1] == os.path.join("pkg", "x.py", "inner.py")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_named_pipe_is_not_waited_on(tree):
    os.mkfifo(tree / "pipe.py")
    proc = leaselint("pipe.py", "lease.py", cwd=tree, timeout=60)
    assert proc.returncode == 1
    assert lines(proc)[0] == "pipe.py:1:1: LL000 cannot read: not a regular file (a pipe)"
    assert lines(proc)[1].startswith(LEASE_FINDING)


def test_symlink_loop(tree):
    os.symlink("loop_b.py", tree / "loop_a.py")
    os.symlink("loop_a.py", tree / "loop_b.py")
    proc = leaselint(".", cwd=tree)
    assert proc.returncode == 1
    assert lines(proc)[0].startswith(LEASE_FINDING)
    assert lines(proc)[1:] == [
        "loop_a.py:1:1: LL000 cannot read: Too many levels of symbolic links",
        "loop_b.py:1:1: LL000 cannot read: Too many levels of symbolic links",
    ]


def _without_read_permission() -> list[str] | None:
    """A prefix that runs a command without the right to read what it may not (root ignores modes)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    probe = subprocess.run([setpriv, "--bounding-set=-dac_override,-dac_read_search", "true"], capture_output=True)
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"] if probe.returncode == 0 else None


def test_file_and_folder_without_read_permission(tree):
    prefix = _without_read_permission()
    if prefix is None:
        if os.environ.get("CI"):
            pytest.fail("CI runs as root: this test needs setpriv (util-linux) to drop root's override rights")
        pytest.skip("running as root without setpriv: modes are not enforced")
    secret = tree / "secret.py"
    secret.write_text(LEASE)
    closed = tree / "closed"
    closed.mkdir()
    (closed / "inner.py").write_text(LEASE)
    secret.chmod(0)
    closed.chmod(0)
    try:
        command = [*prefix, sys.executable, "-m", "leaselint", "--no-cache", "--output-format", "concise"]
        named = subprocess.run([*command, "secret.py", "lease.py"], cwd=tree, capture_output=True, text=True, timeout=120)
        walked = subprocess.run([*command, "."], cwd=tree, capture_output=True, text=True, timeout=120)
    finally:
        secret.chmod(0o644)
        closed.chmod(0o755)
    assert named.returncode == 1, named.stderr
    assert lines(named)[0] == "secret.py:1:1: LL000 cannot read: Permission denied"
    assert lines(named)[1].startswith(LEASE_FINDING)
    assert walked.returncode == 1, walked.stderr
    assert lines(walked)[0].startswith(LEASE_FINDING)
    assert lines(walked)[1:] == [
        "secret.py:1:1: LL000 cannot read: Permission denied",
        "closed:1:1: LL000 cannot read: Permission denied",
    ]


def test_file_gone_between_discovery_and_reading(tree):
    (tree / "gone.py").write_text(LEASE)
    files = list(discover([str(tree)]))
    os.remove(tree / "gone.py")
    results = [result for result, _ in lint_paths(files, Settings(), jobs=1)]
    by_name = {os.path.basename(r.path): [(d.code, d.start.line, d.message) for d in r.diagnostics] for r in results}
    assert by_name["gone.py"] == [("LL000", 1, "cannot read: No such file or directory")]
    assert [code for code, _, _ in by_name["lease.py"]] == ["LL001"]


def test_paths_with_spaces_and_non_ascii(tree):
    folder = tree / "dossier été" / "sous dossier"
    folder.mkdir(parents=True)
    (folder / "bail à durée.py").write_text(LEASE)
    proc = leaselint(".", cwd=tree)
    assert proc.returncode == 1, proc.stderr
    inner = os.path.join("dossier été", "sous dossier", "bail à durée.py")
    assert [line.split(":")[0] for line in lines(proc)] == ["lease.py", inner]
    fixed = leaselint("--fix", inner, cwd=tree)
    assert fixed.returncode == 0, fixed.stderr
    assert "LEASE_RELEASE_SCRIPT" in (folder / "bail à durée.py").read_text()


# --------------------------------------------------------------------------- internal errors

FAILING_RULE = textwrap.dedent(
    """
    import sys

    import leaselint.rules
    from leaselint.cli import main

    rule = leaselint.rules.RULES_BY_CODE["LL002"]

    def check(context):
        for lease in context.model.leases:
            for claim in lease.claims:
                if "boom" in context.model.module.code:
                    raise ZeroDivisionError("a bug in the rule")
        return iter(())

    rule.check = check
    sys.exit(main())
    """
)


def test_rule_exception_is_an_internal_error_naming_rule_file_and_line(tree):
    (tree / "boom.py").write_text(LEASE.replace("import redis", "import redis  # boom"))
    (tree / "script.py").write_text(FAILING_RULE)
    proc = subprocess.run(
        [sys.executable, "script.py", "--no-cache", "--output-format", "concise", "boom.py", "lease.py"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "leaselint: internal error in boom.py: rule LL002 (fixed-token) failed at line 8: "
        "ZeroDivisionError: a bug in the rule (script.py:13 in check)"
    ]
    # The other rules on the same file, and the other files, still ran.
    assert [line.split(" ")[:2] for line in lines(proc)] == [["boom.py:12:13:", "LL001"], ["lease.py:12:13:", "LL001"]]


def test_linted_code_is_never_imported_or_executed(tree):
    marker = tree / "executed"
    hostile = f"""import os
open({str(marker)!r}, "w").close()
os._exit(7)
if __name__ == "__main__":
    raise SystemExit(9)
"""
    (tree / "hostile.py").write_text(hostile + LEASE)
    (tree / "conftest.py").write_text(hostile)
    (tree / "__init__.py").write_text(hostile)
    for args in (["--fix", "--unsafe-fixes", "."], ["--diff", "hostile.py"], ["."]):
        proc = leaselint(*args, cwd=tree)
        assert proc.returncode in (0, 1), proc.stderr
        assert not marker.exists()


def test_folder_named_like_a_source_file_is_reported(tmp_path):
    """Handed a folder `x.py` (by an API caller, or a file replaced by a folder after the walk)."""
    (tmp_path / "x.py").mkdir()
    ((result, source),) = list(lint_paths([str(tmp_path / "x.py")], Settings(), jobs=1))
    assert source is None
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("LL000", "cannot read: not a regular file (a folder)")
    ]


# ------------------------------------------------------------------------------- the parsing thread


def test_parsing_thread_holds_nothing_of_a_finished_call():
    """A parse's tree must not stay alive on the large-stack thread once its caller drops it."""
    import gc
    import time
    import weakref

    from leaselint.parsing import on_big_stack

    class Tree:
        pass

    made = []

    @on_big_stack
    def parse():
        tree = Tree()
        made.append(weakref.ref(tree))
        return tree

    tree = parse()
    del tree
    deadline = time.monotonic() + 5
    while made[0]() is not None and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.01)
    assert made[0]() is None


def test_parsing_thread_hands_back_exceptions_and_keeps_serving():
    from leaselint.parsing import on_big_stack

    @on_big_stack
    def fail(kind):
        raise kind("on the parsing thread")

    for kind in (ValueError, RecursionError, KeyboardInterrupt):
        with pytest.raises(kind, match="on the parsing thread"):
            fail(kind)
    assert on_big_stack(lambda: 42)() == 42
