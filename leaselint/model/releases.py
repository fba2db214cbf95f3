"""Releases: deletes, script objects and documents, the checks before them and the errors swallowed."""

from __future__ import annotations

import libcst as cst

from leaselint.diagnostics import Position

from leaselint.model import documents, sql_rows, stores
from leaselint.model.call_parts import (
    FORMATTED,
    formatted_command,
    SPREAD,
    _is_none,
    compares_argument,
    _compares_by,
    DELETES,
    _deliberate,
    _exits,
    _first_item,
    _holds,
    _is_result,
    _list_built,
    _other_side,
    FIELD_SCRIPT,
    get_arg,
    lua_answers,
    lua_claim,
    lua_member_release,
    lua_plain,
    positional_args,
    script_operands,
    SILENT_SCRIPT,
)
from leaselint.model.events import Check, Claim, Release
from leaselint.model.keys import literal_string
from leaselint.model.scope import contains, count_names, Scope
from leaselint.model.stores import Arg, ReleaseSpec
from leaselint.model.traverse import nodes
from leaselint.model.values import _is_property
from leaselint.model.walk import CallSite, does_nothing, script_object_call


NAMED_FILTER = stores.NAMED_FILTER


def _handler_names(handler: cst.ExceptHandler) -> list[str]:
    """The last names of what an `except` catches (`self._ConditionFailedException` -> its attribute)."""
    kind = handler.type
    items = [e.value for e in kind.elements] if type(kind) is cst.Tuple else [kind] if kind is not None else []
    return [n.attr.value if type(n) is cst.Attribute else n.value if type(n) is cst.Name else "" for n in items]


class _Standing:
    """A call of the class's own claiming method, standing in for its claim (see _claiming_calls)."""

    answer_unknown = False

    def __init__(self, call: cst.Call, scope: Scope, start) -> None:
        self.call, self.scope, self.start = call, scope, start
        self.spec = _NOT_OLD_VALUE


class _NotOldValue:
    by_old_value = False


_NOT_OLD_VALUE = _NotOldValue()


def _indexed(classifier, name: str, key) -> dict:
    """The classifier's list `name` by `key`, in order: made once (again if the list changed)."""
    items = getattr(classifier, name)
    indexes = classifier.__dict__.setdefault("_indexes", {})
    known = indexes.get(name)
    if known is None or known[0] is not items or known[1] != len(items):
        index: dict = {}
        for item in items:
            index.setdefault(key(item), []).append(item)
        known = indexes[name] = (items, len(items), index)
    return known[2]


