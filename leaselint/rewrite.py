"""Fixes that make a lease safe, built once and shared by every rule.

The pieces are edits on the source text at CST node positions: a token made
at the claim, a token-checked release in one server step that reports a lost
lease, and the imports and module constant they need. Two rules that fix the
same lease build the same edits, so their fixes merge instead of conflicting.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from leaselint.diagnostics import Applicability, Edit, Fix, Position
from leaselint.model.events import Claim, Expire, Lease, LeaseModel, Release, Write
from leaselint.source import LineIndex
from leaselint.model import stores
from leaselint.model.header import is_docstring
from leaselint.model.keys import free_names
from leaselint.model.positions import head
from leaselint.model.scope import contains, count_names
from leaselint.model.traverse import nodes
from leaselint.model.values import FIXED, FRESH, GUESSABLE, _imported_capitals
from leaselint.model.walk import decoded, dotted

SCRIPT_NAME = "LEASE_RELEASE_SCRIPT"
# A conditional delete's own condition, replaced whole by the fix's.
CONDITION_KEYWORDS = frozenset({"ConditionExpression", "ExpressionAttributeNames", "ExpressionAttributeValues"})
SCRIPT_TEXT = (
    "(\n"
    "    \"if redis.call('get', KEYS[1]) == ARGV[1] then \"\n"
    "    \"return redis.call('del', KEYS[1]) else return 0 end\"\n"
    ")"
)
FIELD_SCRIPT_NAME = "LEASE_HDEL_SCRIPT"
FIELD_SCRIPT_TEXT = (
    "(\n"
    "    \"if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then \"\n"
    "    \"return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end\"\n"
    ")"
)
_WORD = re.compile(r"\w+")
LOST_MESSAGE = "lease %s expired before release; another worker may hold it"
LOST_RENEWAL_MESSAGE = "lease %s expired before renewal; another worker may hold it"


def _unawaited(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.expression if isinstance(node, cst.Await) else node


def _negated(test: cst.BaseExpression, call: cst.Call) -> bool:
    """`call` is under a `not` in `test`."""
    return any(
        type(node) is cst.UnaryOperation and type(node.operator) is cst.Not and contains(node.expression, call)
        for node in nodes(test, trivia=False)
    )


def _extend_script(command: str) -> str:
    return (
        "(\n"
        "    \"if redis.call('get', KEYS[1]) == ARGV[1] then \"\n"
        f"    \"return redis.call('{command}', KEYS[1], ARGV[2]) else return 0 end\"\n"
        ")"
    )
RELEASE_STYLES = ("lua", "delifeq", "delex")
AS_TEST_MESSAGE = "Store a fresh token with the claim and test the token-checked release in one server step"


@dataclass
class Token:
    """How the release reaches the holder token, and what the claim side must change."""

    code: str
    edits: list[Edit] = field(default_factory=list)
    applicability: Applicability = Applicability.SAFE
    new_token: bool = False
    # Held on the object only while a claim holds: the release first checks that there is one.
    held: bool = False


def in_order(edits: list[Edit]) -> tuple[Edit, ...]:
    """Each edit once, by position. Edits at one point keep the order they were made in: the imports
    and the script first, so that a token line inserted at the same point comes after them (a set's
    order would change with the hash seed)."""
    return tuple(sorted(dict.fromkeys(edits), key=lambda e: (e.start, e.end)))


class NoFix(Exception):
    """The lease cannot be fixed automatically; the text says why."""


class LeaseFixer:
    def __init__(
        self, model: LeaseModel, release_style: str = "lua", text: str | None = None, line_length: int = 88
    ) -> None:
        self.model = model
        self.line_length = line_length
        self.positions = model.positions
        self.origins = model.origins
        self.release_style = release_style
        self._source = text
        # (lease, release) ids -> the Token, or the NoFix saying why there is none: LL001's fix and
        # LL002/LL003's (which rewrite the same release) ask for the same one.
        self._tokens: dict[tuple[int, int], Token | NoFix] = {}
        # lease id -> what its claims and its releases say to _fits_client.
        self._lease_facts: dict[int, tuple] = {}
        # (lease id, "claims" or "releases") -> those events by function and by class (_lease_index).
        self._lease_events: dict[tuple[int, str], tuple] = {}
        # lease id -> the shapes of its weak claim values (_weak_check).
        self._weak_values: dict[int, set] = {}

    @cached_property
    def text(self) -> str:
        """The module's text: the linted source (regenerating it from the tree costs as much as a parse)."""
        return self._source if self._source is not None else self.model.module.code

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def index(self) -> LineIndex:
        # The model's own, when the text is the code libcst writes back (nearly always).
        code_of = self.model.code_of
        if self.text == getattr(code_of, "code", None):
            return code_of.index  # type: ignore[attr-defined]
        return LineIndex(self.text)

    # Positions ------------------------------------------------------------

    def _range(self, node: cst.CSTNode) -> tuple[Position, Position]:
        where = self.positions[node]
        return Position(where.start.line, where.start.column), Position(where.end.line, where.end.column)

    def _text(self, node: cst.CSTNode) -> str:
        """A node's source as written, continuation lines and all (code_of loses their indentation); a
        node the model made (the key a summarised call stands for) as libcst writes it."""
        where = self.positions.get(node)
        if where is None:
            return self.model.code_of(node)
        index = self.index
        return index.text[index.offset(where.start) : index.offset(where.end)]

    def _replace(self, node: cst.CSTNode, content: str) -> Edit:
        start, end = self._range(node)
        return Edit(start, end, content)

    def _indent_of(self, node: cst.CSTNode) -> str:
        start, _ = self._range(node)
        line = self.lines[start.line - 1] if start.line - 1 < len(self.lines) else ""
        return line[: start.column]

    def _insert_before(self, statement: cst.CSTNode, line: str) -> Edit:
        first = head(statement)
        start, _ = self._range(first)
        return Edit(start, start, f"{line}\n{self._indent_of(first)}")

    # Tokens ---------------------------------------------------------------

    def token_for(self, lease: Lease, release: Release) -> Token:
        """The holder token at the release, inventing and carrying one when needed."""
        key = (id(lease), id(release))
        found = self._tokens.get(key)
        if found is None:
            try:
                found = self._tokens[key] = self._token_for(lease, release)
            except NoFix as why:
                found = self._tokens[key] = why
        if isinstance(found, NoFix):
            raise NoFix(*found.args)
        return found

    def _token_for(self, lease: Lease, release: Release) -> Token:
        by_scope, by_class = self._lease_index(lease, "claims")
        same_function = by_scope.get(id(release.scope), [])
        cls = release.scope.cls
        same_class = [c for c in by_class.get(id(cls), ()) if c.scope.self_name] if cls is not None else []
        if same_function:
            return self._local_token(same_function, release)
        if same_class and release.scope.self_name:
            return self._attribute_token(same_class, release)
        inner = [c for c in lease.claims if c.scope is not release.scope and release.scope.encloses(c.scope)]
        if inner:
            return self._enclosing_token(inner, release)
        return self._passed_token(lease, release)

    def _inner_scopes(self, scope) -> list:
        """The functions defined inside `scope`, at any depth."""
        found, stack = [], list(self._children.get(id(scope), ()))
        while stack:
            inner = stack.pop()
            found.append(inner)
            stack.extend(self._children.get(id(inner), ()))
        return found

    @cached_property
    def _children(self) -> dict[int, list]:
        """Scope id -> the scopes whose parent it is."""
        children: dict[int, list] = {}
        for scope in self.model.scopes:
            if scope.parent is not None:
                children.setdefault(id(scope.parent), []).append(scope)
        return children

    def _lease_index(self, lease: Lease, which: str) -> tuple[dict[int, list], dict[int, list]]:
        """The lease's claims or releases (`which`) by the id of their function and of its class, in
        order: made once per lease."""
        known = self._lease_events.get((id(lease), which))
        if known is None:
            by_scope: dict[int, list] = {}
            by_class: dict[int, list] = {}
            for event in getattr(lease, which):
                by_scope.setdefault(id(event.scope), []).append(event)
                if event.scope.cls is not None:
                    by_class.setdefault(id(event.scope.cls), []).append(event)
            known = self._lease_events[(id(lease), which)] = (by_scope, by_class)
        return known

    def _enclosing_token(self, claims: list[Claim], release: Release) -> Token:
        """A claim in a function nested in the release's (a retried inner closure) that stores a token
        both see: the release compares with it."""
        resolver = self.model.resolver
        names = set()
        for claim in claims:
            value = claim.value
            if not isinstance(value, cst.Name) or self._weak(claim):
                raise NoFix("the claim in the nested function stores no token the release can see")
            where = resolver.defining_scope(value.value, claim.scope)
            if where is None or where is not resolver.defining_scope(value.value, release.scope) or where is claim.scope:
                raise NoFix("the claim in the nested function stores a token of its own: make it outside and use it in both")
            names.add(value.value)
        if len(names) != 1:
            raise NoFix("the claims in nested functions store different tokens")
        return Token(names.pop())

    # A claim function and a release function --------------------------------

    def _passed_token(self, lease: Lease, release: Release) -> Token:
        """`acquire_lock(name)` and `release_lock(name)`, module functions: the claim returns its fresh
        token (None when it failed), the release takes it as a new last parameter, and every caller in
        the module binds the claim's answer and hands it to the release."""
        claiming = {id(c.scope): c.scope for c in lease.claims}
        if len(claiming) != 1 or not all(_module_function(s) for s in (*claiming.values(), release.scope)):
            raise NoFix("the claim is in another function, which hands no token to the release")
        claim_scope = next(iter(claiming.values()))
        claims = [c for c in lease.claims if c.scope is claim_scope]
        if len(claims) != 1:
            raise NoFix("the claim function claims more than once: return its token and pass it to the release by hand")
        claim = claims[0]
        exported = self._exported_names & {claim_scope.name, release.scope.name}
        if exported:
            raise NoFix(
                f"`{sorted(exported)[0]}` is in the module's `__all__`, and its callers elsewhere would not pass the token"
            )
        for name in (claim_scope.name, release.scope.name):
            self._only_called(name)
        self._check_insertable(claim)
        edits, fresh = self._claim_returns_token(claim)
        edits += self._release_takes(release.scope, "token")
        edits += self._callers_pass(claim_scope.name, release.scope.name)
        # A caller may call the release after a failed claim: with no token it deletes nothing.
        return Token("token", edits, Applicability.UNSAFE, new_token=fresh, held=True)

    def _only_called(self, name: str) -> None:
        """The function is used by plain calls alone (which the fix updates): not as `x.name(...)`,
        passed on, or stored."""
        calls = {id(call.func) for call, _ in self.model.origins.name_calls.get(name, [])}
        # Each use is a word of the code: when the calls and one `def` are all of them, none is
        # another kind of use (a name in a string or comment only sends this to the walk below).
        if self._word_count(name) == len(calls) + 1:
            return
        for node in self._uses.get(name, ()):
            if type(node) is cst.Attribute or id(node) not in calls:
                line = self.positions[node].start.line if node in self.positions else 0
                raise NoFix(
                    f"`{name}` is used at line {line} other than by a call the fix can hand the token to"
                )

    def _word_count(self, name: str) -> int:
        """How often `name` stands as a word of the code (no word character either side)."""
        if not _WORD.fullmatch(name):
            return len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", self.model.positions.code))
        return self._words[name]

    @cached_property
    def _words(self) -> Counter:
        """The code's words, counted once (a count per function asked was a search of the whole text)."""
        return Counter(_WORD.findall(self.model.positions.code))

    @cached_property
    def _uses(self) -> dict[str, list]:
        """Name -> the module's names with that text (not a `def`'s own) and attributes of that name,
        in visit order."""
        found: dict[str, list] = {}
        defined: set[int] = set()
        for node in nodes(self.model.module, trivia=False):
            kind = type(node)
            if kind is cst.FunctionDef:
                defined.add(id(node.name))
            elif kind is cst.Name:
                if id(node) not in defined:
                    found.setdefault(node.value, []).append(node)
            elif kind is cst.Attribute:
                found.setdefault(node.attr.value, []).append(node)
        return found

    @cached_property
    def _exported_names(self) -> frozenset[str]:
        return frozenset(self._exported())

    def _exported(self) -> set[str]:
        """The names the module's `__all__` lists."""
        module_scope = self.model.resolver.module_scope
        if "__all__" not in module_scope.bindings:
            return set()
        found: set[str] = set()
        # Every string the module puts in `__all__`: `= [...]`, `+= [...]`, `[...] + [...]`, `.extend([...])`.
        parts = list(module_scope.bindings["__all__"])
        for node in nodes(self.model.module, trivia=False):
            if type(node) is cst.Call and isinstance(node.func, cst.Attribute) and dotted(node.func) in (
                "__all__.extend", "__all__.append"
            ):
                parts.extend(arg.value for arg in node.args)
        for part in parts:
            for item in nodes(part, trivia=False) if part is not None else ():
                if type(item) is cst.SimpleString and isinstance(item.evaluated_value, str):
                    found.add(item.evaluated_value)
        return found

    def _taken(self, scope) -> _Taken:
        """The names a new local of `scope` must not take: its own, its enclosing scopes', the module's."""
        return _Taken(scope, self.model.module_names)

    def _claim_returns_token(self, claim: Claim) -> tuple[list[Edit], bool]:
        """The claim stores a fresh token and its function returns it on success, None on failure;
        and whether the token is new (not a value the caller passed in)."""
        scope = claim.scope
        value = claim.value
        if value is None:
            raise NoFix("the claim stores no value to compare with")
        edits: list[Edit] = []
        if isinstance(value, cst.Name) and not self._weak(claim):
            token = value.value
        else:
            token = _unique("token", self._taken(scope), "lease_token")
            made = self._fresh_for(claim) if self._weak(claim) else self._text(value)
            edits += [self._insert_before(claim.statement, f"{token} = {made}"), self._replace(value, token)]
        returns = [node for node in nodes(scope.node.body, trivia=False) if type(node) is cst.Return]
        if any(contains(inner.body, r) for inner in self._inner_scopes(scope) for r in returns):
            raise NoFix("a function inside the claim function returns: return the token from the claim by hand")
        answered = False
        for node in returns:
            line = self.positions[node].start.line
            if node.value is None or (type(node.value) is cst.Name and node.value.value in ("False", "None")):
                if node.value is not None:
                    edits.append(self._replace(node.value, "None"))
                continue
            if type(node.value) is cst.Name and node.value.value == token:
                answered = True  # `return identifier`: the stored token already
                continue
            if type(node.value) is cst.Name and node.value.value == "True":
                edits.append(self._replace(node.value, token))
                answered = True
                continue
            if self._answer(node.value, claim) or (
                type(node.value) is cst.Name and node.value.value == claim.result_name and claim.result_name
            ):
                start, end = self._range(node.value)
                edits += [Edit(start, start, f"{token} if "), Edit(end, end, " else None")]
                answered = True
                continue
            raise NoFix(
                f"line {line} returns something else than the claim's answer"
            )
        if not answered:
            raise NoFix("the claim function does not return the claim's answer: return the token from it by hand")
        return edits, not (isinstance(value, cst.Name) and token == value.value)

    def _release_takes(self, scope, name: str) -> list[Edit]:
        """`def release_lock(key)` -> `def release_lock(key, token)`."""
        function = scope.node
        params = function.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params or params.star_kwarg:
            raise NoFix("the release function takes *args, **kwargs or keyword-only arguments: pass the token by hand")
        if any(p.default is not None for p in params.params):
            raise NoFix("the release function has parameters with defaults: pass the token by hand")
        if name in _Taken(scope):
            raise NoFix(f"the release function already binds `{name}`: pass the token by hand")
        last = [*params.posonly_params, *params.params]
        if last:
            _, end = self._range(last[-1].name)
            return [Edit(end, end, f", {name}")]
        start, _ = self._range(params)
        return [Edit(start, start, name)]

    def _callers_pass(self, claim_name: str, release_name: str) -> list[Edit]:
        """Each release call in the module gets the token its function's claim call answered."""
        calls = self.model.origins.name_calls
        claims_by_scope: dict[int, list] = {}
        for call, scope in calls.get(claim_name, []):
            claims_by_scope.setdefault(id(scope), []).append(call)
        edits: list[Edit] = []
        for call, scope in calls.get(release_name, []):
            line = self.positions[call].start.line
            found = claims_by_scope.get(id(scope), [])
            if len(found) != 1:
                raise NoFix(
                    f"the call of `{release_name}` at line {line} has no single call of `{claim_name}` beside it "
                    "to take the token from"
                )
            variable, bound = self._bind_answer(found[0], scope, claim_name)
            edits += bound
            if any(arg.star for arg in call.args):
                raise NoFix(f"the call of `{release_name}` at line {line} passes *args: pass the token by hand")
            head = self._text(call)[:-1].rstrip().removesuffix(",")
            separator = ", " if call.args else ""
            edits.append(self._replace(call, f"{head}{separator}token={variable})"))
        return edits

    def _bind_answer(self, call: cst.Call, scope, claim_name: str) -> tuple[str, list[Edit]]:
        """The name that holds a claim call's answer, binding it first where the code only tests it."""
        line = self.positions[call].start.line
        statement = _statement_of(scope.node, call)
        answer = call
        awaited = ""
        if statement is not None:
            for node in nodes(statement, trivia=False):
                if type(node) is cst.Await and node.expression is call:
                    answer, awaited = node, "await "
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if type(small) is cst.Assign and small.value is answer and len(small.targets) == 1:
                target = small.targets[0].target
                if type(target) is cst.Name:
                    return target.value, []
            if type(small) is cst.Expr and small.value is answer:
                name = _unique("token", self._taken(scope), "lease_token")
                return name, [self._replace(statement, f"{name} = {self._text(answer)}")]
        if isinstance(statement, (cst.If, cst.While)) and type(statement) is cst.If:
            name = _unique("token", self._taken(scope), "lease_token")
            return name, [
                self._insert_before(statement, f"{name} = {awaited}{self._text(call)}"),
                self._replace(answer, name),
            ]
        raise NoFix(
            f"the answer of `{claim_name}` at line {line} is used where leaselint cannot bind it to a name "
            "(passed on or part of an expression): pass the token by hand"
        )

    def _weak(self, claim: Claim) -> bool:
        origin = self.model.claim_origin(claim)
        if origin.node is not None and _imported_capitals(origin.node, self.model.imports) is not None:
            return False  # another module's value: other modules may read it back, so it is kept
        return origin.kind in (FIXED, GUESSABLE)

    def _local_token(self, claims: list[Claim], release: Release) -> Token:
        values = {self._text(c.value) if c.value is not None else None for c in claims}
        if None in values:
            raise NoFix("the claim stores no value to compare with")
        reusable = all(isinstance(c.value, cst.Name) and not self._weak(c) for c in claims)
        if reusable and len(values) == 1:
            return Token(values.pop())
        in_place = self._token_in_place(claims, release.scope)
        if in_place is not None:
            return in_place
        name = self._fresh_local(release)
        return self._new_token(claims, name, Applicability.UNSAFE)

    def _token_in_place(self, claims: list[Claim], scope) -> Token | None:
        """`token = socket.gethostname()` used only by the lease: make that assignment fresh instead."""
        names = {c.value.value for c in claims if isinstance(c.value, cst.Name)}
        if len(names) != 1 or len(claims) != sum(isinstance(c.value, cst.Name) for c in claims):
            return None
        name = names.pop()
        values = scope.bindings.get(name, [])
        if len(values) != 1 or values[0] is None or isinstance(values[0], cst.AugAssign) or name in scope.params:
            return None
        lease_uses = len(claims) + sum(
            1 for r in self._lease_releases(claims) if isinstance(r.token, cst.Name) and r.token.value == name
        )
        if count_names(scope.node, name) - 1 != lease_uses:
            return None
        made = _identity_token(self._text(values[0])) if self._identity(claims[0]) else "secrets.token_hex(16)"
        return Token(name, [self._replace(values[0], made)], Applicability.UNSAFE, new_token=True)

    def _lease_releases(self, claims: list[Claim]) -> list[Release]:
        leases = [self._lease_of[id(c)] for c in claims if id(c) in self._lease_of]
        if not leases:
            return []
        lease = min(leases, key=lambda lease: self._lease_order[id(lease)])
        return [r for r in lease.releases if r.scope is claims[0].scope]

    @cached_property
    def _lease_of(self) -> dict[int, Lease]:
        """Claim id -> the first lease that holds the claim."""
        found: dict[int, Lease] = {}
        for lease in self.model.leases:
            for claim in lease.claims:
                found.setdefault(id(claim), lease)
        return found

    @cached_property
    def _lease_order(self) -> dict[int, int]:
        return {id(lease): k for k, lease in enumerate(self.model.leases)}

    def _attribute_token(self, claims: list[Claim], release: Release) -> Token:
        """The token on the object, for a claim and a release in different methods of one class.

        The object holds the token only once a claim succeeded (a failed second claim keeps the held
        one), the class starts with none, and a release that holds none frees nothing."""
        self_name = release.scope.self_name
        for claim in claims:
            if free_names(claim.key_shape) & set(claim.scope.params):
                raise NoFix(
                    "the key comes from the caller, so one token per object would mix leases"
                )
        carried = all(isinstance(c.value, cst.Name) and not self._weak(c) for c in claims)
        names = {c.value.value for c in claims if isinstance(c.value, cst.Name)}
        if carried and len(names) == 1 and next(iter(names)) in release.scope.params:
            # `lock(self, task_id)` stores task_id; `unlock(self, task_id)` is handed the same one.
            return Token(names.pop(), [], Applicability.UNSAFE)
        cls = release.scope.cls
        if "__slots__" in cls.bindings:
            raise NoFix("the class declares __slots__: add a slot for the held token and keep it there")
        if any(claim.value is None for claim in claims):
            raise NoFix("the claim stores no value beside its key")
        held = self._held_attribute(claims, release)
        edits: list[Edit] = []
        new_token = False
        for claim in claims:
            self._check_insertable(claim)
            stored, made, fresh = self._stored_token(claim, held)
            edits.extend(made)
            new_token = new_token or fresh
            edits.extend(self._on_success(claim, f"{claim.scope.self_name}.{held} = {stored}"))
        if not self._made_in_init(claims[0], held):
            edits.append(self._class_default(cls.node, held))
        return Token(f"{self_name}.{held}", edits, Applicability.UNSAFE, new_token=new_token, held=True)

    def _held_attribute(self, claims: list[Claim], release: Release) -> str:
        """Where the object keeps the token it holds: the attribute the claim stores when it is made
        once in `__init__` from nothing the caller passed (its other readers, an extend, then see the
        held token), else a new one."""
        attrs = {self._self_attr(c) for c in claims}
        if len(attrs) == 1 and None not in attrs:
            attr = next(iter(attrs))
            values = self.model.resolver.self_attr_values(attr, claims[0].scope)
            init = [value for value, where in values if where.name == "__init__"]
            if (
                values
                and len(init) == len(values)
                # Not made of what the caller passed (`owner or f"pid:{os.getpid()}"`): an identity it keeps.
                and not any(_mentions_any(value, set(where.params)) for value, where in values)
                # Nor an identity (`self.owner = socket.gethostname()`): it stays, and the token goes beside it.
                and not any(self._identity(c) for c in claims)
                and not _read_as_number(release.scope.cls.node, attr)  # type: ignore[union-attr]
            ):
                return attr
            self._not_sent_elsewhere(attr, claims, release)
        return self._fresh_attribute(release)

    def _not_sent_elsewhere(self, attr: str, claims: list[Claim], release: Release) -> None:
        """The stored attribute stays what it was (the caller's identity), and a new one holds the
        token: no other store command may compare the old one with the key (a renewal script would
        then never match)."""
        cls = release.scope.cls
        sent = stores.commands(release.store)
        events = {id(c.call) for c in claims} | self._leased_releases
        for node in nodes(cls.node, trivia=False):  # type: ignore[union-attr]
            if type(node) is not cst.Call or id(node) in events or not isinstance(node.func, cst.Attribute):
                continue
            if node.func.attr.value not in sent:
                continue
            if any(
                isinstance(arg.value, cst.Attribute) and arg.value.attr.value == attr and isinstance(arg.value.value, cst.Name)
                for arg in node.args
            ):
                line = self.positions[node].start.line
                raise NoFix(
                    f"`{attr}` is also sent to the store at line {line}, where the fresh token would have to go too"
                )

    def _stored_token(self, claim: Claim, held: str) -> tuple[str, list[Edit], bool]:
        """The code of the token the claim stores once fixed, the edits that make it, and whether it
        is new: a weak value becomes a fresh one (a readable identity keeps its text before it)."""
        value = claim.value
        assert value is not None
        if self._self_attr(claim) == held and self._weak(claim):
            made = "secrets.token_hex(16)"
        elif not self._weak(claim):
            if isinstance(value, cst.Name) or self._self_attr(claim) is not None:
                return self._text(value), [], False
            made = self._text(value)
        else:
            made = self._fresh_for(claim)
        taken = self._taken(claim.scope)
        name = _unique("token", taken, "lease_token")
        edits = [self._insert_before(claim.statement, f"{name} = {made}"), self._replace(value, name)]
        return name, edits, made != self._text(value)

    def _fresh_for(self, claim: Claim) -> str:
        """The fresh token that replaces a weak stored value: an identity (an owner, a host name)
        stays readable in front of it; a constant, a counter or a clock goes."""
        if not self._identity(claim):
            return "secrets.token_hex(16)"
        return _identity_token(self._text(claim.value))

    def _identity(self, claim: Claim) -> bool:
        """The stored value reads as who holds the lease (an owner, a host name): not a constant, nor a
        random value made once (`WORKER_ID = uuid.uuid4().hex`)."""
        origin = self.model.claim_origin(claim)
        if origin.kind != FIXED or origin.made in (FRESH, GUESSABLE) or claim.value is None:
            return False
        return not _literal(claim.value) and not _literal(origin.node)

    def _on_success(self, claim: Claim, line: str) -> list[Edit]:
        """`line` where the claim has succeeded: after `ok = claim` (under `if ok:`), in the branch an
        `if claim:` takes, after an `if not claim:` that leaves, after a `while not claim:` loop."""
        statement = claim.statement
        indent = self._indent_of(statement)
        step = self.model.module.default_indent
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and self._answer(small.value, claim):
                target = small.targets[0].target
                if isinstance(target, (cst.Name, cst.Attribute)):  # `ok = ...`, `self._acquired = ...`
                    return [self._after(statement, f"if {self._text(target)}:\n{indent}{step}{line}")]
            if isinstance(small, cst.Return) and small.value is not None and self._answer(small.value, claim):
                taken = self._taken(claim.scope)
                name = _unique("claimed", taken, "lease_claimed")
                start, _ = self._range(small)
                value_start, _ = self._range(small.value)
                return [
                    Edit(start, value_start, f"{name} = "),
                    self._after(statement, f"if {name}:\n{indent}{step}{line}\n{indent}return {name}"),
                ]
        if isinstance(statement, cst.If) and isinstance(statement.body, cst.IndentedBlock):
            test = statement.test
            if self._answer(test, claim):
                return [self._insert_before(statement.body.body[0], line)]
            if (
                isinstance(test, cst.UnaryOperation)
                and isinstance(test.operator, cst.Not)
                and self._answer(test.expression, claim)
                and statement.orelse is None
                and _leaves(statement.body)
            ):
                return [self._after(statement, line)]
        if (
            isinstance(statement, cst.While)
            and isinstance(statement.test, cst.UnaryOperation)
            and isinstance(statement.test.operator, cst.Not)
            and self._answer(statement.test.expression, claim)
            and statement.orelse is None
            and not contains(statement.body, lambda node: type(node) is cst.Break)
        ):
            return [self._after(statement, line)]
        raising = claim.spec.form != "builder" and (
            claim.spec.answers_by_raising or bool(claim.caught & set(claim.store.duplicate_errors))
        )
        if raising and isinstance(statement, cst.SimpleStatementLine):
            # `try: claim` / `except Held: return False`: the claim succeeded after the `try`.
            for node in nodes(claim.scope.node, trivia=False):
                if (
                    type(node) is cst.Try
                    and isinstance(node.body, cst.IndentedBlock)
                    and statement in node.body.body
                    and node.handlers
                    and all(isinstance(h.body, cst.IndentedBlock) and _leaves(h.body) for h in node.handlers)
                    and node.orelse is None
                    and node.finalbody is None
                ):
                    return [self._after(node, line)]
        if raising:
            raise NoFix("the claim answers by raising where leaselint cannot see whether it succeeded")
        raise NoFix("the claim's answer is not tested where leaselint can see whether it succeeded")

    @staticmethod
    def _answer(node: cst.BaseExpression, claim: Claim) -> bool:
        """`node` is true exactly when the claim succeeded: the call, awaited, or under `bool()`."""
        if isinstance(node, cst.Await):
            node = node.expression
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "bool":
            if len(node.args) == 1:
                return LeaseFixer._answer(node.args[0].value, claim)
        return node is claim.call

    def _after(self, statement: cst.CSTNode, text: str) -> Edit:
        """`text` as lines after `statement`, at its indentation."""
        _, end = self._range(statement)
        indent = self._indent_of(statement)
        if end.line >= len(self.lines) and not self.text.endswith(("\n", "\r")):
            return Edit(end, end, f"\n{indent}{text}")
        point = Position(end.line + 1, 0)
        return Edit(point, point, f"{indent}{text}\n")

    def _class_default(self, node: cst.ClassDef, attr: str) -> Edit:
        """`attr = None` first in the class body (after its docstring): an object starts holding nothing."""
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            raise NoFix("the class is written on one line")
        statements = list(body.body)
        first = statements[1] if len(statements) > 1 and is_docstring(statements[0]) else statements[0]
        blank = "\n" if isinstance(first, (cst.FunctionDef, cst.ClassDef)) else ""
        start, _ = self._range(head(first))
        return Edit(start, start, f"{attr} = None\n{blank}{self._indent_of(head(first))}")

    @staticmethod
    def _fits_client(events) -> None:
        """The fix writes the API of the claim's store (the first event's): not for a client made by a
        maker with another API, nor for a claim or release made inside another module's function, nor
        for a claim a transaction makes (its write is no conditional create to rewrite)."""
        other = events[0].store.other_api
        _unfit(other, _client_facts(events, other))

    def _fits_lease(self, lease: Lease, tail: list | None = None) -> None:
        """`_fits_client([*lease.claims, *tail])` (tail: the lease's releases by default), what the
        claims and the releases say worked out once per lease: a lease of many functions gets a fix at
        each of its events."""
        if not lease.claims:
            return self._fits_client(lease.releases if tail is None else tail)
        other = lease.claims[0].store.other_api
        known = self._lease_facts.get(id(lease))
        if known is None:
            known = self._lease_facts[id(lease)] = (_client_facts(lease.claims, other), _client_facts(lease.releases, other))
        _unfit(other, known[0], known[1] if tail is None else _client_facts(tail, other))

    def _not_overwritten(self, lease: Lease, release: Release | None = None, claim: Claim | None = None) -> None:
        """No fix compares with a token that a write of the key, in reach of the release (or of the
        claim's releases), has replaced."""
        scope = (release or claim).scope  # type: ignore[union-attr]
        for write in lease.overwrites:
            if write.scope is scope:
                if release is not None and write.start.line >= release.start.line:
                    continue  # after this release
            elif scope.cls is None or write.scope.cls is not scope.cls:
                continue  # another function's
            if type(write.value) is cst.Name and all(
                type(c.value) is cst.Name and c.value.value == write.value.value and not self._weak(c) for c in lease.claims
            ):
                continue  # the same fresh token written again (a renewal): the release still matches
            line = write.start.line
            raise NoFix(
                f"line {line} writes the key again after the claim, replacing the token a checked release "
                "would compare with"
            )

    def _value_kept(self, lease: Lease, cls) -> None:
        """No fix changes a stored value that other code reads back and interprets (parses it, compares
        it, orders it by the clock): a claim value that is an expiry time or an owner checked elsewhere."""
        store = lease.claims[0].store
        methods = {spec.method for spec in store.reads} | set(store.value_reads)
        checks = self._checked_reads
        for node, scope in self._value_reads_by_shape.get((id(cls), lease.key_shape), ()):
            if id(node) in checks or node.func.attr.value not in methods:
                continue
            how = _interprets(scope.node, node)
            if how is not None:
                line = self.positions[node].start.line
                raise NoFix(
                    f"line {line} reads the stored value back and {how}, and a fresh token there would change "
                    "what it reads"
                )

    @cached_property
    def _checked_reads(self) -> set[int]:
        return {id(r.check.read.call) for r in self.model.releases if r.check is not None}

    @cached_property
    def _value_reads_by_shape(self) -> dict[tuple, list]:
        """The value reads of functions by the id of their class (None's for module functions) and
        the shape of the key they read, in order."""
        index: dict[tuple, list] = {}
        resolver = self.model.resolver
        for node, scope in self.model.value_reads:
            if scope.parent is not None:
                index.setdefault((id(scope.cls), resolver.shape(node.args[0].value, scope)), []).append((node, scope))
        return index

    @cached_property
    def _destructors(self) -> list:
        return [scope for scope in self.model.scopes if scope.cls is not None and scope.name == "__del__"]

    @cached_property
    def _leased_releases(self) -> set[int]:
        return {id(r.call) for lease in self.model.leases for r in lease.releases}

    def _made_in_init(self, claim: Claim, attr: str) -> bool:
        values = self.model.resolver.self_attr_values(attr, claim.scope)
        return bool(values) and all(where.name == "__init__" for _, where in values)

    def _self_attr(self, claim: Claim) -> str | None:
        value = claim.value
        if isinstance(value, cst.Attribute) and claim.scope.self_name and self.model.resolver.is_self(
            value.value, claim.scope
        ):
            return value.attr.value
        return None

    def _check_insertable(self, claim: Claim) -> bool:
        if not claim.insertable:
            raise NoFix("the claim sits where a statement cannot be put before it")
        return True

    def _new_token(self, claims: list[Claim], name: str, applicability) -> Token:
        edits: list[Edit] = []
        for claim in claims:
            self._check_insertable(claim)
            edits.append(self._insert_before(claim.statement, f"{name} = {self._fresh_for(claim)}"))
            edits.append(self._replace(claim.value, name))
        return Token(name, edits, applicability, new_token=True)

    def _fresh_local(self, release: Release) -> str:
        taken = self._taken(release.scope)
        return _unique("token", taken, "lease_token")

    def _fresh_attribute(self, release: Release) -> str:
        cls = release.scope.cls
        taken = set(cls.attrs) | set(cls.bindings) | set(cls.methods) if cls else set()
        return _unique("_lease_token", taken, "_lease_token")

    def fresh_token(self, lease: Lease, claim: Claim) -> Fix:
        """Store a fresh token at the claim and hand it to every release of the lease in reach."""
        self._not_overwritten(lease, claim=claim)
        self._fits_lease(lease)
        self._value_kept(lease, claim.scope.cls)
        origin = self.model.claim_origin(claim)
        if origin.node is not None and _imported_capitals(origin.node, self.model.imports) is not None:
            raise NoFix("other modules may read the value back")
        if (
            len(origin.arguments) == 1
            and origin.node is not None
            and origin.node is not claim.value
            and lease.releases
            and all(r.checked for r in lease.releases)
        ):
            # `token = uuid.uuid1().hex; self._do_acquire(token)`: the one place the token is made,
            # in the caller, becomes fresh; the claim, the object and the checked release keep using it.
            edits = [*self.header_edit(logging=False, secrets=True, script=False), self._replace(origin.node, "secrets.token_hex(16)")]
            return Fix("Make the token fresh where it is made: `secrets.token_hex(16)`", in_order(edits), Applicability.UNSAFE)
        # A delete after a failed claim is another worker's key: LL001 removes it; it never gets this
        # attempt's token (which the key cannot hold).
        by_scope, by_class = self._lease_index(lease, "releases")
        # In the claim's function, or in a method of its class.
        cls = claim.scope.cls
        near = by_class.get(id(cls), []) if cls is not None else by_scope.get(id(claim.scope), [])
        releases = [r for r in near if not r.deliberate and r.after_failed_claim is None]
        if not releases and _module_function(claim.scope):
            # A claim function and release functions: the token is returned and passed (LL001's fix).
            releases = [
                r
                for r in lease.releases
                if not r.deliberate and r.after_failed_claim is None and not r.checked and _module_function(r.scope)
            ]
        if not releases and any(r.after_failed_claim is not None for r in lease.releases):
            raise NoFix("no release in reach holds the lease, as the delete runs after the claim failed")
        if not releases:
            raise NoFix("the release is in another function")
        edits: list[Edit] = []
        fields: list[Edit] = []
        logging = blind = new_token = False
        for release in releases:
            if release.checked:
                token = self.token_for(lease, release)
                edits.extend(token.edits)
                if release.token is None:
                    raise NoFix("the release's token argument is not where leaselint can see it")
                if token.held:
                    edits.append(self._guarded_checked(release, token.code))
                else:
                    edits.append(self._replace(release.token, token.code))
                new_token = new_token or token.new_token
            else:
                fix = self.checked_release(lease, release, with_header=False)
                edits.extend(fix.edits)
                reports = release.usage in ("statement", "inline") and not release.in_pipeline
                logging = logging or (reports and fix.message != AS_TEST_MESSAGE)
                blind = blind or (not lease.claims[0].store.release_form and release.field is None)
                if release.field is not None and not fields:
                    fields = self.field_script_edits(release)
                new_token = True
        header = self.header_edit(logging=logging, secrets=new_token, script=blind) + fields
        same_function = all(r.scope is claim.scope for r in releases)
        applicability = Applicability.SAFE if same_function else Applicability.UNSAFE
        message = "Store a fresh `secrets.token_hex(16)` with the claim and check it at the release"
        return Fix(message, in_order(header + edits), applicability)

    # Releases -------------------------------------------------------------

    def _store_release(self, lease: Lease, release: Release, token: str, replace, shift: str = "") -> Edit | None:
        """Checked releases written as more than one call; None for the one-call template stores.
        `shift`: the indentation its lines will get under an `if` around it."""
        store = lease.claims[0].store
        form = store.release_form
        if not form:
            return None
        if release.usage != "statement" and form in ("memcached", "dynamo", "transact", "checked_keyword"):
            raise NoFix(f"the {store.name} release must stand as its own statement to be rewritten")
        if store.single_server:
            client = release.client_call
            servers = client.args[0].value if client is not None and client.args else None
            one = isinstance(servers, cst.SimpleString) or (
                isinstance(servers, (cst.List, cst.Tuple)) and len(servers.elements) == 1
            )
            if not one:
                raise NoFix(store.single_server)
        if store.release_requires is not None:
            setting, why = store.release_requires
            client = release.client_call
            if client is None or not any(
                a.keyword is not None and a.keyword.value == setting and self._text(a.value) == "True" for a in client.args
            ):
                raise NoFix(why)
        awaited = self._awaited(release)
        receiver, key = self._text(release.receiver), self._text(release.key)
        statement = replace if replace is not None else release.statement
        indent = self._indent_of(statement) + shift
        inner = indent + self.model.module.default_indent
        report = self.warning(LOST_MESSAGE, (key,), inner)
        options = dict(store.release_options)
        if form == "memcached":
            taken = self._taken(release.scope)
            names = dict(stored=_unique("stored", taken, "lease_value"), cas=_unique("cas_id", taken, "lease_cas"))
            fill = dict(receiver=receiver, key=key, token=token, **names)
            gets = options["gets"].format(**fill).replace(" = ", f" = {awaited}", 1)
            expire = awaited + options["expire"].format(**fill)
            # `gets` gives bytes, or with a serde the value as stored (a str stays a str): either matches.
            default = "{stored} not in ({token}, {token}.encode() if isinstance({token}, str) else {token})"
            compare = options.get("compare", default)
            lines = [gets]
            if "comment" in options:
                lines.append(f"# {options['comment']}")
            lines.append(f"if {compare.format(**fill)} or not {expire}:")
            text = f"\n{indent}".join(lines) + f"\n{inner}{report}"
            return self._replace(statement, text)
        if form == "checked_keyword":
            # The release itself compares, given the token by a keyword, and raises when it differs.
            call = self._text(release.call)[:-1].rstrip().removesuffix(",") + f", {options['keyword']}={token})"
            error = self._error_name(options["error"])
            text = f"try:\n{inner}{call}\n{indent}except {error}:\n{inner}{report}"
            return self._replace(statement, text)
        if form == "transact":
            if not isinstance(release.receiver, (cst.Name, cst.Attribute)):
                # Each call would make another cache object, waiting on the first one's transaction.
                raise NoFix("the cache comes from a call: name it once, then compare and delete inside its `transact()`")
            # One SQLite write transaction around the read, the compare and the delete, retrying
            # on contention when the release did (`retry=True`).
            keep = options["keep"]
            retry = next((self._text(a.value) for a in release.call.args if a.keyword and a.keyword.value == keep), None)
            option = f"{keep}={retry}" if retry is not None else ""
            more = f", {option}" if option else ""
            begin = f"with {receiver}.{store.transactions[0]}({option}):"
            read, delete = options["read"], options["delete"]
            test = f"if {receiver}.{read}({key}{more}) != {token} or not {receiver}.{delete}({key}{more}):"
            deeper = inner + self.model.module.default_indent
            text = f"{begin}\n{inner}{test}\n{deeper}{self.warning(LOST_MESSAGE, (key,), deeper)}"
            return self._replace(statement, text)
        if form == "dynamo":
            claim = lease.claims[0]
            document = claim.document
            if document is None or document.token_field is None:
                raise NoFix("the claim stores no owner attribute to check")
            field = document.token_field
            call = self._call_without(release.call, CONDITION_KEYWORDS)
            if release.document is not None and release.document.table is not None:
                kind = document.token_type or "S"
                call += (
                    f', ConditionExpression="#owner = :token", ExpressionAttributeNames={{"#owner": "{field}"}}, '
                    f'ExpressionAttributeValues={{":token": {{"{kind}": {token}}}}})'
                )
                error = f"{receiver}.exceptions.ConditionalCheckFailedException"
            else:
                call += f', ConditionExpression=Attr("{field}").eq({token}))'
                error = f"{receiver}.meta.client.exceptions.ConditionalCheckFailedException"
            text = f"try:\n{inner}{awaited}{call}\n{indent}except {error}:\n{inner}{report}"
            return self._replace(statement, text)
        if form == "mongo":
            claim = lease.claims[0]
            document = claim.document
            if document is None or document.token_field is None or release.document is None:
                raise NoFix("the claim stores no owner field to check")
            if release.document.dict_node is None:
                raise NoFix("the filter is not a dict literal")
            old = self._text(release.document.dict_node)
            new = old[:-1].rstrip().removesuffix(",") + f', "{document.token_field}": {token}}}'
            call = self._text(release.call).replace(old, new, 1)
            if release.usage != "statement":
                return self._replace(release.document.dict_node, new)
            result = f"({awaited}{call})" if awaited else call
            lost = release.spec.lost_when.format(result=result)
            return self._replace(statement, f"if {lost}:\n{inner}{report}")
        if form == "orm":
            document = lease.claims[0].document
            if document is None or document.token_field is None or release.document is None:
                raise NoFix("the claim stores no owner field to check: store a fresh token in one and filter on it")
            chosen = release.document.filter_call
            if chosen is None:
                raise NoFix("the release does not filter the rows by keyword")
            old = self._text(chosen)
            new = old[:-1].rstrip().removesuffix(",") + f", {document.token_field}={token})"
            if release.usage != "statement":
                return self._replace(chosen, new)
            call = self._text(release.call).replace(old, new, 1)
            lost = release.spec.lost_when.format(result=f"({awaited}{call})" if awaited else call)
            return self._replace(statement, f"if {lost}:\n{inner}{report}")
        if form == "etcd":
            txn = (
                f"{receiver}.transaction(compare=[{receiver}.transactions.value({key}) == {token}], "
                f"success=[{receiver}.transactions.delete({key})], failure=[])"
            )
            if release.usage != "statement":
                return self._replace(release.call, f"{txn}[0]")
            return self._replace(statement, f"if not {txn}[0]:\n{inner}{report}")
        raise NoFix(f"no checked release is known for {store.name}")

    def _call_without(self, call: cst.Call, keywords: frozenset[str]) -> str:
        """A call's text up to its last kept argument, without the named keyword arguments."""
        kept = [arg for arg in call.args if arg.keyword is None or arg.keyword.value not in keywords]
        if len(kept) == len(call.args):
            return self._text(call)[:-1].rstrip().removesuffix(",")
        parts = []
        for arg in kept:
            value = self._text(arg.value)
            if arg.keyword is not None:
                parts.append(f"{arg.keyword.value}={value}")
            else:
                parts.append(f"{arg.star}{value}")
        return f"{self._text(call.func)}({', '.join(parts)}"

    def release_call(self, lease: Lease, release: Release, token: str) -> str:
        """The store's token-checked release, as the claim's store writes it."""
        if release.field is not None:
            template = lease.claims[0].store.checked_field_release
            if not template:
                raise NoFix(f"{lease.claims[0].store.name} has no compare-and-delete of a hash field")
            return template.format(
                receiver=self._text(release.receiver),
                script=self.field_script_name,
                key=self._text(release.key),
                field=self._text(release.field),
                token=token,
            )
        templates = dict(lease.claims[0].store.checked_release)
        template = templates.get(self.release_style)
        if template is None:
            store = lease.claims[0].store
            why = store.no_checked_release or f"{store.name} has no compare-and-delete in one server step"
            if store.checked_release_hint:
                module, hint = store.checked_release_hint
                if any(d == module or d.startswith(module + ".") for d in self.model.imports.values()):
                    why += f", but {hint}"
            raise NoFix(why)
        return template.format(
            receiver=self._text(release.receiver), script=self.script_name, key=self._text(release.key), token=token
        )

    @property
    def field_script_name(self) -> str:
        return self.model.field_script_constant or _unique(FIELD_SCRIPT_NAME, self.model.module_names, FIELD_SCRIPT_NAME)

    def field_script_edits(self, release: Release) -> list[Edit]:
        """The hash field's compare-and-delete script, as a module constant, unless the module has it."""
        if release.field is None or self.model.field_script_constant:
            return []
        return [self._constant_edit(f"{self.field_script_name} = {FIELD_SCRIPT_TEXT}\n")]

    @property
    def script_name(self) -> str:
        if self.model.script_constant:
            return self.model.script_constant
        return _unique(SCRIPT_NAME, self.model.module_names, SCRIPT_NAME)

    @property
    def log_call(self) -> str:
        if self.model.logger_name:
            return f"{self.model.logger_name}.warning"
        return "logging.getLogger(__name__).warning"

    def warning(self, message: str, args: tuple[str, ...], indent: str, column: int | None = None) -> str:
        """The warning call, written where a line indented by `indent` holds it from `column` (its
        indentation's end when None), wrapped to the line length when it does not fit."""
        step = self.model.module.default_indent
        return wrapped_call(self.log_call, message, args, indent, step, self.line_length, column)

    def _line_indent(self, position: Position) -> str:
        line = self.lines[position.line - 1] if position.line - 1 < len(self.lines) else ""
        return line[: len(line) - len(line.lstrip())]

    def checked_release(
        self,
        lease: Lease,
        release: Release,
        with_header: bool = True,
        token_code: str | None = None,
        replace: cst.CSTNode | None = None,
    ) -> Fix:
        """Replace a release that does not check the holder with one that does, in one server step.

        `token_code` is a token already in scope (the one a client-side check compared with);
        `replace` is a statement to replace whole (the `if get(k) == token:` around the release).
        """
        self._not_overwritten(lease, release=release)
        self._fits_lease(lease, [release])
        if release.watched_callback:
            return self._queue_after_multi(release)
        if release.other_keys:
            raise NoFix("the call deletes other keys too")
        if release.spec.returns_value and release.usage == "expression":
            raise NoFix("the code uses the value the release returned")
        if release.check is not None and any(
            type(c.operator) in ORDERINGS for c in release.check.comparison.comparisons
        ):
            raise NoFix(
                "the release is guarded by ordering the stored value (a clock check), not by a token"
            )
        decoder = _decoded_side(release.check) if release.check is not None else None
        if decoder is not None:
            raise NoFix(
                f"the stored value is compared after `{decoder}(...)`, and a server-side compare sees the stored bytes"
            )
        if release.check is not None and release.check.through is not None:
            raise NoFix(
                f"the read value is handed through `{self._text(release.check.through)}(...)` before the compare"
            )
        if release.check is not None and _field_side(release.check):
            raise NoFix(
                "the check compares a field of the stored value, and a server-side compare sees the whole value"
            )
        if release.check is not None:
            # A client-side check before the release: the `if` that only guards it goes, and its
            # token is kept unless it is as weak as the claim's (then a fresh one is made).
            replace = replace or whole_guard(release)
            if token_code is None and release.check.token is not None and not self._weak_check(lease, release):
                token_code = self._text(release.check.token)
        if token_code is not None:
            # A token the object sets back to None (`self.token = None` before a claim, or after a
            # release): the compare the fix takes away found no holder then, and deleted nothing.
            held = replace is not None and release.check is not None and _set_to_none(release.check.token, release.scope)
            token = Token(token_code, held=held)
        else:
            token = self.token_for(lease, release)
        if token.new_token:
            self._value_kept(lease, release.scope.cls)
        guard = release.check.guard if release.check is not None else None
        if guard is not None and replace is None and token_code is None and contains(guard.body, release.statement):
            # The `if` compares the stored value with the old one (now never stored) and guards more
            # than the release: its test becomes the checked release, and the delete goes.
            return self._release_as_test(lease, release, guard, token, with_header)
        shift = self.model.module.default_indent if token.held else ""
        store_edit = self._store_release(lease, release, token.code, replace, shift)
        if store_edit is not None and token.held and lease.claims[0].store.missing_raises:
            raise NoFix(lease.claims[0].store.missing_raises)
        if store_edit is not None and token.held:
            store_edit = self._only_while_held(store_edit, release, replace, token.code)
        if store_edit is not None:
            needs = lease.claims[0].store.release_form == "dynamo" and (
                release.document is None or release.document.table is None
            )
            edits = self.header_edit(logging=release.usage == "statement", secrets=token.new_token, script=False)
            if needs and "Attr" not in self.model.imports:
                edits.extend(self._from_import("boto3.dynamodb.conditions", "Attr"))
            if lease.claims[0].store.release_form == "checked_keyword":
                edits.extend(self._error_import(dict(lease.claims[0].store.release_options)["error"]))
            edits += [*token.edits, store_edit]
            message = "Release only while the stored token is this holder's, in one server step"
            return Fix(message, in_order(edits), token.applicability)
        call = self.release_call(lease, release, token.code)
        edits = list(token.edits)
        applicability = token.applicability
        message = "Release with a token-checked compare-and-delete in one server step"
        if token.new_token:
            message = "Store a fresh token with the claim and " + message[0].lower() + message[1:]
        if release.in_pipeline:
            if token.held:
                raise NoFix("the release is queued on a pipeline: check that the object holds a token by hand")
            edits.append(self._replace(release.call, call))
            applicability = Applicability.UNSAFE
            message += "; its result (0: lease lost) arrives in the pipeline's execute()"
        else:
            guard = f"{token.code} is not None" if token.held else None
            edits.append(self.report_outcome(release, call, replace, guard))
        if with_header:
            edits[:0] = self.header_edit(
                logging=release.usage in ("statement", "inline") and not release.in_pipeline,
                secrets=token.new_token,
                script=release.field is None,
            ) + self.field_script_edits(release)
        return Fix(message, in_order(edits), applicability)

    def _queue_after_multi(self, release: Release) -> Fix:
        """In a `transaction(callback, key)` callback the watching pipeline runs commands at once; after
        `multi()` they are queued, and EXEC fails (the callback runs again) if the key changed since the
        WATCH: compare, then `multi()`, then the delete make one step."""
        if release.check is None:
            raise NoFix("the delete in the transaction callback compares nothing: compare the token, then multi()")
        if release.usage != "statement":
            raise NoFix("the code uses the delete's result, which arrives in execute() once queued")
        receiver = self._text(release.receiver)
        edit = self._insert_before(release.statement, f"{receiver}.multi()")
        return Fix("Queue the delete after `multi()`, so that WATCH makes the compare and the delete one step", (edit,), Applicability.SAFE)

    def _only_while_held(self, edit: Edit, release: Release, replace, token: str) -> Edit:
        """A store's checked release of several lines (written one step deeper), run only while the
        object holds a token."""
        if release.usage != "statement":
            raise NoFix("the release is part of a larger statement: check that a token is held by hand")
        statement = replace if replace is not None else release.statement
        indent = self._indent_of(statement)
        step = self.model.module.default_indent
        return Edit(edit.start, edit.end, f"if {token} is not None:\n{indent}{step}{edit.content}")

    def _release_as_test(self, lease: Lease, release: Release, guard: cst.If, token: Token, with_header: bool) -> Fix:
        body = guard.body
        if (
            lease.claims[0].store.release_form
            or release.usage != "statement"
            or not isinstance(body, cst.IndentedBlock)
            or len(body.body) < 2
            or body.body[0] is not release.statement
        ):
            raise NoFix("the `if` that compares the stored value guards more than the release: rewrite it by hand")
        call = self.release_call(lease, release, token.code)
        test = f"{self._awaited(release)}{call}"
        if token.held:
            test = f"{token.code} is not None and {test}"
        start, _ = self._range(release.statement)
        edits = [
            *token.edits,
            self._replace(guard.test, test),
            Edit(Position(start.line, 0), Position(start.line + 1, 0), ""),
        ]
        if with_header:
            edits[:0] = self.header_edit(logging=False, secrets=token.new_token, script=release.field is None)
            edits[:0] = self.field_script_edits(release)
        return Fix(AS_TEST_MESSAGE, in_order(edits), Applicability.UNSAFE)

    def await_call(self, call: cst.Call, scope) -> Fix:
        """`await` before a release that makes a coroutine and drops it."""
        if not scope.is_async:
            raise NoFix(
                "the function is not async, so it cannot await the release"
            )
        start, _ = self._range(call)
        return Fix("Await the release", [Edit(start, start, "await ")], Applicability.SAFE)

    def _awaited(self, release: Release) -> str:
        """`await ` for a coroutine: an awaited release, or one in async code on a client claimed with await."""
        if release.awaited or (release.coroutine and release.scope.is_async):
            return "await "
        if release.scope.is_async and any(
            c.awaited and c.receiver_shape == release.receiver_shape for c in self.model.claims
        ):
            return "await "
        return ""

    def _guarded_checked(self, release: Release, token: str) -> Edit:
        """A checked release given the held token, run only while the object holds one."""
        if release.in_pipeline or release.usage == "inline":
            raise NoFix("the release is queued or inline: check that the object holds a token by hand")
        call, token_node = self.positions[release.call], self.positions[release.token]
        text = self._text(release.call)
        start = self.index.offset(token_node.start) - self.index.offset(call.start)
        end = self.index.offset(token_node.end) - self.index.offset(call.start)
        call_text = text[:start] + token + text[end:]
        guard = f"{token} is not None"
        awaited = self._awaited(release)
        if release.usage in ("statement", "await-statement"):
            step = self.model.module.default_indent
            indent = self._indent_of(release.statement)
            return self._replace(release.statement, f"if {guard}:\n{indent}{step}{awaited}{call_text}")
        return Edit(*self._span_with_await(release), f"({awaited}{call_text} if {guard} else 0)")

    def _weak_check(self, lease: Lease, release: Release) -> bool:
        """The client-side check compares with a value as weak as the claim's (the same constant)."""
        check = release.check
        if check is None or check.token is None:
            return False
        weak = self._weak_values.get(id(lease))
        if weak is None:
            # The shapes of the lease's weak claim values, worked out once per lease.
            resolver = self.model.resolver
            weak = self._weak_values[id(lease)] = {
                resolver.shape(claim.value, claim.scope) for claim in lease.claims if claim.value is not None and self._weak(claim)
            }
        return self.model.resolver.shape(check.token, release.scope) in weak

    def drop_release(self, release: Release) -> Fix:
        """A delete after a failed claim frees the other holder's claim: it goes (a `pass` keeps the block)."""
        guard = release.after_failed_claim
        self._fits_client([release])
        if release.usage != "statement" or guard is None:
            raise NoFix("the delete is part of a larger statement")
        if any(
            c.spec.by_old_value and c.scope is release.scope and c.key_shape == release.key_shape for c in self.model.claims
        ):
            raise NoFix(
                "the failed `getset` has already written over the holder's value"
            )
        if contains(guard.body, release.statement):
            branch = guard.body
        elif guard.orelse is not None and contains(guard.orelse, release.statement):
            branch = guard.orelse.body
        else:
            raise NoFix("the delete follows the claim's early exit")
        reads = release.store.lifetime_reads
        if reads and contains(
            release.scope.node,
            lambda node: type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in reads,
        ):
            # The function asks for a key's remaining lifetime: the delete clears a claim left without one.
            raise NoFix(
                "the delete clears a claim left without a lifetime (LL005)"
            )
        alone = isinstance(branch, cst.IndentedBlock) and len(branch.body) == 1
        if alone:
            edit = self._replace(release.statement, "pass")
        else:
            start, _ = self._range(release.statement)
            edit = Edit(Position(start.line, 0), Position(start.line + 1, 0), "")
        return Fix("Remove the delete: after a failed claim the key is another worker's", (edit,), Applicability.SAFE)

    def report_outcome(
        self, release: Release, call: str, replace: cst.CSTNode | None = None, guard: str | None = None
    ) -> Edit:
        """`call` in place of the release; where its result was thrown away, log when it deleted nothing.
        With `guard` (the object holds a token), the release runs only when it holds, and otherwise
        deletes nothing and answers 0 as a delete of a missing key does."""
        awaited = self._awaited(release)
        key = self._text(release.key)
        if release.usage == "statement":
            statement = replace if replace is not None else release.statement
            indent = self._indent_of(statement) + self.model.module.default_indent
            test = f"{guard} and not {awaited}{call}" if guard else f"not {awaited}{call}"
            return self._replace(statement, f"if {test}:\n{indent}{self.warning(LOST_MESSAGE, (key,), indent)}")
        if guard:
            if release.usage == "inline":
                raise NoFix("the release is part of a larger expression: check that the object holds a token by hand")
            return Edit(*self._span_with_await(release), f"({awaited}{call} if {guard} else 0)")
        if release.usage == "inline":
            start, end = self._span_with_await(release)
            before = f"{awaited}{call} or "
            last = before.rsplit("\n", 1)
            column = len(last[1]) if len(last) > 1 else start.column + len(before)
            report = self.warning(LOST_MESSAGE, (key,), self._line_indent(start), column)
            return Edit(start, end, before + report)
        return self._replace(release.call, call)

    def claim_in_one_step(self, claim: Claim) -> Fix:
        """LL009: a read that found the key absent, then a plain write -> the store's conditional
        create as the test: `if not r.get(k): r.set(k, v, ex=30)` becomes `if r.set(k, v, nx=True,
        ex=30):`; `if r.exists(k): return` then `r.set(...)` gets `if not r.set(..., nx=True): return`."""
        check = claim.read_check
        assert check is not None
        if claim.via is not None:
            raise NoFix(f"the write is made inside {claim.via}")
        statement = claim.statement
        if not (
            isinstance(statement, cst.SimpleStatementLine)
            and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and _unawaited(statement.body[0].value) is claim.call
        ):
            raise NoFix("the write is part of a larger statement: claim with the store's conditional create by hand")
        if any(a.star for a in claim.call.args):
            raise NoFix("the write passes arguments with `*` or `**`")
        awaited = "await " if claim.awaited else ""
        new_call = awaited + self._conditional_create(claim)
        guard = check.guard
        body = guard.body
        if isinstance(guard, cst.While):
            raise NoFix("the claim waits in a loop until the key is gone")
        if guard.orelse is not None and contains(guard.orelse, claim.call):
            orelse = guard.orelse
            if not isinstance(orelse, cst.Else) or not isinstance(orelse.body, cst.IndentedBlock):
                raise NoFix("the write sits in an `elif`: claim with the store's conditional create by hand")
            if orelse.body.body[0] is not statement:
                raise NoFix("the branch runs code before the write")
            # The `if` runs its body when the claim fails, and the `else` when it succeeds.
            edits = [self._replace(_read_operand(guard.test, check.read), f"not {new_call}"), self._line_removal(statement)]
        elif contains(body, claim.call):
            if not isinstance(body, cst.IndentedBlock) or body.body[0] is not statement:
                raise NoFix("the branch runs code before the write")
            removal = self._replace(statement, "pass") if len(body.body) == 1 else self._line_removal(statement)
            edits = [self._replace(_read_operand(guard.test, check.read), new_call), removal]
        else:
            if not isinstance(body, cst.IndentedBlock):
                raise NoFix("the `if` that tested the key has its body on the same line")
            if not _leaves(body):
                raise NoFix("the key's own holder writes it again past the read")
            first, last = self._range(body.body[0])[0], self._range(body.body[-1])[1]
            lines = self.index.text[self.index.offset(Position(first.line, 0)) : self.index.offset(last)]
            indent = self._indent_of(statement)
            edits = [self._replace(statement, f"if not {new_call}:\n{lines.rstrip()}")]
            if self._indent_of(guard) != indent:
                raise NoFix("the write is indented differently from the `if` that tested the key")
        message = "Claim with the store's conditional create in one step, instead of a read then a write"
        safe = check.exact
        return Fix(message, in_order(edits), Applicability.SAFE if safe else Applicability.UNSAFE)

    def _conditional_create(self, claim: Claim) -> str:
        """The write `claim` stands for, as the store's conditional create with the same arguments."""
        call, spec = claim.call, claim.spec
        receiver = self._text(claim.receiver) if isinstance(call.func, cst.Attribute) else None
        func = self._text(call.func.value) if isinstance(call.func, cst.Attribute) else None  # type: ignore[union-attr]
        if spec.flag is None and func is not None:
            # Conditional by its method (a cache's `add`), which takes the plain write's arguments.
            return f"{func}.{spec.method}({self._args_text(call)})"
        if spec.flag is None or spec.flag.keyword is None or spec.flag_value or receiver is None:
            raise NoFix("the store has no conditional create the fix can write")
        keywords = {a.keyword.value for a in call.args if a.keyword is not None}
        write = next(w for w in claim.store.writes if w.method == claim.method)
        if claim.method == spec.method:
            # The claim's own call without its flag: its key, value and lifetime arguments only.
            allowed = {where.keyword for where in (spec.key, spec.value, *spec.lifetime)}
            positional = 1 + max(a.index for a in (spec.key, spec.value, *spec.lifetime) if a.index is not None)
            if keywords - allowed or sum(a.keyword is None for a in call.args) > positional:
                raise NoFix("the write passes options of its own (`xx`, `get`, `keepttl`): claim by hand")
            return f"{func}.{spec.method}({self._args_text(call)}, {spec.flag.keyword}=True)"  # type: ignore[union-attr]
        from leaselint.model.call_parts import get_arg

        key, value = get_arg(call, write.key), get_arg(call, write.value)
        ttl = get_arg(call, write.lifetime[0]) if write.lifetime else None
        if not write.claim_unit or key is None or value is None or ttl is None or len(call.args) != 3:
            raise NoFix(f"the `{claim.method}` call's arguments cannot be told apart")
        flag = spec.flag.keyword  # type: ignore[union-attr]
        return f"{func}.{spec.method}({self._text(key)}, {self._text(value)}, {flag}=True, {write.claim_unit}={self._text(ttl)})"

    def _args_text(self, call: cst.Call) -> str:
        return ", ".join(
            (f"{a.keyword.value}={self._text(a.value)}" if a.keyword is not None else self._text(a.value)) for a in call.args
        )

    def _line_removal(self, statement: cst.CSTNode) -> Edit:
        start, end = self._range(statement)
        return Edit(Position(start.line, 0), Position(end.line + 1, 0), "")

    def checked_renewal(self, lease: Lease, renewal: Expire | Write) -> Fix:
        """LL010: `expire(key, ttl)` on a held lease -> a script that extends only while the stored
        token is this holder's, with a lost lease logged where the answer was thrown away."""
        if isinstance(renewal, Write):
            raise NoFix(
                "the renewal writes the key again, which also takes over a key another worker claimed since"
            )
        store = lease.claims[0].store
        if renewal.no_fix:
            raise NoFix(renewal.no_fix)
        if not store.checked_extend:
            raise NoFix(store.no_checked_extend or f"{store.name} has no compare-and-extend in one server step")
        self._fits_lease(lease, [renewal])
        extra = [a for a in renewal.call.args if a.value is not renewal.key and a.value is not renewal.ttl]
        if extra:
            raise NoFix("the renewal passes options of its own (`nx`, `xx`, `gt`, `lt`): extend with a token check by hand")
        if renewal.usage == "inline":
            raise NoFix("the renewal shares its line with other statements")
        if renewal.in_pipeline:
            raise NoFix("the renewal is queued on a pipeline, whose execute() answers it")
        if renewal.coroutine and not renewal.awaited:
            raise NoFix("the renewal's coroutine is handed on unawaited: extend with a token check by hand")
        token, held = self._renewal_token(lease, renewal)
        command = renewal.method  # the script runs the renewal's own command
        script = self.model.extend_scripts.get(command)
        edits: list[Edit] = []
        if script is None:
            script = _unique(f"LEASE_{command.upper()}_SCRIPT", self.model.module_names, f"LEASE_{command.upper()}_SCRIPT")
            edits.append(self._constant_edit(f"{script} = {_extend_script(command)}\n"))
        call = store.checked_extend.format(
            receiver=self._text(renewal.receiver), script=script, key=self._text(renewal.key), token=token,
            ttl=self._text(renewal.ttl),  # type: ignore[arg-type]
        )
        awaited = "await " if renewal.awaited or (renewal.coroutine and renewal.scope.is_async) else ""
        answer = f"{token} is not None and {awaited}{call}" if held else f"{awaited}{call}"
        if renewal.usage == "statement":
            indent = self._indent_of(renewal.statement) + self.model.module.default_indent
            report = self.warning(LOST_RENEWAL_MESSAGE, (self._text(renewal.key),), indent)
            test = f"not ({answer})" if held else f"not {answer}"
            edits.append(self._replace(renewal.statement, f"if {test}:\n{indent}{report}"))
            edits += self.header_edit(logging=True, secrets=False, script=False)
        else:
            # expire() answers True or False; the script 1 or 0.
            edits.append(Edit(*self._span_with_await(renewal), f"bool({answer})"))
        # A ttl held in a name may be a timedelta, which expire() takes and a script argument does not.
        safe = isinstance(renewal.ttl, cst.Integer)
        message = "Extend only while the stored token is this holder's, in one server step"
        return Fix(message, in_order(edits), Applicability.SAFE if safe else Applicability.UNSAFE)

    def _renewal_token(self, lease: Lease, renewal: Expire) -> tuple[str, bool]:
        """(the holder's token where the renewal runs, whether it is held on the object only while a
        claim holds): a name the claim stored that the renewal sees, or the object's attribute."""
        resolver = self.model.resolver
        scope = renewal.scope
        # The claims of this holder's life: its function's, an enclosing one's, its class's.
        claims = [c for c in lease.claims if c.scope is scope or c.scope.encloses(scope)] or [
            c for c in lease.claims if scope.cls is not None and c.scope.cls is scope.cls
        ] or lease.claims
        lease = Lease(lease.receiver_shape, lease.key_shape, claims=claims)
        values = [c.value for c in lease.claims]
        if any(v is None for v in values) or any(self._weak(c) for c in lease.claims):
            raise NoFix("the claim stores no fresh token to compare with (LL002, LL003): store one first")
        texts = {self._text(v) for v in values}  # type: ignore[arg-type]
        if len(texts) != 1:
            raise NoFix("the claims store different values: extend with a token check by hand")
        value = values[0]
        if isinstance(value, cst.Name):
            where = resolver.defining_scope(value.value, scope)
            if where is not None and all(where is resolver.defining_scope(value.value, c.scope) for c in lease.claims):
                return value.value, False
        if isinstance(value, cst.Name) and scope.self_name and all(c.scope.cls is scope.cls for c in lease.claims):
            attr = self._kept_on_success(lease.claims, value.value)
            if attr is not None:
                return f"{scope.self_name}.{attr}", True
        raise NoFix("the renewal cannot see the token this holder stored")

    def _kept_on_success(self, claims: list[Claim], name: str) -> str | None:
        """The attribute every claim's method sets to the stored token `name` once its claim succeeded
        (`if claim: self.token = token`), when the class sets it to nothing else but None: the token
        the object holds, which a failed claim leaves alone."""
        resolver = self.model.resolver
        found = set()
        for claim in claims:
            kept = None
            for node in nodes(claim.scope.node, trivia=False):
                if type(node) is cst.If and contains(node.test, claim.call) and not _negated(node.test, claim.call):
                    for line in node.body.body:
                        for small in getattr(line, "body", ()):
                            if type(small) is cst.Assign and type(small.value) is cst.Name and small.value.value == name:
                                target = small.targets[0].target if len(small.targets) == 1 else None
                                if isinstance(target, cst.Attribute) and resolver.is_self(target.value, claim.scope):
                                    kept = target.attr.value
            if kept is None:
                return None
            found.add(kept)
        if len(found) != 1:
            return None
        attr = found.pop()
        cls = claims[0].scope.cls
        for node in nodes(cls.node, trivia=False) if cls is not None else ():
            # `self.token, self.x = ...` or `setattr(self, "token", ...)`: set some other way too.
            if type(node) is cst.Tuple and any(
                isinstance(e.value, cst.Attribute) and e.value.attr.value == attr for e in node.elements
            ):
                return None
            if type(node) is cst.Call and isinstance(node.func, cst.Name) and node.func.value == "setattr":
                if len(node.args) > 1 and isinstance(node.args[1].value, cst.SimpleString) and attr in node.args[1].value.value:
                    return None
        for value, where in resolver.self_attr_values(attr, claims[0].scope):
            if not (type(value) is cst.Name and value.value in ("None", name) and (value.value == "None" or any(where is c.scope for c in claims))):
                return None
        return attr

    def _constant_edit(self, constant: str) -> Edit:
        """A module constant after the leading imports (where the release script goes)."""
        position = self.model.header_position
        at_end = position.line > len(self.lines) and not self.text.endswith(("\n", "\r"))
        if not self.model.leading_imports:
            return Edit(position, position, constant + "\n\n")
        return Edit(position, position, f"{chr(10) if at_end else ''}\n{constant}")

    def log_lost_release(self, release: Release) -> Fix:
        """LL006: keep the token-checked release, and log when it deleted nothing."""
        if release.no_fix and release.no_fix != stores.NAMED_FILTER:  # the call is written as it is
            raise NoFix(release.no_fix)
        lost_when = release.spec.lost_when
        if not lost_when:
            raise NoFix("the release raises when the lease is lost")
        if release.coroutine and not release.awaited and not release.scope.is_async:
            raise NoFix("the release is a coroutine this function never awaits (LL011): its answer is no outcome yet")
        if release.usage == "operand":
            raise NoFix("the release is the last operand of an `and`/`or`: test its answer by hand")
        awaited = "await " if release.awaited or release.coroutine else ""
        call = self._text(release.call)
        if release.usage == "statement":
            result = f"({awaited}{call})" if awaited and lost_when != "not {result}" else f"{awaited}{call}"
            indent = self._indent_of(release.statement) + self.model.module.default_indent
            report = self.warning(LOST_MESSAGE, (self._text(release.key),), indent)
            edit = self._replace(release.statement, f"if {lost_when.format(result=result)}:\n{indent}{report}")
        elif lost_when == "not {result}":
            edit = self.report_outcome(release, call)
        else:
            raise NoFix("the release shares its line with other statements")
        edits = [edit, *self.header_edit(logging=True, secrets=False, script=False)]
        return Fix("Log a warning when the release finds the lease lost", tuple(edits), Applicability.SAFE)

    def log_unread_release(self, release: Release) -> Fix:
        """LL006: `status = release(...)` and nothing reads `status` -> test it and log a lost lease."""
        if release.no_fix:
            raise NoFix(release.no_fix)
        name = release.unread
        assert name is not None
        statement = release.statement
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            raise NoFix("the release shares its line with other statements")
        indent = self._indent_of(statement) + self.model.module.default_indent
        report = self.warning(LOST_MESSAGE, (self._text(release.key),), indent)
        test = release.spec.lost_when.format(result=name)
        edits = [self._after(statement, f"if {test}:\n{indent}{report}")]
        edits += self.header_edit(logging=True, secrets=False, script=False)
        return Fix("Log a warning when the release finds the lease lost", tuple(edits), Applicability.SAFE)

    def _debug_to_warning(self, body: cst.IndentedBlock) -> Fix | None:
        """The block's debug logs as warnings (logged where production never looks), or None."""
        debug = [
            item.value
            for line in body.body
            if isinstance(line, cst.SimpleStatementLine)
            for item in line.body
            if isinstance(item, cst.Expr) and isinstance(item.value, cst.Call)
            and isinstance(item.value.func, cst.Attribute) and item.value.func.attr.value == "debug"
        ]
        if not debug:
            return None
        edits = [self._replace(call.func.attr, "warning") for call in debug]
        return Fix("Log the lost lease as a warning, not at debug level", tuple(edits), Applicability.SAFE)

    def log_dropped_release(self, release: Release) -> Fix:
        """LL006: `if not release(...): pass` (or a debug log) -> a warning naming the key."""
        if release.no_fix:
            raise NoFix(release.no_fix)
        node = release.dropped
        assert node is not None
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            raise NoFix("the branch is on the line of its `if`")
        louder = self._debug_to_warning(body)
        if louder is not None:
            return louder
        first = body.body[0]
        report = self.warning(LOST_MESSAGE, (self._text(release.key),), self._indent_of(first))
        inner = first.body[0] if isinstance(first, cst.SimpleStatementLine) else None
        if isinstance(inner, (cst.Continue, cst.Return)):
            edit = self._insert_before(first, report)
        else:
            edit = self._replace(first, report)
        edits = [edit, *self.header_edit(logging=True, secrets=False, script=False)]
        return Fix("Log a warning when the release finds the lease lost", tuple(edits), Applicability.SAFE)

    def log_swallowed_error(self, handler: cst.ExceptHandler) -> Fix:
        """LL006: `except LockNotOwnedError: pass` -> bind the error and log it."""
        edits: list[Edit] = []
        body = handler.body
        if not isinstance(body, cst.IndentedBlock):
            raise NoFix("the handler's body is on its line")
        if any(contains(scope.node, handler) for scope in self._destructors):
            raise NoFix(
                "a destructor also runs for a lock never acquired, and at exit, where logging may be gone: "
                "release the lease where its work ends (`close()`, `__exit__`) and report `LockNotOwnedError` there"
            )
        louder = self._debug_to_warning(body)
        if louder is not None:
            return louder
        name = handler.name.name.value if handler.name is not None else None  # type: ignore[union-attr]
        first = body.body[0]
        indent = self._indent_of(first)
        if handler.type is None:
            # A bare `except:` stays as it is: the log carries the error.
            report = self.warning("lease lost before release", ("exc_info=True",), indent)
        else:
            if name is None:
                name = "exc"
                _, type_end = self._range(handler.type)
                edits.append(Edit(type_end, type_end, f" as {name}"))
            report = self.warning("lease lost before release: %s", (name,), indent)
        inner = first.body[0] if isinstance(first, cst.SimpleStatementLine) else None
        if isinstance(inner, (cst.Continue, cst.Return)):
            edits.append(self._insert_before(first, report))
        else:
            edits.append(self._replace(first, report))
        edits.extend(self.header_edit(logging=True, secrets=False, script=False))
        return Fix("Log the lost lease instead of dropping it", tuple(edits), Applicability.SAFE)

    def add_keyword(self, call: cst.Call, argument: str) -> Fix:
        """`client.add(k, v)` -> `client.add(k, v, noreply=False)`."""
        head = self._text(call)[:-1].rstrip().removesuffix(",")
        separator = ", " if call.args else ""
        return Fix(f"Pass `{argument}`", (self._replace(call, f"{head}{separator}{argument})"),), Applicability.SAFE)

    def merge_lifetime(self, claim, expire) -> Fix:
        """LL005: `setnx(k, v)` then `expire(k, ttl)` -> one `set(k, v, nx=True, ex=ttl)`."""
        if expire.via is not None:
            raise NoFix(f"the expiry is made inside {expire.via}")
        self._fits_client([claim])
        units = {where.keyword for spec in claim.store.claims if spec.method == "set" for where in spec.lifetime}
        if claim.spec.field is not None:
            raise NoFix(
                "`hsetnx` takes no lifetime: set the field and its lifetime in one Lua script (HSETNX, then "
                "HPEXPIRE ... FIELDS 1), or keep the lease in a key of its own"
            )
        if claim.method not in ("set", "setnx") or expire.unit not in units or expire.usage != "statement":
            raise NoFix(claim.spec.no_lifetime or "the claim cannot take the lifetime in the same call")
        if not isinstance(expire.statement, cst.SimpleStatementLine) or len(expire.statement.body) != 1:
            raise NoFix("the expiry shares its line with other statements")
        if claim.in_pipeline or expire.in_pipeline:
            raise NoFix("the claim and its expiry are queued on a pipeline, whose answers one command fewer would move")
        for node in nodes(expire.scope.node, trivia=False):
            if type(node) is cst.If and contains(node.body, expire.statement) and not contains(node.test, claim.call):
                names = {n.value for n in nodes(node.test, trivia=False) if type(n) is cst.Name}
                if claim.result_name is None or names - {claim.result_name, "not"}:
                    raise NoFix("the expiry runs only under a condition of its own, which the claim would always meet")
        receiver = self._text(claim.receiver)
        ttl = self._text(expire.ttl)  # type: ignore[arg-type]
        if claim.method == "set":
            head = self._text(claim.call)[:-1].rstrip()
            new_call = f"{head.removesuffix(',')}, {expire.unit}={ttl})"
        else:
            new_call = f"{receiver}.set({self._text(claim.key)}, {self._text(claim.value)}, nx=True, {expire.unit}={ttl})"
        claim_edit = self._replace(claim.call, new_call)
        if claim.method == "setnx" and claim.usage == "expression" and not _tested(claim):
            # setnx answers True/False; set(nx=True) answers True/None: callers keep reading False.
            awaited = "await " if claim.awaited else ""
            claim_edit = Edit(*self._span_with_await(claim), f"bool({awaited}{new_call})")
        start, _ = self._range(expire.statement)
        line_start = Position(start.line, 0)
        next_line = Position(start.line + 1, 0)
        removal = Edit(line_start, next_line, "")
        guard = self._bare_guard(expire.statement, expire.scope.node)
        if guard is not None:
            # `if lock: redis.expire(...)` with nothing else in it: the whole `if` goes.
            guard_start, _ = self._range(guard)
            _, end = self._range(expire.statement)
            removal = Edit(Position(guard_start.line, 0), Position(end.line + 1, 0), "")
        elif self._alone_in_block(expire.statement, expire.scope.node):
            removal = self._replace(expire.statement, "pass")
        edits = (claim_edit, removal)
        message = f"Set the lifetime in the claim itself (`{expire.unit}=`)"
        if _positive_literal(expire.ttl):
            return Fix(message, edits, Applicability.SAFE)
        # The server refuses a lifetime of 0 or less in SET, where EXPIRE took it (and deleted the key).
        return Fix(message + "; SET refuses a lifetime that is not positive, where EXPIRE took it", edits, Applicability.UNSAFE)

    def _bare_guard(self, statement: cst.CSTNode, scope_node: cst.CSTNode) -> cst.If | None:
        """The `if` whose only statement this is, with no `else`, no comment and a test that does
        nothing but read names (`if lock:`, `if not self.ok:`)."""
        found = [
            node
            for node in nodes(scope_node, trivia=False)
            if type(node) is cst.If
            and node.orelse is None
            and isinstance(node.body, cst.IndentedBlock)
            and len(node.body.body) == 1
            and node.body.body[0] is statement
        ]
        if len(found) != 1 or self._alone_in_block(found[0], scope_node):
            return None  # the `if` is its block's only statement: removing it would leave the block empty
        guard = found[0]
        test = guard.test.expression if isinstance(guard.test, cst.UnaryOperation) else guard.test
        while isinstance(test, cst.Attribute):
            test = test.value
        if not isinstance(test, cst.Name) or "#" in self._text(guard):
            return None
        if guard.leading_lines and any(line.comment is not None for line in guard.leading_lines):
            return None
        start, _ = self._range(guard)
        _, end = self._range(statement)
        if self.lines[start.line - 1][: start.column].strip() or self.lines[end.line - 1][end.column :].strip():
            return None  # shares a line with other code
        return guard

    def _alone_in_block(self, statement: cst.CSTNode, scope_node: cst.CSTNode) -> bool:
        """The only statement of its block: removing it would leave the block empty."""
        return contains(
            scope_node,
            lambda node: type(node) is cst.IndentedBlock and len(node.body) == 1 and node.body[0] is statement,
        )

    def _span_with_await(self, event) -> tuple[Position, Position]:
        """The span of an event's call, with the `await` before it (a claim or a release)."""
        start, end = self._range(event.call)
        if event.awaited:
            # `await` sits right before the call on the same line.
            line = self.lines[start.line - 1]
            prefix = line[: start.column].rstrip()
            if prefix.endswith("await"):
                start = Position(start.line, len(prefix) - len("await"))
        return start, end

    # Module header --------------------------------------------------------

    def header_edit(self, logging: bool, secrets: bool, script: bool = True) -> list[Edit]:
        """Imports where isort would put them, and the script constant after the imports."""
        for name, needed in (("secrets", secrets), ("logging", logging and not self.model.logger_name)):
            if needed and name in self.model.shadowed_modules:
                raise NoFix(f"the name `{name}` is bound to something else in this module, and the fix calls the {name} module")
        wanted = []
        if logging and not self.model.logger_name and "logging" not in self.model.imported_modules:
            wanted.append("logging")
        if secrets and "secrets" not in self.model.imported_modules:
            wanted.append("secrets")
        constant = None
        if script and self.release_style == "lua" and not self.model.script_constant:
            constant = f"{self.script_name} = {SCRIPT_TEXT}\n"
        edits: list[Edit] = []
        position = self.model.header_position
        at_end = position.line > len(self.lines) and not self.text.endswith(("\n", "\r"))
        if not self.model.leading_imports:
            blocks = ["".join(f"import {name}\n" for name in wanted)] if wanted else []
            if constant:
                blocks.append(constant + "\n")
            if blocks:
                edits.append(Edit(position, position, "\n".join(blocks) + "\n"))
            return edits
        points: dict[Position, tuple[list[str], bool]] = {}
        for name in wanted:
            point, separate = self._import_point(name)
            names, _ = points.get(point, ([], False))
            points[point] = (names + [name], separate)
        for point, (names, separate) in points.items():
            content = "".join(f"import {name}\n" for name in sorted(names)) + ("\n" if separate else "")
            if point == position and at_end:
                content = "\n" + content
            edits.append(Edit(point, point, content))
        if constant:
            prefix = "\n" if at_end and position not in points else ""
            edits.append(Edit(position, position, f"{prefix}\n{constant}"))
        return _merge_at_same_point(edits)

    def _error_name(self, dotted: str) -> str:
        """An exception class (`etcd.EtcdCompareFailed`) as the module can name it: through its
        module's import, or by its own name (imported by `_error_import` when it is not)."""
        module, name = dotted.rsplit(".", 1)
        for bound, imported in self.model.imports.items():
            if imported == module:
                return f"{bound}.{name}"
        return name

    def _error_import(self, dotted: str) -> list[Edit]:
        module, name = dotted.rsplit(".", 1)
        if self._error_name(dotted) != name or self.model.imports.get(name) == dotted:
            return []
        return self._from_import(module, name)

    def _from_import(self, module: str, name: str) -> list[Edit]:
        """`from module import name`, after the leading imports."""
        position = self.model.header_position
        if not self.model.leading_imports:
            return [Edit(position, position, f"from {module} import {name}\n\n")]
        return [Edit(position, position, f"from {module} import {name}\n")]

    def _import_point(self, name: str) -> tuple[Position, bool]:
        """Where isort puts `import name`: among the standard library's plain imports, in order."""
        after_stdlib = None
        for module, start, after, is_from in self.model.leading_imports:
            top = module.split(".")[0]
            if module == "__future__":
                continue
            if top not in sys.stdlib_module_names or module.startswith("."):
                return (after_stdlib, False) if after_stdlib is not None else (start, True)
            if is_from or module > name:
                return start, False
            after_stdlib = after
        return self.model.header_position, False


