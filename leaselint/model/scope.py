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
    # Names a `global` statement of this function declares: the module's, wherever they are assigned.
    declared_global: frozenset = frozenset()

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


def contains_call_or_name(tree: cst.CSTNode, call: cst.CSTNode | None, name: str | None, variables: bool = False) -> bool:
    """Whether `call` is under `tree` (or is `tree`), or a Name `name` is; `variables`: not an
    attribute's name (`self.id` holds no variable `id`)."""
    attributes: set[int] = set()
    for node in nodes(tree, trivia=False):
        if variables and type(node) is cst.Attribute:
            attributes.add(id(node.attr))
        if node is call or (name is not None and isinstance(node, cst.Name) and node.value == name and id(node) not in attributes):
            return True
    return False


def mentions(tree: cst.CSTNode, name: str) -> bool:
    return contains_call_or_name(tree, None, name)


# What a name (or `self.attr`) holds where it is read, in straight-line code ---------------------

_AMBIGUOUS = object()


def _target_matches(target: cst.BaseExpression, name: str, self_name: str | None) -> bool:
    if type(target) is cst.Name:
        return self_name is None and target.value == name
    return (
        self_name is not None
        and type(target) is cst.Attribute
        and type(target.value) is cst.Name
        and target.value.value == self_name
        and target.attr.value == name
    )


def _assigned(statement: cst.CSTNode, name: str, self_name: str | None):
    """The value a simple statement assigns to the target, _AMBIGUOUS for another kind of binding of
    it (augmented, unpacked, in a nested block), or None when the statement does not bind it."""
    if type(statement) is cst.SimpleStatementLine:
        found = None
        for small in statement.body:
            if type(small) is cst.Assign and any(_target_matches(t.target, name, self_name) for t in small.targets):
                found = small.value if len(small.targets) == 1 else _AMBIGUOUS
            elif type(small) in (cst.AnnAssign, cst.AugAssign) and _target_matches(small.target, name, self_name):
                found = small.value if type(small) is cst.AnnAssign and small.value is not None else _AMBIGUOUS
            elif type(small) is cst.Assign and any(_binds_inside(t.target, name, self_name) for t in small.targets):
                found = _AMBIGUOUS
        return found
    for node in _walk_statement(statement):
        if type(node) in (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.WithItem, cst.NamedExpr):
            targets = (
                [t.target for t in node.targets] if type(node) is cst.Assign
                else [node.target] if type(node) in (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)
                else [node.asname.name] if node.asname is not None else []
            )
            if any(_binds_inside(t, name, self_name) for t in targets):
                return _AMBIGUOUS
    return None


def _binds_inside(target: cst.CSTNode, name: str, self_name: str | None) -> bool:
    if _target_matches(target, name, self_name):  # type: ignore[arg-type]
        return True
    if type(target) in (cst.Tuple, cst.List):
        return any(_binds_inside(e.value, name, self_name) for e in target.elements)  # type: ignore[attr-defined]
    return False


def _walk_statement(node: cst.CSTNode):
    """The nodes of a statement, not those of functions, classes and lambdas inside it."""
    stack = [node]
    while stack:
        inner = stack.pop()
        yield inner
        for child in inner.children:
            if type(child) not in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                stack.append(child)


def reaching_value(function: cst.CSTNode, use: cst.CSTNode, name: str, self_name: str | None = None):
    """The value a name (with `self_name`, the attribute `self_name.name`) was last given before `use`
    in straight-line code of `function` (`lock = None`, then `lock = r.lock(...)` in the `try` the
    use is in), or None when that cannot be told (a binding in a branch the use is not in)."""
    body = getattr(function, "body", None)
    found = _reaching(body, use, name, self_name) if body is not None else None
    return None if found is _AMBIGUOUS else found


def _reaching(block, use, name: str, self_name: str | None):
    statements = getattr(block, "body", ())
    if not isinstance(statements, (list, tuple)):
        return None
    last = None
    for statement in statements:
        if contains(statement, use):
            if type(statement) is cst.SimpleStatementLine:
                return last
            for inner in _blocks(statement):
                if contains(inner, use):
                    found = _reaching(inner, use, name, self_name)
                    return found if found is not None else last
                if any(_assigned(s, name, self_name) is not None for s in getattr(inner, "body", ())):
                    # Bound in an earlier part (`try:` body, then the use in `finally:`): either value.
                    last = _AMBIGUOUS
            return last
        value = _assigned(statement, name, self_name)
        if value is not None:
            last = value
    return None


def _blocks(statement: cst.CSTNode) -> list:
    """The indented blocks of a compound statement, in order (body, handlers, else, finally)."""
    found = []
    for field in ("body", "handlers", "orelse", "finalbody"):
        part = getattr(statement, field, None)
        if part is None:
            continue
        for item in part if isinstance(part, (list, tuple)) else [part]:
            if isinstance(item, cst.BaseSuite):
                found.append(item)
            elif hasattr(item, "body") and isinstance(item.body, cst.BaseSuite):
                found.append(item.body)  # an `except` handler, an `else` or `finally` clause
                if type(item) is cst.If and item.orelse is not None:
                    found.extend(_blocks(item))
    return found
