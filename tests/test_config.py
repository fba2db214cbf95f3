"""`[tool.leaselint]`: where it is found, how it merges with the command line, and every way it can be wrong."""

from __future__ import annotations

import os
import pickle
import subprocess
import types

import pytest
from click.testing import CliRunner

from leaselint.cli import main
from leaselint.config import KEYS, Layer, resolve
from leaselint.rules import RULES_BY_CODE
from leaselint.settings import Settings

from snippets import BLIND_RELEASE

# LL001 at 12:13 with a safe fix.
SAFE = BLIND_RELEASE
STALE_NOQA = "x = 1  # noqa: LL001\n"
KNOWN = ", ".join(sorted(RULES_BY_CODE))


def run_cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def write(path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def pyproject(folder, body: str):
    return write(folder / "pyproject.toml", "[tool.leaselint]\n" + body)


def codes(result) -> list[str]:
    return [line.split()[1] for line in result.stdout.splitlines() if ": LL" in line]


def paths(result) -> list[str]:
    return sorted(line.split(":", 1)[0] for line in result.stdout.splitlines() if ": LL" in line)


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ------------------------------------------------------------------ finding


def test_nearest_pyproject_with_the_section_wins(cwd, monkeypatch):
    pyproject(cwd, 'ignore = ["LL001"]\n')
    write(cwd / "sub" / "pyproject.toml", "[project]\nname = 'x'\n")  # no section: skipped
    write(cwd / "sub" / "deeper" / "a.py", SAFE)
    monkeypatch.chdir(cwd / "sub" / "deeper")
    assert run_cli("a.py").exit_code == 0

    pyproject(cwd / "sub", "select = [\"LL001\"]\n")
    assert run_cli("a.py").exit_code == 1


def test_no_configuration_anywhere_uses_defaults(cwd):
    write(cwd / "a.py", SAFE)
    result = run_cli("--output-format", "concise", "a.py")
    assert result.exit_code == 1
    assert codes(result) == ["LL001"]


def test_config_option_names_the_file(cwd):
    write(cwd / "a.py", SAFE)
    pyproject(cwd / "elsewhere", 'ignore = ["LL001"]\n')
    assert run_cli("a.py").exit_code == 1
    assert run_cli("--config", "elsewhere/pyproject.toml", "a.py").exit_code == 0


def test_isolated_ignores_configuration(cwd):
    write(cwd / "a.py", SAFE)
    pyproject(cwd, 'ignore = ["LL001"]\n')
    assert run_cli("a.py").exit_code == 0
    assert run_cli("--isolated", "a.py").exit_code == 1


# --------------------------------------------------------------- precedence


def test_cli_select_replaces_file_selection(cwd):
    write(cwd / "a.py", SAFE)
    pyproject(cwd, 'select = ["LL000"]\n')
    assert run_cli("a.py").exit_code == 0
    assert run_cli("--select", "LL001", "a.py").exit_code == 1


def test_cli_ignore_applies_over_file_select(cwd):
    write(cwd / "a.py", SAFE)
    pyproject(cwd, 'select = ["LL001"]\n')
    assert run_cli("a.py").exit_code == 1
    assert run_cli("--ignore", "LL001", "a.py").exit_code == 0


def test_file_ignore_is_overridden_by_cli_select(cwd):
    write(cwd / "a.py", SAFE)
    pyproject(cwd, 'ignore = ["LL001"]\n')
    assert run_cli("a.py").exit_code == 0
    assert run_cli("--select", "LL001", "a.py").exit_code == 1


def test_extend_select_adds_an_opt_in_rule(cwd):
    write(cwd / "a.py", STALE_NOQA)
    assert run_cli("a.py").exit_code == 0  # LL100 is opt-in
    assert run_cli("--extend-select", "LL100", "a.py").exit_code == 1
    pyproject(cwd, 'extend-select = ["LL100"]\n')
    result = run_cli("--output-format", "concise", "a.py")
    assert result.exit_code == 1
    assert codes(result) == ["LL100"]
    assert run_cli("--ignore", "LL100", "a.py").exit_code == 0


def test_prefixes_and_all(cwd):
    write(cwd / "a.py", STALE_NOQA)
    assert run_cli("--select", "ALL", "a.py").exit_code == 1
    assert run_cli("--select", "LL1", "a.py").exit_code == 1
    assert run_cli("--select", "LL0", "a.py").exit_code == 0


def test_release_from_file_and_cli(cwd):
    write(cwd / "a.py", SAFE)
    pyproject(cwd, 'release = "delifeq"\n')
    assert '+            if not r.execute_command("DELIFEQ", f"lock:{job}", token):' in run_cli("--diff", "a.py").stdout
    cli = run_cli("--diff", "--release", "delex", "a.py").stdout
    assert '+            if not r.execute_command("DELEX", f"lock:{job}", "IFEQ", token):' in cli


def _warning_lines(result) -> list[str]:
    """The added lines of the warning call in a --diff of SAFE, without the `+`."""
    added = [line[1:] for line in result.stdout.splitlines() if line.startswith("+") and not line.startswith("+++")]
    start = next(i for i, line in enumerate(added) if ".warning(" in line)
    end = next(i for i in range(start, len(added)) if added[i].rstrip().endswith(")"))
    return added[start : end + 1]


ONE_LINE = [
    '                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")'
]
HUGGED = [
    "                logging.getLogger(__name__).warning(",
    '                    "lease %s expired before release; another worker may hold it", f"lock:{job}"',
    "                )",
]
SPREAD = [
    "                logging.getLogger(__name__).warning(",
    '                    "lease %s expired before release; another worker may hold it",',
    '                    f"lock:{job}",',
    "                )",
]


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("", SPREAD),
        ("[tool.leaselint]\nline-length = 140\n", ONE_LINE),
        ("[tool.leaselint]\n\n[tool.ruff]\nline-length = 100\n", HUGGED),
        ("[tool.leaselint]\n\n[tool.black]\nline-length = 140\n", ONE_LINE),
        # Ruff's before Black's, leaselint's before both.
        ("[tool.leaselint]\n\n[tool.ruff]\nline-length = 100\n\n[tool.black]\nline-length = 140\n", HUGGED),
        ("[tool.leaselint]\nline-length = 88\n\n[tool.ruff]\nline-length = 140\n", SPREAD),
        # No [tool.leaselint] section: Ruff's setting still counts.
        ("[tool.ruff]\nline-length = 140\n", ONE_LINE),
    ],
)
def test_line_length_of_inserted_warnings(cwd, toml, expected):
    write(cwd / "a.py", SAFE)
    if toml:
        write(cwd / "pyproject.toml", toml)
    assert _warning_lines(run_cli("--diff", "a.py")) == expected


