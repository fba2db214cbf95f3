"""The model's own fast paths agree with libcst: positions for every node, and the visit order."""

from __future__ import annotations

import os
import sysconfig
import textwrap
from contextlib import contextmanager

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from leaselint.model import traverse
from leaselint.model.positions import positions
from leaselint.model.walk import Walker
from leaselint.rules import ALL_RULES
import cases

STDLIB = sysconfig.get_paths()["stdlib"]
STDLIB_FILES = ["textwrap.py", "dataclasses.py", "argparse.py", "asyncio/base_events.py", "typing.py"]

ODD_TEXTS = {
    "empty": "",
    "newline": "\n",
    "comment-only": "# nothing\n",
    "no-trailing-newline": "x = 1\nif x:\n    y = (1,\n         2)",
    "crlf": "import os\r\n\r\nif os:\r\n    x = [1,\r\n         2]\r\n",
    "cr": "x = 1\rif x:\r    pass\r",
    "mixed-newlines": "x = 1\r\nif x:\r    y = '''a\r\rb\n\r'''\n\r\n# c\r\n",
    "tabs": "if True:\n\tx = 1\n\tif x:\n\t\ty = 2  # two\n",
    "continuation": "x = 1 + \\\n    2\nwith open('a') as f, \\\n        open('b') as g:\n    pass\n",
    "form-feed": "x = 1\n\f\ndef f():\n    return 1\n",
    "strings": 'x = """a\nb\r\nc"""\ny = f"{x!r:>{10}}" \'z\'\n',
    "decorated": "@a\n@b(1)\nclass C(B, metaclass=M):\n    @property\n    async def f(self, /, a, *b, c=1, **d) -> int:\n        return await g()\n",
    "try": "try:\n    pass\nexcept (A, B) as e:\n    raise\nelse:\n    pass\nfinally:\n    pass\n",
    "trystar": "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "match": "match x:\n    case [1, *rest] if rest:\n        pass\n    case {'a': 1, **kw}:\n        pass\n    case P(a=1) | None:\n        pass\n",
    "semicolons": "a = 1; b = 2\nif a: b = 3; c = 4\nwhile b: pass\nelse: pass\n",
    "comprehensions": "x = [a for a in b if a]\ny = {k: v for k, v in z}\nz = (lambda q=1: q)(*x, **y)\nw = a if b else c\n",
    "global": "def f():\n    global x\n    nonlocal_ = 1\n    del x[0], y\n    assert x, 'm'\n    yield from z\n",
    "type-alias": "type X[T] = list[T]\ndef f[T: int](x: T) -> T:\n    return x\n",
}


def _case_texts():
    for rule in ALL_RULES:
        for kind in ("VALID", "INVALID"):
            for name, case in cases.numbered(rule, kind):
                yield f"{rule.code}-{kind.lower()}-{name}", textwrap.dedent(case.code)
                fixed = getattr(case, "fixed", None)
                if fixed:
                    yield f"{rule.code}-{kind.lower()}-{name}-fixed", textwrap.dedent(fixed)