def whole_guard(release: Release) -> cst.CSTNode | None:
    """The `if get(k) == token:` around a release when it guards nothing else, to replace whole."""
    check = release.check
    guard = check.guard if check is not None else None
    if guard is None or guard.orelse is not None or release.usage != "statement":
        return None
    body = guard.body
    if isinstance(body, cst.IndentedBlock) and len(body.body) == 1 and body.body[0] is release.statement:
        return guard
    return None


ORDERINGS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
PARSERS = frozenset({"float", "int", "Decimal", "loads", "fromtimestamp", "literal_eval"})


def _interprets(tree: cst.CSTNode, read: cst.Call) -> str | None:
    """How the code under `tree` interprets the value `read` hands back: parses or compares it (by
    itself, or through the name it is assigned to); None when it only passes it on."""
    names = set()
    for node in nodes(tree, trivia=False):
        if type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            value = node.value.expression if type(node.value) is cst.Await else node.value
            if value is read:
                names.add(node.targets[0].target.value)

    def is_value(node: cst.CSTNode) -> bool:
        if type(node) is cst.Await:
            node = node.expression
        if node is read or (type(node) is cst.Name and node.value in names):
            return True
        if type(node) is cst.Call:
            func = node.func
            if type(func) is cst.Attribute:  # value.decode(), value.strip()
                return is_value(func.value)
            if type(func) is cst.Name and func.value in ("str", "bytes") and node.args:
                return is_value(node.args[0].value)
        return False

    for node in nodes(tree, trivia=False):
        if type(node) is cst.Call:
            func = node.func
            name = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
            if name in PARSERS and node.args and contains(node.args[0].value, is_value):
                return f"parses it with {name}()"
        elif type(node) is cst.Comparison:
            sides = [node.left, *(c.comparator for c in node.comparisons)]
            plain = all(type(c.operator) in (cst.Is, cst.IsNot) for c in node.comparisons)
            if not plain and any(is_value(side) for side in sides):
                return "compares it"
    return None