def test_line_length_from_the_command_line_and_a_split_message(cwd):
    write(cwd / "a.py", SAFE)
    write(cwd / "pyproject.toml", "[tool.ruff]\nline-length = 140\n")
    assert _warning_lines(run_cli("--diff", "--line-length", "100", "a.py")) == HUGGED
    assert _warning_lines(run_cli("--diff", "--isolated", "a.py")) == SPREAD
    # Too narrow for the message: adjacent strings, each line within 60 characters, the same text.
    lines = _warning_lines(run_cli("--diff", "--line-length", "60", "a.py"))
    assert max(len(line) for line in lines) <= 60
    logger = types.SimpleNamespace(warning=lambda *args: args)
    logging = types.SimpleNamespace(getLogger=lambda name: logger)
    assert eval("\n".join(lines).strip(), {"logging": logging, "job": "j"}) == (
        "lease %s expired before release; another worker may hold it",
        "lock:j",
    )


def test_line_length_in_the_server_settings(tmp_path):
    from leaselint.server import Checker

    write(tmp_path / "pyproject.toml", "[tool.black]\nline-length = 120\n")
    assert Checker().settings(str(tmp_path / "pkg" / "a.py")).line_length == 120


def test_per_file_ignores(cwd):
    write(cwd / "tests" / "test_a.py", SAFE)
    write(cwd / "src" / "a.py", SAFE)
    write(cwd / "src" / "legacy_b.py", SAFE)
    pyproject(cwd, '[tool.leaselint.per-file-ignores]\n"tests/*" = ["LL001"]\n"legacy_*.py" = ["LL0"]\n')
    result = run_cli("--output-format", "concise")
    assert paths(result) == [os.path.join("src", "a.py")]


def test_per_file_ignores_are_relative_to_the_config_folder(cwd, monkeypatch):
    write(cwd / "tests" / "test_a.py", SAFE)
    pyproject(cwd, '[tool.leaselint.per-file-ignores]\n"tests/*" = ["LL001"]\n')
    monkeypatch.chdir(cwd / "tests")
    assert run_cli("test_a.py").exit_code == 0


