"""A read-only walk of a libcst tree in libcst's visit order, without rebuilding any node.

libcst's `node.visit(visitor)` rebuilds every node it passes, even for a read-only visitor, and
looks up `visit_X`/`leave_X` by formatted name at each node. `walk` calls the same methods in the
same order on the same nodes, and does not enter subtrees that hold no node the visitor handles
(whitespace, punctuation).
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import typing

import libcst as cst
from libcst import MaybeSentinel

# Visitor hooks that `walk` does not call: a visitor defining any of them goes through libcst.
_HOOKS = ("on_visit", "on_leave", "on_visit_attribute", "on_leave_attribute")


def _subclasses(base: type) -> set[type]:
    """`base` and its subclasses, less the classes libcst's add_slots replaced (never instantiated)."""
    found = set()
    stack = [base]
    while stack:
        cls = stack.pop()
        if cls not in found:
            found.add(cls)
            stack.extend(cls.__subclasses__())
    return {cls for cls in found if getattr(sys.modules.get(cls.__module__), cls.__name__, cls) is cls}


def _node_classes(hint) -> set[type]:
    """The node classes a field annotated `hint` may hold."""
    if typing.get_origin(hint) is not None:
        classes: set[type] = set()
        for arg in typing.get_args(hint):
            classes |= _node_classes(arg)
        return classes
    if isinstance(hint, type) and issubclass(hint, cst.CSTNode):
        return {cls for cls in _subclasses(hint) if not inspect.isabstract(cls)}
    return set()


_ORDERS: dict[type, tuple | None] = {}
_FIELD_CLASSES: dict[type, dict | None] = {}


def visit_order(cls: type) -> tuple[str, ...] | None:
    """The fields of `cls` that libcst visits, in its order: the order of their names in the constants
    of `_visit_and_replace_children`. None when that cannot be told."""
    if cls not in _ORDERS:
        _ORDERS[cls] = _visit_order(cls)
    return _ORDERS[cls]


def _visit_order(cls: type) -> tuple[str, ...] | None:
    classes = _field_classes(cls)
    if classes is None:
        return None
    try:
        names = [c for c in cls._visit_and_replace_children.__code__.co_consts if isinstance(c, str) and c in classes]
    except AttributeError:
        return None
    # Every field that can hold a node, each once.
    if len(set(names)) != len(names) or set(names) != {name for name, held in classes.items() if held}:
        return None
    return tuple(names)


def _field_classes(cls: type) -> dict[str, set[type]] | None:
    """field name -> the node classes it may hold, for every field of `cls`; None when unknown."""
    if cls not in _FIELD_CLASSES:
        try:
            hints = typing.get_type_hints(cls)
            _FIELD_CLASSES[cls] = {field.name: _node_classes(hints[field.name]) for field in dataclasses.fields(cls)}
        except Exception:
            _FIELD_CLASSES[cls] = None
    return _FIELD_CLASSES[cls]


def _overrides(visitor_cls: type, name: str) -> bool:
    method = getattr(visitor_cls, name, None)
    return method is not None and method is not getattr(cst.CSTVisitor, name, None)


class _Plan(dict):
    """node class -> (visit function, leave function, fields) for one visitor class, or None for a
    class whose subtree holds nothing the visitor handles. The fields are those that may hold such a
    subtree, in libcst's order; None for a class whose order is not known."""

    def __init__(self, visitor_cls: type, live: set[type]) -> None:
        super().__init__()
        self.visitor_cls = visitor_cls
        self.live = live

    def __missing__(self, cls: type):
        name = cls.__name__
        visit = getattr(self.visitor_cls, f"visit_{name}") if _overrides(self.visitor_cls, f"visit_{name}") else None
        leave = getattr(self.visitor_cls, f"leave_{name}") if _overrides(self.visitor_cls, f"leave_{name}") else None
        order = visit_order(cls)
        if order is None:
            entry = (visit, leave, None)
        elif cls not in self.live:
            entry = None
        else:
            classes = _field_classes(cls)
            entry = (visit, leave, tuple(f for f in order if classes[f] & self.live))  # type: ignore[index]
        self[cls] = entry
        return entry


_PARENTS: dict[type, set[type]] = {}


