"""What starting leaselint imports: a plain run pays only for what it uses.

Every module imported before the first file is looked at costs each run its time (the CLI's own
imports came to some 15 ms above click's before they were made lazy), so these tests name what a
run must not import.
"""

from __future__ import annotations

import json
import subprocess
import sys

from snippets import BLIND_RELEASE

# Imported only by the runs that need them: the other output formats, rule docs, statistics, TOML.
REPORT_MODULES = {
    f"leaselint.report.{name}"
    for name in ("full", "concise", "sarif", "github", "gitlab", "junit", "rule_docs", "statistics", "summary")
}
NEVER_AT_IMPORT = REPORT_MODULES | {
    "tomllib",
    "tomli",
    "json",
    "textwrap",
    "libcst",
    "leaselint.runner",
    "leaselint.check",
    "leaselint.project_pass",
    "leaselint.discover",
    "leaselint.report.json_format",
}


def imported(code: str, cwd=None) -> set[str]:
    """The modules in sys.modules after running `code` in a fresh interpreter."""
    script = code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=cwd)
    return set(done.stdout.splitlines()[-1].split())


def run_in_process(*args: str) -> str:
    return (
        "import sys\n"
        "from leaselint.cli import main\n"
        "try:\n"
        f"    main({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
    )


def test_importing_the_cli_imports_no_reporter_runner_or_toml():
    modules = imported("import leaselint.cli")
    assert "click" in modules
    assert not modules & NEVER_AT_IMPORT


def test_version_imports_no_more_than_the_cli():
    modules = imported(run_in_process("--version"))
    assert not modules & NEVER_AT_IMPORT


def test_a_json_run_imports_its_own_reporter_only(tmp_path):
    (tmp_path / "a.py").write_text(BLIND_RELEASE)
    (tmp_path / "b.py").write_text("x = 1\n")
    out, cache = tmp_path / "out.json", tmp_path / "cache"
    args = ("--isolated", "--output-format", "json", "--output-file", str(out), "--cache-dir", str(cache), str(tmp_path))
    for _ in range(2):  # cold, then warm
        modules = imported(run_in_process(*args), cwd=tmp_path)
        assert "leaselint.report.json_format" in modules
        assert not modules & (REPORT_MODULES | {"tomllib", "tomli"})
        assert [item["code"] for item in json.loads(out.read_text())] == ["LL001"]
    # Nor the json package, on a warm run (libcst imports it on a cold one): the reporter writes the text.
    assert "libcst" not in modules
    assert "json" not in modules


def test_toml_is_read_only_when_there_is_a_pyproject(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    toml = {"tomllib", "tomli"}
    assert not imported(run_in_process("--no-cache", "a.py"), cwd=tmp_path) & toml
    (tmp_path / "pyproject.toml").write_text("[tool.leaselint]\nignore = []\n")
    assert imported(run_in_process("--no-cache", "a.py"), cwd=tmp_path) & toml


def test_the_pytest_plugin_costs_a_run_without_leases_only_its_options():
    """pytest loads the plugin in every run of every project with leaselint installed."""
    loaded = imported("import leaselint.runtime.pytest_plugin")
    assert not {m for m in loaded if m.startswith("leaselint.") and m != "leaselint.runtime.pytest_plugin"} - {
        "leaselint.runtime"
    }
    assert "libcst" not in loaded and "redis" not in loaded


def test_a_traced_process_imports_no_libcst():
    """`leaselint trace` starts a recorder in every Python process of the command."""
    loaded = imported("from leaselint.runtime import trace, install, record, redis_hooks, other_hooks")
    assert "libcst" not in loaded
    assert not {m for m in loaded if m.startswith("leaselint.model")}