def test_unfixable_and_fixable(cwd):
    path = write(cwd / "a.py", SAFE)
    pyproject(cwd, 'unfixable = ["LL001"]\n')
    result = run_cli("--fix", "--output-format", "concise", "a.py")
    assert result.exit_code == 1
    assert path.read_text() == SAFE
    assert "[*]" not in result.stdout

    pyproject(cwd, 'fixable = ["LL000"]\n')
    run_cli("--fix", "a.py")
    assert path.read_text() == SAFE

    pyproject(cwd, 'fixable = ["ALL"]\nunfixable = []\n')
    assert run_cli("--fix", "a.py").exit_code == 0
    assert path.read_text() != SAFE


# --------------------------------------------------------------- discovery


def test_exclude_replaces_defaults_and_extend_exclude_adds(cwd):
    for rel in ["pkg/a.py", "build/b.py", "migrations/c.py", "pkg/gen/d.py"]:
        write(cwd / rel, SAFE)
    assert paths(run_cli("--output-format", "concise")) == ["migrations/c.py", "pkg/a.py", "pkg/gen/d.py"]

    pyproject(cwd, 'extend-exclude = ["migrations", "pkg/gen"]\n')
    assert paths(run_cli("--output-format", "concise")) == ["pkg/a.py"]

    pyproject(cwd, 'exclude = ["pkg"]\n')
    assert paths(run_cli("--output-format", "concise")) == ["build/b.py", "migrations/c.py"]

    assert paths(run_cli("--output-format", "concise", "--exclude", "build,migrations")) == [
        "pkg/a.py",
        "pkg/gen/d.py",
    ]


def test_explicit_file_is_linted_unless_force_exclude(cwd):
    write(cwd / "migrations" / "c.py", SAFE)
    pyproject(cwd, 'extend-exclude = ["migrations"]\n')
    assert run_cli("migrations/c.py").exit_code == 1
    assert run_cli("--force-exclude", "migrations/c.py").exit_code == 0
    pyproject(cwd, 'extend-exclude = ["migrations"]\nforce-exclude = true\n')
    assert run_cli("migrations/c.py").exit_code == 0


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_respect_gitignore(cwd):
    _git(cwd, "init", "-q")
    write(cwd / ".gitignore", "generated/\nscratch_*.py\n")
    write(cwd / "a.py", SAFE)
    write(cwd / "generated" / "g.py", SAFE)
    write(cwd / "pkg" / "scratch_1.py", SAFE)
    assert paths(run_cli("--output-format", "concise")) == ["a.py"]
    # A file named on the command line is linted.
    assert run_cli("generated/g.py").exit_code == 1
    pyproject(cwd, "respect-gitignore = false\n")
    assert paths(run_cli("--output-format", "concise")) == ["a.py", "generated/g.py", "pkg/scratch_1.py"]


def test_gitignore_outside_a_repository_is_not_read(cwd):
    write(cwd / ".gitignore", "a.py\n")
    write(cwd / "a.py", SAFE)
    assert paths(run_cli("--output-format", "concise")) == ["a.py"]


# ------------------------------------------------------------------ errors


def _error(cwd, body: str) -> str:
    write(cwd / "a.py", SAFE)
    write(cwd / "pyproject.toml", body)
    result = run_cli("a.py")
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert result.stderr.startswith("leaselint: error: pyproject.toml: ")
    assert result.stderr.count("\n") == 1
    return result.stderr


def test_unknown_key(cwd):
    message = _error(cwd, '[tool.leaselint]\nselct = ["LL001"]\n')
    allowed = ", ".join(sorted(KEYS))
    assert message == (
        f"leaselint: error: pyproject.toml: [tool.leaselint]: unknown key 'selct' (did you mean 'select'?); "
        f"allowed: {allowed}\n"
    )


def test_unknown_rule_code(cwd):
    message = _error(cwd, '[tool.leaselint]\nignore = ["LL001", "XY9"]\n')
    assert message == f"leaselint: error: pyproject.toml: [tool.leaselint] ignore: unknown rule code 'XY9'; known: {KNOWN}\n"


