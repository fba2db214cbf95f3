"""What a module's functions do to the store in terms of their parameters, as plain data.

A summary is read by other modules of the run: a call to a summarised function (`release_lock(key)`
after `from .locks import release_lock`) becomes, in the caller, the claim or release the function
makes, on the caller's key and client. Summarised: a claim whose answer the function returns (a
lease at home or not: its callers choose the token it stores); a blind release (one that is a lease
in its own module too is reported there, and pairs with its callers' claims); and a token-checked
release whose answer the function hands back (a caller may throw it away).

An effect is a tuple:
    (kind, spec, key code, receiver, value parameter, has lifetime, returns, lost when, line)
- kind: "claim", "release" (blind), "leased" (blind, and a lease in its own module, which reports
  it), "checked" (token-checked, its answer returned), "stores" (a claim of a lease in its own
  module whose answer the caller never sees, storing a value the caller passes: read for that token),
  "read" (the read's value handed back), "writes" (a plain write of a parameter or a constant), or
  "renews" (an `expire` of the key, the value slot naming the parameter that gives the lifetime);
- spec: the store table row (stores.row_ref);
- key code: the key as an expression of the function's parameters;
- receiver: ("param", name) or ("global", level, dotted import or "", name) for a module-level
  client, or ("factory", level, dotted import or "", name) for a client made by `name()` (the kind
  "factory(name='x')" when made with literal arguments);
- value parameter: the parameter a claim stores, or None;
- returns: the function returns the event's answer (`return r.set(...)`);
- lost when: for "checked", how a caller tells a lost lease by the answer; line: the event's line.
"""

from __future__ import annotations

import libcst as cst

from leaselint.model import stores
from leaselint.model.events import Claim
from leaselint.model.answers import _returns, answered_by_raising as _answered_by_raising, asks_failure, document_claim as _document_claim, tells_someone
from leaselint.model.stores import distinctive_method  # noqa: F401  (re-exported for the model)
from leaselint.model.keys import code_of, free_names, literal_string
from leaselint.model.scope import contains, count_uses
from leaselint.model.values import SERIALIZERS
from leaselint.model.traverse import TRIVIA, children, nodes
from leaselint.project import outside_project

# How deep locals are followed back to the parameters they are made of.
_MAX_EXPAND = 4