def _module_function(scope) -> bool:
    return scope.cls is None and scope.parent is not None and scope.parent.parent is None and isinstance(
        scope.node, cst.FunctionDef
    )


def _statement_of(tree: cst.CSTNode, call: cst.Call) -> cst.CSTNode | None:
    """The statement a call belongs to: its line, or the `if`/`while` whose test holds it."""
    for node in nodes(tree, trivia=False):
        if type(node) is cst.SimpleStatementLine and contains(node, call):
            return node
        if type(node) in (cst.If, cst.While) and contains(node.test, call):
            return node
    return None


def _positive_literal(node: cst.BaseExpression | None) -> bool:
    if isinstance(node, cst.Integer):
        return int(node.value.replace("_", ""), 0) > 0
    if isinstance(node, cst.Float):
        return float(node.value.replace("_", "")) > 0
    return False


def _tested(claim: Claim) -> bool:
    """The claim's answer only decides an `if` or a `while` (`if r.setnx(...)`, `while not ...`)."""
    statement = claim.statement
    if not isinstance(statement, (cst.If, cst.While)):
        return False
    test = statement.test
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    return LeaseFixer._answer(test, claim)


def _literal(node: cst.CSTNode | None) -> bool:
    """A constant written in place: nobody reads it as an identity (`f"{host}:{pid}"` is no constant)."""
    if isinstance(node, cst.Name):
        return node.value in ("None", "True", "False")
    if isinstance(node, cst.FormattedString):
        return not any(isinstance(part, cst.FormattedStringExpression) for part in node.parts)
    return isinstance(node, (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString))