def test_unknown_rule_code_in_per_file_ignores(cwd):
    message = _error(cwd, '[tool.leaselint.per-file-ignores]\n"tests/*" = ["LL999"]\n')
    assert "[tool.leaselint] per-file-ignores 'tests/*': unknown rule code 'LL999'" in message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('select = "LL001"', "select: expected a list of rule codes such as [\"LL001\"], got 'LL001' (a string)"),
        ("extend-select = [1]", "extend-select: expected a list of rule codes"),
        ('exclude = "build"', "exclude: expected a list of globs"),
        ('respect-gitignore = "no"', "respect-gitignore: expected true or false, got 'no' (a string)"),
        ("force-exclude = 1", "force-exclude: expected true or false, got 1 (an integer)"),
        ('release = "redis"', 'release: expected one of "lua", "delifeq", "delex", got \'redis\' (a string)'),
        ('per-file-ignores = ["x"]', "per-file-ignores: expected a table of glob = [rule codes], got ['x'] (a list)"),
        ('per-file-ignores = { "x" = "LL001" }', "per-file-ignores 'x': expected a list of rule codes"),
        ("line-length = 0", "line-length: expected an integer from 1 to 320, got 0 (an integer)"),
        ('line-length = "88"', "line-length: expected an integer from 1 to 320, got '88' (a string)"),
    ],
)
def test_wrong_types(cwd, body, expected):
    message = _error(cwd, f"[tool.leaselint]\n{body}\n")
    assert f"pyproject.toml: [tool.leaselint] {expected}" in message


def test_malformed_toml(cwd):
    message = _error(cwd, "[tool.leaselint]\nselect = [\"LL001\"]\nignore = = 1\n")
    assert message.startswith("leaselint: error: pyproject.toml: invalid TOML: ")
    assert "line 3" in message


def test_section_not_a_table(cwd):
    message = _error(cwd, "[tool]\nleaselint = 3\n")
    assert "[tool.leaselint] must be a table, got 3 (an integer)" in message


def test_config_file_missing_or_without_section(cwd):
    write(cwd / "a.py", SAFE)
    missing = run_cli("--config", "nope.toml", "a.py")
    assert missing.exit_code == 2
    assert missing.stderr == "leaselint: error: nope.toml: cannot read: No such file or directory\n"
    write(cwd / "other.toml", "[tool.black]\nline-length = 100\n")
    empty = run_cli("--config", "other.toml", "a.py")
    assert empty.exit_code == 2
    assert empty.stderr == "leaselint: error: other.toml: no [tool.leaselint] section\n"


def test_config_and_isolated_conflict(cwd):
    write(cwd / "a.py", SAFE)
    pyproject(cwd, "")
    result = run_cli("--config", "pyproject.toml", "--isolated", "a.py")
    assert result.exit_code == 2
    assert result.stderr == "leaselint: error: --config and --isolated cannot be used together\n"


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
def test_unknown_code_on_the_command_line(cwd, option):
    write(cwd / "a.py", SAFE)
    result = run_cli(option, "LL001,LL999", "a.py")
    assert result.exit_code == 2
    assert result.stderr == f"leaselint: error: unknown rule code 'LL999'; known: {KNOWN}\n"


def test_malformed_pyproject_found_upward_is_an_error(cwd):
    write(cwd / "pyproject.toml", "[tool.leaselint\n")
    write(cwd / "a.py", SAFE)
    result = run_cli("a.py")
    assert result.exit_code == 2
    assert "pyproject.toml: invalid TOML" in result.stderr
    assert run_cli("--isolated", "a.py").exit_code == 1


# ----------------------------------------------------------------- settings


def test_resolved_settings_are_plain_picklable_data(tmp_path):
    file_layer = Layer(select=("LL0",), per_file_ignores=(("tests/*", ("LL001",)),), unfixable=("LL001",))
    settings = resolve([file_layer, Layer(extend_select=("LL100",))], str(tmp_path))
    assert pickle.loads(pickle.dumps(settings)) == settings
    assert "LL100" in settings.select and "LL001" in settings.select
    assert not settings.can_fix("LL001") and settings.can_fix("LL100")
    in_tests = settings.for_file(str(tmp_path / "tests" / "t.py"))
    assert not in_tests.enabled("LL001") and in_tests.enabled("LL002")
    assert settings.for_file(str(tmp_path / "src" / "t.py")).enabled("LL001")


def test_default_settings_select_every_rule():
    assert Settings().enabled("LL100")
    assert Settings().for_file("anything.py") == Settings()
