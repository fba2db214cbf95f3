"""leaselint's speed-ups read libcst's private internals; when a libcst release moves or changes them,
the run falls back to libcst's public path (the same results, more slowly) and says so with --verbose.
Each change is simulated here."""

from __future__ import annotations

import sys
import textwrap

import libcst as cst
import pytest
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


# Node making: each class's `__init__` writes through its slots (parsing.fast_inits).
INIT_TEXTS = [
    CASE,
    "x = f(a, *b, k=1, **c)[1:2] if y else {1: 2}\n",
    "@d\nasync def f(a, /, b=1, *c, d, **e) -> int:\n    async with x as y:\n        return [z async for z in y]\n",
    "class C(B, metaclass=M):\n    '''doc'''\n    x: int = 1\n    def g(self): yield from h()\n",
    "try:\n    pass\nexcept* E as e:\n    raise\nfinally:\n    del a[0]\n",
    "match p:\n    case [1, *r] | {'k': v} if v:\n        pass\n",
    "s = f'{a!r:>{w}}' 'y'\nb = rb'x'\nlambda q=1: (yield)\n",
]


def _with_libcst_inits(make):
    parsing._plain_inits()
    try:
        return make()
    finally:
        parsing._fast_inits[:] = []
        assert parsing.fast_inits()


def test_nodes_made_through_their_slots_are_libcsts_nodes():
    assert parsing.fast_inits()
    assert hasattr(cst.Call.__dict__["__init__"], "libcst_own")
    for text in INIT_TEXTS:
        fast = cst.parse_module(text)
        own = _with_libcst_inits(lambda: cst.parse_module(text))
        assert fast.deep_equals(own) and fast.code == own.code == text
    # By hand: positional and keyword arguments, defaults, factories, the node check, a missing argument.
    made = cst.Call(cst.Name("f"), [cst.Arg(cst.Integer("1"), keyword=cst.Name("k"))])
    own = _with_libcst_inits(lambda: cst.Call(cst.Name("f"), [cst.Arg(cst.Integer("1"), keyword=cst.Name("k"))]))
    assert made.deep_equals(own) and made.whitespace_after_func is not own.whitespace_after_func
    assert cst.Module(body=[]).code_for_node(made) == "f(k = 1)"
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")
    with pytest.raises(TypeError):
        cst.Call()  # type: ignore[call-arg]
    with pytest.raises(Exception):  # frozen: no assignment after the node is made
        made.func = cst.Name("g")  # type: ignore[misc]


def test_node_classes_made_otherwise_keep_libcsts_init(monkeypatch):
    expected = _outcome(CASE)
    parsing._plain_inits()
    monkeypatch.setattr(parsing, "_fast_inits", [])
    import dataclasses

    monkeypatch.delattr(dataclasses, "_HAS_DEFAULT_FACTORY")  # a dataclasses of another shape
    try:
        assert not parsing.fast_inits()
        assert not hasattr(cst.Call.__dict__["__init__"], "libcst_own")
        assert _outcome(CASE) == expected
        assert any("made by its own __init__" in note for note in parsing.fast_path_notes())
    finally:
        monkeypatch.undo()
        parsing._fast_inits[:] = []
        assert parsing.fast_inits()


def test_a_class_whose_init_takes_other_arguments_keeps_it(monkeypatch):
    """A class whose `__init__` is not the dataclass one of its fields (here: one more argument)."""

    def other_init(self, value, lpar=(), rpar=(), extra=None):
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "lpar", lpar)
        object.__setattr__(self, "rpar", rpar)
        self.__post_init__()

    import dataclasses

    factory = dataclasses._HAS_DEFAULT_FACTORY  # type: ignore[attr-defined]
    monkeypatch.setattr(cst.Name, "__init__", other_init)
    assert parsing._slot_init(cst.Name, dataclasses, factory) is None
    # And a same-looking signature with another default is no match either.
    import inspect

    def shifted(self, value, lpar=(), rpar=None):
        pass

    assert not parsing._same_signature(inspect.signature(shifted), inspect.signature(cst.Call.__init__.libcst_own), factory)
    assert parsing._same_signature(
        inspect.signature(cst.Call.__init__), inspect.signature(cst.Call.__init__.libcst_own), factory
    )


def test_a_node_the_model_makes_takes_its_originals_place_in_every_kind_of_positions(monkeypatch):
    # `asyncio.to_thread(r.delete, key)` is read as `r.delete(key)`, a node the walk makes: every
    # kind of positions gives it the runner call's range.
    text = "import asyncio\n\n\nasync def go(r, key):\n    await asyncio.to_thread(r.delete, key)\n"
    module = cst.parse_module(text)
    runner = module.body[1].body.body[0].body[0].value.expression
    made = cst.Call(func=runner.args[0].value, args=[runner.args[1]])
    tables = [positions.positions(module), positions.positions(module, text)]
    monkeypatch.setattr(positions, "CodegenState", None)
    tables.append(positions.positions(module))
    assert [type(t).__name__ for t in tables] == ["Positions", "LazyPositions", "ProvidedPositions"]
    for table in tables:
        assert made not in table
        table.alias(made, runner)
        assert made in table
        assert table[made] == table[runner]
        assert table.start_line(made) == 5 and table.line_span(made) == (5, 5)
        assert table.get(made) == table[runner]