def _leaves(block: cst.IndentedBlock) -> bool:
    """The block ends by leaving: return, raise, continue or break."""
    last = block.body[-1] if block.body else None
    return isinstance(last, cst.SimpleStatementLine) and isinstance(
        last.body[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break)
    )


def _merge_at_same_point(edits: list[Edit]) -> list[Edit]:
    merged: dict[Position, str] = {}
    for edit in edits:
        merged[edit.start] = merged.get(edit.start, "") + edit.content
    return [Edit(point, point, content) for point, content in merged.items()]


def wrapped_call(
    func: str, message: str, args: tuple[str, ...], indent: str, step: str, limit: int, column: int | None = None
) -> str:
    """`func("message", *args)` as Black would wrap it to `limit` characters: on one line; else the
    arguments on one line of their own; else one argument a line, a message too long for its line
    split into adjacent strings at spaces. The first line starts at `column` of a line indented
    by `indent`; a line that cannot be made short enough is left long."""
    start = len(indent) if column is None else column
    parts = (_quote(message), *args)
    flat = f"{func}({', '.join(parts)})"
    if start + len(flat) <= limit or any("\n" in part for part in args):
        return flat
    inner = indent + step
    hugged = inner + ", ".join(parts)
    if len(hugged) <= limit:
        return f"{func}(\n{hugged}\n{indent})"
    lines = [inner + piece for piece in _split_message(message, limit - len(inner) - 1)]
    lines[-1] += ","
    lines += [f"{inner}{arg}," for arg in args]
    return f"{func}(\n" + "\n".join(lines) + f"\n{indent})"


