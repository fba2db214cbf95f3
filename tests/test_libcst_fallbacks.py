"""leaselint's speed-ups read libcst's private internals; when a libcst release moves or changes them,
the run falls back to libcst's public path (the same results, more slowly) and says so with --verbose.
Each change is simulated here."""

from __future__ import annotations

import sys
import textwrap

import libcst as cst
from click.testing import CliRunner

from leaselint import cli, parsing
from leaselint.model import positions
from leaselint.rules import RULES_BY_CODE
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText
import cases

CASE = textwrap.dedent(cases.invalid(RULES_BY_CODE["LL001"])[0].code)


def _outcome(text: str):
    result = lint_text(SourceText(text), "case.py", Settings(fix=True, unsafe_fixes=True))
    assert result.internal_errors == []
    return [(d.code, d.start, d.end, d.message) for d in result.diagnostics], result.fixed_text


def _no_node_class(monkeypatch):
    monkeypatch.setattr(parsing, "_node_classes", [])
    monkeypatch.setitem(sys.modules, "libcst._nodes.base", None)  # `from libcst._nodes.base import ...` fails


def test_a_moved_node_class_leaves_libcsts_checks_on_and_the_findings_the_same(monkeypatch):
    expected = _outcome(CASE)
    _no_node_class(monkeypatch)
    assert not parsing.node_checks_aside()
    before = cst.CSTNode.__dict__["__post_init__"]
    assert _outcome(CASE) == expected
    assert cst.CSTNode.__dict__["__post_init__"] is before  # nothing was set aside
    assert any("node checks run in full" in note for note in parsing.fast_path_notes())


def test_a_changed_node_check_is_left_alone(monkeypatch):
    expected = _outcome(CASE)

    def post_init(self):  # reads other names than libcst's own does today
        type(self)._validate(self)

    monkeypatch.setattr(parsing, "_node_classes", [])
    monkeypatch.setattr(cst.CSTNode, "__post_init__", post_init)
    assert not parsing.node_checks_aside()
    assert _outcome(CASE) == expected
    assert cst.CSTNode.__dict__["__post_init__"] is post_init


def test_today_the_node_checks_are_set_aside_and_nothing_is_noted():
    assert parsing.node_checks_aside()
    assert parsing.fast_path_notes() == []


def _ranges(table, module):
    found = {}
    for node in table:
        where = table[node]
        found[id(node)] = (where.start.line, where.start.column, where.end.line, where.end.column)
    assert len(found) > 50
    return found


def test_positions_come_from_libcsts_provider_without_its_codegen_state(monkeypatch):
    expected = _outcome(CASE)
    module = cst.parse_module(CASE)
    cheap = positions.positions(module)
    assert isinstance(cheap, positions.Positions)
    monkeypatch.setattr(positions, "CodegenState", None)
    provided = positions.positions(module)
    assert isinstance(provided, positions.ProvidedPositions)
    assert _ranges(provided, module) == _ranges(cheap, module)
    assert provided.code == cheap.code == module.code
    node = next(iter(provided))
    assert provided.start_line(node) == cheap.start_line(node)
    assert any("PositionProvider" in note for note in positions.fast_path_notes())
    assert _outcome(CASE) == expected


def test_a_codegen_state_that_fails_falls_back_once_for_the_process(monkeypatch):
    class Broken:
        def __init__(self, *args, **kwargs):
            raise TypeError("CodegenState takes other arguments")

    module = cst.parse_module(CASE)
    cheap = positions.positions(module)
    monkeypatch.setattr(positions, "_cheap", [])
    monkeypatch.setattr(positions, "_State", Broken)
    provided = positions.positions(module)
    assert isinstance(provided, positions.ProvidedPositions)
    assert positions._cheap == [False]
    assert _ranges(provided, module) == _ranges(cheap, module)
    assert isinstance(positions.positions(module), positions.ProvidedPositions)  # not tried again


def test_verbose_says_once_what_runs_at_libcsts_own_pace(monkeypatch, tmp_path):
    sample = tmp_path / "jobs.py"
    sample.write_text(CASE)
    _no_node_class(monkeypatch)
    result = CliRunner().invoke(cli.main, ["--isolated", "--no-cache", "-v", str(sample)])
    assert result.exit_code == 1, result.output
    assert result.output.count("leaselint: note: libcst") == 1
    assert "node checks run in full" in result.output
    assert "LL001" in result.output
    quiet = CliRunner().invoke(cli.main, ["--isolated", "--no-cache", str(sample)])
    assert "note:" not in quiet.output
