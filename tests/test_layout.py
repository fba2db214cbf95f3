"""The house's layout: the package's modules import each other one way (the settings and the file
walk share their path rules through leaselint/paths.py, and neither imports the other at import
time); rule files hold their documentation, check and a few cases, the rest are fixture files."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import cases
from leaselint.rule import Invalid, Valid
from leaselint.rules import ALL_RULES

REPO = Path(__file__).resolve().parent.parent
RULE_FILE_LINES = 300


def _loaded_after(module: str) -> set[str]:
    code = f"import sys, {module}; print(' '.join(sorted(m for m in sys.modules if m.startswith('leaselint'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_settings_and_discover_do_not_import_each_other():
    assert "leaselint.discover" not in _loaded_after("leaselint.settings")
    assert "leaselint.settings" not in _loaded_after("leaselint.discover")
    assert "leaselint.paths" in _loaded_after("leaselint.settings") & _loaded_after("leaselint.discover")


def test_rule_files_stay_short_and_show_a_case_of_each_kind():
    for path in sorted((REPO / "rules").glob("ll*.py")):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= RULE_FILE_LINES, path.name
    for rule in ALL_RULES:
        assert rule.INVALID, rule.code  # the inline cases the documentation's example stands beside
        assert rule.VALID or rule.code == "LL000", rule.code


def test_fixture_files_hold_cases_of_their_rule_alone():
    codes = {rule.code for rule in ALL_RULES}
    folders = [p for p in cases.HERE.iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert folders and {p.name for p in folders} <= codes
    for folder in folders:
        for path in cases.fixture_files(folder.name):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets}
            assert names == {"VALID", "INVALID"}, path
            module = cases._load(path)
            assert module.VALID or module.INVALID, path
            assert all(type(c) is Valid for c in module.VALID) and all(type(c) is Invalid for c in module.INVALID), path


def test_every_case_is_collected_once():
    texts = [(rule.code, kind, c.code) for rule in ALL_RULES for kind in cases.KINDS for _, c in cases.named(rule, kind)]
    assert len(texts) == len(set(texts))
    inline = sum(len(rule.VALID) + len(rule.INVALID) for rule in ALL_RULES)
    assert len(texts) > inline


def test_one_file_the_project_pass_and_many_files_import_one_way():
    """check.py (one file) < project_pass.py (callers again, with summaries) < runner.py (many files)."""
    assert not {"leaselint.runner", "leaselint.project_pass"} & _loaded_after("leaselint.check")
    assert "leaselint.runner" not in _loaded_after("leaselint.project_pass")
    assert {"leaselint.check", "leaselint.project_pass"} <= _loaded_after("leaselint.runner")
    assert "leaselint.runner" not in _loaded_after("leaselint.parsing")


MODEL_MODULE_LINES = 800


def _model_imports() -> dict[str, set[str]]:
    """Module name -> the leaselint.model modules it imports, at module level or inside functions."""
    folder = REPO / "leaselint" / "model"
    names = {path.stem for path in folder.glob("*.py")}
    found = {}
    for path in folder.glob("*.py"):
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "leaselint.model":
                edges |= {alias.name for alias in node.names if alias.name in names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("leaselint.model."):
                edges.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                edges |= {a.name.split(".")[2] for a in node.names if a.name.startswith("leaselint.model.")}
        found[path.stem] = edges - {path.stem}
    return found


def test_model_modules_import_one_way_and_stay_short():
    graph = _model_imports()
    assert {"classify", "stores", "build", "events", "calls"} <= set(graph)
    done: set[str] = set()

    def visit(name: str, path: tuple) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name not in done:
            for other in graph.get(name, ()):
                visit(other, (*path, name))
            done.add(name)

    for name in graph:
        visit(name, ())
    for path in (REPO / "leaselint" / "model").glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= MODEL_MODULE_LINES, path.name