def _split_message(message: str, width: int) -> list[str]:
    """The message as string literals of at most `width` characters each where its words allow,
    each piece ending in the space that follows it."""
    pieces: list[str] = []
    current = ""
    for word in re.findall(r"\S+\s*|\s+", message):
        if current and len(_quote(current + word)) > width:
            pieces.append(current)
            current = word
        else:
            current += word
    pieces.append(current)
    return [_quote(piece) for piece in pieces]


def _identity_token(text: str) -> str:
    """The identity `text` (its code) in front of a fresh part, in a form Python 3.10 parses."""
    if not text.startswith("{") and not any(c in text for c in "\\\n#:!"):
        for quote in "\"'":
            if quote not in text:
                return f"f{quote}{{{text}}}:{{secrets.token_hex(8)}}{quote}"
    return f'"{{}}:{{}}".format({text}, secrets.token_hex(8))'


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _client_facts(events, other) -> tuple:
    """What `_fits_client` asks of events: the first reason given for no fix, the first event made
    inside another function, the first such that is no claim, and the first maker of the other API."""
    why = next((w for w in (e.no_fix or getattr(getattr(e, "spec", None), "no_fix", "") for e in events) if w), "")
    inside = next((e for e in events if e.via is not None), None)
    not_claim = next((e for e in events if e.via is not None and not isinstance(e, Claim)), None)
    maker = None
    for event in events if other is not None else ():
        if event.client_call is not None:
            name = dotted(event.client_call.func).split(".")[-1]
            if name in other[0]:
                maker = name
                break
    return why, inside, not_claim, maker


