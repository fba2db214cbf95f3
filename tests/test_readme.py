"""The README's reference parts agree with the code: rules, options, configuration keys, and snippets that parse."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from leaselint import __version__
from leaselint.cli import main
from leaselint.config import KEYS, load_config
from leaselint.rules import ALL_RULES

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, re.M | re.S)


def test_rule_table_lists_every_rule():
    rows = re.findall(r"^\| (LL\d{3}) \| ([a-z-]+) \| ([a-z]+) \|", README, re.M)
    assert rows == [(r.code, r.name, r.fix_availability) for r in ALL_RULES]


def test_every_option_is_documented():
    for param in main.params:
        for name in param.opts:
            if name.startswith("--") and name not in ("--help", "--version"):
                assert f"`{name}" in README, name


def test_every_configuration_key_is_documented():
    documented = re.findall(r"^\| `([a-z-]+)` \| ", README.split("## Configuration", 1)[1], re.M)
    assert sorted(set(documented) & set(KEYS)) == sorted(KEYS)


def test_configuration_example_is_valid(tmp_path):
    (toml,) = [block for block in _blocks("toml") if "[tool.leaselint]" in block]
    path = tmp_path / "pyproject.toml"
    path.write_text(toml)
    layer = load_config(str(path))
    assert layer.release == "delifeq"


def test_yaml_snippets_parse():
    snippets = [yaml.safe_load(block) for block in _blocks("yaml")]
    assert len(snippets) == 4
    precommit, github, action, gitlab = snippets
    assert precommit["repos"][0]["hooks"][0]["id"] == "leaselint"
    steps = github["jobs"]["leaselint"]["steps"]
    assert any("--output-format sarif" in step.get("run", "") for step in steps)
    assert any(step.get("uses", "").startswith("github/codeql-action/upload-sarif") for step in steps)
    # The repository's own action, with inputs it has (action.yml).
    declared = yaml.safe_load((Path(__file__).resolve().parent.parent / "action.yml").read_text())["inputs"]
    (uses,) = [step for step in action["steps"] if step.get("uses", "").startswith("<owner>/leaselint@")]
    assert set(uses["with"]) <= set(declared)
    assert gitlab["leaselint"]["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"


def test_the_editor_setups_start_the_server():
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    (helix,) = [block for block in _blocks("toml") if "language-server" in block]
    server = tomllib.loads(helix)["language-server"]["leaselint"]
    assert server["command"] == "leaselint-server" and "args" not in server
    (neovim,) = _blocks("lua")
    assert 'cmd = { "leaselint-server" }' in neovim


# leaselint has no release yet: a PyPI install or a release tag is the form for after one, marked so.
RELEASE_MARK = "after a release"
RELEASE_NAMES = re.compile(
    r"leaselint(?:==|-)(?P<version>\d+(?:\.\d+)+)"  # a PyPI pin, a wheel's file name
    r"|leaselint@(?P<ref>(?!<)[\w.]+)"  # an Action's tag
    r"|(?<![\w./@-])@?(?P<tag>v\d+(?:\.\d+)+)\b"  # a tag named on its own (rev: v1.2.3)
)


def _units() -> list[str]:
    """Each line of a code block and each paragraph of prose: where an install form and its mark meet."""
    units = []
    for index, part in enumerate(re.split(r"^```.*\n", README, flags=re.M)):
        if index % 2:
            units += part.splitlines()
        else:
            units += [" ".join(paragraph.split()) for paragraph in part.split("\n\n")]
    return units


def _installs_from_pypi(unit: str) -> bool:
    for command in re.findall(r"pip install ([^#`;&|]*)", unit):
        if "git+" not in command and any(re.match(r"leaselint\b", w.strip("'\"")) for w in command.split()):
            return True
    return False


def test_install_lines_name_only_this_version_and_mark_release_forms():
    marked = 0
    for unit in _units():
        names = list(RELEASE_NAMES.finditer(unit))
        for name in names:
            assert name["version"] in (None, __version__), unit
            assert (name["ref"] or name["tag"]) in (None, f"v{__version__}"), unit
        if _installs_from_pypi(unit) or any(name["version"] is None for name in names):
            assert RELEASE_MARK in unit.lower(), unit
            marked += 1
    assert marked >= 6  # pip, the server extra, pre-commit, the two CI jobs, the Action


def test_install_works_now_from_a_checkout_a_wheel_or_the_repository():
    (install,) = [block for block in _blocks("sh") if "pip wheel" in block]
    assert re.search(r"^pip install \.\s", install, re.M)
    assert 'pip install "git+' in install
    assert f"pip install dist/leaselint-{__version__}-py3-none-any.whl" in install
