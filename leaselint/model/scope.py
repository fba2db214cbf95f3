"""Functions, classes and the names bound in them, gathered in one walk."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from leaselint.model.traverse import TRIVIA, nodes, walk


@dataclass(eq=False)
class ClassInfo:
    name: str
    node: cst.ClassDef
    # Class-body assignments (`KEY = "lock"`).
    bindings: dict[str, list[cst.BaseExpression | None]] = field(default_factory=dict)
    # `self.x = value` in any method: x -> [(value, method scope)].
    attrs: dict[str, list[tuple[cst.BaseExpression | None, "Scope"]]] = field(default_factory=dict)
    methods: dict[str, "Scope"] = field(default_factory=dict)
    # The base classes as written (`unittest.TestCase`).
    bases: tuple[str, ...] = ()

    @property
    def is_test(self) -> bool:
        """A class whose methods pytest or unittest run as tests: `TestLock`, a `TestCase` subclass, a
        mixin of shared tests (`BaseCacheTests`)."""
        return "Test" in self.name or any("Test" in base.split(".")[-1] for base in self.bases)


@dataclass(eq=False)
class Scope:
    node: cst.CSTNode
    name: str
    parent: Scope | None
    cls: ClassInfo | None = None
    params: list[str] = field(default_factory=list)
    bindings: dict[str, list[cst.BaseExpression | None]] = field(default_factory=dict)
    # The statements where each name is (re)bound (None: not in a statement), to tell a key rebound
    # between claim and release by their lines.
    binding_lines: dict[str, list[cst.CSTNode | None]] = field(default_factory=dict)
    # Names read in a comparison (`if value == token`), with the comparisons.
    compared: dict[str, list[cst.Comparison]] = field(default_factory=dict)
    is_async: bool = False
    is_static: bool = False
    # The module scope of a test module (by its path, Settings.tests): every function in it is a test's.
    test_file: bool = False

    @property
    def self_name(self) -> str | None:
        """The name of the instance parameter of a method, if this is one."""
        if self.cls is None or self.is_static or not self.params:
            return None
        return self.params[0]

    def bind(self, name: str, value: cst.BaseExpression | None, line: cst.CSTNode | None = None) -> None:
        self.bindings.setdefault(name, []).append(value)
        self.binding_lines.setdefault(name, []).append(line)

    @property
    def is_test(self) -> bool:
        """A test, a fixture or a method of a test class, or a function inside one, or any function of
        a test module (a worker function a test starts): each test runs in a world of its own, so its
        claims are not another test's."""
        scope: Scope | None = self
        while scope is not None and scope.parent is not None:
            if scope.cls is not None and scope.cls.is_test:
                return True
            if (scope.name.startswith("test") and scope.cls is None) or _is_fixture(scope.node):
                return True
            scope = scope.parent
        return scope is not None and scope.test_file

    def encloses(self, other: "Scope") -> bool:
        """`other` is this scope or a function defined inside it."""
        scope: Scope | None = other
        while scope is not None:
            if scope is self:
                return True
            scope = scope.parent
        return False

    def all_names(self) -> set[str]:
        names = set(self.params) | set(self.bindings)
        return names | (self.parent.all_names() if self.parent else set())


def _is_fixture(node: cst.CSTNode) -> bool:
    for decorator in getattr(node, "decorators", ()):
        expr = decorator.decorator
        expr = expr.func if isinstance(expr, cst.Call) else expr
        name = expr.attr.value if isinstance(expr, cst.Attribute) else getattr(expr, "value", "")
        if name in ("fixture", "yield_fixture"):
            return True
    return False


def target_names(target: cst.BaseExpression) -> list[str]:
    """Names bound by an assignment target (`a`, `a, b`, `[a, *b]`)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        names: list[str] = []
        for element in target.elements:
            value = element.value
            names.extend(target_names(value.value if isinstance(value, cst.StarredElement) else value))
        return names
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []


def function_params(node: cst.FunctionDef) -> list[str]:
    params = node.params
    ordered = list(params.posonly_params) + list(params.params)
    names = [p.name.value for p in ordered]
    if isinstance(params.star_arg, cst.Param):
        names.append(params.star_arg.name.value)
    names.extend(p.name.value for p in params.kwonly_params)
    if params.star_kwarg is not None:
        names.append(params.star_kwarg.name.value)
    return names


def is_staticmethod(node: cst.FunctionDef) -> bool:
    for decorator in node.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Name) and expr.value == "staticmethod":
            return True
    return False


class _NameCounter(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.count = 0
        # Of those, the ones whose attribute is taken (`name.acquire`), and the ones that are an
        # attribute's own name (`r.name`).
        self.attributes = 0
        self.attribute_names = 0
        # And the keywords of calls (`f(name=...)`): no name of the function's either.
        self.keywords = 0

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.count += 1

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None and node.keyword.value == self.name:
            self.keywords += 1

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if type(node.value) is cst.Name and node.value.value == self.name:
            self.attributes += 1
        if node.attr.value == self.name:
            self.attribute_names += 1


def count_names(node: cst.CSTNode, name: str) -> int:
    """How many times `name` appears under `node` (bindings included)."""
    counter = _NameCounter(name)
    walk(node, counter)
    return counter.count


def count_uses(node: cst.CSTNode, name: str) -> int:
    """How many times the variable `name` appears under `node` (bindings included): not an
    attribute's own name (`r.name`), nor a call's keyword (`f(name=1)`)."""
    counter = _NameCounter(name)
    walk(node, counter)
    return counter.count - counter.attribute_names - counter.keywords


def only_attributes_taken(node: cst.CSTNode, name: str, bindings: int) -> bool:
    """Under `node`, `name` is only bound (`bindings` times) and has attributes taken: it is never
    returned, passed on or stored."""
    counter = _NameCounter(name)
    walk(node, counter)
    return counter.count - counter.attribute_names - counter.keywords == bindings + counter.attributes


def contains(tree: cst.CSTNode, wanted) -> bool:
    """Whether a node under `tree` (or `tree` itself) is `wanted`: a node, or a test of one."""
    if not callable(wanted):
        return any(node is wanted for node in nodes(tree, trivia=type(wanted) in TRIVIA))
    return any(wanted(node) for node in nodes(tree))


def contains_call_or_name(tree: cst.CSTNode, call: cst.CSTNode | None, name: str | None) -> bool:
    """Whether `call` is under `tree` (or is `tree`), or a Name `name` is."""
    for node in nodes(tree, trivia=False):
        if node is call or (name is not None and isinstance(node, cst.Name) and node.value == name):
            return True
    return False


def mentions(tree: cst.CSTNode, name: str) -> bool:
    return contains_call_or_name(tree, None, name)
