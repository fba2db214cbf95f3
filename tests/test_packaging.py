"""The installed package: `rules/` lands inside `leaselint`, never as a top-level `rules`; the wheel
carries the license; the version has one source (`leaselint.__version__`) that the other files agree with."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from leaselint import __version__

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `pip wheel` builds from this checkout, built once for the module."""
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = folder.glob("leaselint-*.whl")
    return built


def _metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return archive.read(name).decode()


def test_wheel_maps_rules_into_the_package(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"leaselint"}
    assert "leaselint/rules/ll001_blind_release.py" in names
    assert "leaselint/rules/__init__.py" in names
    assert "leaselint/docs/rules.md" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "leaselint = leaselint.cli:run" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_wheel_carries_the_run_time_checker(wheel):
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    assert "leaselint/runtime/pytest_plugin.py" in names
    assert "leaselint/runtime/site/sitecustomize.py" in names  # what `leaselint trace` puts on PYTHONPATH
    entry_points = archive.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "[pytest11]\nleaselint = leaselint.runtime.pytest_plugin" in entry_points


def test_rules_import_from_any_folder(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", "import leaselint.rules as r; print(','.join(x.code for x in r.ALL_RULES))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip().startswith("LL000,LL001")


def test_license_is_mit_declared_and_shipped(wheel):
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the leaselint authors" in text
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    assert "License-Expression: MIT" in _metadata(wheel).splitlines()
    with zipfile.ZipFile(wheel) as archive:
        (shipped,) = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert archive.read(shipped).decode() == text


def test_the_version_has_one_source_that_the_wheel_and_the_action_agree_with(wheel, tmp_path):
    assert "version" not in PYPROJECT["project"]
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "leaselint.__version__"}
    assert wheel.name == f"leaselint-{__version__}-py3-none-any.whl"
    assert f"Version: {__version__}" in _metadata(wheel).splitlines()

    # The wheel installed on its own answers --version with it.
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = "import leaselint, importlib.metadata as m; print(leaselint.__file__, m.version('leaselint'))"
    where = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert where.stdout.split() == [str(site / "leaselint" / "__init__.py"), __version__], where.stderr
    done = subprocess.run(
        [sys.executable, "-m", "leaselint", "--version"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.stdout == f"leaselint, version {__version__}\n"

    # The Action names no version but this one; the hooks run whatever version their checkout holds.
    assert set(re.findall(r"\d+(?:\.\d+)+", (ROOT / "action.yml").read_text())) == {__version__}
    for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text()):
        fields = {key: value for key, value in hook.items() if key != "minimum_pre_commit_version"}
        assert not re.search(r"\d+\.\d+", repr(fields)), hook["id"]


def test_the_readme_names_the_wheel_a_checkout_builds(wheel):
    assert f"pip wheel --no-deps -w dist . && pip install dist/{wheel.name}" in (ROOT / "README.md").read_text()


def test_changelog_has_the_current_version_first():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    assert "[Keep a Changelog]" in text
    # The newest entry (after an optional [Unreleased]) is the version in the code.
    versions = [v for v in re.findall(r"^## \[([^\]]+)\]", text, re.M) if v != "Unreleased"]
    assert versions[0] == __version__
    # User-facing: no commit hashes, no issue numbers.
    assert not re.search(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b", text)
    assert not re.search(r"#\d|\bissues? \d", text, re.I)