def _stdlib_texts():
    for name in STDLIB_FILES:
        path = os.path.join(STDLIB, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                yield f"stdlib-{name}", file.read()


def _texts():
    yield from ODD_TEXTS.items()
    yield from _case_texts()
    yield from _stdlib_texts()


# Type parameters need the 3.12 grammar, which libcst only uses on a 3.12 interpreter unless told.
GRAMMAR = cst.PartialParserConfig(python_version="3.12")


def _parse(text: str):
    return cst.parse_module(text, config=GRAMMAR)


def _parses(text: str) -> bool:
    try:
        _parse(text)
    except cst.ParserSyntaxError:
        return False
    return True


# The LL000 cases do not parse: nothing to compare there.
TEXTS = [(name, text) for name, text in _texts() if _parses(text)]


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_positions_match_libcst(name, text):
    module = _parse(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = positions(module)
    assert len(found) == len(expected)
    for node, where in expected.items():
        assert node in found
        assert found[node] == where, (type(node).__name__, found[node], where)
        assert found.get(node) == where
    assert found.get(cst.Name("elsewhere")) is None
    # What the runner's error reporting reads: a dict of nodes to ranges.
    node, where = next(iter(found.items()))
    assert isinstance(found, dict) and isinstance(node, cst.CSTNode) and where.start.line >= 1


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_lazy_positions_match_libcst(name, text):
    """Given the text, statements are made one at a time as their nodes are asked for, last first
    here; every range is libcst's, and a node of no statement is still found (or is absent)."""
    from leaselint.model import positions as module_positions

    module = _parse(text)
    module_positions.positions(_parse("x = 1\n"))  # the cheap pass has run once in this process
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = positions(module, text)
    for node, where in reversed(list(expected.items())):
        assert node in found
        assert found[node] == where, (type(node).__name__, found[node], where)
        assert found.start_line(node) == where.start.line
    assert found.get(cst.Name("elsewhere")) is None
    assert cst.Name("elsewhere") not in found
    assert found.code == module.code
    assert len(found) == len(expected)


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_lazy_line_spans_match_libcst(name, text):
    """A top-level statement's first and last lines, asked before anything is made, are libcst's."""
    from leaselint.model import positions as module_positions

    module = _parse(text)
    module_positions.positions(_parse("x = 1\n"))
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = positions(module, text)
    for statement in module.body:
        where = expected[statement]
        assert found.line_span(statement) == (where.start.line, where.end.line), module.code_for_node(statement)


SPAN_TEXT = """\
import os  # one line
# a comment after it

from a import (
    b,
)
import c \\
    , d
X = "e\\
# not a comment"
Y = '''
# nor this'''
import f \\
# a comment joined to it
import g


def h():
    pass
"""


def test_lazy_line_spans_make_only_the_statements_of_more_lines():
    module, found = _lazy(SPAN_TEXT)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    spans = [found.line_span(statement) for statement in module.body]
    assert spans == [(expected[s].start.line, expected[s].end.line) for s in module.body]
    assert spans[:3] == [(1, 1), (4, 6), (7, 8)]
    # One-line statements are told from the text; the others (and the function) are made.
    assert found.pending == [True, False, False, False, False, False, True, False]


LAZY_TEXT = """\
import redis

KEY = f"lock:{1}"
r = redis.Redis()


def filler(items):
    return sorted(items)


def release():
    r.delete(KEY)
"""


def _lazy(text: str):
    from leaselint.model import positions as module_positions

    module = cst.parse_module(text)
    module_positions.positions(cst.parse_module("x = 1\n"))
    return module, module_positions.positions(module, text)


def test_lazy_positions_make_only_the_statements_asked_about():
    from leaselint.model.positions import LazyPositions

    module, found = _lazy(LAZY_TEXT)
    assert isinstance(found, LazyPositions)
    call = module.body[-1].body.body[0].body[0].value
    assert found[call].start.line == 12
    assert found.pending == [True, True, True, True, False]
    # A node found by its text in the statements not made yet (the constant's f-string).
    key = module.body[1].body[0].value
    assert found[key].start.line == 3
    assert found.pending == [True, False, True, True, False]
    # A node of the model's own (no statement's text holds it) is absent, and makes nothing.
    assert found.get(cst.parse_expression('f"lock:{name}"')) is None
    assert found.pending == [True, False, True, True, False]
    # The module itself is in no statement: the whole pass is made.
    assert found[module].start.line == 1 and found.whole


@pytest.mark.parametrize(
    "text",
    [
        LAZY_TEXT.replace("KEY = f", "KEY = (\n1,\n)\nOTHER = f"),  # a bracket's line at column 0
        LAZY_TEXT.replace("def filler", 'DOC = ("", """\ndef not_code\n""")\ndef filler'),  # a string's line
        LAZY_TEXT.replace("import redis", "import redis\f"),
        LAZY_TEXT.replace("\n", "\r\n"),
    ],
    ids=["bracket", "string", "form-feed", "crlf"],
)
def test_lazy_positions_need_every_column_0_line_told_apart(text):
    from leaselint.model.positions import LazyPositions, Positions

    _, found = _lazy(text)
    assert isinstance(found, Positions) and not isinstance(found, LazyPositions)


def test_lazy_positions_make_the_whole_module_when_a_statement_is_not_the_text_at_its_place():
    from leaselint.model import positions as module_positions

    module = cst.parse_module(LAZY_TEXT)
    module_positions.positions(cst.parse_module("x = 1\n"))
    # The same lines, another text: the made statement's code is not found at its place.
    other = LAZY_TEXT.replace("def release", "def releasx")
    found = module_positions.positions(module, other)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    call = module.body[-1].body.body[0].body[0].value
    assert found[call] == expected[call]
    assert found.whole and found.code == module.code
    assert all(found[node] == where for node, where in expected.items())


def _recorder(names, skip=()):
    """A visitor class recording visit_X and leave_X for the named classes; visit_X of `skip` returns False."""

    def visit(name):
        def method(self, node):
            self.seen.append(("visit", node))
            return False if name in skip else None

        return method

    def leave(self, node):
        self.seen.append(("leave", node))

    body = {"__init__": lambda self: (cst.CSTVisitor.__init__(self), setattr(self, "seen", []))[0]}
    for name in names:
        body[f"visit_{name}"] = visit(name)
        body[f"leave_{name}"] = leave
    return type("Recorder", (cst.CSTVisitor,), body)


ALL_NAMES = sorted(
    {cls.__name__ for cls in traverse._subclasses(cst.CSTNode) if not traverse.inspect.isabstract(cls)}
)
WALKER_NAMES = sorted(
    {name.split("_", 1)[1] for name in vars(Walker) if name.startswith(("visit_", "leave_"))}
    | {"Call", "Name", "BinaryOperation"}
)


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_walk_visits_like_libcst(name, text):
    module = _parse(text)
    for names, skip in ((WALKER_NAMES, ()), (ALL_NAMES, ()), (WALKER_NAMES, ("FunctionDef", "If", "Comparison"))):
        recorder = _recorder(names, skip)
        expected, found = recorder(), recorder()
        module.visit(expected)
        traverse.walk(module, found)
        assert traverse._plan_for(recorder) is not None
        assert [(kind, type(node).__name__) for kind, node in found.seen] == [
            (kind, type(node).__name__) for kind, node in expected.seen
        ]
        assert all(a[1] is b[1] for a, b in zip(found.seen, expected.seen))
    every = _recorder(ALL_NAMES)()
    module.visit(every)
    assert [node for kind, node in every.seen if kind == "visit"] == list(traverse.nodes(module))


def test_every_node_class_has_a_visit_order():
    classes = [cls for cls in traverse._subclasses(cst.CSTNode) if not traverse.inspect.isabstract(cls)]
    assert [cls.__name__ for cls in classes if traverse.visit_order(cls) is None] == []
    assert traverse.visit_order(cst.FunctionDef).index("decorators") < traverse.visit_order(cst.FunctionDef).index("body")
    assert traverse.visit_order(cst.IfExp).index("body") < traverse.visit_order(cst.IfExp).index("test")


def test_walk_falls_back_to_libcst_for_attribute_hooks():
    class Attributes(cst.CSTVisitor):
        def __init__(self):
            super().__init__()
            self.seen = []

        def visit_Call_func(self, node):
            self.seen.append(node)

    assert traverse._plan_for(Attributes) is None
    found = Attributes()
    traverse.walk(cst.parse_module("f(g(x))\n"), found)
    assert len(found.seen) == 2


def test_model_is_the_same_with_libcst_visit():
    for name, text in TEXTS:
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue
        table = positions(module)
        fast, slow = Walker(table), Walker(table)
        traverse.walk(module, fast)
        module.visit(slow)
        # The calls runners make of the functions they are handed are the walk's own nodes, new each walk.
        assert len(fast.handed) == len(slow.handed), name
        for attr in ("statements", "blocks", "imports", "assigned", "awaited", "statement_calls", "swallowed"):
            found, expected = getattr(fast, attr), getattr(slow, attr)
            if isinstance(found, dict):
                found = {k: v for k, v in found.items() if k not in fast.handed}
                expected = {k: v for k, v in expected.items() if k not in slow.handed}
            elif isinstance(found, set):
                found, expected = found - fast.handed, expected - slow.handed
            assert found == expected, (name, attr)
        assert [(c.call, c.statement, c.insertable, c.usage, c.guards) for c in fast.calls if id(c.call) not in fast.handed] == [
            (c.call, c.statement, c.insertable, c.usage, c.guards) for c in slow.calls if id(c.call) not in slow.handed
        ], name
        assert [c.usage for c in fast.calls if id(c.call) in fast.handed] == [
            c.usage for c in slow.calls if id(c.call) in slow.handed
        ], name
        assert [(s.node, s.name, s.bindings, s.binding_lines, s.compared) for s in fast.scopes] == [
            (s.node, s.name, s.bindings, s.binding_lines, s.compared) for s in slow.scopes
        ], name


def test_trivia_hold_only_trivia():
    for cls in traverse.TRIVIA:
        classes = traverse._field_classes(cls)
        assert classes is not None
        assert all(held <= traverse.TRIVIA for held in classes.values()), cls
    assert cst.Name not in traverse.TRIVIA and cst.Call not in traverse.TRIVIA and cst.Comma in traverse.TRIVIA


@pytest.mark.parametrize(("name", "text"), TEXTS[:40] + TEXTS[-len(STDLIB_FILES):], ids=[n for n, _ in TEXTS[:40] + TEXTS[-len(STDLIB_FILES):]])
def test_contains_and_count_names_match_libcst(name, text):
    from leaselint.model.scope import contains, contains_call_or_name, count_names, mentions

    module = _parse(text)
    every = _recorder(ALL_NAMES)()
    module.visit(every)
    visited = [node for kind, node in every.seen if kind == "visit"]
    names = [node.value for node in visited if isinstance(node, cst.Name)]
    calls = [node for node in visited if isinstance(node, cst.Call)]
    for statement in module.body[:30]:
        under = _recorder(ALL_NAMES)()
        statement.visit(under)
        inside = {id(node) for kind, node in under.seen}
        for call in calls[:20]:
            assert contains(statement, call) == (id(call) in inside)
            assert contains_call_or_name(statement, call, None) == (id(call) in inside)
        for word in sorted(set(names))[:15]:
            expected = sum(1 for kind, node in under.seen if kind == "visit" and isinstance(node, cst.Name) and node.value == word)
            assert count_names(statement, word) == expected
            assert mentions(statement, word) == (expected > 0)
            assert contains(statement, lambda node: isinstance(node, cst.Name) and node.value == word) == (expected > 0)


def test_positions_carry_the_module_code():
    from leaselint.model.positions import positions

    for text in ("x = 1\r\ny = 2\r\n", "if a:\n\tb()  # c\n", "\x0cimport os\n", ""):
        module = cst.parse_module(text)
        assert positions(module).code == module.code


def _assert_libcst_positions(module, tree) -> None:
    """`module.positions` gives every node of `tree` the range libcst's PositionProvider gives it."""
    expected = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    found = module.positions(tree)
    assert {id(n): r for n, r in expected.items()} == {id(n): found[n] for n in expected}


def _fresh_brackets(monkeypatch, parenthesize=None):
    """libcst's bracket writer as it was before leaselint replaced it, or `parenthesize` instead,
    and leaselint's choice made again on it."""
    from libcst._nodes.expression import _BaseParenthesizedNode

    from leaselint.model import positions as module

    original = module._original_parenthesize()
    monkeypatch.setattr(_BaseParenthesizedNode, "_parenthesize", parenthesize or original)
    monkeypatch.setattr(module, "_brackets", [])
    return module


BRACKET_TEXT = "x = ((a) + [b])\nif (y):\n    f((1), *(z,), k=(lambda: (q)))\n"


@pytest.mark.parametrize("change", ["absent", "different"])
def test_positions_fall_back_when_libcst_brackets_change(monkeypatch, change):
    from contextlib import contextmanager

    @contextmanager
    def different(node, state):  # the same brackets, written with other names than libcst 1.x's
        lpars = tuple(node.lpar)
        for lpar in lpars:
            lpar._codegen(state)
        with state.record_syntactic_position(node):
            yield
        for rpar in node.rpar:
            rpar._codegen(state)

    module = _fresh_brackets(monkeypatch, different)
    if change == "absent":
        from libcst._nodes.expression import _BaseParenthesizedNode

        monkeypatch.delattr(_BaseParenthesizedNode, "_parenthesize")
        assert module.brackets_fast_path() is False
        assert "_parenthesize" not in _BaseParenthesizedNode.__dict__
        return  # libcst itself could not write brackets then: nothing to compare
    assert module.brackets_fast_path() is False
    tree = _parse(BRACKET_TEXT)
    _assert_libcst_positions(module, tree)


def test_positions_fast_brackets_leave_other_code_generation_alone(monkeypatch):
    module = _fresh_brackets(monkeypatch)
    assert module.brackets_fast_path() is True
    tree = _parse(BRACKET_TEXT)
    assert tree.code == BRACKET_TEXT
    assert tree.code_for_node(tree.body[0]) == "x = ((a) + [b])\n"
    _assert_libcst_positions(module, tree)


@contextmanager
def _leaves_chosen_again(monkeypatch, module, cls, name, value):
    """libcst's own code generation with `cls.name` replaced by `value`, and leaselint's choice made
    again on it; afterwards libcst as it was, and the fast path installed again."""
    module._plain_leaves()
    monkeypatch.setattr(cls, name, value)
    monkeypatch.setattr(module, "_leaves", [])
    try:
        yield
    finally:
        monkeypatch.undo()
        module._plain_leaves()
        module._leaves[:] = []
        assert module.leaves_fast_path() is True


LEAF_TEXT = "x = [1,  2]\r\nif x :\r\n    y = f( x )  # note\r\n\r\n"


def test_positions_fast_leaves_match_libcst_and_leave_other_code_generation_alone(monkeypatch):
    from leaselint.model import positions as module

    monkeypatch.setattr(module, "_leaves", [])
    assert module.leaves_fast_path() is True
    tree = _parse(LEAF_TEXT)
    assert tree.code == LEAF_TEXT
    assert tree.code_for_node(tree.body[1]) == "if x :\r\n    y = f( x )  # note\r\n"
    _assert_libcst_positions(module, tree)


def test_positions_fall_back_when_libcst_leaves_change(monkeypatch):
    from libcst._nodes.whitespace import SimpleWhitespace

    from leaselint.model import positions as module

    def different(self, state):  # the same token, written with other names than libcst 1.x's
        text = self.value
        state.add_token(text)

    with _leaves_chosen_again(monkeypatch, module, SimpleWhitespace, "_codegen_impl", different):
        assert module.leaves_fast_path() is False
        assert "_codegen" not in SimpleWhitespace.__dict__
        tree = _parse(LEAF_TEXT)
        _assert_libcst_positions(module, tree)


def test_positions_fast_names_match_libcst_and_fall_back_when_libcst_names_change(monkeypatch):
    """A Name without brackets is written and recorded in one; with brackets, through the generic
    path. When libcst's Name writes itself through other names, it keeps the generic path."""
    import libcst as cst

    from leaselint.model import positions as module

    assert module.leaves_fast_path() is True
    assert cst.Name.__dict__["_codegen"].libcst_own is module._libcst_codegen()
    tree = _parse(BRACKET_TEXT)
    assert tree.code == BRACKET_TEXT
    _assert_libcst_positions(module, tree)

    def different(self, state):  # the same token, written with other names than libcst 1.x's
        with self._parenthesize(state):
            text = self.value
            state.add_token(text)

    with _leaves_chosen_again(monkeypatch, module, cst.Name, "_codegen_impl", different):
        assert module.leaves_fast_path() is True
        assert "_codegen" not in cst.Name.__dict__
        tree = _parse(BRACKET_TEXT)
        assert tree.code == BRACKET_TEXT
        _assert_libcst_positions(module, tree)


def test_positions_fast_nodes_record_ranges_without_the_hooks():
    from libcst._nodes.base import CSTNode

    from leaselint.model import positions as module

    assert module.leaves_fast_path() is True
    hook = CSTNode.__dict__["_codegen"]
    assert hook is not module._libcst_codegen() and hook.libcst_own is module._libcst_codegen()
    tree = _parse(LEAF_TEXT)
    assert tree.code == LEAF_TEXT
    _assert_libcst_positions(module, tree)


def test_positions_fall_back_when_libcst_node_codegen_changes(monkeypatch):
    from libcst._nodes.base import CSTNode

    from leaselint.model import positions as module

    def different(self, state, **kwargs):  # the same steps, through other names than libcst 1.x's
        hooks = state
        hooks.before_codegen(self)
        type(self)._codegen_impl(self, state, **kwargs)
        hooks.after_codegen(self)

    with _leaves_chosen_again(monkeypatch, module, CSTNode, "_codegen", different):
        assert module.leaves_fast_path() is False
        assert CSTNode.__dict__["_codegen"] is different
        tree = _parse(LEAF_TEXT)
        assert tree.code == LEAF_TEXT
        _assert_libcst_positions(module, tree)


LITERALS = [
    "''", '""', "''''''", '""""""', "'a'", '"a b"', "'''a\nb'''", '"""x"y"""', "'''it''s'''", "'\"'", "\"'\"",
    "'a\\nb'", "'\\\\'", "r'a\\b'", "b'x'", "u'x'", "'caf\u00e9'", "'''a\r\nb'''", "'{}'", "'\\x00'",
    "'\\N{BULLET}'", "R'x'", "'#'",
]


@pytest.mark.parametrize("literal", LITERALS)
def test_literal_string_reads_as_python_does(literal):
    from leaselint.model.keys import literal_string

    node = cst.parse_expression(literal)
    expected = node.evaluated_value
    if isinstance(expected, bytes):
        expected = expected.decode("latin-1")
    assert literal_string(node) == expected


def test_literal_string_reads_stdlib_strings_as_python_does():
    from leaselint.model.keys import literal_string

    strings = []
    for name in STDLIB_FILES:
        with open(os.path.join(STDLIB, name), encoding="utf-8") as handle:
            module = cst.parse_module(handle.read())
        strings += [n for n in traverse.nodes(module) if type(n) is cst.SimpleString]
    assert len(strings) > 1000
    for node in strings:
        try:
            expected = node.evaluated_value
        except (SyntaxError, ValueError):
            expected = None
        if isinstance(expected, bytes):
            expected = expected.decode("latin-1")
        assert literal_string(node) == expected, node.value


HELPER_PAIR = textwrap.dedent(
    """\
    import redis

    r = redis.Redis()


    def acquire_lock(name):
        return r.set(f"take:{name}", "1", nx=True, ex=60)


    def release_lock(name):
        r.delete(f"take:{name}")


    def rebuild(name):
        if acquire_lock(name):
            try:
                work(name)
            finally:
                release_lock(name)
    """
)


@pytest.mark.parametrize(
    "extra, fixed",
    [
        ("", True),
        ("# acquire_lock and release_lock come in pairs\n", True),  # a word that is no use: the walk says so
        ("HANDLERS = [acquire_lock]\n", False),
        ("jobs.acquire_lock(1)\n", False),
    ],
)
def test_helper_pair_fix_counts_every_use_of_the_names(extra, fixed):
    """The quick count of a helper's name and the walk over its uses agree: a name in a comment keeps
    the fix; a use other than a plain call (stored, an attribute) leaves none."""
    from leaselint.runner import lint_text
    from leaselint.settings import Settings
    from leaselint.source import SourceText

    found = [d for d in lint_text(SourceText(HELPER_PAIR + extra), "jobs.py", Settings()).diagnostics if d.code == "LL001"]
    assert [d.start.line for d in found] == [11]
    assert (found[0].fix is not None) is fixed


KEYS_MODULE = textwrap.dedent(
    """\
    import redis

    r = redis.Redis()
    PREFIX = "jobs"
    LOCK = "jobs:lock"


    def _name(job):
        return f"{PREFIX}:{job}"


    def plain(job):
        return r.set(f"lock:{job}", "1", nx=True, ex=60)


    def local(job, shard):
        key = f"lock:{shard}:{job}"
        return r.set(key, "1", nx=True, ex=60)


    def chained(job):
        base = f"lock:{job}"
        key = base
        return r.set(key, "1", nx=True, ex=60)


    def constant(job):
        return r.set(LOCK, job, nx=True, ex=60)


    def helper(job):
        return r.set(_name(job), "1", nx=True, ex=60)


    def keyword(job):
        key = "lock:{job}".format(job=job)
        return r.set(key, "1", nx=True, ex=60)


    def unknown(job):
        key = make(job) if job else other(job)
        key = key.lower()
        return r.set(key, "1", nx=True, ex=60)


    def release(job, token):
        key = f"lock:{job}"
        return r.delete(key)
    """
)


def test_key_expansion_without_the_visit_is_the_visits():
    """A key of parameters alone or a lone local is expanded without libcst's visit: the code and
    the failures are what the visit gives, for every claim and release of a module of such keys."""
    from leaselint.model import build_model
    from leaselint.model import summary
    from leaselint.settings import Settings

    model = build_model(cst.parse_module(KEYS_MODULE), None, Settings().tests)
    module_scope = model.resolver.module_scope
    functions = frozenset(s.name for s in model.scopes if s.parent is module_scope and s.cls is None)
    events = [*model.claims, *model.releases]
    assert len(events) == 8
    seen = set()
    for event in events:
        params = set(event.scope.params)
        fast = summary._in_params(event.key, event.scope, module_scope, params, functions)
        expand = summary._Expand(event.scope, module_scope, params, 0, functions)
        visited = event.key.visit(expand)
        expected = None if expand.failed else cst.Module([]).code_for_node(visited)
        got = None if fast is None else cst.Module([]).code_for_node(fast)
        assert got == expected, event.scope.name
        seen.add(got)
    assert {'f"lock:{job}"', 'f"lock:{shard}:{job}"', '"jobs:lock"', "_name(job)", None} <= seen


TWO_CLAIMS = textwrap.dedent(
    """\
    import redis

    r = redis.Redis()


    def acquire_lock(name):
        return r.set(f"take:{name}", "1", nx=True, ex=60)


    def acquire_again(name):
        return r.set(f"take:{name}", "2", nx=True, ex=60)


    def release_lock(name):
        r.delete(f"take:{name}")
    """
)


def test_a_releases_token_is_worked_out_once_and_a_refusal_said_again():
    from leaselint.model import build_model
    from leaselint.rewrite import LeaseFixer, NoFix
    from leaselint.settings import Settings

    model = build_model(cst.parse_module(HELPER_PAIR), None, Settings().tests)
    fixer = LeaseFixer(model, text=HELPER_PAIR)
    (lease,) = model.leases
    first = fixer.token_for(lease, lease.releases[0])
    assert first.new_token and fixer.token_for(lease, lease.releases[0]) is first
    model = build_model(cst.parse_module(TWO_CLAIMS), None, Settings().tests)
    fixer = LeaseFixer(model, text=TWO_CLAIMS)
    (lease,) = model.leases
    for _ in range(2):
        with pytest.raises(NoFix, match="^the claim is in another function, which hands no token to the release$"):
            fixer.token_for(lease, lease.releases[0])


def test_lazy_positions_tell_a_string_s_lines_from_statements():
    """A docstring's or a script constant's lines that begin at column 0 are counted from the string
    itself; a closing bracket at column 0 begins no statement."""
    from leaselint.model.positions import LazyPositions

    text = '"""A module.\n\nUsage: run it.\n"""\nSCRIPT = """\nif redis.call("get", KEYS[1]) == ARGV[1] then\nend\n"""\nITEMS = [\n    1,\n]\n\n\ndef f():\n    return ITEMS\n'
    module, found = _lazy(text)
    assert isinstance(found, LazyPositions)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    body = module.body[-1].body.body[0]
    assert found[body] == expected[body] and found.pending == [True, True, True, False]
    assert all(found[node] == where for node, where in expected.items())