def _live_classes(handled: set[type]) -> set[type]:
    """Every node class from which a handled class can be reached (itself included); a class whose
    children are not known counts as reaching one."""
    if not _PARENTS:
        for cls in _subclasses(cst.CSTNode):
            classes = _field_classes(cls)
            if classes is None or inspect.isabstract(cls):
                continue
            for held in classes.values():
                for child in held:
                    _PARENTS.setdefault(child, set()).add(cls)
    unknown = {cls for cls in _subclasses(cst.CSTNode) if visit_order(cls) is None}
    live = set(handled) | unknown
    stack = list(live)
    while stack:
        for parent in _PARENTS.get(stack.pop(), ()):
            if parent not in live:
                live.add(parent)
                stack.append(parent)
    return live


_PLANS: dict[type, _Plan | None] = {}


def _plan_for(visitor_cls: type) -> _Plan | None:
    if visitor_cls in _PLANS:
        return _PLANS[visitor_cls]
    plan = None
    classes = _subclasses(cst.CSTNode)
    class_names = {cls.__name__ for cls in classes}
    names = [n for n in dir(visitor_cls) if n.startswith(("visit_", "leave_")) and _overrides(visitor_cls, n)]
    wanted = {n.split("_", 1)[1] for n in names}
    # `visit_Call_func`: a hook on an attribute.
    attribute_hooks = any(name not in class_names and "_" in name for name in wanted)
    if not attribute_hooks and not any(_overrides(visitor_cls, hook) for hook in _HOOKS):
        plan = _Plan(visitor_cls, _live_classes({cls for cls in classes if cls.__name__ in wanted}))
    _PLANS[visitor_cls] = plan
    return plan


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)` for a read-only visitor: the same calls in the same order."""
    plan = _plan_for(type(visitor))
    if plan is None:
        node.visit(visitor)
        return
    entry = plan[type(node)]
    if entry is not None:
        _walk(node, visitor, plan, entry)


def _walk(node: cst.CSTNode, visitor: cst.CSTVisitor, plan: _Plan, entry: tuple) -> None:
    """Walk `node`, whose plan entry is `entry`; children without one are not entered."""
    visit, leave, fields = entry
    if fields is None:
        # libcst's own visit for a class whose order is not known (the visitor has no hooks for
        # attributes, so this calls the same methods).
        node.visit(visitor)
        return
    if visit is None or visit(visitor, node) is not False:
        for name in fields:
            value = getattr(node, name)
            kind = type(value)
            if kind is tuple or kind is list:
                for child in value:
                    inner = plan[type(child)]
                    if inner is not None:
                        _walk(child, visitor, plan, inner)
            elif value is not None and kind is not MaybeSentinel:
                inner = plan[kind]
                if inner is not None:
                    _walk(value, visitor, plan, inner)
    if leave is not None:
        leave(visitor, node)


def _trivia() -> frozenset[type]:
    """Whitespace, operators and brackets: classes whose subtrees hold nothing else."""
    brackets = {"LeftParen", "RightParen", "LeftSquareBracket", "RightSquareBracket", "LeftCurlyBrace", "RightCurlyBrace"}
    return frozenset(
        cls
        for cls in _subclasses(cst.CSTNode)
        if cls.__module__ in ("libcst._nodes.whitespace", "libcst._nodes.op") or cls.__name__ in brackets
    )


TRIVIA = _trivia()


def children(node: cst.CSTNode) -> list:
    """`node.children` (in libcst's visit order), without the visit libcst makes for it."""
    fields = visit_order(type(node))
    if fields is None:
        return list(node.children)
    found = []
    for name in fields:
        value = getattr(node, name)
        kind = type(value)
        if kind is tuple or kind is list:
            found.extend(value)
        elif value is not None and kind is not MaybeSentinel:
            found.append(value)
    return found


def nodes(node: cst.CSTNode, trivia: bool = True):
    """Every node under `node`, `node` first, in libcst's visit order; without whitespace, operators
    and brackets when not `trivia`."""
    stack = [node]
    while stack:
        node = stack.pop()
        if not trivia and type(node) in TRIVIA:
            continue
        yield node
        fields = visit_order(type(node))
        if fields is None:
            stack.extend(reversed(node.children))
            continue
        children = []
        for name in fields:
            value = getattr(node, name)
            kind = type(value)
            if kind is tuple or kind is list:
                children.extend(value)
            elif value is not None and kind is not MaybeSentinel:
                children.append(value)
        stack.extend(reversed(children))