def _unfit(other, *parts: tuple) -> None:
    """Raise NoFix for the events whose facts (`_client_facts`) are `parts`, in order, if the fix does not fit."""
    for why, _, _, _ in parts:
        if why:
            raise NoFix(why)
    inside = [part[1] for part in parts if part[1] is not None]
    if inside:
        # A release made elsewhere is what to change first: say so before a claim made elsewhere.
        event = next((part[2] for part in parts if part[2] is not None), inside[0])
        if isinstance(event, Claim):
            raise NoFix(f"the claim is made inside {event.via}")
        raise NoFix(f"the release is made inside {event.via}, which must check the holder itself")
    for _, _, _, maker in parts if other is not None else ():
        if maker is not None:
            raise NoFix(other[1].format(maker=maker))


class _Taken:
    """`scope.all_names()` (and `more`) asked one name at a time: no copy of the module's names per question."""

    def __init__(self, scope, more: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.scopes = []
        while scope is not None:
            self.scopes.append(scope)
            scope = scope.parent
        self.more = more

    def __contains__(self, name: str) -> bool:
        return name in self.more or any(name in s.bindings or name in s.params for s in self.scopes)


def _unique(preferred: str, taken: set[str] | _Taken, base: str) -> str:
    if preferred not in taken:
        return preferred
    if base not in taken:
        return base
    index = 2
    while f"{base}_{index}" in taken:
        index += 1
    return f"{base}_{index}"


class _NumberReads(cst.CSTVisitor):
    """Whether `self.<attr>` is read as a number anywhere in a class: ordered, or in arithmetic (a
    deadline kept beside the stored value, `time.time() * 1000 < self.value`)."""

    def __init__(self, attr: str) -> None:
        super().__init__()
        self.attr = attr
        self.found = False

    def _is_attr(self, node: cst.CSTNode) -> bool:
        return isinstance(node, cst.Attribute) and node.attr.value == self.attr and isinstance(node.value, cst.Name)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        operands = [node.left, *(c.comparator for c in node.comparisons)]
        ordered = any(
            isinstance(c.operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual))
            for c in node.comparisons
        )
        if ordered and any(self._is_attr(o) for o in operands):
            self.found = True

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if self._is_attr(node.left) or self._is_attr(node.right):
            self.found = True

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self._is_attr(node.target):
            self.found = True


