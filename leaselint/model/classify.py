"""The store table applied to the walk: calls become claims, releases, reads, writes and expiries."""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache

import libcst as cst

from leaselint.diagnostics import Position
from leaselint.model import documents, stores
from leaselint.model.events import Check, Claim, Event, Expire, Lease, LockObject, Read, ReadCheck, Release, Write
from leaselint.model.keys import Resolver, extends, free_names, literal_string
from leaselint.model.scope import Scope, contains, contains_call_or_name, count_names, only_attributes_taken
from leaselint.model.stores import Arg, ClaimSpec, LockSpec, ReleaseSpec, Store, WriteSpec
from leaselint.model.traverse import nodes
from leaselint.model.values import UNKNOWN
from leaselint.model.walk import CallSite, Walker, does_nothing, dotted, script_object_call

def get_arg(call: cst.Call, where: Arg) -> cst.BaseExpression | None:
    if where.keyword is not None:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == where.keyword:
                return arg.value
    if where.index is not None:
        position = 0
        for arg in call.args:
            if arg.keyword is not None:
                continue
            if arg.star:
                return None
            if position == where.index:
                return arg.value
            position += 1
    return None


def positional_args(call: cst.Call) -> list[cst.BaseExpression]:
    values = []
    for arg in call.args:
        if arg.keyword is not None or arg.star:
            break
        values.append(arg.value)
    return values


def _is_true(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def _flag_set(node: cst.BaseExpression | None, name: str | None) -> bool:
    if name is None:
        return _is_true(node)
    if isinstance(node, cst.Attribute):
        return node.attr.value == name
    return isinstance(node, cst.Name) and node.value == name


def _is_none(node: cst.BaseExpression | None) -> bool:
    return node is None or (isinstance(node, cst.Name) and node.value == "None")


_EVENT_FIELDS = tuple(f.name for f in dataclasses.fields(Event))
# A script that deletes a hash field: `hdel` of KEYS[1] and the field ARGV[1].
FIELD_SCRIPT = re.compile(r"""['"]hdel['"]\s*,\s*KEYS\[1\]\s*,\s*ARGV\[1\]""", re.IGNORECASE)


def _compares_by(call: cst.Call, keyword: str) -> bool:
    """`delete(key, cas=cas_id)` (or `delete(key, cas_id)`) compares; `cas=0`, the default, does not."""
    given = get_arg(call, Arg(1, keyword))
    return given is not None and not (isinstance(given, cst.Integer) and given.value == "0")


def _returned(body: cst.CSTNode) -> list[cst.BaseExpression]:
    """The values a function's own `return` statements give (not those of functions inside it)."""
    found = []
    stack = [body]
    while stack:
        node = stack.pop()
        if type(node) is cst.Return:
            if node.value is not None:
                found.append(node.value)
            continue
        if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        stack.extend(node.children)
    return found


def _list_built(values: list) -> list[cst.BaseExpression] | None:
    """The items of a list made with `x = [...]` and grown with `x += [...]` alone, or None."""
    if len(values) < 2 or not isinstance(values[0], (cst.List, cst.Tuple)):
        return None
    items: list[cst.BaseExpression] = []
    for value in values:
        if isinstance(value, cst.AugAssign):
            if not isinstance(value.operator, cst.AddAssign) or not isinstance(value.value, (cst.List, cst.Tuple)):
                return None
            value = value.value
        elif not isinstance(value, (cst.List, cst.Tuple)):
            return None
        if any(isinstance(e, cst.StarredElement) for e in value.elements):
            return None
        items.extend(e.value for e in value.elements)
    return items


def _absence_test(test: cst.BaseExpression, call: cst.Call, name: str | None) -> bool:
    """A test that holds when the read answered nothing: `not x`, `x is None`, `x in (mine, None)`."""

    def is_read(node: cst.CSTNode) -> bool:
        return node is call or (name is not None and isinstance(node, cst.Name) and node.value == name)

    for node in nodes(test, trivia=False):
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not) and is_read(node.expression):
            return True
        if isinstance(node, cst.Comparison) and (
            is_read(node.left) or any(is_read(c.comparator) for c in node.comparisons)
        ):
            if any(isinstance(n, cst.Name) and n.value == "None" for n in nodes(node, trivia=False)):
                return True
    return False


def _block_of(tree: cst.CSTNode, statement: cst.CSTNode) -> cst.IndentedBlock | None:
    """The indented block under `tree` that holds `statement` itself."""
    for node in nodes(tree, trivia=False):
        if type(node) is cst.IndentedBlock and statement in node.body:
            return node
    return None


def _in_block_after(guard: cst.CSTNode, statement: cst.CSTNode, scope_node: cst.CSTNode) -> bool:
    """`statement` comes after `guard` in the same block (not under a condition of its own)."""
    return contains(
        scope_node,
        lambda node: type(node) in (cst.IndentedBlock, cst.Module)
        and guard in node.body
        and statement in node.body
        and node.body.index(guard) < node.body.index(statement),
    )


def _polarity(test: cst.BaseExpression, call: cst.Call, name: str | None) -> tuple[bool, bool] | None:
    """(true when the key is absent, exact) for a test that is only the read: `r.exists(k)`,
    `not r.get(k)`, `r.get(k) is None`, `value is not None`; None for any other test. Exact: a
    compare with None (the truth of a stored value also says absent for a stored "" or 0)."""
    negated = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negated, test = not negated, test.expression
    if isinstance(test, cst.Await):
        test = test.expression
    if test is call or (name is not None and isinstance(test, cst.Name) and test.value == name):
        return negated, False
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        left, target = test.left, test.comparisons[0]
        if isinstance(left, cst.Await):  # `await r.get(k) is None`
            left = left.expression
        read = left is call or (name is not None and isinstance(left, cst.Name) and left.value == name)
        if read and isinstance(target.comparator, cst.Name) and target.comparator.value == "None":
            if isinstance(target.operator, (cst.Is, cst.Equal)):
                return not negated, True
            if isinstance(target.operator, (cst.IsNot, cst.NotEqual)):
                return negated, True
    return None


def _deliberate(site: CallSite) -> bool:
    """A force path: a function named for it, or an `if force:` around the call."""
    name = site.scope.name.lower().lstrip("_")
    if name in stores.FORCE_NAMES or name.startswith("admin") or any(w in name for w in stores.FORCE_WORDS):
        return True
    return any(
        any(word in found.lower() for word in stores.FORCE_WORDS) for guard in site.guards for found in _names(guard.test)
    )


def _names(node: cst.BaseExpression):
    """The names an `if` test reads (`force`, `self.force`, `not options.force_release`)."""
    kind = type(node)
    if kind is cst.Name:
        yield node.value
    elif kind is cst.Attribute:
        yield node.attr.value
        yield from _names(node.value)
    elif kind is cst.UnaryOperation:
        yield from _names(node.expression)
    elif kind is cst.BooleanOperation:
        yield from _names(node.left)
        yield from _names(node.right)
    elif kind is cst.Comparison:
        yield from _names(node.left)
        for target in node.comparisons:
            yield from _names(target.comparator)
    elif kind is cst.Call:
        yield from _names(node.func)
        for arg in node.args:
            yield from _names(arg.value)


def _first_item(node: cst.BaseExpression | None) -> cst.BaseExpression | None:
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        return node.elements[0].value
    return None


def _command_words(call: cst.Call) -> list[str]:
    return [(literal_string(a) or "").upper() for a in positional_args(call)]


def _from_store(imported: str, store: Store) -> bool:
    """`imported` is one of the store's modules, or inside one."""
    prefixes = _PREFIXES.get(id(store))
    if prefixes is None:
        prefixes = _PREFIXES[id(store)] = tuple(m + "." for m in store.modules)
    return imported in store.modules or imported.startswith(prefixes)


# id(store) -> the store's module names, each with a dot after it (the stores are module constants).
_PREFIXES: dict[int, tuple[str, ...]] = {}


def _last_name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return ""


_DELETES = re.compile(r"""call\(\s*['"](?:del|unlink|hdel)['"]""", re.IGNORECASE)
# A conditional create in Lua: `redis.call('set', KEYS[1], ARGV[n], 'NX', ...)` or `setnx`.
_LUA_SET = re.compile(
    r"""call\(\s*['"](set|setnx)['"]\s*,\s*KEYS\[1\]\s*,\s*ARGV\[(\d+)\]([^)]*)\)""", re.IGNORECASE
)
_LUA_LIFETIME = re.compile(r"""['"](?:ex|px|exat|pxat)['"]""", re.IGNORECASE)
_LUA_EXPIRE = re.compile(r"""call\(\s*['"]p?expire(?:at)?['"]\s*,\s*KEYS\[1\]""", re.IGNORECASE)


_LUA_SET_LITERAL = re.compile(
    r"""call\(\s*['"](set|setnx)['"]\s*,\s*KEYS\[1\]\s*,\s*(?:'[^']*'|"[^"]*"|\d+)\s*([^)]*)\)""", re.IGNORECASE
)


def lua_claim(script: str) -> tuple[int, bool] | None:
    """(n, has a lifetime) when the script claims KEYS[1] storing ARGV[n] with a conditional create;
    n is 0 when the stored value is a literal of the script (`set KEYS[1] 'LOCK' NX`)."""
    for pattern, literal in ((_LUA_SET, False), (_LUA_SET_LITERAL, True)):
        for match in pattern.finditer(script):
            command, rest = match.group(1).lower(), match.group(match.lastindex)
            if command == "setnx" or re.search(r"""['"]nx['"]""", rest, re.IGNORECASE):
                lifetime = bool(_LUA_LIFETIME.search(rest)) or bool(_LUA_EXPIRE.search(script))
                return (0 if literal else int(match.group(2))), lifetime
    return None
_COMPARES_ARGUMENT = re.compile(r"==\s*ARGV\[|ARGV\[\d+\]\s*==|~=\s*ARGV\[|ARGV\[\d+\]\s*~=")


_ARGUMENT_LOCAL = re.compile(r"\blocal\s+(\w+)\s*=\s*ARGV\[\d+\]")


def _compares_argument(script: str) -> bool:
    """The script compares the key's value with an argument, directly or through a Lua local
    (`local token = ARGV[1]` ... `== token`)."""
    if _COMPARES_ARGUMENT.search(script):
        return True
    return any(
        re.search(rf"(?:==|~=)\s*{name}\b|\b{name}\s*(?:==|~=)", script) for name in _ARGUMENT_LOCAL.findall(script)
    )


def _code(node: cst.BaseExpression) -> str:
    return cst.Module(body=[]).code_for_node(node).strip()


def _without_submodule(name: str) -> str:
    """`redis.lock.Lock` is also imported as `redis.Lock`."""
    parts = name.split(".")
    return ".".join([parts[0], parts[-1]]) if len(parts) > 2 else name


@lru_cache(maxsize=None)
def _lock_methods() -> dict:
    """Method name -> the first lock spec called as that method (table order)."""
    found: dict = {}
    for spec in stores.LOCKS:
        if spec.method:
            found.setdefault(spec.call, spec)
    return found


@lru_cache(maxsize=None)
def _lock_constructors() -> dict:
    """Qualified constructor name -> the first lock spec it makes (table order)."""
    found: dict = {}
    for spec in stores.LOCKS:
        if not spec.method:
            found.setdefault(spec.call, spec)
            found.setdefault(_without_submodule(spec.call), spec)
    return found


def _other_side(comparison: cst.Comparison, call: cst.Call, name: str | None) -> cst.BaseExpression | None:
    """The operand of a two-sided comparison that does not hold the read."""
    if len(comparison.comparisons) != 1:
        return None
    left, right = comparison.left, comparison.comparisons[0].comparator
    if _holds(left, call, name):
        return None if _holds(right, call, name) else right
    return left if _holds(right, call, name) else None


