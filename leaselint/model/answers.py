"""A claim's answer read only by a test that lets the job run anyway (`if not got: log.warning(...)`)."""

from __future__ import annotations

import libcst as cst

from leaselint.model.keys import code_of
from leaselint.model.traverse import TRIVIA, children, nodes

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


def _returns(node: cst.CSTNode) -> list[cst.Return]:
    """The return statements of function `node`, not those of functions and lambdas inside it."""
    found: list[cst.Return] = []
    stack = [node]
    while stack:
        inner = stack.pop()
        kind = type(inner)
        if kind is cst.Return:
            found.append(inner)
        elif (kind is cst.FunctionDef and inner is not node) or kind is cst.Lambda or kind in TRIVIA:
            continue
        stack.extend(reversed(children(inner)))
    return found


def answered_by_raising(claim) -> bool:
    """`try: locks.insert_one(doc) except DuplicateKeyError: return False`, then `return True`: a
    claim that raises when the key is taken, its function answering by literals, and every handler
    of the store's duplicate-key error answering False (not one that takes a made document as fine)."""
    errors = set(getattr(claim.store, "duplicate_errors", ()))
    if not getattr(claim.spec, "answers_by_raising", False) or not claim.caught or not errors:
        return False
    if type(claim.value) is cst.Name and claim.value.value == "None":
        return False  # a document made free (`"owner": None`), claimed later by an update
    values = {code_of(node.value).strip() if node.value is not None else "None" for node in _returns(claim.scope.node)}
    if "True" not in values or not values <= {"True", "False", "None"}:
        return False
    for node in nodes(claim.scope.node):
        if type(node) is cst.Try and claim.statement in getattr(node.body, "body", ()):
            handlers = [h for h in node.handlers if h.type is not None and _caught(h.type) & errors]
            return bool(handlers) and all(_answers_false(h.body) for h in handlers)
    return False


def _caught(node) -> set[str]:
    """The last names of the errors an `except` names (`errors.DuplicateKeyError`, a tuple of them)."""
    items = [e.value for e in node.elements] if type(node) is cst.Tuple else [node]
    return {item.attr.value if type(item) is cst.Attribute else item.value for item in items if type(item) in (cst.Name, cst.Attribute)}


def _answers_false(block) -> bool:
    """The handler's block ends by answering False (or None), and answers nothing else."""
    body = getattr(block, "body", ())
    last = body[-1] if body else None
    if type(last) is not cst.SimpleStatementLine or type(last.body[-1]) is not cst.Return:
        return False
    returned = [n for n in nodes(block) if type(n) is cst.Return]
    return all(r.value is None or code_of(r.value).strip() in ("False", "None") for r in returned)


def document_claim(event, kind: str) -> bool:
    """A document's claim keyed by a field that is one name (`{"_id": key, "expires_at": ...}`,
    upserted): handed to callers as any claim, the key being what they pass for that name."""
    document = event.document
    if kind not in ("claim", "answered") or type(event.key) is not cst.Name or document.key_field is None:
        return False
    # Only a store of records (MongoDB), not an ORM model or a table; not an upsert whose filter
    # names only the key, which writes over a live holder; and with an expiry field: a record made
    # once (`$setOnInsert` of a cart) is no claim its callers make.
    return bool(
        event.store.records
        and document.model is None
        and document.table is None
        and not document.overwrites
        and document.has_lifetime
    )