def function_params(node: cst.CSTNode) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(positional parameters, keyword-only parameters) of a function definition."""
    if not isinstance(node, cst.FunctionDef):
        return (), ()
    p = node.params
    positional = tuple(param.name.value for param in (*p.posonly_params, *p.params))
    keyword = tuple(param.name.value for param in p.kwonly_params)
    return positional, keyword


# Builtins a key may be made with (`str(job)`): no name of the function's.
KEY_BUILTINS = frozenset({"str", "int", "repr", "hex"})


class NameTransformer(cst.CSTTransformer):
    """Visits the names of variables only: an attribute's name (`.lower`) and a keyword argument's
    (`format(job=...)`) are left alone; subclasses write `variable(node)`."""

    def __init__(self) -> None:
        super().__init__()
        self._not_variables: set[int] = set()
        self._callees: set[int] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_variables.add(id(node.attr))

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self._callees.add(id(node.func))

    def is_callee(self, node: cst.Name) -> bool:
        """The name is called (`_lock_key(name)`)."""
        return id(node) in self._callees

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_variables.add(id(node.keyword))

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name):
        if id(original_node) in self._not_variables or original_node.value in KEY_BUILTINS:
            return updated_node
        return self.variable(original_node)

    def variable(self, node: cst.Name) -> cst.BaseExpression:
        raise NotImplementedError


class _Expand(NameTransformer):
    """A function's locals replaced by their single values, and module strings by their text."""

    def __init__(self, scope, module_scope, params: set[str], depth: int, functions=frozenset()) -> None:
        super().__init__()
        self.scope, self.module_scope, self.params, self.depth = scope, module_scope, params, depth
        # The module's own function names.
        self.functions = functions
        self.failed = False

    def variable(self, node: cst.Name) -> cst.BaseExpression:
        updated_node = node
        name = node.value
        if name in self.params:
            return updated_node
        if self.is_callee(node) and name in self.functions:
            # A key made by a module-level helper (`_lock_key(name)`): kept as the call it is, the same
            # text at every caller, so their claims and releases pair.
            return updated_node
        for where in (self.scope, self.module_scope):
            values = where.bindings.get(name)
            if values is None:
                continue
            if len(values) == 1 and isinstance(values[0], cst.BaseExpression) and self.depth < _MAX_EXPAND:
                value = values[0]
                if where is self.module_scope and literal_string(value) is None:
                    break
                params = self.params if where is self.scope else set()
                inner = _Expand(where, self.module_scope, params, self.depth + 1, self.functions)
                expanded = inner.expand(value)
                if inner.failed:
                    break
                return expanded
            break
        self.failed = True
        return updated_node

    def expand(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """`node` with its locals replaced (`failed` says when one cannot be). A node of parameters
        alone, or a lone name, is done without libcst's visit (most keys are one or the other)."""
        if _names(node) <= self.params | KEY_BUILTINS:
            return node  # nothing to replace
        if type(node) is cst.Name:
            return self.variable(node)  # what the visit's leave_Name does for it
        return cst.ensure_type(node.visit(self), cst.BaseExpression)


def _in_params(
    node: cst.BaseExpression, scope, module_scope, params: set[str], functions=frozenset()
) -> cst.BaseExpression | None:
    """`node` written with the function's parameters alone (and calls of the module's functions), or None."""
    expand = _Expand(scope, module_scope, params, 0, functions)
    expanded = expand.expand(node)
    return None if expand.failed else expanded


def _names(node: cst.CSTNode) -> set[str]:
    """The names under `node` but attribute names (`.lower`)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is cst.Name:
            found.add(node.value)
        elif kind is cst.Attribute:
            stack.append(node.value)
        elif kind not in TRIVIA:
            stack.extend(children(node))
    return found


def _returned(event, model, claim: bool = False) -> tuple[bool, str | None]:
    """Whether the function returns the event's answer, and how a caller tells a lost lease by it.
    A claim's answer may be read on the way too (`if ok: r.expire(key, ttl)`, then `return ok`):
    the caller still learns it."""
    statement = event.statement
    body = getattr(statement, "body", ())
    lost_when = event.spec.lost_when if hasattr(event.spec, "lost_when") else None
    if getattr(event, "transactional", False):
        return (True, "not {result}") if event.watched_compare and _succeeds_by_literal(event) else (False, None)
    if isinstance(statement, cst.SimpleStatementLine) and len(body) == 1 and isinstance(body[0], cst.Return):
        value = body[0].value
        if isinstance(value, cst.Await):
            value = value.expression
        if value is event.call or _lambda_of(value, event.call):
            return True, lost_when
        if _boolean_of(value, event.call):
            return True, "not {result}"
        return False, None
    if claim and _answered_by_raising(event):
        return True, "not {result}"
    name = model.assigned.get(id(event.call))
    if name is None and claim:
        name = _bound_truth(statement, event.call)  # `ok = r.setnx(key, v) == 1`
    if name is None:
        name, lost_when = _unpacked(statement, event.call, lost_when)
    if name is None:
        return False, None
    returns = _returns(event.scope.node)
    if claim:
        if len(event.scope.bindings.get(name, ())) != 1:
            return False, None
        if _failure_returned(event.scope.node, returns, name):
            return True, "not {result}"
    elif len(event.scope.bindings.get(name, ())) == 1 and _failure_returned(event.scope.node, returns, name, quiet=True):
        # `if res == 0: log.info(...); return False`, then `return True`: the caller learns it.
        return True, "not {result}"
    elif count_uses(event.scope.node, name) != 2:
        return False, None  # the function reads the answer itself (`if not ok: log.warning...`): it handles it
    for node in returns:
        value = node.value
        if isinstance(value, cst.Name) and value.value == name:
            return True, lost_when
        if value is not None and _boolean_of(value, cst.Name(name)):
            return True, "not {result}"
    return False, None


def _succeeds_by_literal(release) -> bool:
    """A release its function answers by literals: every return gives True or False, and a
    `return True` follows the release in its block (the transaction ran)."""
    values = [_code(node.value) if node.value is not None else "" for node in _returns(release.scope.node)]
    if "True" not in values or "False" not in values or any(value not in ("True", "False") for value in values):
        return False
    for node in nodes(release.scope.node):
        body = getattr(node, "body", None)
        if type(node) is not cst.IndentedBlock or release.statement not in body:  # type: ignore[operator]
            continue
        after = body[body.index(release.statement) + 1 :]  # type: ignore[union-attr]
        return any(type(s) is cst.SimpleStatementLine and _code(s) == "return True" for s in after)
    return False


def _derived_return(read, model) -> bool:
    """Every value the read's function returns but None is made of the read: of the call itself, or
    of the name it is bound to, bound once (`return raw.decode() if raw else None`,
    `return json.loads(raw)["owner"]`)."""
    name = model.assigned.get(id(read.call))
    if name is not None and len(read.scope.bindings.get(name, ())) != 1:
        return False
    values = [node.value for node in _returns(read.scope.node) if node.value is not None and _code(node.value) != "None"]
    if not values:
        return False
    for value in values:
        found = any(
            node is read.call or (name is not None and type(node) is cst.Name and node.value == name) for node in nodes(value)
        )
        if not found:
            return False
    return True


def _derived_kind(read, model) -> str:
    """"absent" when every value the read's function returns is true where the key is absent
    (`return r.get(key) is None`, `return not raw`), else "derived"."""
    from leaselint.model.call_parts import _polarity

    name = model.assigned.get(id(read.call))
    values = [node.value for node in _returns(read.scope.node) if node.value is not None and _code(node.value) != "None"]
    found = [_polarity(value, read.call, name) for value in values]
    return "absent" if found and all(p is not None and p[0] for p in found) else "derived"


def _lambda_of(value, call) -> bool:
    """`return _safe(lambda: cache.add(key, v, ttl), False)`: the call hands back the lambda's answer
    (walk.py's lambda bodies)."""
    return type(value) is cst.Call and any(type(a.value) is cst.Lambda and a.value.body is call for a in value.args)


def helper_claim(claim, model) -> bool:
    """The claim's key is made of its function's parameters and the function hands its answer back:
    a claim its callers make (`model`: anything with `assigned`, as the walker)."""
    params = set(claim.scope.params)
    return bool(free_names(claim.key_shape) & params) and _returned(claim, model, claim=True)[0]


def _bound_truth(statement, call) -> str | None:
    """The name bound to a test of the answer that keeps its truth (`ok = r.setnx(k, v) == 1`)."""
    body = getattr(statement, "body", ())
    if not (isinstance(statement, cst.SimpleStatementLine) and len(body) == 1 and type(body[0]) is cst.Assign):
        return None
    assign = body[0]
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    return target.value if type(target) is cst.Name and _boolean_of(assign.value, call) else None


def _failure_returned(function: cst.CSTNode, returns: list, name: str, quiet: bool = False) -> bool:
    """Every return gives `True` or `False`, and `if not ok: return False` or `if ok: return True`
    is among them: the function answers the claim's truth (`if not result: return False`, then
    `return True`)."""
    values = [_code(node.value) if node.value is not None else "" for node in returns]
    if "True" not in values or any(value not in ("True", "False") for value in values):
        return False
    for node in nodes(function):
        if type(node) is not cst.If or type(node.body) is not cst.IndentedBlock or not node.body.body:
            continue
        last = node.body.body[-1]
        if type(last) is not cst.SimpleStatementLine:
            continue
        test = node.test
        if asks_failure(test, None, name) and _code(last) == "return False":
            # `quiet`: the branch tells no one but the caller (no log at warning or above).
            return not (quiet and tells_someone(node.body))
        if type(test) is cst.Name and test.value == name and _code(last) == "return True":
            return True  # `if result: return True`, then a retry or `return False`
    return False


def _fails_by_choice(function: cst.CSTNode) -> bool:
    """Every failing return (`return False`, `return None`, `return`) sits under an `if` that reads a
    parameter with a default (`if timeout is not None and ...: return False`): by default the
    function waits until it holds the lease, and a caller that passes nothing has nothing to ask."""
    params = getattr(function, "params", None)
    chosen = {p.name.value for p in (*params.params, *params.kwonly_params) if p.default is not None} if params is not None else set()
    failing = [r for r in _returns(function) if r.value is None or _code(r.value) in ("False", "None")]
    if not failing or not chosen:
        return False
    for _ in range(2):
        # ... or a name made of one (`deadline = None if timeout is None else now() + timeout`).
        for node in nodes(function):
            if type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
                if _names(node.value) & chosen:
                    chosen.add(node.targets[0].target.value)
    guarded = set()
    for node in nodes(function):
        if type(node) is cst.If and _names(node.test) & chosen:
            guarded.update(id(r) for r in failing if contains(node.body, r))
    return all(id(r) in guarded for r in failing)


def _unpacked(statement, call, lost_when: str | None) -> tuple[str | None, str | None]:
    """`ok, _ = client.transaction(...)` where the answer's element `i` tells a lost lease
    (`not {result}[0]`): the name bound to that element, and the test on it."""
    body = getattr(statement, "body", ())
    if not (isinstance(statement, cst.SimpleStatementLine) and len(body) == 1 and type(body[0]) is cst.Assign):
        return None, None
    assign = body[0]
    value = assign.value.expression if type(assign.value) is cst.Await else assign.value
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    if value is not call or type(target) is not cst.Tuple or not lost_when:
        return None, None
    for index, element in enumerate(target.elements):
        marker = "{result}[%d]" % index
        if marker in lost_when and type(element.value) is cst.Name:
            return element.value.value, lost_when.replace(marker, "{result}")
    return None, None


def _boolean_of(value: cst.BaseExpression, call: cst.BaseExpression) -> bool:
    """`bool(x)`, `x == 1`, `x > 0`, `x is True` where x is the answer."""
    same = (lambda node: (node.expression if type(node) is cst.Await else node) is call) if isinstance(call, cst.Call) else (
        lambda node: isinstance(node, cst.Name) and node.value == call.value  # type: ignore[attr-defined]
    )
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "bool":
        return len(value.args) == 1 and same(value.args[0].value)
    if isinstance(value, cst.Comparison) and len(value.comparisons) == 1 and same(value.left):
        target = value.comparisons[0]
        right = target.comparator
        if isinstance(target.operator, (cst.Equal, cst.GreaterThanEqual)) and _code(right) in ("1", "True"):
            return True
        if isinstance(target.operator, cst.Equal) and _code(right) in ('"OK"', "'OK'", 'b"OK"', "b'OK'"):
            return True
        if isinstance(target.operator, (cst.IsNot, cst.NotEqual)) and _code(right) in ("None", "0", "False"):
            return True  # `result is not None`: SET NX answers None when the key was held
        if isinstance(target.operator, cst.Is) and _code(right) == "True":
            return True
        return isinstance(target.operator, cst.GreaterThan) and _code(right) == "0"
    return False


def _code(node: cst.CSTNode) -> str:
    return code_of(node).strip()


def _receiver(event, model, params: set[str]) -> tuple | None:
    shape = event.receiver_shape
    if type(shape) is tuple and shape[:1] == ("project",):
        # A client of another module reached through its helper: named absolutely already.
        return shape
    receiver = event.receiver
    if isinstance(receiver, cst.Await):
        receiver = receiver.expression
    if type(receiver) is cst.Name:
        # `pipe = conn.pipeline(True)`: a transaction's pipeline stands for its client.
        found = model.resolver.single_value(receiver.value, event.scope)
        made = found[0] if found is not None else None
        if type(made) is cst.Call and type(made.func) is cst.Attribute and made.func.attr.value == "pipeline":
            receiver = made.func.value
        elif type(made) is cst.Call and type(made.func) is cst.Name and found[1] is event.scope and _fixed_args(made):
            receiver = made  # `r = get_redis_client()` in the function: the client the factory makes
    kind = "global"
    if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and _fixed_args(receiver):
        # (`redis_client(name="default")`: the literal arguments ride along in the kind.)
        kind = "factory" + (f"({_code(receiver)[len(_code(receiver.func)) + 1 : -1]})" if receiver.args else "")
        receiver = receiver.func
    self_name = event.scope.self_name
    if (
        kind == "global"
        and type(receiver) is cst.Attribute
        and type(receiver.value) is cst.Name
        and self_name is not None
        and receiver.value.value == self_name
    ):
        return ("self", receiver.attr.value)  # the client the object holds (`self.client`)
    if kind == "global" and type(receiver) is cst.Name and self_name is not None and receiver.value == self_name:
        return ("self", "")  # the object is the client (`self.execute("set", ...)` of a client wrapper)
    if (
        type(receiver) is cst.Attribute
        and type(receiver.value) is cst.Name
        and receiver.value.value in model.imports
        and model.resolver.defining_scope(receiver.value.value, event.scope) is model.resolver.module_scope
    ):
        # Another module's client reached through its module (`store.client`).
        name = receiver.value.value
        return (kind, model.import_levels.get(name, 0), f"{model.imports[name]}.{receiver.attr.value}", receiver.attr.value)
    if not isinstance(receiver, cst.Name):
        return None
    name = receiver.value
    if name in params and kind == "global":
        return ("param", name)
    module_scope = model.resolver.module_scope
    if model.resolver.defining_scope(name, event.scope) is not module_scope:
        return None
    dotted = model.imports.get(name, "")
    return (kind, model.import_levels.get(name, 0), dotted, name)


def _fixed_args(call: cst.Call) -> bool:
    """The call passes nothing, or only literals (`redis_client(name="default")`)."""
    return all(type(arg.value) in (cst.SimpleString, cst.Integer) and not arg.star for arg in call.args)


def exports(model, local: bool = False) -> tuple:
    """(function name, positional parameters, keyword-only parameters, effects) of every module-level
    function with something to hand its callers. `local`: for the module's own callers, which see
    the function's body too: no event that is a lease at home (reported there), no lock class's
    answers (the module's own ignored calls tell those)."""
    module_scope = model.resolver.module_scope
    leased = {id(e) for lease in model.leases for e in (*lease.claims, *lease.releases)}
    by_scope: dict[int, list] = {}
    for claim in (*model.claims, *model.summarised_claims):
        # A claim that is a lease at home too: its callers still choose the token it stores.
        by_scope.setdefault(id(claim.scope), []).append(("claim", claim))
    for release in model.releases:
        if release.transactional and release.watched_compare and not release.other_keys and _succeeds_by_literal(release):
            # WATCH, compare, MULTI, DEL, EXEC, `return True`; `return False` when another holds it.
            by_scope.setdefault(id(release.scope), []).append(("checked", release))
            continue
        if release.in_pipeline or release.other_keys:
            continue
        if release.checked:
            by_scope.setdefault(id(release.scope), []).append(("checked", release))
        elif not (release.deliberate or release.transactional or release.check):
            # One that is a lease at home is reported there; its callers still pair it with their claims.
            # One reported in a helper's module (made through it) is reported there for every caller.
            kind = "leased" if id(release) in leased or release.reported_home else "release"
            by_scope.setdefault(id(release.scope), []).append((kind, release))
    for read in model.reads:
        # `def cache_get(key): return cache.get(key)`: its callers read the key (a compare, then a
        # release, is a check-then-delete there).
        if read.via is None and (_returned(read, model)[0] or _derived_return(read, model)):
            by_scope.setdefault(id(read.scope), []).append(("read", read))
    at_home = {id(e) for lease in model.leases for e in (*lease.renewals, *lease.expiries)}
    # (`setnx(key, v)`, then `expire(key, ttl)` in one function: the claim's second step, not a renewal.)
    claimed = {(id(claim.scope), claim.key_shape) for claim in model.claims}
    for expire in model.expiries:
        if (id(expire.scope), expire.key_shape) in claimed:
            continue
        # `def apply_expiry(client, key, ms): client.pexpire(key, ms)`: its callers renew the key (a
        # renewal that checks no holder is LL010 where the key is their lease).
        if expire.via is None and expire.spec is not None and expire.field is None and not expire.in_pipeline and id(expire) not in at_home:
            by_scope.setdefault(id(expire.scope), []).append(("renews", expire))
    for write in model.writes:
        # `def set_job_active(job_id): r.set(f"active_job:{job_id}", "1", ex=3600)`: a caller that
        # first asks a read helper whether the key is held claims it by this write (LL009 there).
        if write.via is None and write.spec is not None and not write.scope.is_test:
            by_scope.setdefault(id(write.scope), []).append(("writes", write))
    found = []
    split = {id(claim) for claim, _ in model.split_lifetimes}
    functions = frozenset(s.name for s in model.scopes if s.parent is module_scope and s.cls is None)
    top_classes = {id(statement) for statement in model.module.body if type(statement) is cst.ClassDef}
    for scope in model.scopes:
        events = by_scope.get(id(scope))
        if not events or scope.parent is not module_scope or scope.is_test:
            continue
        positional, keyword = function_params(scope.node)
        name = scope.name
        if scope.cls is not None:
            # A method of a module-level class, called on an instance (`guard.release(key)`).
            # A classmethod or staticmethod too, called on the class (`CacheUtil.occupy(key)`, `cls._take(key)`).
            if id(scope.cls.node) not in top_classes or (scope.self_name is None and not scope.is_static):
                continue
            if not scope.is_static:
                positional = positional[1:]
            name = f"{scope.cls.name}.{scope.name}"
        params = set(positional) | set(keyword)
        effects = []
        for kind, event in events:
            if event.spec is None or (getattr(event, "document", None) is not None and not _document_claim(event, kind)):
                continue
            if local and id(event) in leased:
                # A lease here is reported here. Its callers still see a blind release of it
                # (`cls.delete_lock(key)` after a compare of the key: LL004 at the call), and a
                # claim's or a checked release's answer the function hands back (a caller may drop it).
                if kind == "claim":
                    kind = "answered"
                elif kind not in ("leased", "checked"):
                    continue
            names = params
            if kind in ("read", "answered") and scope.self_name == "self":
                # `def owner(self): return self.client.get(self.key)`: read on the object's own key, which
                # a caller names by the object it calls it on (`self.owner()`, `lock.owner()`); so is a
                # claim of it whose answer the method hands back (`return self.store.acquire_lock(...)`).
                names = params | {"self"}
                if not (_names(event.key) & names) and not (free_names(event.key_shape) & params):
                    continue
            elif not (free_names(event.key_shape) & params) and not (kind == "checked" and _names(event.key) & params):
                continue  # a key made of no parameter is no caller's key
            returns, lost_when = _returned(event, model, claim=kind in ("claim", "answered"))
            if kind == "answered" and (not returns or _fails_by_choice(scope.node)):
                continue
            if kind == "checked" and not (returns and lost_when):
                continue
            if kind == "claim" and not returns:
                # A claim whose answer the caller never sees is no claim to the caller; a lease at home
                # still stores what the caller passes (`memcache_lock(key, self.app.oid)`).
                value = _value_param(event.value, scope, model, params) if id(event) in leased and not local else None
                if value is None:
                    continue
                kind = "stores"
            ref = stores.row_ref(event.store, event.spec)
            receiver = _receiver(event, model, params)
            if ref is None or (receiver is None and kind != "answered"):
                continue  # (a dropped answer is the caller's, whatever client the claim is made on)
            key = _in_params(event.key, scope, module_scope, names, functions)
            if key is None or not (_names(key) & names):
                continue
            value = value if kind == "stores" else None
            key_code = _code(key)
            if getattr(event, "document", None) is not None:
                key_code = f"{{{event.document.key_field!r}: {key_code}}}"  # the field the key is kept in
            if kind == "writes":
                value = _value_param(event.value, scope, model, params) or _own_value(event, model)
                if value is None:
                    continue  # a value of unknown origin: a cache's, not a claim's
            if kind == "renews":
                value = event.ttl.value if type(event.ttl) is cst.Name and event.ttl.value in params else None  # the lifetime given
            if kind == "read" and not _returned(event, model)[0]:
                value = _derived_kind(event, model)  # the function hands back a value made of the read
            if kind == "claim":
                value = _value_param(event.value, scope, model, params)
                if value is None and event.value is not None and not local and id(event) not in leased:
                    value = _own_value(event, model)  # (one that is a lease at home is reported there)
            home = id(event) in leased
            effects.append(
                (
                    kind,
                    ref,
                    key_code,
                    receiver,
                    value,
                    # Its missing lifetime is reported at home when it is a lease there, or when the
                    # function sets it by a second call (model/build.py's split lifetimes).
                    _lifetime(event, params, home or (not local and id(event) in split)),
                    returns,
                    lost_when if kind == "checked" else None,
                    event.start.line,
                )
            )
        if effects:
            found.append((name, positional, keyword, tuple(effects)))
    if local:
        return tuple(found)
    found.extend(_script_constants(model))
    found.extend(_made_values(model))
    found.extend(_factories(model, {entry[0].partition(".")[0] for entry in found if "." in entry[0]}))
    top = {statement.name.value for statement in model.module.body if type(statement) is cst.ClassDef}
    exported = {entry[0] for entry in found}
    for name, (kind, line) in sorted(model.lock_answers.items()):
        # A lock class's method whose answer its callers in other modules may drop (`lock.release()`).
        if name.split(".")[0] in top and name not in exported:
            found.append((name, (), (), ((kind, None, "", None, None, True, True, None, line),)))
    return tuple(found)


def _script_constants(model) -> list:
    """Module-level Lua scripts (`UNLOCK = "...redis.call(..."`), as entries whose one effect holds the
    text: a module that imports one and registers it reads it from there."""
    found = []
    for statement in model.module.body:
        if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
            continue
        assign = statement.body[0]
        if type(assign) is not cst.Assign or len(assign.targets) != 1 or type(assign.targets[0].target) is not cst.Name:
            continue
        text = literal_string(assign.value)
        name = assign.targets[0].target.value
        if text is not None and "redis.call" in text.lower() and model.resolver.module_scope.bindings.get(name, [None])[1:] == []:
            found.append((name, (), (), (("script", None, text, None, None, True, False, None, 0),)))
    return found


def _made_values(model) -> list:
    """Module-level values made once per process (`WORKER = socket.gethostname()`) and functions of no
    parameter whose every return is fixed or guessable (`def worker_id(): return f"{host}:{pid}"`),
    as entries whose one effect says so: a module that stores one as a token reads it from here. A
    plain constant is left out (too many names, and no module imports a literal to store it)."""
    from leaselint.model.values import FIXED, GUESSABLE, UNKNOWN

    origins, module_scope = model.origins, model.resolver.module_scope
    found = []
    for statement in model.module.body:
        name, value = _single_assign(statement)
        if name is None or module_scope.bindings.get(name, [None])[1:] != []:
            continue
        inner = origins.origin(value, module_scope)
        if inner.kind != UNKNOWN and inner.reason != "a constant":
            effect = ("value", None, (FIXED, "a module-level value made once per process", inner.kind), None, None, True, False, None, 0)
            found.append((name, (), (), (effect,)))
    for scope in model.scopes:
        if scope.parent is not module_scope or scope.cls is not None or scope.is_test or scope.params:
            continue
        inner = origins._returned(scope, scope, None, 0, scope.node)
        if inner is not None and inner.kind in (FIXED, GUESSABLE):
            effect = ("value", None, (inner.kind, inner.reason, inner.made), None, None, True, False, None, 0)
            found.append((scope.name, (), (), (effect,)))
    return found


def _factories(model, summarised: set) -> list:
    """Module functions that hand back an object of a class of the module with summarised methods
    (`def get_client(): return RedisClient(url)`, or the module's one such object kept in a global), as
    entries whose one effect names the class: a caller's `client = get_client()` is of that class."""
    module_scope = model.resolver.module_scope
    found = []
    for scope in model.scopes:
        if scope.parent is not module_scope or scope.cls is not None or scope.is_test:
            continue
        made = {_made_class(r.value, scope, module_scope) for r in _returns(scope.node)}
        if len(made) == 1 and next(iter(made)) in summarised:
            found.append((scope.name, (), (), (("returns", None, next(iter(made)), None, None, True, True, None, 0),)))
            continue
        # `def get_client() -> RedisClient:` with the class imported: named as a receiver is (absolutely).
        returns = getattr(scope.node, "returns", None)
        annotation = returns.annotation if returns is not None else None
        if type(annotation) is cst.Name and annotation.value in model.imports and _project_import(model, annotation.value):
            name = annotation.value
            ref = ("global", model.import_levels.get(name, 0), model.imports[name], name)
            found.append((scope.name, (), (), (("returns", None, "", ref, None, True, True, None, 0),)))
    for statement in model.module.body:
        # `store = Store()` at module level: another module's `from app.cache import store` is of it.
        name, value = _single_assign(statement)
        if name is not None and len(module_scope.bindings.get(name, ())) == 1:
            made = _made_class(value, module_scope, module_scope)
            if made in summarised:
                found.append((name, (), (), (("returns", None, made, None, None, True, True, None, 0),)))
    return found


def _project_import(model, name: str) -> bool:
    """`name` is imported from a module of the project (not the standard library, not a store's)."""
    return model.import_levels.get(name, 0) > 0 or not outside_project(model.imports[name])


def _made_class(node, scope, module_scope, depth: int = 0) -> str | None:
    """The module's class `node` makes (`Client(...)`), or that every value other than None of the
    name it reads makes (`_client = Client()` in a global the function fills once)."""
    if type(node) is cst.Await:
        node = node.expression
    if type(node) is cst.Call and type(node.func) is cst.Name:
        return node.func.value
    if type(node) is not cst.Name or depth > 2:
        return None
    values = [*scope.bindings.get(node.value, ()), *module_scope.bindings.get(node.value, ())]
    if not values or not all(isinstance(v, cst.BaseExpression) for v in values):
        return None
    made = {_made_class(v, scope, module_scope, depth + 1) for v in values if not _is_none(v)}
    return next(iter(made)) if len(made) == 1 else None


def _is_none(node) -> bool:
    return type(node) is cst.Name and node.value == "None"


def _single_assign(statement) -> tuple:
    """(name, value) of a module-level `NAME = value`, else (None, None)."""
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return None, None
    assign = statement.body[0]
    if type(assign) is not cst.Assign or len(assign.targets) != 1 or type(assign.targets[0].target) is not cst.Name:
        return None, None
    return assign.targets[0].target.value, assign.value


# Calls that encode a value as it is stored: the stored value is as fixed or as fresh as theirs.
_ENCODERS = frozenset({*SERIALIZERS, "str", "bytes", "repr"})


def _value_param(node, scope, model, params: set[str]) -> str | None:
    """The parameter a claim stores: itself, or encoded (`v = pickle.dumps(value)`, bound once)."""
    for _ in range(2):
        if isinstance(node, cst.Name) and node.value in params:
            return node.value
        if isinstance(node, cst.Name):
            found = model.resolver.single_value(node.value, scope)
            node = found[0] if found is not None and found[1] is scope else None
        if (
            isinstance(node, cst.Call)
            and len(node.args) == 1
            and not node.args[0].keyword
            and code_of(node.func).strip() in _ENCODERS
        ):
            node = node.args[0].value
        elif not isinstance(node, cst.Name):
            return None
    return node.value if isinstance(node, cst.Name) and node.value in params else None


def _own_value(event, model) -> tuple | None:
    """("made", kind, reason) of a value the claim stores of its own (`"1"`, the host name), fixed or
    guessable whatever its callers pass: their leases' token."""
    from leaselint.model.values import FIXED, GUESSABLE

    value = event.value
    if type(value) is cst.Attribute and model.resolver.is_self(value.value, event.scope):
        # Made once per instance: how long an instance lives is its callers' to say, unless what
        # makes it is the same for every instance (`self.host = socket.gethostname()`).
        held = model.resolver.self_attr_values(value.attr.value, event.scope)
        if len(held) != 1 or held[0][0] is None or held[0][1].name != "__init__" or _set_outside(model, value.attr.value):
            return None  # (a class-level default a dataclass's caller replaces; one a caller sets)
        origin = model.origins.origin(held[0][0], held[0][1], event.key_shape)
        return ("made", FIXED, origin.reason) if origin.kind == FIXED and not origin.arguments else None
    if isinstance(event, Claim):
        origin = model.claim_origin(event)
    else:
        origin = model.origins.origin(value, event.scope, event.key_shape)  # a plain write's value
    if origin.kind in (FIXED, GUESSABLE) and not origin.arguments:
        return ("made", origin.kind, origin.reason)
    return None


def _set_outside(model, attr: str) -> bool:
    """Something other than the object itself sets `<object>.<attr>` (`marks.owner = ...`), or
    `setattr` may. The module is read once for this (kept on the model)."""
    found = model.__dict__.get("_attrs_set_outside")
    if found is None:
        found = set()
        for node in nodes(model.module):
            if type(node) is cst.AssignTarget and type(node.target) is cst.Attribute:
                if not (type(node.target.value) is cst.Name and node.target.value.value in ("self", "cls")):
                    found.add(node.target.attr.value)
            elif type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "setattr":
                found.add("*")  # any attribute
        model.__dict__["_attrs_set_outside"] = found
    return attr in found or "*" in found


def _lifetime(event, params: set[str], home: bool):
    """Whether the claim has a lifetime: True, False, or the name of the parameter that gives it
    (`ex=ttl` with `ttl=None`: the caller's argument decides)."""
    lifetime = getattr(event, "lifetime", None)
    if type(lifetime) is cst.Name and lifetime.value in params and not getattr(event, "has_lifetime", True):
        return lifetime.value
    return bool(getattr(event, "has_lifetime", True)) or home


def wants(model) -> tuple:
    """(level, dotted name) of every imported name the module calls: what summaries it could use;
    and ("method", name) of the distinctive methods it calls on objects of no known class."""
    found: set = set()
    levels = model.import_levels
    for name, dotted in model.imports.items():
        if name in model.called_imports or name in model.script_imports or name in model.value_imports:
            found.add((levels.get(name, 0), dotted))
    for name, attribute in (*model.called_attributes, *model.value_attributes):
        dotted = model.imports.get(name)
        if dotted is not None:
            found.add((levels.get(name, 0), f"{dotted}.{attribute}"))
    for name, _ in model.called_attributes:
        dotted = model.imports.get(name)
        if dotted is not None and "." in dotted:
            found.add((levels.get(name, 0), dotted))  # `store.claim(key)`: the object itself, if made there
    # The standard library and the stores' own modules hold no project function.
    found = {w for w in found if w[0] or not outside_project(w[1])}
    found.update(("method", name) for name in model.called_methods)
    return tuple(sorted(found, key=repr))
