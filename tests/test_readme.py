"""The README's reference parts agree with the code: rules, options, configuration keys, and snippets that parse.
It opens with the two commands a new user runs, names no commit or issue, and its links and the other
docs' links resolve."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from click.testing import CliRunner

from leaselint import __version__
from leaselint.cli import main
from leaselint.config import KEYS, load_config
from leaselint.rules import ALL_RULES

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


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
    declared = yaml.safe_load((ROOT / "action.yml").read_text())["inputs"]
    (uses,) = [step for step in action["steps"] if step.get("uses", "").startswith("<owner>/leaselint@")]
    assert set(uses["with"]) <= set(declared)
    assert gitlab["leaselint"]["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"


def test_the_editor_setups_start_the_server():
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


# The two commands a new user runs on a fresh machine: one installs and lints the sample, one installs
# and runs the tests; CI runs exactly the second.
def _fresh_machine_commands() -> list[str]:
    sections = re.split(r"^## ", README, flags=re.M)
    assert sections[1].startswith("Try it on a fresh machine\n")  # the first section
    return [block.strip() for block in re.findall(r"^```sh\n(.*?)^```", sections[1], re.M | re.S)]


def test_the_readme_opens_with_the_two_commands_and_ci_runs_the_test_one():
    try_it, tests = _fresh_machine_commands()
    assert re.search(r"pip install -q \. && \.venv/bin/leaselint examples/jobs\.py$", try_it)
    assert re.search(r"pip install -q -e '\.\[test\]' && \.venv/bin/python -m pytest$", tests)
    ci = [line for line in (ROOT / ".ci/run").read_text().splitlines() if line and not line.startswith("#")]
    assert ci[-1] == tests
    assert f"```sh\n{tests}\n```" in (ROOT / "CONTRIBUTING.md").read_text()


def test_the_sample_has_findings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, [str(ROOT / "examples" / "jobs.py")])
    assert done.exit_code == 1, done.output


def test_the_python_version_is_the_packages():
    (floor,) = re.findall(r'^requires-python = ">=(\d+\.\d+)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert f"Python {floor}+" in README.split("\n## ", 1)[0]  # said before the first section
    assert f"Python {floor} or later" in README


def test_ruffs_external_setting_covers_every_code():
    (ruff,) = [block for block in _blocks("toml") if "[tool.ruff.lint]" in block]
    external = tomllib.loads(ruff)["tool"]["ruff"]["lint"]["external"]
    assert all(rule.code.startswith(tuple(external)) for rule in ALL_RULES)


# User docs: what a user reads. Contributor docs (CONTRIBUTING.md, docs/measurements.md,
# docs/architecture.md) may name the commit a measurement was taken on.
USER_DOCS = ["README.md", "docs/leases.md", "leaselint/docs/rules.md", "CHANGELOG.md"]
PROJECT_HISTORY = re.compile(
    r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"  # a commit hash
    r"|\bissues? #?\d+|(?<![\w&/])#\d+\b"  # an issue number
    r"|\bsession \d+",
    re.I,
)


def test_user_docs_name_no_commit_or_issue():
    for name in USER_DOCS:
        assert not PROJECT_HISTORY.findall((ROOT / name).read_text()), name


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    anchors, seen = set(re.findall(r'<a id="([^"]+)"', text)), {}
    for heading in re.findall(r"^#+ (.+)$", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S), re.M):
        slug = _slug(heading)
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


DOCS = ["README.md", "CONTRIBUTING.md", "docs/architecture.md", "docs/measurements.md", "docs/leases.md"]


def test_links_between_the_docs_resolve():
    for name in DOCS:
        path = ROOT / name
        prose = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.M | re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            assert linked.exists(), (name, target)
            if anchor:
                assert anchor in _anchors(linked.read_text()), (name, target)
