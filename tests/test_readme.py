"""The README's reference parts agree with the code: rules, options, configuration keys, and snippets that parse."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

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
    (uses,) = [step for step in action["steps"] if step.get("uses", "").endswith("/leaselint@v1")]
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
