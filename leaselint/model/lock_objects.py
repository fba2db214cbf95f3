"""Lock objects (`r.lock(...)`, `Lock(r, ...)`) and the lock classes of the module itself."""

from __future__ import annotations

import libcst as cst

from leaselint.diagnostics import Position
from leaselint.model import stores
from leaselint.model.answers import only_logged
from leaselint.model.call_parts import _is_none, _lock_constructors, get_arg, positional_args
from leaselint.model.events import Lease, LockObject, Release
from leaselint.model.pairing import one_life
from leaselint.model.scope import count_names, only_attributes_taken, reaching_value, Scope
from leaselint.model.traverse import nodes
from leaselint.model.stores import Arg, ClaimSpec, LockSpec, Store
from leaselint.model.walk import CallSite, dotted


class LockObjectsMixin:
    """The Classifier's part that tells these (see classify.py)."""

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

    def _untested_acquires(self) -> list[tuple]:
        """`lock.acquire(blocking=False)` (or with a `blocking_timeout`) on a lock library's object,
        whose answer is thrown away or kept in a name or attribute nothing reads: the code goes on
        as if it held the lock."""
        by_call = {id(lock.call): lock for lock in self.locks}
        found = []
        for site in self.walker.calls if by_call else ():
            func = site.call.func
            if func.attr.value != "acquire" or site.scope.is_test:  # type: ignore[union-attr]
                continue  # a test that tries a held lock asserts the library's answer
            lock = self._lock_of(func.value, site.scope, by_call, site.call)  # type: ignore[union-attr]
            if lock is None or not (_may_fail(site.call) or _may_fail(lock.call)):
                continue
            if site.usage in ("statement", "inline") or self._unread_answer(site):
                found.append((site.call, site.scope, lock, False))
            elif self._logged_only(site):
                found.append((site.call, site.scope, lock, True))
        return found

    def _lock_tokens(self) -> list[tuple]:
        """(token, call, scope, lock) of the holder tokens callers give lock objects, outside tests."""
        found = []
        for lock in self.locks:
            spec = lock.spec
            token = get_arg(lock.call, spec.token) if spec is not None and spec.token is not None else None  # type: ignore[attr-defined]
            if token is not None and not _is_none(token) and not lock.scope.is_test:
                found.append((token, lock.call, lock.scope, lock))
        by_call = {id(lock.call): lock for lock in self.locks if lock.spec is not None and lock.spec.acquire_token}  # type: ignore[attr-defined]
        for site in self.walker.calls if by_call else ():
            func = site.call.func
            if func.attr.value != "acquire" or site.scope.is_test:  # type: ignore[union-attr]
                continue
            lock = self._lock_of(func.value, site.scope, by_call, site.call)  # type: ignore[union-attr]
            if lock is None:
                continue
            token = next((a.value for a in site.call.args if a.keyword is not None and a.keyword.value == lock.spec.acquire_token), None)  # type: ignore[attr-defined]
            if token is not None and not _is_none(token):
                found.append((token, site.call, site.scope, lock))
        return found

    def _lock_of(self, receiver: cst.BaseExpression, scope: Scope, by_call: dict, use: cst.CSTNode | None = None):
        """The lock object `receiver` holds at `use`: its one value, or the one it was last given
        before `use` in straight-line code (`lock = None`, then `lock = r.lock(...)` in the `try`)."""
        if type(receiver) is cst.Name:
            value = self.resolver.single_value(receiver.value, scope)
            if value is None and use is not None and self.resolver.defining_scope(receiver.value, scope) is scope:
                reached = reaching_value(scope.node, use, receiver.value)
                if reached is None:
                    # Set back to None in an `except`: wherever it is a lock, it is that one.
                    made = self.resolver.value_unless_none(receiver.value, scope)
                    reached = made[0] if made is not None else None
                return by_call.get(id(reached)) if reached is not None else None
            return by_call.get(id(value[0])) if value is not None else None
        if type(receiver) is cst.Attribute and self.resolver.is_self(receiver.value, scope):
            values = self.resolver.self_attr_values(receiver.attr.value, scope)
            if len(values) == 1 and values[0][0] is not None:
                return by_call.get(id(values[0][0]))
            if len(values) > 1 and use is not None and scope.self_name is not None:
                reached = reaching_value(scope.node, use, receiver.attr.value, scope.self_name)
                return by_call.get(id(reached)) if reached is not None else None
        return None

    def _logged_only(self, site: CallSite) -> bool:
        """The answer is tested only by an `if` that logs a failure and goes on."""
        return only_logged(site.scope.node, site.call, self.walker.assigned.get(id(site.call)))

    def _unread_answer(self, site: CallSite) -> bool:
        """The answer is bound to a local nothing reads, or to an attribute nothing in the class reads."""
        name = self.walker.assigned.get(id(site.call))
        if name is not None:
            return count_names(site.scope.node, name) == 1
        statement = site.statement
        body = getattr(statement, "body", ())
        if not (type(statement) is cst.SimpleStatementLine and len(body) == 1 and type(body[0]) is cst.Assign):
            return False
        assign = body[0]
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        if assign.value is not site.call or type(target) is not cst.Attribute or not self.resolver.is_self(target.value, site.scope):
            return False
        method = self.resolver._enclosing_method(site.scope) if site.scope.cls is None else site.scope
        cls = method.cls if method is not None else None
        if cls is None:
            return False
        attr = target.attr.value
        written = len(cls.attrs.get(attr, []))
        taken = sum(
            1
            for node in nodes(cls.node, trivia=False)
            if type(node) is cst.Attribute and node.attr.value == attr and type(node.value) is cst.Name
        )
        return written > 0 and taken == written

    def _lock(self, call: cst.Call, scope: Scope, spec: LockSpec) -> None:
        if spec.method:
            site_receiver = call.func.value  # type: ignore[union-attr]
            fake = CallSite(call, scope, call, False, "expression")
            # A redis client by import or construction, or by its own name (the prefilter reads no more).
            strength = self.recognition(spec.client, site_receiver, scope)[0] if spec.client else 0
            if (
                not strength
                and spec.client is not None
                and type(site_receiver) is cst.Subscript
                and type(site_receiver.value) is cst.Name
                and self.walker.imports.get(site_receiver.value.value) in spec.client.client_registries
            ):
                strength = 1  # an item of a mapping of the store's clients (`caches["default"]`)
            if not strength or self.resolver.is_self(site_receiver, scope):
                return
            if any(self._recognised(store, fake) and store is not spec.client and store.locks_checked for store in stores.STORES):
                return
        if spec.class_keyword and any(a.keyword is not None and a.keyword.value == spec.class_keyword for a in call.args):
            return
        given = [get_arg(call, where) for where in spec.lifetime]
        has_lifetime = (
            spec.default_lifetime
            or any(
                not _is_none(node) and not self.forever_by_default(node, scope, ("None",)) for node in given if node is not None
            )
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
                spec=spec,
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
        locks: dict[tuple, list[LockObject]] = {}
        for lock in self.locks:
            if lock.key_shape is not None:
                locks.setdefault((lock.receiver_shape, lock.key_shape), []).append(lock)
        return [
            r
            for r in self.releases
            if not r.checked
            and not r.deliberate
            and id(r) not in leased
            and any(one_life(lock.scope, r.scope, self.called) for lock in locks.get((r.receiver_shape, r.key_shape), ()))
        ]

    def lock_key_renewals(self, leases: list[Lease]) -> list:
        """Lifetimes set on a key a lock object of this module stands on (`r.pexpire(LOCK_KEY, ms)`
        beside `r.lock(LOCK_KEY, timeout=60)`): a renewal that checks no holder."""
        renewed = {id(e) for lease in leases for e in (*lease.renewals, *lease.expiries)}
        locks: dict[tuple, list[LockObject]] = {}
        for lock in self.locks:
            # A lock made on the caller's key (`def lock(self, key): return client.lock(key)`) is a
            # store API's, as an expire of a key the function is handed is.
            if lock.key_shape is not None and not _handed_key(lock.key, lock.scope):
                locks.setdefault((lock.receiver_shape, lock.key_shape), []).append(lock)
        if not locks:
            return []
        return [
            e
            for e in self.expiries
            if id(e) not in renewed
            and not e.scope.is_test
            and not _handed_key(e.key, e.scope)
            and any(lock.scope is not e.scope and one_life(lock.scope, e.scope, self.called) for lock in locks.get((e.receiver_shape, e.key_shape), ()))
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


def _handed_key(key, scope: Scope) -> bool:
    """The key is a parameter of the function, as its caller named it."""
    return type(key) is cst.Name and key.value in scope.params


def _may_fail(call: cst.Call) -> bool:
    """The acquire (or the lock it is made with) does not wait for ever: `blocking=False`, or a
    `blocking_timeout` that is not None."""
    for arg in call.args:
        if arg.keyword is None:
            continue
        if arg.keyword.value == "blocking" and type(arg.value) is cst.Name and arg.value.value == "False":
            return True
        if arg.keyword.value == "blocking_timeout" and not _is_none(arg.value):
            return True
    return False