def _is_result(node: cst.BaseExpression, claim: Claim, walker) -> bool:
    """`ok` where `ok = r.set(...)` is the claim."""
    return isinstance(node, cst.Name) and walker.assigned.get(id(claim.call)) == node.value


def _exits(block: cst.BaseSuite) -> bool:
    """The block ends in `return`, `raise`, `continue` or `break`."""
    last = block.body[-1] if isinstance(block, cst.IndentedBlock) and block.body else block
    if not isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) or not last.body:
        return False
    return isinstance(last.body[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _holds(operand: cst.CSTNode, call: cst.Call, name: str | None) -> bool:
    return contains_call_or_name(operand, call, name)


class Classifier:
    """Turns the walk's calls into claims, releases, reads, writes, expiries and lock objects."""

    def __init__(self, walker: Walker, positions, resolver: Resolver, project=None, origins=None) -> None:
        self.walker = walker
        # Where stored values come from (model/values.py): a read-then-write claim stores a token.
        self.origins = origins
        self.project = project
        # Claims that pair into leases but are no claim call of their own, so rules that read a claim's
        # own call leave them alone: made through a summarised function of another module
        # (`acquire_lock(key)`), or by a WATCH/MULTI transaction's plain write (_optimistic_claims).
        self.paired_claims: list[Claim] = []
        self.positions = positions
        self.resolver = resolver
        self.claims: list[Claim] = []
        self.releases: list[Release] = []
        self.writes: list[Write] = []
        self.reads: list[Read] = []
        self.expiries: list[Expire] = []
        self.locks: list[LockObject] = []
        self.transaction_calls: list[tuple[str, CallSite]] = []
        self.value_reads: list[tuple[cst.Call, Scope]] = []
        # Callbacks handed to `client.transaction(callback, ...)`, by name: (client, its scope).
        self.transaction_callbacks: dict[str, tuple[cst.BaseExpression, Scope]] = {}
        # (receiver shape, key shape) of every counted key.
        self.counted: set = set()
        self.sites: dict[int, CallSite] = {}
        # (receiver id, scope id) -> what may have made it: see _made_by.
        self.makers: dict[tuple[int, int], list] = {}
        self.made_by_stores: dict[tuple[int, int], list] = {}
        # (receiver, scope) -> id(store) -> how surely the receiver is that store's client.
        self.strengths: dict[tuple[int, int], dict[int, int]] = {}
        # The module's own functions by name (client factories), made when first asked.
        self.functions: dict | None = None
        # (store id, receiver id, scope id) -> recognition(store, receiver, scope).
        self.recognitions: dict[tuple[int, int, int], tuple] = {}
        # store id -> whether the module imports one of the store's modules.
        self.imports_store: dict[int, bool] = {}
        # call id -> its command words (`execute_command("SET", ...)`), asked by every command spec.
        self.words: dict[int, list[str]] = {}
        # Claims made in a lock class on a client the module never shows (_in_lock_class).
        self.lock_class_claims: list[Claim] = []
        # `self.release()` thrown away where the method returns its checked release's answer.
        self.answered_calls: list[Release] = []
        # `self.acquire()` thrown away where the method can answer that the claim failed:
        # (the call, its scope, the method's name, the line of the failing return).
        self.ignored_claims: list[tuple] = []
        self.unawaited_lock_releases: list[tuple] = []
        # Receiver id, or (scope id, receiver name) -> the methods called on it (see _only_asked).
        self.methods_on: dict | None = None
        # scope id -> the names of the functions and methods it (or a function inside it) calls.
        self.called: dict[int, set[str]] = {}

    def _calls(self, scope: Scope, name: str) -> None:
        while scope is not None:
            self.called.setdefault(id(scope), set()).add(name)
            scope = scope.parent

    def run(self) -> None:
        watch, multi = stores.transaction_methods()
        for site in self.walker.calls:
            call = site.call
            if call.func.attr.value in stores.callback_transactions() and call.args:  # type: ignore[union-attr]
                callback = call.args[0].value
                if isinstance(callback, cst.Name) and callback.value not in self.transaction_callbacks:
                    self.transaction_callbacks[callback.value] = (call.func.value, site.scope)  # type: ignore[union-attr]
        for name, calls in self.walker.name_calls.items():
            for _, scope in calls:
                self._calls(scope, name)
        for site in self.walker.calls:
            method = site.call.func.attr.value  # type: ignore[union-attr]
            self._calls(site.scope, method)
            self.sites[id(site.call)] = site
            if method in watch or method in multi:
                self.transaction_calls.append(("multi" if method in multi else "watch", site))
            if method in stores.counter_methods() and site.call.args:
                receiver, scope, _ = self._receiver(site)
                key = site.call.args[0].value
                self.counted.add((self.resolver.shape(receiver, scope), self.resolver.shape(key, site.scope)))
            self._classify(site, method)
        for site in [*self.walker.name_sites, *self.walker.calls]:
            self.releases.extend(self._script_object_releases(site))
        if self.project is not None:
            from leaselint.model.calls import SummarisedCalls

            claims, releases = SummarisedCalls(self, self.project).events()
            self.paired_claims.extend(claims)
            self.releases.extend(releases)
        for call, scope in (c for calls in self.walker.name_calls.values() for c in calls):
            self._constructed_lock(call, scope)
        self.locks = [lock for lock in self.locks if not self._only_asked(lock)]
        self._broad_swallows()
        if self.writes and self.transaction_calls:
            self._optimistic_claims()
        if self.writes:
            self._read_claims()
        if self.lock_class_claims:
            self._lock_class_releases()
        self.answered_calls = self._answered_by_methods()
        self.unawaited_lock_releases = self._unawaited_lock_releases()
        self.ignored_claims = self._ignored_claim_calls()
        for release in self.releases:
            release.after_failed_claim = self._after_failed_claim(release)
            release.transactional = self._after(release, "multi")
            if release.in_pipeline and not release.transactional and self._after(release, "watch"):
                # After watch() a pipeline runs each command at once.
                release.in_pipeline = False
            if release.in_pipeline and not release.transactional and self._in_callback(release):
                release.in_pipeline = False  # a transaction callback before multi(): WATCH alone protects nothing
                release.watched_callback = True
            if not release.checked and not release.transactional:
                release.check = self._check_before(release)
                if release.check is not None and self._compared_in_transaction(release):
                    # `with cache.transact():` around the read, the compare and the delete: one step.
                    release.check, release.transactional = None, True
            elif release.checked and release.usage == "expression" and release.spec.lost_when:
                release.dropped = self._dropped(release)
                name = self.walker.assigned.get(id(release.call))
                if release.dropped is None and name is not None and count_names(release.scope.node, name) == 1:
                    release.unread = name

    def _by_strength(self, site: CallSite, specs: list) -> list:
        """The stores with this method, the most surely recognised client first (table order on ties)."""
        if len(specs) < 2:
            return specs
        receiver = site.call.func.value  # type: ignore[union-attr]
        key = (id(receiver), id(site.scope))
        strengths = self.strengths.get(key)
        if strengths is None:
            strengths = self.strengths[key] = {}
        order = []
        for store, _ in specs:
            strength = strengths.get(id(store))
            if strength is None:
                strength = strengths[id(store)] = self.recognition(store, receiver, site.scope)[0]
            order.append(-strength)
        if min(order) == max(order):
            return specs
        return [pair for _, _, pair in sorted(zip(order, range(len(specs)), specs))]

    def _classify(self, site: CallSite, method: str) -> None:
        for store, spec in self._by_strength(site, stores.claim_specs(method)):
            if spec.form == "mapping":
                # `msetnx({key: value, ...})`: one claim per key, all or none written.
                found = self._mapping_claims(site, store, spec)
                self.claims.extend(found)
                if found:
                    break
                continue
            claim = self._claim(site, store, spec)
            if claim is not None:
                self.claims.append(claim)
                if store.recognised_only and not self._recognised(store, site):
                    self.lock_class_claims.append(claim)
                break
        for store, spec in self._by_strength(site, stores.release_specs(method)):
            found = self._releases(site, store, spec)
            if found:
                self.releases.extend(found)
                break
        for store, spec in self._by_strength(site, stores.write_specs(method)):
            write = self._write(site, store, spec)
            if write is not None:
                self.writes.append(write)
                break
        for store, spec in self._by_strength(site, stores.read_specs(method)):
            key = get_arg(site.call, spec.key)
            member = get_arg(site.call, spec.field) if spec.field is not None else None
            positional = sum(a.keyword is None for a in site.call.args)
            if key is not None and positional == 1 + (spec.field is not None) and (member is not None) == (spec.field is not None):
                common, in_pipeline = self._common(site, store, key, member=member)
                self.reads.append(Read(**common))
                break
        if method in stores.value_read_methods() and site.call.args:
            # Every call that hands a stored value back: a fix that changes the value reads them.
            self.value_reads.append((site.call, site.scope))
        for store, spec in self._by_strength(site, stores.expire_specs(method)):
            key, ttl = get_arg(site.call, spec.key), get_arg(site.call, spec.ttl)
            member = None
            if spec.field is not None:
                # One field, named last (`hexpire(name, 30, field)`).
                fields = positional_args(site.call)[spec.field.index :]  # type: ignore[misc]
                member = fields[0] if len(fields) == 1 and len(site.call.args) == spec.field.index + 1 else None
                key = key if member is not None else None
            if key is not None and ttl is not None:
                common, in_pipeline = self._common(site, store, key, member=member)
                self.expiries.append(Expire(**common, ttl=ttl, unit=spec.unit, usage=site.usage, in_pipeline=in_pipeline))
                break
        spec = _lock_methods().get(method)
        if spec is not None and site.call.args:
            self._lock(site.call, site.scope, spec)
            return
        self._constructed_lock(site.call, site.scope)

    def _command_words(self, call: cst.Call) -> list[str]:
        found = self.words.get(id(call))
        if found is None:
            found = self.words[id(call)] = _command_words(call)
        return found

    def _answered_by_methods(self) -> list[Release]:
        """`self.release()` as a statement, where the class's `release` returns the answer of its
        token-checked release (`return self.client.eval(UNLOCK, 1, self.key, self.token)`): the call
        throws the lost-lease signal away (a `__exit__`). One release event per such call, made by the
        method, for LL006 alone (no lease gets it: the lease's fixes are the method's)."""
        from leaselint.model.summary import _returned

        answering: dict[tuple[int, str], tuple[Release, str]] = {}
        for release in self.releases:
            scope = release.scope
            if not release.checked or release.via is not None or release.in_pipeline or not release.spec.lost_when:
                continue
            if scope.cls is None or scope.self_name is None or release.usage == "statement":
                continue
            returns, lost_when = _returned(release, self.walker)
            if returns and lost_when:
                answering.setdefault((id(scope.cls), scope.name), (release, lost_when))
        if not answering:
            return []
        found = []
        for site in self.walker.calls:
            func = site.call.func
            cls = site.scope.cls
            if cls is None or site.usage not in ("statement", "operand") or not self.resolver.is_self(func.value, site.scope):  # type: ignore[union-attr]
                continue
            known = answering.get((id(cls), func.attr.value))  # type: ignore[union-attr]
            if known is None or known[0].scope is site.scope:
                continue
            release, lost_when = known
            spec = release.spec if lost_when == release.spec.lost_when else dataclasses.replace(release.spec, lost_when=lost_when)
            via = f"`{release.scope.name}` (line {release.start.line})"
            common = self.made_at(site, release.store, release.receiver, release.receiver_shape, release.key, release.key_shape, via)
            found.append(Release(**common, spec=spec, checked=True, usage=site.usage))
        return found

    def made_at(self, site: CallSite, store, receiver, receiver_shape, key, key_shape, via: str | None) -> dict:
        """The event fields of a call: a store's, or one of the project's own functions (`via`)."""
        position = self.positions[site.call]
        return dict(
            store=store,
            call=site.call,
            receiver=receiver,
            receiver_shape=receiver_shape,
            key=key,
            key_shape=key_shape,
            scope=site.scope,
            statement=site.statement,
            insertable=site.insertable,
            awaited=id(site.call) in self.walker.awaited,
            start=Position(position.start.line, position.start.column),
            end=Position(position.end.line, position.end.column),
            via=via,
        )

    def _ignored_claim_calls(self) -> list[tuple]:
        """`self.acquire()` as a statement (a `__enter__` that enters whatever the answer), where the
        class's `acquire` claims and can answer that it failed: a `return False` (or the claim's answer
        returned) that no test of its own parameters guards (`if not blocking: return False`)."""
        from leaselint.model.summary import _returns

        failing: dict[tuple[int, str], int] = {}
        for claim in self.claims:
            scope = claim.scope
            if scope.cls is None:
                scope = self.resolver._enclosing_method(scope) or scope  # a retried inner `_acquire()`
            if scope.cls is None or scope.self_name is None or scope.is_test or (id(scope.cls), scope.name) in failing:
                continue
            if free_names(claim.key_shape) & set(scope.params):
                continue  # a store API of its own (`def add(self, key, value)`): its caller's key, no lease
            line = self._failing_return(scope, claim, _returns(scope.node))
            if line is not None:
                failing[(id(scope.cls), scope.name)] = line
        found = []
        for site in self.walker.calls if failing else ():
            func = site.call.func
            cls = site.scope.cls
            if cls is None or site.usage != "statement" or site.scope.is_test:
                continue
            if not self.resolver.is_self(func.value, site.scope):  # type: ignore[union-attr]
                continue
            line = failing.get((id(cls), func.attr.value))  # type: ignore[union-attr]
            if line is None or site.scope.name == func.attr.value:  # type: ignore[union-attr]
                continue
            if self._state_tested(site.scope, cls.methods.get(func.attr.value)):  # type: ignore[union-attr]
                continue  # `if self.token is None: raise`: the caller asks the object instead
            found.append((site.call, site.scope, func.attr.value, line))  # type: ignore[union-attr]
        return found

    def _state_tested(self, caller: Scope, method: Scope | None) -> bool:
        """The caller tests an attribute the claiming method sets (the held token)."""
        if method is None:
            return False
        set_there = {
            attr for attr, values in method.cls.attrs.items() for _, where in values if where is method  # type: ignore[union-attr]
        }
        for node in nodes(caller.node, trivia=False):
            if type(node) in (cst.If, cst.Assert, cst.While):
                for n in nodes(node.test, trivia=False):
                    if type(n) is cst.Attribute and n.attr.value in set_there and self.resolver.is_self(n.value, caller):
                        return True
        return False

    def _failing_return(self, scope: Scope, claim: Claim, returns: list) -> int | None:
        # What a caller or the object's constructor chose: the method's parameters, the object's
        # settings from `__init__` parameters (`self.timeout`), and locals made of either.
        settings = set(scope.params[1:])
        made_from = {
            attr
            for attr, values in scope.cls.attrs.items()  # type: ignore[union-attr]
            for value, where in values
            if where.name == "__init__" and value is not None and any(
                type(n) is cst.Name and n.value in where.params[1:] for n in nodes(value, trivia=False)
            )
        }

        def chosen(test: cst.CSTNode) -> bool:
            for n in nodes(test, trivia=False):
                if type(n) is cst.Name and n.value in settings:
                    return True
                if type(n) is cst.Attribute and n.attr.value in made_from and self.resolver.is_self(n.value, scope):
                    return True
            return False

        for name, values in scope.bindings.items():
            if len(values) == 1 and values[0] is not None and chosen(values[0]):
                settings.add(name)
        guards = [n for n in nodes(scope.node, trivia=False) if type(n) is cst.If]
        for node in returns:
            value = node.value
            fails = (isinstance(value, cst.Name) and value.value == "False") or (
                value is not None and (contains_call_or_name(value, claim.call, claim.result_name))
            )
            if not fails:
                continue
            guarded = any(contains_call_or_name(guard.body, node, None) and chosen(guard.test) for guard in guards)
            if not guarded:
                return self.positions[node].start.line
        return None

    def _lock_class_releases(self) -> None:
        """A delete of a lock-class claim's key on its client is that store's release (the table's
        first family with `delete` took it, knowing the client no better)."""
        by_shape = {(c.receiver_shape, c.key_shape): c.store for c in self.lock_class_claims}
        for release in self.releases:
            store = by_shape.get((release.receiver_shape, release.key_shape))
            if store is None or release.store is store or release.via is not None:
                continue
            if self.recognition(release.store, release.receiver, release.scope)[0] == 2:
                continue  # made by that family's modules: its own release after all
            spec = next((r for r in store.releases if r.method == release.method and r.form == "call"), None)
            if spec is not None:
                release.store, release.spec = store, spec

    def _in_lock_class(self, store: Store, site: CallSite, spec: ClaimSpec) -> bool:
        """`client.add(self.key, 1, self.timeout)` in a method of a lock class: a cache client the module
        never shows (handed in, or made by `self.client_fn()`), claiming with its key and value."""
        scope = site.scope
        while scope.cls is None and scope.parent is not None:
            scope = scope.parent  # a function inside a method (a retried `_acquire()`)
        cls = scope.cls
        if not store.lock_class_claims or cls is None or not stores.lock_shaped(cls.name, cls.methods):
            return False
        call = site.call
        if len(positional_args(call)) < 2 or get_arg(call, spec.key) is None or get_arg(call, spec.value) is None:
            return False
        # Another family's client it is not (a redis-py pipeline, a pymemcache client by import).
        receiver = call.func.value  # type: ignore[union-attr]
        return not any(self._made_by(other, receiver, site.scope)[0] == 2 for other in stores.STORES if other is not store)

    def _recognised(self, store: Store, site: CallSite) -> bool:
        return self.recognition(store, site.call.func.value, site.scope)[0] > 0  # type: ignore[union-attr]

    def _another_family(self, store: Store, site: CallSite) -> bool:
        """The receiver is made by another store's modules while this store knows it by name alone
        (`cache` from `cachelib` is no redis-py client): its calls are that family's, and a fix
        written for this one would call methods it does not have."""
        receiver = site.call.func.value  # type: ignore[union-attr]
        if self.recognition(store, receiver, site.scope)[0] == 2:
            return False
        return any(other is not store for other in self._made_by_stores(receiver, site.scope))

    def recognition(self, store: Store, receiver: cst.BaseExpression, scope: Scope):
        """How sure it is that `receiver` is a client of `store`, and the call that made it.

        2: imported from the store's modules or made by one of their calls (through assignments);
        1: the receiver's own name is a usual name for such a client (`cache`, `self.redis`), or, for
        module-wide stores, the module imports the store; 0: no sign. Names are not followed
        through assignments: the prefilter, which reads only bytes, must see what the model sees.
        """
        key = (id(store), id(receiver), id(scope))
        found = self.recognitions.get(key)
        if found is None:
            strength, call = self._made_by(store, receiver, scope)
            found = (2, call) if strength == 2 else (self._by_name(store, _last_name(receiver)), None)
            self.recognitions[key] = found
        return found

    def _made_by(self, store: Store, receiver: cst.BaseExpression, scope: Scope):
        """2 and the call that made the receiver when it comes from the store's modules, else 0."""
        key = (id(receiver), id(scope))
        found = self.makers.get(key)
        if found is None:
            found = self.makers[key] = self._makers(receiver, scope, 0)
        for imported, made in found:
            if _from_store(imported, store):
                return 2, made
        return 0, None

    def _made_by_stores(self, receiver: cst.BaseExpression, scope: Scope) -> list:
        """The table's stores whose modules made the receiver (in table order)."""
        key = (id(receiver), id(scope))
        found = self.made_by_stores.get(key)
        if found is None:
            makers = self.makers.get(key)
            if makers is None:
                makers = self.makers[key] = self._makers(receiver, scope, 0)
            found = [store for store in stores.STORES if any(_from_store(imported, store) for imported, _ in makers)]
            self.made_by_stores[key] = found
        return found

    def _makers(self, receiver: cst.BaseExpression, scope: Scope, depth: int, trail: tuple = ()) -> list:
        """(imported name, call) pairs that may have made the receiver, in the order to try them.
        `trail`: the attributes taken of the receiver on the way (`.mc` of `self.backend.mc`), for an
        object of one of the module's own classes (`self.backend = Backend(...)`)."""
        if depth > 4:
            return []
        node = receiver
        made = None
        while isinstance(node, (cst.Subscript, cst.Call, cst.Attribute, cst.Await)):
            if isinstance(node, cst.Await):
                node = node.expression
            elif isinstance(node, cst.Call):
                made = made or node
                node = node.func
            elif isinstance(node, cst.Attribute) and not self.resolver.is_self(node.value, scope):
                if made is None:
                    trail = (node.attr.value, *trail)
                node = node.value
            elif isinstance(node, cst.Attribute):
                found = []
                for value, where in self.resolver.self_attr_values(node.attr.value, scope):
                    if value is not None and not isinstance(value, cst.AugAssign):
                        found.extend(self._makers(value, where, depth + 1, trail if made is None else ()))
                if not found and made is not None and made.func is node:
                    # `self.client()`: a method of the class that makes the client.
                    method = self._method_of(node.attr.value, scope)
                    return self._made_by_function(method, depth) if method is not None else []
                return found
            else:
                node = node.value
        if not isinstance(node, cst.Name):
            return []
        imported = self.walker.imports.get(node.value)
        if imported is not None:
            return [(imported, made)]
        value = self.resolver.single_value(node.value, scope)
        if value is not None:
            return self._makers(value[0], value[1], depth + 1, trail if made is None else ())
        if made is None:
            return self._annotated(node.value, scope, trail, depth)
        if made.func is node:
            if trail:
                # `Backend(...).mc`: what the module's own class sets that attribute to.
                return self._class_attr_makers(node.value, trail, depth)
            # `get_redis()`: a function of the module that makes (or hands back) the client.
            function = self._module_functions().get(node.value)
            return self._made_by_function(function, depth) if function is not None else []
        return []

    def _class_attr_makers(self, name: str, trail: tuple, depth: int) -> list:
        """What made `<object of class name>.<trail>`, for a class of this module (one of that name)."""
        classes = [info for info in self.walker.classes if info.name == name]
        if len(classes) != 1 or not trail:
            return []
        found = []
        for value, where in classes[0].attrs.get(trail[0], ()):
            if value is not None and not isinstance(value, cst.AugAssign):
                found.extend(self._makers(value, where, depth + 1, trail[1:]))
        return found

    def _module_functions(self) -> dict:
        if self.functions is None:
            module = self.walker.module_scope
            self.functions = {}
            for scope in self.walker.scopes:
                if scope.parent is module and scope.cls is None and isinstance(scope.node, cst.FunctionDef):
                    self.functions.setdefault(scope.name, scope)
            bound = {name for name, values in module.bindings.items() if len(values) > 1} if module else set()
            self.functions = {name: scope for name, scope in self.functions.items() if name not in bound}
        return self.functions

    def _method_of(self, name: str, scope: Scope) -> Scope | None:
        method = scope if scope.cls is not None else self.resolver._enclosing_method(scope)
        cls = method.cls if method is not None else None
        return cls.methods.get(name) if cls is not None else None

    def _made_by_function(self, function: Scope, depth: int) -> list:
        """What the client a factory answers is made by: its return annotation, else what it returns."""
        node = function.node
        if node.returns is not None:  # type: ignore[attr-defined]
            found = self._class_of_hint(node.returns.annotation)  # type: ignore[attr-defined]
            if found:
                return found
        found = []
        for value in _returned(node.body):  # type: ignore[attr-defined]
            found.extend(self._makers(value, function, depth + 1))
        return found

    def _class_of_hint(self, hint: cst.BaseExpression) -> list:
        """(dotted name, None) of the imported class an annotation names (`Client`, `Optional[X]`, `X | None`)."""
        if isinstance(hint, cst.BinaryOperation) and isinstance(hint.operator, cst.BitOr):
            hint = hint.left  # `Client | None`
        if isinstance(hint, cst.Subscript) and dotted(hint.value).split(".")[-1] == "Optional":
            inner = hint.slice[0].slice if hint.slice else None
            hint = inner.value if isinstance(inner, cst.Index) else None  # type: ignore[assignment]
        if not isinstance(hint, (cst.Name, cst.Attribute)):
            return []
        head, dot, rest = dotted(hint).partition(".")
        imported = self.walker.imports.get(head)
        return [(imported + dot + rest, None)] if imported is not None else []

    def _annotated(self, name: str, scope: Scope, trail: tuple = (), depth: int = 0) -> list:
        """A parameter annotated with a class its module imports (`client: GlideClient`,
        `cache: Optional[diskcache.Cache]`): (that class's dotted name, None); or with one of the
        module's own classes, whose attribute the receiver is (`backend: Backend`, `backend.mc`)."""
        where = self.resolver.defining_scope(name, scope)
        if where is None or name not in where.params or not isinstance(where.node, cst.FunctionDef):
            return []
        params = where.node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.name.value != name or param.annotation is None:
                continue
            hint = param.annotation.annotation
            if trail and isinstance(hint, cst.Name) and hint.value not in self.walker.imports:
                return self._class_attr_makers(hint.value, trail, depth)
            return self._class_of_hint(hint)
        return []

    def _by_name(self, store: Store, name: str) -> int:
        if name in store.client_names:
            return 1
        if store.module_wide and self._imports(store):
            return 1
        return 0

    def _imports(self, store: Store) -> bool:
        found = self.imports_store.get(id(store))
        if found is None:
            found = self.imports_store[id(store)] = any(
                _from_store(dotted, store) for dotted in self.walker.imports.values()
            )
        return found

    def _write(self, site: CallSite, store: Store, spec: WriteSpec) -> Write | None:
        if store.recognised_only and not self._recognised(store, site):
            return None
        if self._another_family(store, site):
            return None  # `mc.set(key, v, 30)` on a memcached or glide client is no redis-py write
        key = get_arg(site.call, spec.key)
        value = get_arg(site.call, spec.value)
        if key is None or value is None or any(a.keyword and a.keyword.value == "nx" for a in site.call.args):
            return None
        common, _ = self._common(site, store, key)
        return Write(**common, value=value, has_lifetime=any(get_arg(site.call, arg) is not None for arg in spec.lifetime))

    def _common(
        self,
        site: CallSite,
        store,
        key: cst.BaseExpression,
        document=None,
        field=None,
        client=None,
        client_scope=None,
        member: cst.BaseExpression | None = None,
    ):
        """The event fields of a call; `client` (made in `client_scope`) stands for the call's receiver when
        the call is a script object's, whose client is the one that made it."""
        written = client if client is not None else site.call.func.value  # type: ignore[union-attr]
        if client is not None:
            receiver, receiver_scope, in_pipeline = self._receiver_of(client, client_scope or site.scope)
        else:
            receiver, receiver_scope, in_pipeline = self._receiver(site)
        receiver_shape = self.resolver.shape(receiver, receiver_scope)
        key_shape = self.resolver.shape(key, site.scope)
        if document is not None:
            if document.model is not None:
                receiver_shape = ("model", document.model)  # `JobLock.objects`, filtered or not
            if document.table is not None:
                receiver_shape = ("table", receiver_shape, self.resolver.shape(document.table, site.scope))
            if field is not None:
                key_shape = ("field", field, key_shape)
        if member is not None:
            # A field of a hash: the hash and the field make the lease's key.
            key_shape = ("hash", key_shape, self.resolver.shape(member, site.scope))
        common = self.made_at(site, store, written, receiver_shape, key, key_shape, None)
        common["field"] = member
        common["client_call"] = self.recognition(store, written, client_scope or site.scope)[1]
        common["coroutine"] = self._coroutine_maker(common["client_call"])
        return common, in_pipeline

    def _coroutine_maker(self, call: cst.Call | None) -> bool:
        """The call that made a client (or a lock) is an asyncio client's (`redis.asyncio.from_url`)."""
        if call is None:
            return False
        head, dot, rest = dotted(call.func).partition(".")
        return stores.coroutine_maker(self.walker.imports.get(head, head) + dot + rest)

    def _unawaited_lock_releases(self) -> list[tuple]:
        """`lock.release()` as a statement and not awaited, where `lock` is bound once to a lock
        library's object of an asyncio client (made by its module, or its `acquire()` awaited in the
        same function). asyncio's own `Lock.release()` is no coroutine: it is no lock library's."""
        by_call = {id(lock.call): lock for lock in self.locks}
        if not by_call:
            return []
        awaited_acquire = {
            (id(site.scope), site.call.func.value.value)  # type: ignore[union-attr]
            for site in self.walker.calls
            if site.call.func.attr.value == "acquire"  # type: ignore[union-attr]
            and type(site.call.func.value) is cst.Name  # type: ignore[union-attr]
            and id(site.call) in self.walker.awaited
        }
        found = []
        for site in self.walker.calls:
            func = site.call.func
            if func.attr.value != "release" or site.call.args or type(func.value) is not cst.Name:  # type: ignore[union-attr]
                continue
            if site.usage not in ("statement", "inline") or id(site.call) in self.walker.awaited:
                continue
            name = func.value.value  # type: ignore[union-attr]
            value = self.resolver.single_value(name, site.scope)
            lock = by_call.get(id(value[0])) if value is not None else None
            if lock is None:
                continue
            made = lock.call if not isinstance(lock.call.func, cst.Attribute) else None
            client = self._makers(lock.call.func.value, lock.scope, 0) if made is None else []  # type: ignore[union-attr]
            if (
                (id(site.scope), name) in awaited_acquire
                or (made is not None and self._coroutine_maker(made))
                or any(self._coroutine_maker(call) for _, call in client)
            ):
                found.append((site.call, site.scope, lock))
        return found

    def _receiver(self, site: CallSite) -> tuple[cst.BaseExpression, Scope, bool]:
        """The client behind a call's receiver; a pipeline stands for the client it came from."""
        return self._receiver_of(site.call.func.value, site.scope)  # type: ignore[union-attr]

    def _receiver_of(self, receiver: cst.BaseExpression, scope: Scope) -> tuple[cst.BaseExpression, Scope, bool]:
        if isinstance(receiver, cst.Name) and scope.params[:1] == [receiver.value]:
            found = self.transaction_callbacks.get(scope.name)
            if found is not None:
                # `r.transaction(callback, key)`: the callback's pipeline is `r`'s, watching the keys; its
                # commands run at once until `multi()`.
                return found[0], found[1], True
        made = receiver
        made_scope = scope
        if isinstance(receiver, cst.Name):
            found = self.resolver.single_value(receiver.value, scope) or self._one_builder(receiver.value, scope)
            if found is not None:
                made, made_scope = found
        if isinstance(made, cst.Await):
            made = made.expression
        if isinstance(made, cst.Call) and isinstance(made.func, cst.Attribute):
            if made.func.attr.value in stores.pipeline_methods():
                return made.func.value, made_scope, True
            if made.func.attr.value in stores.builder_methods():
                return made.func.value, made_scope, False
        return receiver, scope, False

    def _builder_op(self, receiver: cst.BaseExpression, scope: Scope) -> bool:
        """The receiver is a transaction builder (`txn = client.Txn()`, `client.Txn`)."""
        builders = stores.builder_methods()
        if not builders:
            return False
        if isinstance(receiver, cst.Attribute) and receiver.attr.value in builders:
            return True
        if isinstance(receiver, cst.Call):
            return isinstance(receiver.func, cst.Attribute) and receiver.func.attr.value in builders
        if isinstance(receiver, cst.Name):
            found = self.resolver.single_value(receiver.value, scope) or self._one_builder(receiver.value, scope)
            return found is not None and self._builder_op(found[0], found[1])
        return False

    def _one_builder(self, name: str, scope: Scope):
        """`txn = client.Txn()` made again in the function (one builder per transaction): the first,
        when every value of the name is a builder of the same client."""
        values = scope.bindings.get(name) or []
        builders = stores.builder_methods()
        if len(values) < 2 or not all(
            isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value in builders for v in values
        ):
            return None
        if len({self.resolver.shape(v.func.value, scope) for v in values}) != 1:  # type: ignore[union-attr]
            return None
        return values[0], scope

    def _claim(self, site: CallSite, store, spec: ClaimSpec) -> Claim | None:
        call = site.call
        if store.recognised_only and not self._recognised(store, site) and not self._in_lock_class(store, site, spec):
            return None
        if self._another_family(store, site):
            return None
        if spec.refuses and any(a.keyword is not None and a.keyword.value in spec.refuses for a in call.args):
            return None
        lifetime = None
        if spec.command is not None:
            words = self._command_words(call)
            if not words or words[0] != spec.command or spec.command_flag not in words[1:]:
                return None
            has_lifetime = any(word in words[1:] for word in spec.lifetime_words)
        else:
            if spec.flag is not None and not _flag_set(get_arg(call, spec.flag), spec.flag_value):
                return None
            given = [get_arg(call, where) for where in spec.lifetime]
            given = [node for node in given if node is not None]
            lifetime = given[0] if given else None
            if lifetime is None:
                has_lifetime = spec.default_lifetime
            else:
                has_lifetime = self.resolver.code(lifetime).strip() not in spec.forever
        document = None
        if spec.form == "script":
            return self._script_claim(site, store, spec)
        if spec.form != "call":
            document = self._document_claim(call, spec, site.scope)
            if document is None or document.key is None:
                return None
            key, value, has_lifetime = document.key, document.token, document.has_lifetime
            common, in_pipeline = self._common(site, store, key, document, document.key_field)
        else:
            key = get_arg(call, spec.key)
            member = get_arg(call, spec.field) if spec.field is not None else None
            if key is None or (spec.field is not None and member is None):
                return None
            common, in_pipeline = self._common(site, store, key, member=member)
            value = get_arg(call, spec.value) if spec.value is not None else None
        result_name = self.walker.assigned.get(id(call))
        reads = count_names(site.scope.node, result_name) - 1 if result_name else 0
        return Claim(
            **common,
            spec=spec,
            value=value,
            has_lifetime=has_lifetime,
            lifetime=lifetime,
            usage="statement" if site.usage != "expression" else "expression",
            result_name=result_name,
            result_reads=reads,
            document=document,
            in_pipeline=in_pipeline,
            caught=site.caught,
            decides=site.scope.is_test and self._decides(call, site.scope, result_name),
        )

    def _mapping_claims(self, site: CallSite, store, spec: ClaimSpec) -> list[Claim]:
        mapping = get_arg(site.call, spec.key)
        if not isinstance(mapping, cst.Dict) or len(site.call.args) != 1:
            return []
        found = []
        for element in mapping.elements:
            if not isinstance(element, cst.DictElement):
                return []  # `**others`: keys leaselint cannot see
            common, in_pipeline = self._common(site, store, element.key)
            result_name = self.walker.assigned.get(id(site.call))
            found.append(
                Claim(
                    **common,
                    spec=spec,
                    value=element.value,
                    usage="statement" if site.usage != "expression" else "expression",
                    result_name=result_name,
                    result_reads=count_names(site.scope.node, result_name) - 1 if result_name else 0,
                    in_pipeline=in_pipeline,
                    caught=site.caught,
                    decides=site.scope.is_test and self._decides(site.call, site.scope, result_name),
                    no_fix="the claim writes several keys at once (`msetnx`): claim each with `set(key, token, nx=True, "
                    "px=...)`, or all in one Lua script that sets their lifetimes too",
                )
            )
        return found

    def _script_claim(self, site: CallSite, store, spec: ClaimSpec, key=None, values=None, client=None, client_scope=None):
        """A claim made by a Lua script: `eval(SCRIPT, 1, key, token, ttl)` (or a script object's call,
        given its key, its ARGV list and the client that registered it)."""
        call = site.call
        script = get_arg(call, spec.script) if spec.script is not None else None
        text = self._string_value(script, site.scope) if client is None else values[0]
        found = lua_claim(text) if text is not None else None
        if found is None:
            return None
        index, has_lifetime = found
        no_fix = ""
        if client is None:
            keys_count = get_arg(call, Arg(1))
            if not isinstance(keys_count, cst.Integer) or keys_count.value != "1":
                return None
            key = get_arg(call, spec.key)
            value = get_arg(call, Arg(2 + index)) if index else script
        else:
            arguments = values[1]
            value = arguments[index - 1] if index and arguments is not None and len(arguments) >= index else None
            if not index:
                value = values[2]
        if not index:
            # The script stores a literal of its own: the script is where the value is made.
            no_fix = "the script stores a value written in it: pass a fresh token as an argument (ARGV) instead"
        if key is None:
            return None
        common, in_pipeline = self._common(site, store, key, client=client, client_scope=client_scope)
        result_name = self.walker.assigned.get(id(call))
        return Claim(
            **common,
            spec=spec,
            value=value,
            has_lifetime=has_lifetime,
            usage="statement" if site.usage != "expression" else "expression",
            result_name=result_name,
            result_reads=count_names(site.scope.node, result_name) - 1 if result_name else 0,
            in_pipeline=in_pipeline,
            no_fix=no_fix,
            caught=site.caught,
            decides=site.scope.is_test and self._decides(call, site.scope, result_name),
        )

    def _decides(self, call: cst.Call, scope: Scope, result_name: str | None) -> bool:
        """An `if` or `while` of the claim's function tests the claim or the name of its answer."""
        return any(
            where is scope and contains_call_or_name(test, call, result_name) for test, where in self.walker.branch_tests
        )

    def _document_claim(self, call: cst.Call, spec: ClaimSpec, scope: Scope | None = None):
        if spec.form == "dynamo":
            return documents.dynamo_update_claim(call) if spec.method == "update_item" else documents.dynamo_claim(call)
        if spec.form == "orm":
            found = documents.orm_claim(call)
            return found if found is not None and stores.lock_model_name(found.model) else None
        if spec.form == "mongo":
            return documents.mongo_claim(call, spec.method)
        if spec.form == "builder":
            found = self._builder(call, scope)
        elif spec.form == "etcd3gw":
            found = documents.etcd3gw_transaction(self._dict_of(call, scope))
        else:
            found = documents.etcd_transaction(call)
        return found[1] if found is not None and found[0] == "claim" else None

    def _builder(self, call: cst.Call, scope: Scope | None):
        """etcd3-py's `t = client.Txn(); t.If(t.key(k).version == 0); t.Then(t.put(k, v, lease=...))`,
        also chained (`client.Txn().If(...).Then(...)`): the compares and actions of the success call's
        transaction."""
        compares: list = []
        actions = [a.value for a in call.args]
        node = call.func.value  # type: ignore[union-attr]
        while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if node.func.attr.value in documents._BUILDER_COMPARES:
                compares.extend(a.value for a in node.args)
            elif node.func.attr.value in documents._BUILDER_SUCCESS:
                actions.extend(a.value for a in node.args)
            node = node.func.value
        if isinstance(node, cst.Name) and scope is not None:
            for site in self.walker.calls:
                func = site.call.func
                if site.scope is scope and type(func.value) is cst.Name and func.value.value == node.value:  # type: ignore[union-attr]
                    if func.attr.value in documents._BUILDER_COMPARES:  # type: ignore[union-attr]
                        compares.extend(a.value for a in site.call.args)
        return documents.builder_transaction(compares, actions)

    def _dict_of(self, call: cst.Call, scope: Scope | None) -> cst.BaseExpression | None:
        """The call's first argument, a dict literal or a name bound once to one (`transaction(txn)`)."""
        node = get_arg(call, Arg(0))
        if isinstance(node, cst.Name) and scope is not None:
            found = self.resolver.single_value(node.value, scope)
            node = found[0] if found is not None else None
        return node if isinstance(node, cst.Dict) else None

    # Lock objects ---------------------------------------------------------

    def _lock(self, call: cst.Call, scope: Scope, spec: LockSpec) -> None:
        if spec.method:
            site_receiver = call.func.value  # type: ignore[union-attr]
            fake = CallSite(call, scope, call, False, "expression")
            # A redis client by import or construction, or by its own name (the prefilter reads no more).
            strength = self.recognition(spec.client, site_receiver, scope)[0] if spec.client else 0
            if not strength or self.resolver.is_self(site_receiver, scope):
                return
            if any(self._recognised(store, fake) and store is not spec.client and store.locks_checked for store in stores.STORES):
                return
        if spec.class_keyword and any(a.keyword is not None and a.keyword.value == spec.class_keyword for a in call.args):
            return
        given = [get_arg(call, where) for where in spec.lifetime]
        has_lifetime = (
            spec.default_lifetime
            or any(not _is_none(node) for node in given if node is not None)
            # `lock(*args, **kwargs)`: a facade whose caller chooses the lifetime.
            or any(a.star for a in call.args)
        )
        where = self.positions[call]
        key = get_arg(call, spec.key)
        client = call.func.value if spec.method else get_arg(call, Arg(0))  # type: ignore[union-attr]
        self.locks.append(
            LockObject(
                call=call,
                key=key,
                has_lifetime=has_lifetime,
                scope=scope,
                start=Position(where.start.line, where.start.column),
                end=Position(where.end.line, where.end.column),
                receiver_shape=self.resolver.shape(client, scope) if client is not None else None,
                key_shape=self.resolver.shape(key, scope) if key is not None else None,
            )
        )

    def _only_asked(self, lock: LockObject) -> bool:
        """A lock object made only to ask or adjust the lock (`r.lock(name).locked()`, `.extend()`,
        `.reset()`), or named and never used outside a call a test expects to fail: it claims nothing."""
        if self.methods_on is None:
            self.methods_on = {}
            for site in self.walker.calls:
                receiver = site.call.func.value  # type: ignore[union-attr]
                method = site.call.func.attr.value  # type: ignore[union-attr]
                self.methods_on.setdefault(id(receiver), set()).add(method)
                if type(receiver) is cst.Name:
                    self.methods_on.setdefault((id(site.scope), receiver.value), set()).add(method)
        name = self.walker.assigned.get(id(lock.call))
        methods = set(self.methods_on.get(id(lock.call), ()))
        if name is not None:
            methods |= self.methods_on.get((id(lock.scope), name), set())
        if name is not None and (id(lock.scope), name) in self.walker.with_names:
            return False
        if not methods:
            # Named, and never used to hold it: not at all, or only inside `pytest.raises` (nor
            # returned or handed on, for somebody else to hold).
            bindings = len(lock.scope.bindings.get(name, ())) if name is not None else 0
            return name is not None and only_attributes_taken(lock.scope.node, name, bindings)
        return methods <= stores.LOCK_QUERIES

    def lock_key_deletes(self, leases: list[Lease]) -> list[Release]:
        """Blind deletes of a key that a lock object of this module stands on."""
        leased = {id(r) for lease in leases for r in lease.releases}
        return [
            r
            for r in self.releases
            if not r.checked
            and not r.deliberate
            and id(r) not in leased
            and any(
                (lock.receiver_shape, lock.key_shape) == (r.receiver_shape, r.key_shape)
                and one_life(lock.scope, r.scope, self.called)
                for lock in self.locks
                if lock.key_shape is not None
            )
        ]

    def _constructed_lock(self, call: cst.Call, scope: Scope) -> None:
        name = dotted(call.func)
        if not name:
            return
        head, _, rest = name.partition(".")
        qualified = self.walker.imports.get(head, head) + (f".{rest}" if rest else "")
        spec = _lock_constructors().get(qualified)
        if spec is not None:
            self._lock(call, scope, spec)

    # Transactions and client-side checks ----------------------------------

    def _after_failed_claim(self, release: Release) -> cst.If | None:
        """In the branch where a claim of the same key just failed: `if not r.set(k, ...): r.delete(k)`."""
        site = self.sites.get(id(release.call))
        if site is None:
            return None
        claims = [
            c
            for c in (*self.claims, *self.paired_claims)
            if c.scope is release.scope and c.key_shape == release.key_shape
        ]
        for guard, in_body in zip(site.guards, site.in_body) if claims else ():
            test = guard.test
            negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
            inner = test.expression if negated else test
            for claim in claims:
                if not (_holds(inner, claim.call, None) or _is_result(inner, claim, self.walker)):
                    continue
                if (negated and in_body) or (not negated and not in_body):
                    return guard
        return self._after_early_exit(release, claims)

    def _after_early_exit(self, release: Release, claims: list[Claim]) -> cst.If | None:
        """`if r.set(k, ...): return True` (the claim itself, or the name of its result, as the whole
        test) earlier in the function's body than the release: the code after it runs only when the
        claim failed."""
        body = getattr(release.scope.node, "body", None)
        statements = body.body if isinstance(body, (cst.IndentedBlock, cst.Module)) else ()
        for statement in statements if claims else ():
            where = self.positions[statement]
            if where.end.line >= release.start.line:
                break
            if type(statement) is not cst.If or statement.orelse is not None or not _exits(statement.body):
                continue
            test = statement.test.expression if type(statement.test) is cst.Await else statement.test
            tested = [
                c for c in claims if test is c.call or (_is_result(test, c, self.walker) and c.start.line < where.start.line)
            ]
            # No claim of the key between that `if` and the release (a retry that claims again).
            later = any(where.end.line < c.start.line <= release.start.line for c in claims)
            if tested and not later:
                return statement
        return None

    def _in_callback(self, event) -> bool:
        scope = event.scope
        return (
            isinstance(event.receiver, cst.Name)
            and scope.params[:1] == [event.receiver.value]
            and scope.name in self.transaction_callbacks
        )

    def _dropped(self, release: Release) -> cst.If | None:
        """The `if` testing the checked release's answer for a lost lease (`if not release(...)`, or
        the name the answer is given and read only there), when its branch does nothing with it."""
        lost_when = release.spec.lost_when
        call_code = self.resolver.code(release.call)
        name = self.walker.assigned.get(id(release.call))
        results = [call_code, f"await {call_code}", f"(await {call_code})"]
        if name is not None:
            if count_names(release.scope.node, name) != 2:
                return None  # the answer is read elsewhere too (returned, counted)
            results.append(name)
        wanted = {"".join(lost_when.format(result=result).split()) for result in results}
        for test, scope in self.walker.branch_tests:
            if scope is not release.scope:
                continue
            node = self.walker.if_tests.get(id(test))
            if node is None or "".join(self.resolver.code(test).split()) not in wanted:
                continue
            return node if does_nothing(node.body) else None
        return None

    def _optimistic_claims(self) -> None:
        """`watch(key)`, a test that the key is absent (`if pipe.exists(key): return`), `multi()`, then
        `set(key, value)` on the same pipeline: the transaction writes only if the key stayed absent,
        a conditional create. The write becomes a claim of the client the pipeline came from."""
        by_pipe: dict[tuple[int, str], list] = {}
        for kind, site in self.transaction_calls:
            receiver = site.call.func.value  # type: ignore[union-attr]
            if isinstance(receiver, cst.Name):
                line = self.positions[site.call].start.line
                by_pipe.setdefault((id(site.scope), receiver.value), []).append((kind, line, site))
        kept = []
        for write in self.writes:
            claim = self._optimistic(write, by_pipe) if write.store.optimistic_claim else None
            if claim is None:
                kept.append(write)
            else:
                self.paired_claims.append(claim)
        self.writes = kept

    def _optimistic(self, write: Write, by_pipe: dict) -> Claim | None:
        pipe = write.call.func.value  # type: ignore[union-attr]
        if not isinstance(pipe, cst.Name):
            return None
        calls = by_pipe.get((id(write.scope), pipe.value))
        if not calls or not self._receiver_of(pipe, write.scope)[2]:
            return None
        store, line = write.store, write.start.line
        multi = [at for kind, at, _ in calls if kind == "multi" and at <= line]
        if not multi:
            return None
        opened = max(multi)
        watched = any(
            kind == "watch"
            and at <= opened
            and any(self.resolver.shape(arg.value, write.scope) == write.key_shape for arg in site.call.args)
            for kind, at, site in calls
        )
        if not watched or not self._tested_absent(write, pipe.value, opened):
            return None
        spec = next((s for s in store.writes if s.method == write.method), None)
        lifetime = [get_arg(write.call, where) for where in spec.lifetime] if spec is not None else []
        has_lifetime = any(node is not None and self.resolver.code(node).strip() != "None" for node in lifetime)
        if not has_lifetime:
            # `pipe.expire(key, 30)` in the same transaction: one step with the write.
            has_lifetime = any(
                e.scope is write.scope
                and isinstance(e.receiver, cst.Name)
                and e.receiver.value == pipe.value
                and e.key_shape == write.key_shape
                and e.start.line >= opened
                for e in self.expiries
            )
        claim_spec = next(c for c in store.claims if c.method == store.optimistic_claim)
        fields = {f: getattr(write, f) for f in _EVENT_FIELDS if f != "no_fix"}
        return Claim(
            **fields,
            spec=claim_spec,
            value=write.value,
            has_lifetime=has_lifetime,
            in_pipeline=True,
            no_fix="the claim is a WATCH/MULTI transaction: store a fresh token in it and release with a "
            "token-checked compare-and-delete",
        )

    def _read_claims(self) -> None:
        """`if not r.get(key): r.set(key, token, ex=30)`, or `if r.exists(key): return` before the set:
        a claim made by reading and then writing, outside a transaction (LL009). The write becomes a
        claim, paired and checked like any other; its value must be one a claim stores (a constant, a
        token, a clock), not a computed result (a cache filled on a miss)."""
        reads: dict[int, list[CallSite]] = {}
        names = {m for store in stores.STORES for m in (*store.absence_reads, *store.optimistic_reads)}
        for site in self.walker.calls:
            if site.call.func.attr.value in names and len(site.call.args) == 1:  # type: ignore[union-attr]
                reads.setdefault(id(site.scope), []).append(site)
        if not reads:
            return
        transactions = {id(site.scope) for _, site in self.transaction_calls}
        kept = []
        for write in self.writes:
            claim = None
            if id(write.scope) in reads and id(write.scope) not in transactions and not write.scope.is_test:
                claim = self._read_claim(write, reads[id(write.scope)])
            if claim is None:
                kept.append(write)
            else:
                self.paired_claims.append(claim)
        self.writes = kept

    def _read_claim(self, write: Write, sites: list[CallSite]) -> Claim | None:
        store = write.store
        site = self.sites.get(id(write.call))
        best = 0
        for other in stores.STORES:
            # A cache client known by its import (`from django.core.cache import cache`) is that cache's.
            if other.recognised_only and other is not store and any(w.method == write.method for w in other.writes):
                score = self.recognition(other, site.call.func.value, site.scope)[0] if site is not None else 0  # type: ignore[union-attr]
                if score > best:
                    store, best = other, score
        if not (store.absence_reads or store.optimistic_reads) or write.value is None:
            return None
        if all(w.method != write.method for w in store.writes):
            return None
        if write.method == "set" and sum(a.keyword is None for a in write.call.args) > 4:
            return None  # `set(k, v, ex, px, nx)`: options given by position
        for site in sites:
            call = site.call
            method = call.func.attr.value  # type: ignore[union-attr]
            if method not in (*store.absence_reads, *store.optimistic_reads) or site.call.func.value is None:  # type: ignore[union-attr]
                continue
            if self.positions[call].start.line > write.start.line:
                continue
            receiver, scope, in_pipeline = self._receiver(site)
            if in_pipeline or self.resolver.shape(receiver, scope) != write.receiver_shape:
                continue
            if self.resolver.shape(call.args[0].value, site.scope) != write.key_shape:
                continue
            found = self._guarding_if(write, call, method in store.absence_reads)
            if found is None or not self._claim_value(write):
                continue
            branch, exact = found
            spec = store.claims[0]
            lifetime_args = [*next((w.lifetime for w in store.writes if w.method == write.method), ())]
            if write.method == spec.method:
                lifetime_args += list(spec.lifetime)
            has_lifetime = spec.default_lifetime or any(
                (node := get_arg(write.call, where)) is not None and self.resolver.code(node).strip() != "None"
                for where in lifetime_args
            )
            fields = {f: getattr(write, f) for f in _EVENT_FIELDS if f != "no_fix"}
            fields["store"] = store
            return Claim(
                **fields,
                spec=spec,
                value=write.value,
                has_lifetime=has_lifetime,
                read_check=ReadCheck(call, branch, exact),
                no_fix="the claim is a read, then a plain write (LL009): claim with the store's conditional "
                "create first",
            )
        return None

    def _claim_value(self, write: Write) -> bool:
        """The write stores what a claim stores (a constant, a token, a clock), or its key or function
        names a lock; not a value of unknown origin (a result a cache keeps)."""
        if self.origins is None or self.origins.origin(write.value, write.scope).kind != UNKNOWN:  # type: ignore[arg-type]
            return True
        name = write.scope.name.lower()
        return _names_a_lock(write.key_shape) or any(word in name for word in stores.LOCK_KEY_WORDS)

    def _guarding_if(self, write: Write, call: cst.Call, presence: bool) -> tuple[cst.If, bool] | None:
        """The `if` that lets the write run only when `call` found the key absent: the write inside an
        `if` testing absence (`if not r.get(key):`), or right after an `if` testing presence whose body
        leaves (`if r.exists(key): return False`). With whether the test is exact (presence itself, or
        a compare with None, not the truth of a stored value)."""
        name = self.walker.assigned.get(id(call))
        if name is not None and contains_call_or_name(write.value, None, name):  # type: ignore[arg-type]
            return None  # `set(key, int(old) + 1)` updates the value it read
        for test, scope in self.walker.branch_tests:
            if scope is not write.scope or not contains_call_or_name(test, call, name):
                continue
            branch = self.walker.if_tests.get(id(test))
            polarity = _polarity(test, call, name)
            if polarity is None:
                continue
            absent, exact = polarity
            exact = exact or presence
            if branch is None:
                # `while r.exists(key): sleep(...)`, then the write: it waits for the key to go.
                loop = self.walker.while_tests.get(id(test))
                if (
                    loop is not None
                    and not absent
                    and loop.orelse is None
                    and not contains(loop, write.call)
                    and _in_block_after(loop, write.statement, write.scope.node)
                ):
                    return loop, exact  # type: ignore[return-value]
                continue
            if not absent and isinstance(branch.orelse, (cst.Else, cst.If)) and contains(branch.orelse, write.call):
                # `if r.exists(key): ... else: r.set(key, ...)` (or an `elif` after it).
                block = _block_of(branch.orelse, write.statement)
                if block is not None and len(block.body) > 1:
                    return branch, exact
                continue
            if absent and contains(branch.body, write.call):
                # Work done while the key is held, not a default put in place (`if get(k) is None: set(k, "-")`).
                if isinstance(branch.body, cst.IndentedBlock) and len(branch.body.body) > 1:
                    return branch, exact
                continue
            if not absent and branch.orelse is None and _exits(branch.body) and not contains(branch, write.call):
                if self.positions[branch].start.line < write.start.line and _in_block_after(branch, write.statement, write.scope.node):
                    return branch, exact
        return None

    def _tested_absent(self, write: Write, pipe: str, opened: int) -> bool:
        """A read of the written key on the pipeline, before `multi()`, whose answer an `if` tests for
        absence (`exists`; `get` compared with None or taken as false), and which the write's value
        is not made of (`set(key, int(old) + 1)` updates, it does not claim)."""
        reads = (*write.store.absence_reads, *write.store.optimistic_reads)
        for site in self.walker.calls:
            call = site.call
            receiver = call.func.value  # type: ignore[union-attr]
            if (
                site.scope is not write.scope
                or call.func.attr.value not in reads  # type: ignore[union-attr]
                or not isinstance(receiver, cst.Name)
                or receiver.value != pipe
                or not call.args
                or self.positions[call].start.line > opened
                or self.resolver.shape(call.args[0].value, write.scope) != write.key_shape
            ):
                continue
            name = self.walker.assigned.get(id(call))
            if name is not None and write.value is not None and contains_call_or_name(write.value, None, name):
                continue
            exists = call.func.attr.value in write.store.absence_reads  # type: ignore[union-attr]
            for test, scope in self.walker.branch_tests:
                if scope is write.scope and contains_call_or_name(test, call, name):
                    if not (exists or _absence_test(test, call, name)):
                        continue
                    branch = self.walker.if_tests.get(id(test))
                    # The write happens only one way: inside the `if`, or after one that leaves
                    # (`if pipe.exists(key): return False`); not after `if old is None: old = 0`.
                    if branch is not None and (contains(branch, write.call) or _exits(branch.body)):
                        return True
        return False

    def _compared_in_transaction(self, event) -> bool:
        """A read of the event's key, compared in the client, sits with the event in one
        `with <client>.transact():` block of the same client."""
        if not event.store.transactions:
            return False
        return any(
            read.scope is event.scope
            and read.receiver_shape == event.receiver_shape
            and read.key_shape == event.key_shape
            and read.start <= event.start
            and self._check_of(read) is not None
            and self._in_transaction_block(event, read.call)
            for read in self.reads
        )

    def _in_transaction_block(self, release, read: cst.Call) -> bool:
        """The release and the read sit in one `with <client>.transact():` block of the same client."""
        names = release.store.transactions
        if not names:
            return False
        for site in self.walker.calls:
            func = site.call.func
            if (
                func.attr.value in names  # type: ignore[union-attr]
                and site.scope is release.scope
                and type(site.statement) is cst.With
                and self.resolver.shape(func.value, site.scope) == release.receiver_shape  # type: ignore[union-attr]
                and contains(site.statement.body, release.call)
                and contains(site.statement.body, read)
            ):
                return True
        return False

    def _after(self, release: Release, wanted: str) -> bool:
        """The release comes after `multi()` (or `watch()`) on the same pipeline, in the same function."""
        if not release.in_pipeline or not isinstance(release.receiver, cst.Name):
            return False
        for kind, site in self.transaction_calls:
            receiver = site.call.func.value  # type: ignore[union-attr]
            if (
                kind == wanted
                and site.scope is release.scope
                and isinstance(receiver, cst.Name)
                and receiver.value == release.receiver.value
                and self.positions[site.call].start.line <= release.start.line
            ):
                return True
        return False

    def _check_before(self, release: Release) -> Check | None:
        """A read of the same key compared in the client before the release (or after a GETDEL)."""
        if release.spec.returns_value:
            return self._check_of(release)
        for read in self.reads:
            if (
                read.scope is release.scope
                and read.receiver_shape == release.receiver_shape
                and read.key_shape == release.key_shape
                and read.start <= release.start
            ):
                check = self._check_of(read)
                if check is not None:
                    return check
        return None

    def _check_of(self, read) -> Check | None:
        """The comparison a read's value goes into, with the token on its other side."""
        comparison = self._compared(read.call, read.scope)
        if comparison is None:
            return None
        token = _other_side(comparison, read.call, self.walker.assigned.get(id(read.call)))
        if isinstance(token, cst.Name) and token.value == "None":
            return None  # `get(key) is not None`: a presence test (LL009's read), no holder compared
        return Check(read, comparison, token, self.walker.if_tests.get(id(comparison)))

    def _compared(self, call: cst.Call, scope: Scope) -> cst.Comparison | None:
        """The comparison the read's value goes into; one against None or a bool is not a token check."""
        comparison = self.walker.compared_calls.get(id(call))
        if comparison is not None:
            return comparison
        name = self.walker.assigned.get(id(call))
        for found in scope.compared.get(name, []) if name is not None else []:
            other = _other_side(found, call, name)
            if not (isinstance(other, cst.Name) and other.value in ("None", "True", "False")):
                return found
        return None

    def _releases(self, site: CallSite, store, spec: ReleaseSpec) -> list[Release]:
        call = site.call
        if self._another_family(store, site):
            return []
        if spec.form != "call":
            return self._document_releases(site, store, spec)
        if self._builder_op(call.func.value, site.scope):  # type: ignore[union-attr]
            return []  # `txn.delete(key)`: an operation of a transaction, run by its commit
        many = False
        listed = ""  # why no fix, for keys named in a list (the store table's listed_keys)
        if spec.command:
            words = self._command_words(call)
            if not words or words[0] not in spec.command:
                return []
            keys = [get_arg(call, spec.key)] if spec.key is not None else positional_args(call)[1:]
        elif spec.field is not None:
            # `hdel(name, *fields)`: one lease per field, of the one hash.
            fields = positional_args(call)[spec.field.index :]  # type: ignore[misc]
            if any(arg.star for arg in call.args) or not fields:
                return []
            keys = [get_arg(call, spec.key)] * len(fields)
        elif spec.key is not None:
            keys = [get_arg(call, spec.key)]
            if spec.key_in_list:
                keys = [_first_item(keys[0])]
        else:
            starred = self._starred_keys(call, site.scope)
            keys = positional_args(call) + starred
            if len(keys) == 1 and not starred and isinstance(keys[0], (cst.List, cst.Tuple)) and store.listed_keys:
                keys = [e.value for e in keys[0].elements if not isinstance(e, cst.StarredElement)]  # `delete([key])`
                listed = store.listed_keys
            # `delete(*keys)` of a comprehension deletes many keys of one shape at once.
            many = bool(starred)
        checked = spec.checked or (spec.checked_by is not None and _compares_by(call, spec.checked_by))
        token_at = spec.token
        member = None
        if spec.script is not None:
            kind = self._script_kind(get_arg(call, spec.script), site.scope)
            if kind is None:
                return []
            checked = kind == "checked"
            text = self._string_value(get_arg(call, spec.script), site.scope) or ""
            if FIELD_SCRIPT.search(text) and spec.key is not None and spec.key.index is not None and token_at is not None:
                # `eval(SCRIPT, 1, hash, field, token)`: the script deletes the field ARGV[1] names.
                member = get_arg(call, Arg(spec.key.index + 1))
                token_at = Arg(token_at.index + 1) if token_at.index is not None else None
                if member is None:
                    return []
        members = fields if spec.field is not None else [member] * len(keys)
        keys, members = [k for k in keys if k is not None], [m for k, m in zip(keys, members) if k is not None]
        token = get_arg(call, token_at) if token_at is not None else None
        if spec.key_in_list:
            token = _first_item(token)
        found = []
        for key, member in zip(keys, members):
            common, in_pipeline = self._common(site, store, key, member=member)
            found.append(
                Release(
                    **common,
                    spec=spec,
                    checked=checked,
                    in_pipeline=in_pipeline,
                    usage=site.usage,
                    # `delete(*keys)` of a comprehension deletes many keys of one shape at once.
                    other_keys=len(keys) - 1 or int(many),
                    deliberate=_deliberate(site),
                    token=token,
                    no_fix=listed,
                )
            )
        return found

    def _broad_swallows(self) -> None:
        """`except Exception: pass` around `lock.release()` swallows a lost lease when `lock` is a lease
        lock this module makes (`r.lock(...)`, `Lock(r, ...)`), not any object with a release()."""
        made = {id(lock.call) for lock in self.locks}
        for handler, body, scope in self.walker.broad_swallows:
            for node in nodes(body, trivia=False):
                if (
                    type(node) is cst.Call
                    and type(node.func) is cst.Attribute
                    and node.func.attr.value == "release"
                    and self._made_lock(node.func.value, scope, made)
                ):
                    self.walker.swallowed.append(handler)
                    break

    def _made_lock(self, receiver: cst.BaseExpression, scope: Scope, made: set) -> bool:
        found = None
        if type(receiver) is cst.Name:
            found = self.resolver.single_value(receiver.value, scope)
        elif type(receiver) is cst.Attribute and self.resolver.is_self(receiver.value, scope):
            values = self.resolver.self_attr_values(receiver.attr.value, scope)
            found = values[0] if len(values) == 1 else None
        return found is not None and id(found[0]) in made

    def _starred_keys(self, call: cst.Call, scope: Scope) -> list[cst.BaseExpression]:
        """`delete(*keys)` where `keys = [f"lock:{name}" for name in names]` (or a list written out):
        the keys the comprehension makes, as one key shape."""
        found: list[cst.BaseExpression] = []
        for arg in call.args:
            if arg.star != "*":
                continue
            value = arg.value
            if isinstance(value, cst.Name):
                built = _list_built(scope.bindings.get(value.value, []))
                if built is not None:
                    found.extend(built)  # `keys = []` then `keys += [a, b]`
                    continue
                single = self.resolver.single_value(value.value, scope)
                value = single[0] if single is not None and single[1] is scope else None
            if isinstance(value, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
                found.append(value.elt)
            elif isinstance(value, (cst.List, cst.Tuple)):
                found.extend(e.value for e in value.elements if not isinstance(e, cst.StarredElement))
        return found

    def _script_object_releases(self, site: CallSite) -> list[Release]:
        """`unlock(keys=[key], args=[token])` where `unlock = client.register_script(LUA)` (or `self._unlock`
        set once so): a release by the script, on the client that registered it."""
        func = site.call.func
        found = None
        if type(func) is cst.Name:
            found = self.resolver.single_value(func.value, site.scope)
        elif type(func) is cst.Attribute and self.resolver.is_self(func.value, site.scope):
            if not script_object_call(site.call):
                return []
            values = self.resolver.self_attr_values(func.attr.value, site.scope)
            if len(values) == 1 and values[0][0] is not None:
                found = values[0]
        if found is None:
            return []
        maker, where = found
        if type(maker) is cst.Await:
            maker = maker.expression
        if type(maker) is not cst.Call or type(maker.func) is not cst.Attribute or not maker.args:
            return []
        for store, spec in stores.script_object_specs(maker.func.attr.value):
            kind = self._script_kind(maker.args[0].value, where)
            key = _first_item(get_arg(site.call, spec.key))
            if key is not None and kind is not None:
                text = self._string_value(maker.args[0].value, where)
                if text is not None and lua_claim(text) is not None:
                    kind = None  # it claims KEYS[1]; what it deletes is another key (`del KEYS[2]`)
            if key is not None and kind is None:
                text = self._string_value(maker.args[0].value, where)
                arguments = get_arg(site.call, spec.token)
                items = [e.value for e in arguments.elements] if isinstance(arguments, (cst.List, cst.Tuple)) else None
                claim_spec = next((c for c in store.claims if c.form == "script"), None)
                if text is not None and claim_spec is not None:
                    claim = self._script_claim(
                        site, store, claim_spec, key, (text, items, maker.args[0].value), client=maker.func.value, client_scope=where
                    )
                    if claim is not None:
                        self.claims.append(claim)
                continue
            if kind is None or key is None:
                continue
            client = next((a.value for a in site.call.args if a.keyword is not None and a.keyword.value == "client"), None)
            common, in_pipeline = self._common(
                site, store, key, client=client or maker.func.value, client_scope=site.scope if client else where
            )
            release = Release(
                **common,
                spec=spec,
                checked=kind == "checked",
                in_pipeline=in_pipeline,
                usage=site.usage,
                deliberate=_deliberate(site),
                token=_first_item(get_arg(site.call, spec.token)),
            )
            return [release]
        return []

    def _document_releases(self, site: CallSite, store, spec: ReleaseSpec) -> list[Release]:
        if store.recognised_only and not self._recognised(store, site):
            return []
        call = site.call
        if spec.form == "dynamo":
            document = documents.dynamo_release(call)
            entries = list(document.fields.items()) if document is not None else []
        elif spec.form == "mongo":
            document = documents.mongo_release(call)
            entries = [("_id", document.key)] if document is not None else []
        elif spec.form == "orm":
            document = documents.orm_release(call)
            document = document if document is not None and stores.lock_model_name(document.model) else None
            entries = [(document.key_field, document.key)] if document is not None else []
        else:
            if spec.form == "etcd3gw":
                found = documents.etcd3gw_transaction(self._dict_of(call, site.scope))
            elif spec.form == "builder":
                found = self._builder(call, site.scope)
            else:
                found = documents.etcd_transaction(call)
            document = found[1] if found is not None and found[0] == "release" else None
            entries = [(None, document.key)] if document is not None else []
        found_releases = []
        for field, key in entries:
            common, in_pipeline = self._common(site, store, key, document, field)
            found_releases.append(
                Release(
                    **common,
                    spec=spec,
                    checked=spec.checked or document.checked,  # type: ignore[union-attr]
                    usage=site.usage,
                    deliberate=_deliberate(site) or document.expired_only,  # type: ignore[union-attr]
                    token=document.token,  # type: ignore[union-attr]
                    document=document,
                )
            )
        return found_releases

    def _script_kind(self, script: cst.BaseExpression | None, scope: Scope) -> str | None:
        """What a script does to its key: "checked" (compares an argument, then deletes), "blind"
        (deletes without comparing one: a literal, or nothing), or None (it deletes nothing)."""
        text = self._string_value(script, scope)
        if text is None or not _DELETES.search(text):
            return None
        return "checked" if _compares_argument(text) else "blind"

    def _string_value(self, node: cst.BaseExpression | None, scope: Scope) -> str | None:
        """The text of a script: a literal, or a name or `self` attribute set once to one."""
        if node is None:
            return None
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in stores.script_load_methods()
            and node.args
        ):
            return self._string_value(node.args[0].value, scope)  # `sha = r.script_load(LUA)`
        if isinstance(node, cst.Name):
            found = self.resolver.single_value(node.value, scope)
            return self._string_value(found[0], found[1]) if found else None
        if isinstance(node, cst.Attribute) and (
            self.resolver.is_self(node.value, scope) or self._names_the_class(node.value, scope)
        ):
            values = self.resolver.self_attr_values(node.attr.value, scope)
            if len(values) == 1 and values[0][0] is not None:
                return self._string_value(values[0][0], values[0][1])
        return literal_string(node)

    def _names_the_class(self, node: cst.BaseExpression, scope: Scope) -> bool:
        """The method's own class: its name, or `cls = self.__class__` (`type(self)`)."""
        if not isinstance(node, cst.Name) or scope.cls is None:
            return False
        if node.value == scope.cls.name:
            return True
        found = self.resolver.single_value(node.value, scope)
        if found is None:
            return False
        value = found[0]
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "type" and value.args:
            value = value.args[0].value
        elif isinstance(value, cst.Attribute) and value.attr.value == "__class__":
            value = value.value
        else:
            return False
        return self.resolver.is_self(value, scope)


def mark_coroutines(leases) -> None:
    """A lease whose claim is awaited is on an asyncio client: its releases answer coroutines too."""
    for lease in leases:
        if any(claim.awaited or claim.coroutine for claim in lease.claims):
            for release in lease.releases:
                release.coroutine = True


def pair(
    claims: list[Claim],
    releases: list[Release],
    writes: list[Write],
    expiries: list[Expire],
    counted: set,
    called: dict[int, set[str]],
    line_of=None,
) -> list[Lease]:
    """Leases: claims and releases of one key of one client; writes and expiries next to their claims.

    Not leases: a counted key (a rate limit), a key whose claim is never asked for its answer and
    does not name a lock (a cache write), and store API wrappers.
    """
    leases: dict[tuple, Lease] = {}
    for claim in claims:
        ident = (claim.receiver_shape, claim.key_shape)
        if ident in counted or (_unanswered(claim) and not _names_a_lock(claim.key_shape)):
            continue
        if claim.store.records and not _used_as_claim(claim):
            continue
        if claim.scope.is_test and not (claim.decides or _names_a_lock(claim.key_shape) or _names_a_lock(claim.receiver_shape)):
            # A test that asserts what a conditional create answers tests the store, not a lease.
            continue
        leases.setdefault(ident, Lease(*ident)).claims.append(claim)
    for release in releases:
        lease = leases.get((release.receiver_shape, release.key_shape))
        if lease is None or (
            _passes_through(release) and not (_namespaced(release) and any(c.scope is release.scope for c in lease.claims))
        ):
            continue
        if any(
            _paired(claim, release, line_of) and (one_life(claim.scope, release.scope, called) or _lock_key_outside_tests(claim, release))
            for claim in lease.claims
        ):
            lease.releases.append(release)
    paired = [lease for lease in leases.values() if lease.releases]
    for lease in paired:
        _check_document_conditions(lease)
        for write in writes:
            if write.receiver_shape == lease.receiver_shape and extends(write.key_shape, lease.key_shape):
                if any(_near(write, claim) for claim in lease.claims):
                    lease.side_writes.append(write)
            elif (write.receiver_shape, write.key_shape) == (lease.receiver_shape, lease.key_shape):
                if all(write.call is not c.call for c in lease.claims) and any(
                    _near(write, c) and (write.scope is not c.scope or c.start <= write.start) for c in lease.claims
                ):
                    lease.overwrites.append(write)
                if write.has_lifetime and any(_renews(write, c, called, writes=True) for c in lease.claims):
                    lease.renewals.append(write)
        # A hash field's lease also ends with its hash (`hsetnx(h, f, v)`, then `expire(h, 30)`).
        hashed = lease.key_shape[1] if type(lease.key_shape) is tuple and lease.key_shape[:1] == ("hash",) else None
        for expire in expiries:
            if expire.receiver_shape == lease.receiver_shape and (
                expire.key_shape == lease.key_shape or (hashed is not None and expire.key_shape == hashed)
            ):
                if any(_renews(expire, c, called) for c in lease.claims):
                    lease.renewals.append(expire)
                elif any(expire.scope is c.scope and c.start <= expire.start for c in lease.claims):
                    lease.expiries.append(expire)
    return paired


def _renews(expire: Expire | Write, claim: Claim, called: dict[int, set[str]], writes: bool = False) -> bool:
    """A lifetime extended while `claim` holds the lease: in a loop after a claim with a lifetime; or in a function
    nested in the claim's (a heartbeat thread), another method of its class, or a module function
    named for renewing that shares the lease's life, when the claim has a lifetime of its own, the
    function is named for renewing, or it extends in a loop. Not the deadline that a claim without
    one gets from a second call (LL005), and not in tests."""
    if expire.scope.is_test or claim.scope.is_test:
        return False
    if expire.scope is claim.scope:
        return claim.has_lifetime and claim.start <= expire.start and _in_loop(expire, claim.scope, claim)
    name = expire.scope.name.lower()
    renewing = any(word in name for word in stores.RENEW_WORDS)
    if not renewing and any(word in name for word in stores.RELEASE_WORDS + stores.END_WORDS):
        return False  # a release that lets the key run out (`finish_job`: `pexpire(key, keep)`)
    cls = _class_of(claim.scope)
    if claim.scope.encloses(expire.scope) or (cls is not None and _class_of(expire.scope) is cls):
        if writes:  # a write with a lifetime elsewhere may be a release by value (`set(key, "free", 1)`)
            return renewing or _in_loop(expire, expire.scope)
        return claim.has_lifetime or renewing or _in_loop(expire, expire.scope)
    if cls is not None or _class_of(expire.scope) is not None or not renewing:
        return False
    return one_life(claim.scope, expire.scope, called) or expire.scope.parent is claim.scope.parent


def _class_of(scope: Scope):
    """The class of a method, or of the method a function is nested in (a retried inner `_acquire`)."""
    while scope.cls is None and scope.parent is not None and scope.parent.parent is not None:
        scope = scope.parent
    return scope.cls


def _in_loop(expire: Expire | Write, scope: Scope, claim: Claim | None = None) -> bool:
    """`expire` is in a `while`/`for` of `scope` (one that does not hold `claim`)."""
    for node in nodes(scope.node):
        if isinstance(node, (cst.While, cst.For)) and contains(node, expire.call) and (claim is None or not contains(node, claim.call)):
            return True
    return False


def _check_document_conditions(lease: Lease) -> None:
    """A conditional delete is token-checked only if its condition names the claim's token field
    (a condition on the key alone, `attribute_exists(pk)`, frees whoever holds it)."""
    fields = {c.document.token_field for c in lease.claims if c.document is not None and c.document.token_field}
    for release in lease.releases:
        document = release.document
        if not fields or document is None or not release.checked or release.spec.self_evident:
            continue
        if release.spec.form in ("mongo", "orm"):
            release.checked = bool(fields & set(document.fields))
            continue
        condition = [documents.keyword(release.call, k) for k in ("ConditionExpression", "ExpressionAttributeNames")]
        text = " ".join(_code(node) for node in condition if node is not None)
        release.checked = any(re.search(rf"\b{re.escape(field)}\b", text) for field in fields)


def one_life(claimed: Scope, released: Scope, called: dict[int, set[str]]) -> bool:
    """A claim in one function and a release in another belong to one lease's life: one function is
    inside the other, they are methods of one class, the release is named for releasing, or one
    calls the other or a third calls both. Tests are worlds of their own: two tests (or a fixture
    and a test) that use one key are not one lease."""
    if claimed.encloses(released) or released.encloses(claimed):
        return True
    if claimed.is_test or released.is_test:
        return False
    if claimed.cls is not None and claimed.cls is released.cls:
        return True
    if any(word in released.name.lower() for word in stores.RELEASE_WORDS + stores.END_WORDS):
        return True
    if released.name in called.get(id(claimed), ()) or claimed.name in called.get(id(released), ()):
        return True
    return any(claimed.name in names and released.name in names for names in called.values())


def _lock_key_outside_tests(claim: Claim, release: Release) -> bool:
    """A key that names a lock (`LOCK_KEY`) is one lease across the module's functions, outside tests."""
    return not claim.scope.is_test and not release.scope.is_test and _names_a_lock(claim.key_shape)


def _paired(claim: Claim, release: Release, line_of=None) -> bool:
    if _rebound_between(claim, release, line_of) or (
        _passes_through(claim) and not (_namespaced(claim) and claim.scope is release.scope)
    ):
        return False
    if claim.scope is not release.scope and _from_parameters(claim) and _from_parameters(release):
        # `acquire_lock(key)` and `release_lock(key)` are a pair; `acquire_lock(key)` and
        # `cache_delete(key)` only share a parameter name, as `put_if_empty(key)` and
        # `delete_data(key)` share `self.result_key(key)`: the caller's key, passed on.
        name = release.scope.name.lower()
        # A key that names a lock (`f"lock:{name}"`) is the lease's own, whatever the release's name.
        return any(word in name for word in stores.RELEASE_WORDS) or (
            not isinstance(claim.key, cst.Name) and _names_a_lock(claim.key_shape)
        )
    return True


def _from_parameters(event) -> bool:
    """The key is a parameter, or made of parameters alone (`self.result_key(key)`)."""
    if isinstance(event.key, cst.Name):
        return event.key.value in event.scope.params
    names = free_names(event.key_shape)
    return bool(names) and names <= set(event.scope.params) - {event.scope.self_name}


def _unanswered(claim: Claim) -> bool:
    if claim.spec.answers_by_raising or claim.caught & set(claim.store.duplicate_errors):
        # An upsert whose filter excludes a live claim raises the duplicate key the code catches.
        return False
    return claim.usage == "statement" or (claim.result_name is not None and claim.result_reads == 0)


def _used_as_claim(claim: Claim) -> bool:
    """A document write is a claim only with the marks of a conditional create used as one: the
    duplicate key it raises is caught, an upsert's answer is tested, the document has a lifetime or
    an owner, or its key or collection names a lock. Without them it is a record (a driver's tests
    insert `{"_id": 1}` and delete it), and a delete of it is no release."""
    document = claim.document
    if document is not None and document.overwrites:
        # Never fails: a lease only where it names one (and LL008 says it always succeeds).
        return _names_a_lock(claim.key_shape) or _names_a_lock(claim.receiver_shape)
    return (
        bool(claim.caught & set(claim.store.duplicate_errors))
        or (not claim.spec.answers_by_raising and not _unanswered(claim))
        or (document is not None and (document.has_lifetime or document.token_field in documents.TOKEN_FIELDS))
        or _names_a_lock(claim.key_shape)
        or _names_a_lock(claim.receiver_shape)
    )


def _names_a_lock(shape) -> bool:
    text = repr(shape).lower()
    return any(word in text for word in stores.LOCK_KEY_WORDS)


def _namespaced(event) -> bool:
    """The key is built from the function's parameters, not one of them: a wrapper of that kind
    never claims and releases in one function, so there it is a lease."""
    return not isinstance(event.key, cst.Name)


def _passes_through(event) -> bool:
    """A store API wrapper (`def delete(self, key): self._cache.delete(key)`), not a lease of its own.

    The call sits in a function named like a claim or release method of the stores, and its key is
    that function's parameter (normalised, perhaps, as in `key = self.make_key(key)`), or a namespace
    made of its parameters alone (`f"{tenant}:{key}"`, no word of a lock in it).
    """
    name = event.scope.name.lstrip("_")
    key = event.key
    if name not in stores.method_names():
        return False
    params = set(event.scope.params)
    if isinstance(key, cst.Name):
        return key.value in params
    names = free_names(event.key_shape)
    return bool(names) and names <= params - {event.scope.self_name} and not _names_a_lock(event.key_shape)


def _near(write: Write, claim: Claim) -> bool:
    """In the claim's function, or in another method of its class."""
    cls = claim.scope.cls
    return write.scope is claim.scope or (cls is not None and write.scope.cls is cls)


def _rebound_between(claim: Claim, release: Release, line_of=None) -> bool:
    """A name of the key or client is assigned again between the claim and the release. `line_of`:
    the line of a binding's statement (the model's positions)."""
    if claim.scope is not release.scope or claim.start.line >= release.start.line:
        return False
    names = free_names(claim.key_shape) | free_names(claim.receiver_shape)
    statements = [statement for name in names for statement in claim.scope.binding_lines.get(name, ())]
    lines = [line_of(statement) for statement in statements if statement is not None and line_of is not None]
    return any(claim.start.line < line <= release.start.line for line in lines)


