"""A claim's answer read only by a test that lets the job run anyway (`if not got: log.warning(...)`)."""

from __future__ import annotations

import libcst as cst

from leaselint.model.traverse import nodes

# What a branch that only reports calls: `print`, a logger's levels, `warnings.warn`.
_REPORTERS = frozenset({"print", "warn", "warning", "info", "debug", "error", "exception", "critical", "log"})
# Of those, the ones that tell someone besides the caller: a log at warning level or above, a log
# at a level given (`log.log(level, ...)`), a print; and an error tracker's report.
_TELLING = (_REPORTERS - {"info", "debug"}) | {"fatal", "capture_message", "capture_exception"}


def only_logged(function: cst.CSTNode, call: cst.Call, name: str | None) -> bool:
    """Every read of the answer (the call in an `if` test, or the name it is bound to) is the test of
    an `if` with no `else` that asks for failure (`not got`, `got is None`, `got is False`), whose
    body only logs or prints, and which more code follows: that code runs whatever the answer was."""
    reads = 0
    falls = 0
    for node in nodes(function, trivia=False):
        if name is not None and type(node) is cst.Name and node.value == name:
            reads += 1
        elif type(node) in (cst.IndentedBlock, cst.Module):
            body = node.body  # type: ignore[attr-defined]
            for i, statement in enumerate(body[:-1]):
                if type(statement) is cst.If and statement.orelse is None and asks_failure(statement.test, call, name):
                    if not _reports_only(statement.body):
                        return False
                    falls += 1
    if name is None:
        return falls > 0
    # The name's binding is one read of it by this count.
    return falls > 0 and reads - 1 == falls


def asks_failure(test: cst.BaseExpression, call: cst.Call | None, name: str | None) -> bool:
    """`not ok`, `ok is None`, `ok == False`, `ok == 0`, where `ok` is the call or the name."""
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        return _is_answer(test.expression, call, name)
    if type(test) is cst.Comparison and len(test.comparisons) == 1:
        target = test.comparisons[0]
        right = target.comparator
        asks = type(target.operator) in (cst.Is, cst.Equal) and (
            (type(right) is cst.Name and right.value in ("None", "False")) or (type(right) is cst.Integer and right.value == "0")
        )
        return asks and _is_answer(test.left, call, name)
    return False


def tells_someone(block: cst.CSTNode) -> bool:
    """The block tells someone besides its caller (`log.warning(...)`, `sentry_sdk.capture_message(...)`,
    `print(...)`); `log.info` and `log.debug` do not count."""
    for node in nodes(block):
        if type(node) is cst.Call:
            func = node.func
            called = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
            if called in _TELLING:
                return True
    return False


def _is_answer(node: cst.BaseExpression, call: cst.Call, name: str | None) -> bool:
    if type(node) is cst.Await:
        node = node.expression
    if node is call:
        return True
    return name is not None and type(node) is cst.Name and node.value == name


def _reports_only(block: cst.BaseSuite) -> bool:
    statements = block.body if type(block) is cst.IndentedBlock else [block]  # type: ignore[list-item]
    for statement in statements:
        if type(statement) is not cst.SimpleStatementLine:
            return False
        for small in statement.body:
            if type(small) is cst.Pass:
                continue
            if type(small) is not cst.Expr or type(small.value) is not cst.Call:
                return False
            func = small.value.func
            called = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
            if called not in _REPORTERS:
                return False
    return True