def _read_as_number(node: cst.CSTNode, attr: str) -> bool:
    reads = _NumberReads(attr)
    node.visit(reads)
    return reads.found


def _mentions_any(node: cst.CSTNode, names: set[str]) -> bool:
    return any(type(n) is cst.Name and n.value in names for n in nodes(node, trivia=False))


def _field_side(check) -> bool:
    """The client-side check compares a field of the read value (`value["owner"]`, `value.get("id")`,
    `value[0]`), not the value itself."""
    for operand in (check.comparison.left, *(c.comparator for c in check.comparison.comparisons)):
        if operand is check.token:
            continue
        for node in nodes(operand, trivia=False):
            if type(node) is cst.Subscript:
                return True
            if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "get":
                return node is not check.read.call
    return False


def _decoded_side(check) -> str | None:
    """A decoder the client-side check's comparison goes through (`pickle.loads(value) == me`): the
    token it compares is not the stored bytes."""
    for node in nodes(check.comparison, trivia=False):
        found = decoded(node) if type(node) is cst.Call else None
        if found is not None:
            return found
    return None


def _set_to_none(token: cst.BaseExpression | None, scope) -> bool:
    """`self.<name>` that a method of the release's class assigns None (`self.token = None`)."""
    if type(token) is not cst.Attribute or type(token.value) is not cst.Name or token.value.value != scope.self_name:
        return False
    cls = scope.cls
    while cls is None and scope.parent is not None:
        scope = scope.parent
        cls = scope.cls
    if cls is None:
        return False
    for node in nodes(cls.node):
        if type(node) is cst.Assign and type(node.value) is cst.Name and node.value.value == "None":
            for target in node.targets:
                found = target.target
                if (
                    type(found) is cst.Attribute
                    and found.attr.value == token.attr.value
                    and type(found.value) is cst.Name
                    and found.value.value == token.value.value  # the object's own (`self.token = None`)
                ):
                    return True
    return False


def _read_operand(test: cst.BaseExpression, read: cst.Call) -> cst.BaseExpression:
    """The part of an `if` test that is the read's: the last operand of `a and not r.get(k)` (or of
    `a or r.get(k)`), so a fix keeps the other conditions, which run before it as they did; the
    whole test otherwise. A read among others that is not the last, or is tested by a name it was
    bound to, has no fix: a claim made before the other conditions would be held where they fail."""
    if not isinstance(test, cst.BooleanOperation):
        return test
    last = test
    while isinstance(last, cst.BooleanOperation):
        last = last.right
    if not contains(last, read):
        raise NoFix("the read is one condition among others and not the last, and a claim made first would stay held where the others fail")
    return last