class ReleasesMixin:
    """The Classifier's part that tells these (see classify.py)."""

    def _after_failed_claim(self, release: Release) -> cst.If | None:
        """In the branch where a claim of the same key just failed: `if not r.set(k, ...): r.delete(k)`."""
        site = self.sites.get(id(release.call))
        if site is None and release.via is not None:
            site = next((s for s in self.walker.calls if s.call is release.call), None)
        if site is None:
            return None
        claims = [
            c for c in self._claims_of(release.scope, release.key_shape) if not c.answer_unknown
        ] or self._claiming_calls(release)
        for guard, in_body in zip(site.guards, site.in_body) if claims else ():
            test = guard.test
            negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
            inner = test.expression if negated else test
            for claim in claims:
                if not (_holds(inner, claim.call, None) or _is_result(inner, claim, self.walker) or self._counts(inner, claim)):
                    continue
                # A `getset` answers the old value: a true answer says the claim failed.
                failed = negated != claim.spec.by_old_value
                if (failed and in_body) or (not failed and not in_body):
                    return guard
        return self._after_early_exit(release, claims)

    def _claims_of(self, scope, key_shape) -> list[Claim]:
        """The claims and paired claims of one function and key shape, in order: an index made once
        (again if claims were added since)."""
        size = (len(self.claims), len(self.paired_claims))
        known = getattr(self, "_claims_index", None)
        if known is None or known[0] != size:
            index: dict = {}
            for c in (*self.claims, *self.paired_claims):
                index.setdefault((id(c.scope), c.key_shape), []).append(c)
            known = self._claims_index = (size, index)
        return known[1].get((id(scope), key_shape), [])

    def lost_swallows(self) -> list[cst.ExceptHandler]:
        """`except ConditionalCheckFailedException: pass` around a checked release of a store that
        answers a lost lease by raising it: the handlers that drop the signal."""
        found: list = []
        for release in self.releases:
            errors = release.store.lost_errors
            if not errors or not release.checked or release.scope.is_test:
                continue
            for node in nodes(release.scope.node, trivia=False):
                if type(node) is not cst.Try or not contains(node.body, release.call):
                    continue
                for handler in node.handlers:
                    names = _handler_names(handler)
                    if any(name.lstrip("_").endswith(errors) for name in names) and does_nothing(handler.body):
                        if handler not in found:
                            found.append(handler)
        return found

    def _claiming_calls(self, release: Release) -> list:
        """For a release made through a method of the class (`self._unlock_instance(...)`), the calls of
        the release's function to a method of the class that returns its claim's answer
        (`self._lock_instance(...)`), standing in for those claims."""
        if release.via is None or release.scope.cls is None:
            return []
        from leaselint.model.summary import _returns

        methods = {
            claim.scope.name
            for claim in self.claims
            if claim.scope.cls is release.scope.cls
            and claim.scope is not release.scope
            and any(r.value is not None and contains(r.value, claim.call) for r in _returns(claim.scope.node))
        }
        found = []
        for site in self.walker.calls if methods else ():
            func = site.call.func
            if site.scope is release.scope and func.attr.value in methods and self.resolver.is_self(func.value, site.scope):  # type: ignore[union-attr]
                position = self.positions[site.call]
                found.append(_Standing(site.call, site.scope, Position(position.start.line, position.start.column)))
        return found

    def _counts(self, test: cst.BaseExpression, claim: Claim) -> bool:
        """`n >= quorum` (or `n > 0`) where `n += 1` runs under an `if` on the claim's answer: a count of
        claims that succeeded, true when enough did (a Redlock's quorum)."""
        if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
            return self._counts(test.left, claim) or self._counts(test.right, claim)
        if type(test) is not cst.Comparison or len(test.comparisons) != 1 or type(test.left) is not cst.Name:
            return False
        if type(test.comparisons[0].operator) not in (cst.GreaterThanEqual, cst.GreaterThan):
            return False
        name = test.left.value
        for node in nodes(claim.scope.node, trivia=False):
            if type(node) is cst.If and (_holds(node.test, claim.call, None) or _is_result(node.test, claim, self.walker)):
                if any(
                    type(inner) is cst.AugAssign and type(inner.operator) is cst.AddAssign
                    and type(inner.target) is cst.Name and inner.target.value == name
                    for inner in nodes(node.body, trivia=False)
                ):
                    return True
        return False

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
                c
                for c in claims
                if not c.spec.by_old_value
                and (test is c.call or ((_is_result(test, c, self.walker) or self._counts(test, c)) and c.start.line < where.start.line))
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
        for test, scope in self.walker.branch_tests_of(release.scope):
            node = self.walker.if_tests.get(id(test))
            if node is None or "".join(self.resolver.code(test).split()) not in wanted:
                continue
            return node if does_nothing(node.body) else None
        return None

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
        for kind, site in _indexed(self, "transaction_calls", lambda pair: id(pair[1].scope)).get(id(release.scope), ()):
            receiver = site.call.func.value  # type: ignore[union-attr]
            if (
                kind == wanted
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
        reads = _indexed(self, "reads", lambda read: (id(read.scope), read.receiver_shape, read.key_shape))
        for read in reads.get((id(release.scope), release.receiver_shape, release.key_shape), ()):
            if read.start <= release.start and read.call is not release.call:
                # (A helper that reads and releases in one call (`_read(key)`) is compared after it.)
                check = self._check_of(read)
                if check is not None:
                    return check
        return self._helper_check(release, reads)

    def _helper_check(self, release: Release, reads: dict) -> Check | None:
        """`if self.is_leader(): r.delete(key)` where the class's `is_leader()` returns the compare of
        a read of the same key with a token: the client-side check is made by another method."""
        cls = release.scope.cls
        if cls is None:
            return None
        for node in nodes(release.scope.node, trivia=False):
            if type(node) is not cst.If or not contains(node.body, release.call):
                continue
            test = node.test
            if type(test) is not cst.Call or type(test.func) is not cst.Attribute or test.args:
                continue
            method = cls.methods.get(test.func.attr.value)
            if method is None or not self.resolver.is_self(test.func.value, release.scope):
                continue
            for read in reads.get((id(method), release.receiver_shape, release.key_shape), ()):
                check = self._check_of(read)
                if check is not None and check.token is not None:
                    release.no_fix = release.no_fix or f"the holder is compared by another method, `{test.func.attr.value}()`"
                    return Check(read, check.comparison, check.token, node)
        return None

    def _check_of(self, read) -> Check | None:
        """The comparison a read's value goes into, with the token on its other side."""
        if read.via is not None:
            name = self.walker.assigned.get(id(read.call))
            if name is not None and len(read.scope.bindings.get(name, ())) != 1:
                return None  # `active = fetch(k)` again further down: the compare may be of the other read
        comparison = self._compared(read.call, read.scope)
        through = None
        if comparison is None:
            # `value = self._to_str(r.get(key))`: the read handed through a helper first; or
            # `value = r.get(key)`, then `owner = value.decode()`: the value under another name.
            wrapper = self._wrapped(read.call, read.scope) or self._derived(read.call, read.scope)
            if wrapper is None:
                return None
            comparison, through = self._compared(wrapper[0], read.scope, wrapper[1]), wrapper[0].func
            if comparison is None:
                return None
            token = _other_side(comparison, wrapper[0], wrapper[1])
        else:
            # A read handed to a runner (`await asyncio.to_thread(r.get, key)`) sits in the comparison
            # as the runner's call.
            held = self.positions.aliases.get(id(read.call), read.call)
            token = _other_side(comparison, held, self.walker.assigned.get(id(read.call)))
        if isinstance(token, cst.Name) and token.value == "None":
            return None  # `get(key) is not None`: a presence test (LL009's read), no holder compared
        if through is None and getattr(read, "derived", False):
            through = read.call.func  # the helper hands back a value made of the stored one
        return Check(read, comparison, token, self.walker.if_tests.get(id(comparison)), through=through)

    def _derived(self, call: cst.Call, scope: Scope) -> tuple[cst.Call, str] | None:
        """(the call, the name it is given) of `owner = value.decode()` or `owner = str(value)` where
        `value = r.get(key)`, each name bound once in the read's function."""
        first = self.walker.assigned.get(id(call))
        if first is None or len(scope.bindings.get(first, ())) != 1:
            return None
        for name, values in scope.bindings.items():
            if name == first or len(values) != 1 or type(values[0]) is not cst.Call:
                continue
            value = values[0]
            if type(value.func) is cst.Attribute:
                root = value.func.value
            else:
                root = value.args[0].value if len(value.args) == 1 and value.args[0].keyword is None else None
            if type(root) is cst.Name and root.value == first:
                return value, name
        return None

    def _wrapped(self, call: cst.Call, scope: Scope) -> tuple[cst.Call, str] | None:
        """(the call, the name it is given) of `name = helper(read)` in the read's function: one
        argument, the read, or the name it is bound to once (`raw = r.get(k)`, `owner = decode(raw)`)."""
        first = self.walker.assigned.get(id(call))
        if first is not None and len(scope.bindings.get(first, ())) != 1:
            first = None
        for name, values in scope.bindings.items():
            if len(values) != 1 or type(values[0]) is not cst.Call:
                continue
            outer = values[0]
            args = outer.args
            inner = args[0].value if len(args) == 1 and args[0].keyword is None else None
            if type(inner) is cst.Await:
                inner = inner.expression
            if inner is call or (first is not None and name != first and type(inner) is cst.Name and inner.value == first):
                return outer, name
        return None

    def _compared(self, call: cst.Call, scope: Scope, name: str | None = None) -> cst.Comparison | None:
        """The comparison the read's value goes into; one against None or a bool is not a token check."""
        comparison = self.walker.compared_calls.get(id(call))
        if comparison is not None:
            return comparison
        name = name or self.walker.assigned.get(id(call))
        for found in scope.compared.get(name, []) if name is not None else []:
            other = _other_side(found, call, name)
            if not (isinstance(other, cst.Name) and other.value in ("None", "True", "False")):
                return found
        return None

    def _releases(self, site: CallSite, store, spec: ReleaseSpec) -> list[Release]:
        call = site.call
        if self._another_family(store, site):
            return []
        if store.claim_method_pattern and self.project_method(site, ("release", "leased", "checked")):
            return []  # a project's `adelete` with a body of its own: what the body does, not its name
        if spec.form != "call":
            return self._document_releases(site, store, spec)
        if self._builder_op(call.func.value, site.scope):  # type: ignore[union-attr]
            return []  # `txn.delete(key)`: an operation of a transaction, run by its commit
        many = False
        listed = ""  # why no fix, for keys named in a list (the store table's listed_keys)
        formatted = None
        if spec.command:
            words = self._command_words(call)
            formatted = formatted_command(call)
            call = formatted or call
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
        member = slot_token = None
        silent = ""
        if spec.script is not None:
            kind = self._script_kind(get_arg(call, spec.script), site.scope)
            text = self._string_value(get_arg(call, spec.script), site.scope) or ""
            slot = lua_member_release(text) if not (kind == "checked" and FIELD_SCRIPT.search(text)) else None
            if kind is None and slot is None:
                return []
            checked = kind == "checked" or slot is not None
            silent = "" if lua_answers(text) else SILENT_SCRIPT
            if slot is not None:
                # `zrem(KEYS[i], ARGV[n])`: the slot's own token is what it removes, a check in itself.
                key, slot_token = script_operands(call, spec.key, Arg(None, "args"), spec.key_in_list, *slot)
                if key is None or slot_token is None:
                    return []
                keys = [key]
            elif FIELD_SCRIPT.search(text) and spec.key is not None and spec.key.index is not None and token_at is not None:
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
        token = slot_token if slot_token is not None else token
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
                    no_fix=listed or (FORMATTED if formatted is not None else "") or silent or spec.no_fix,
                    slot=slot_token is not None,
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

    def _made_lock(self, receiver: cst.BaseExpression, scope: Scope, made: set, depth: int = 0) -> bool:
        """`receiver` is a lock object this module makes: bound to one, or to what a function of
        the module returns (`lock = acquire_lock(name)`, which returns its `cache.lock(...)`)."""
        found = None
        if type(receiver) is cst.Name:
            found = self.resolver.value_unless_none(receiver.value, scope)
        elif type(receiver) is cst.Attribute and self.resolver.is_self(receiver.value, scope):
            values = self.resolver.self_attr_values(receiver.attr.value, scope)
            found = values[0] if len(values) == 1 else None
        if found is None or found[0] is None:
            return False
        value = found[0]
        if id(value) in made:
            return True
        if depth > 2 or type(value) is not cst.Call or type(value.func) is not cst.Name:
            return False
        function = next(
            (s for s in self.walker.scopes if s.name == value.func.value and s.cls is None and s.parent is self.resolver.module_scope),
            None,
        )
        if function is None:
            return False
        from leaselint.model.summary import _returns

        returned = [r.value for r in _returns(function.node) if r.value is not None and not _is_none(r.value)]
        return bool(returned) and all(self._made_lock(r, function, made, depth + 1) if type(r) is cst.Name else id(r) in made for r in returned)

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
            found = self.resolver.single_value(func.value, site.scope) or self._cached_maker(func.value, site.scope)
        elif type(func) is cst.Attribute and self.resolver.is_self(func.value, site.scope):
            if not script_object_call(site.call):
                return []
            values = self.resolver.self_attr_values(func.attr.value, site.scope)
            if len(values) == 1 and values[0][0] is not None:
                found = values[0]
            elif not values:
                found = self._made_by_property(func.attr.value, site.scope)
        held_by = None
        if found is None and type(func) is cst.Attribute and script_object_call(site.call):
            # `node._release(keys=[k], args=[t])` where `node._release = node.register_script(LUA)`:
            # a script object kept on the client itself, which releases on that client.
            found = self._registered_on(func.attr.value)
            held_by = func.value
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
            text = self._string_value(maker.args[0].value, where) or ""
            slot = lua_member_release(text) if not (kind == "checked" and FIELD_SCRIPT.search(text)) else None
            token = _first_item(get_arg(site.call, spec.token))
            if slot is not None:
                # `zrem(KEYS[i], ARGV[n])`: the slot's own token is what it removes, a check in itself.
                key, token = script_operands(site.call, spec.key, spec.token, True, *slot)
                kind = "checked" if key is not None and token is not None else None
            if key is not None and kind is not None and slot is None:
                if lua_claim(text) is not None:
                    kind = None  # it claims KEYS[1]; what it deletes is another key (`del KEYS[2]`)
            if key is not None and kind is None and slot is None:
                arguments = get_arg(site.call, spec.token)
                items = [e.value for e in arguments.elements] if isinstance(arguments, (cst.List, cst.Tuple)) else None
                claim_spec = next((c for c in store.claims if c.form == "script"), None)
                # `script(keys=..., args=..., client=pipe)`: queued on a pipeline, answered by its execute().
                queued = any(a.keyword is not None and a.keyword.value == "client" for a in site.call.args)
                if text and claim_spec is not None and not queued:
                    claim = self._script_claim(
                        site, store, claim_spec, key, (text, items, maker.args[0].value), client=maker.func.value, client_scope=where
                    )
                    if claim is not None:
                        self.claims.append(claim)
                continue
            if kind is None or key is None:
                continue
            client = next((a.value for a in site.call.args if a.keyword is not None and a.keyword.value == "client"), None)
            client = client or held_by
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
                token=token,
                no_fix="" if lua_answers(text) else SILENT_SCRIPT,
                slot=slot is not None,
            )
            return [release]
        return []

    def _cached_maker(self, name: str, scope: Scope):
        """(the call, its scope) of the one `register_script(...)` a name bound more than once is
        given, its other bindings reads of a cache of it (`script = self._scripts[0]`, then
        `if not script: script = r.register_script(LUA)`)."""
        where = self.resolver.defining_scope(name, scope)
        values = where.bindings.get(name, []) if where is not None else []
        makers = []
        for value in values:
            inner = value.expression if type(value) is cst.Await else value
            if type(inner) is cst.Call and type(inner.func) is cst.Attribute and stores.script_object_specs(inner.func.attr.value):
                makers.append(value)
            elif not (
                type(inner) in (cst.Subscript, cst.Attribute)
                or (type(inner) is cst.Name and inner.value == "None")
                or (type(inner) is cst.Call and type(inner.func) is cst.Attribute and inner.func.attr.value == "get")
            ):
                return None
        return (makers[0], where) if len(makers) == 1 else None

    def _made_by_property(self, attr: str, scope: Scope):
        """(the call, its scope) a `@cached_property` (or `@property`) of the class returns:
        `def _release(self): return self._client.register_script(LUA)`."""
        method = self.resolver._enclosing_method(scope) if scope.cls is None else scope
        cls = method.cls if method is not None else None
        prop = cls.methods.get(attr) if cls is not None else None
        if prop is None or not _is_property(prop.node):
            return None
        from leaselint.model.summary import _returns

        returned = [r.value for r in _returns(prop.node) if r.value is not None]
        return (returned[0], prop) if len(returned) == 1 and type(returned[0]) is cst.Call else None

    def _registered_on(self, attr: str):
        """(the `register_script(...)` call, its scope) of the one `x.<attr> = x.register_script(LUA)`
        in the module, or None."""
        if self.registered is None:
            self.registered = {}
            makers = {spec.method for store in stores.STORES for spec in store.script_objects}
            for site in self.walker.calls:
                func = site.call.func
                if func.attr.value not in makers:  # type: ignore[union-attr]
                    continue
                statement = site.statement
                body = getattr(statement, "body", ())
                if type(statement) is cst.SimpleStatementLine and len(body) == 1 and type(body[0]) is cst.Assign:
                    target = body[0].targets[0].target
                    if body[0].value is site.call and type(target) is cst.Attribute:
                        self.registered.setdefault(target.attr.value, []).append((site.call, site.scope))
        found = self.registered.get(attr, [])
        return found[0] if len(found) == 1 or (found and all(f[0].args and found[0][0].args and self.resolver.code(f[0].args[0].value) == self.resolver.code(found[0][0].args[0].value) for f in found)) else None

    def _document_releases(self, site: CallSite, store, spec: ReleaseSpec) -> list[Release]:
        if store.recognised_only and not self._recognised(store, site):
            return []
        named = False
        call = self.spread(site.call, site.scope)
        if spec.form == "dynamo":
            bound = self.bound_dynamo(call, site.scope)
            if bound is not call:
                call, named = bound, True  # `condition = Attr("owner").eq(token)`, then `delete_item(..., condition)`
            document = documents.dynamo_release(call)
            entries = list(document.fields.items()) if document is not None else []
        elif spec.form == "mongo":
            bound = self._bound_document(call, site.scope)
            if bound is not call:
                call, named = bound, True  # `query = {"_id": key, "owner": token}`, then `delete_one(query)`
            document = documents.mongo_release(call)
            entries = [(document.key_field, document.key)] if document is not None else []
        elif spec.form == "orm":
            document = documents.orm_release(
                call,
                lambda node: self.manager_model(node, site.scope),
                lambda node: self.row_model(node, site.scope),
            )
            document = document if document is not None and (stores.lock_model_name(document.model) or document.cleared) else None
            entries = [(document.key_field, document.key)] if document is not None else []
        elif spec.form == "sql":
            text, params = self.sql_parts(call, site.scope)
            document = sql_rows.sql_release(text, params) if text is not None else None
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
            if spec.form == "sql":
                common["no_fix"] = stores.SQL_NO_FIX
            elif named:
                common["no_fix"] = NAMED_FILTER
            elif call is not site.call:
                common["no_fix"] = SPREAD
            if document.cleared and not common.get("no_fix"):  # type: ignore[union-attr]
                common["no_fix"] = "the release sets the holder's field back to free rather than deleting the row"
            found_releases.append(
                Release(
                    **common,
                    spec=spec,
                    checked=spec.checked or document.checked,  # type: ignore[union-attr]
                    usage="expression" if spec.form == "sql" and self.rowcount_read(site) else site.usage,
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
        if text is None or not DELETES.search(text):
            return None
        return "checked" if compares_argument(text) else "blind"

    def _string_value(self, node: cst.BaseExpression | None, scope: Scope) -> str | None:
        """The text of a script: a literal, or a name or `self` attribute set once to one."""
        if node is None:
            return None
        if isinstance(node, cst.Await):
            node = node.expression  # `sha = await r.script_load(LUA)`
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in stores.script_load_methods()
            and node.args
        ):
            return self._string_value(node.args[0].value, scope)  # `sha = r.script_load(LUA)`
        if isinstance(node, cst.Name):
            found = self.resolver.single_value(node.value, scope)
            return self._string_value(found[0], found[1]) if found else self._imported_script(node.value)
        if isinstance(node, cst.Attribute) and (
            self.resolver.is_self(node.value, scope) or self._names_the_class(node.value, scope)
        ):
            values = self.resolver.self_attr_values(node.attr.value, scope)
            if len(values) == 1 and values[0][0] is not None:
                return self._string_value(values[0][0], values[0][1])
        text = literal_string(node)
        return lua_plain(text) if text is not None else None

    def _imported_script(self, name: str) -> str | None:
        """The text of a script another module of the project holds (`from .scripts import UNLOCK`)."""
        dotted = self.walker.imports.get(name)
        if self.project is None or dotted is None:
            return None
        from leaselint.project import absolute

        entry = self.project[2].get(absolute(self.walker.import_levels.get(name, 0), dotted, self.project[0], self.project[1]))
        effects = entry[0][3] if entry is not None else ()
        return lua_plain(effects[0][2]) if effects and effects[0][0] == "script" else None

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
