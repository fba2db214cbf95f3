"""The store table applied to the walk: calls become claims, releases, reads, writes and expiries."""

from __future__ import annotations

import dataclasses

import libcst as cst

from leaselint.diagnostics import Position
from leaselint.model import stores
from leaselint.model.call_parts import _command_words, _lock_methods, get_arg, positional_args, by_default
from leaselint.model.claims import ClaimsMixin
from leaselint.model.events import Claim, Expire, LockObject, Read, Release, Write
from leaselint.model.keys import abstract as _abstract, free_names, Resolver
from leaselint.model.lock_objects import LockObjectsMixin
from leaselint.model.pairing import Called
from leaselint.model.read_claims import ReadClaimsMixin
from leaselint.model.recognition import RecognitionMixin
from leaselint.model.releases import ReleasesMixin, _indexed
from leaselint.model.sql_rows import SqlMixin
from leaselint.model.scope import contains, contains_call_or_name, count_names, Scope
from leaselint.model.stores import Store, WriteSpec
from leaselint.model.traverse import nodes
from leaselint.model.walk import CallSite, Walker


HANDED = "the store method is called through a name bound to it or a runner it is handed to"


class Classifier(RecognitionMixin, LockObjectsMixin, ClaimsMixin, ReadClaimsMixin, ReleasesMixin, SqlMixin):
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
        # Claims of another module's lease, made inside a helper with the token this module passes.
        self.passed_claims: list[Claim] = []
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
        self.lambda_claims: list[tuple] = []
        self.untested_acquires: list[tuple] = []
        self.ignored_releases: list[tuple] = []
        # (id of a class, method) -> line: a lock class's methods that answer a lost lease, and those
        # that can answer a failed claim when called with no arguments (for other modules' callers).
        self.answering_methods: dict[tuple[int, str], int] = {}
        self.failing_methods: dict[tuple[int, str], int] = {}
        # (call, scope, method, "path:line") of another module's lock class's method thrown away.
        self.summarised_ignored: dict[str, list] = {"answers": [], "fails": []}
        # attribute name -> the `x.<attr> = x.register_script(...)` calls of the module (releases.py).
        self.registered: dict | None = None
        self.unawaited_lock_releases: list[tuple] = []
        # Receiver id, or (scope id, receiver name) -> the methods called on it (see _only_asked).
        self.methods_on: dict | None = None
        # scope id -> the names of the functions and methods it (or a function inside it) calls.
        self.called: dict[int, set[str]] = Called()
        self.called.__dict__["module"] = id(walker.module_scope)

    def _own_client_class(self, shape) -> str | None:
        """The project's own class a client is an object of (`store = RedisClient()`, a wrapper whose
        `set` and `delete` hand on to the store's), written in this module and deriving from nothing
        imported, or imported from another module of the project: a fix would call a method of the
        store's (`eval`) that the class may not have."""
        if type(shape) is not tuple or len(shape) != 3 or shape[0] != "call":
            return None
        made = shape[1]
        if type(made) is tuple and len(made) == 3 and made[0] == "attr" and made[1][:1] == ("name",):
            made = made[1]  # `KV.from_env()`: a classmethod that makes the class's object
        elif type(made) is tuple and made[:1] == ("name",) and made[1] in self._module_functions():
            # `get_kv()`: a function of the module that makes one of the module's classes.
            from leaselint.model.summary import _made_class, _returns

            function = self._module_functions()[made[1]]
            classes = {
                _made_class(r.value, function, self.walker.module_scope)
                for r in _returns(function.node)
                if r.value is not None
            }
            name = classes.pop() if len(classes) == 1 else None
            made = ("name", name) if name is not None else None
        if type(made) is not tuple or made[:1] != ("name",):
            return None
        by_name = self.__dict__.get("_classes_by_name")
        if by_name is None:
            by_name = self.__dict__["_classes_by_name"] = {}
            for info in self.walker.classes:
                by_name.setdefault(info.name, []).append(info)
        found = by_name.get(made[1], [])
        if not found:
            # A class of another module of the project (what it derives from is not read here).
            imported = self.walker.imports.get(made[1])
            if imported is None or not made[1][:1].isupper() or _store_module_path(imported):
                return None  # (`from .pymemcache import Client`: a store's client kept in the project)
            module = imported.rpartition(".")[0] + "."
            functions = self.project[2] if self.project is not None else {}
            own = self.walker.import_levels.get(made[1], 0) > 0 or any(name.startswith(module) for name in functions)
            return made[1] if own else None
        if len(found) != 1 or any(base.split(".")[0] in self.walker.imports for base in found[0].bases):
            return None
        return made[1]

    def _calls(self, scope: Scope, name: str) -> None:
        if scope.parent is None:
            self.called.__dict__.setdefault("at_top", set()).add(name)
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
        if self.claims and self.releases:
            self._claim_families()
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
        summarised = {id(r.call) for r in self.releases if r.via is not None}
        self.answered_calls = [r for r in self._answered_by_methods() if id(r.call) not in summarised]
        self.unawaited_lock_releases = self._unawaited_lock_releases()
        self.ignored_claims = self._ignored_claim_calls() + self.summarised_ignored["fails"]
        self.lambda_claims = self._dropped_lambda_claims()  # kept where the claim is a lease's (build.py)
        self.untested_acquires = self._untested_acquires()
        self.ignored_releases = self._ignored_release_calls() + self.summarised_ignored["answers"]
        if self.walker.handed:
            for event in (*self.claims, *self.paired_claims, *self.releases, *self.writes, *self.expiries):
                if id(event.call) in self.walker.handed and not event.no_fix:
                    event.no_fix = HANDED
        for claim in (*self.claims, *self.paired_claims):
            names = {n.value for n in (claim.receiver, claim.key) if type(n) is cst.Name}
            if not claim.no_fix and names & claim.scope.declared_global:
                # A fix would hand the token from the claim's function to the release's, whose callers
                # pass nothing: the lease lives in the module's globals.
                claim.no_fix = "the lease is held in module globals that a function sets"
        for event in (*self.releases, *self.expiries):
            # (A release's and a renewal's fixes call the store's `eval`; a claim's change its arguments.)
            if not event.no_fix and event.via is None:
                wrapper = self._own_client_class(event.receiver_shape)
                if wrapper is not None:
                    event.no_fix = f"`{wrapper}` is the project's own client class, whose methods a fix cannot know"
        for release in self.answered_calls:
            release.after_failed_claim = self._after_failed_claim(release)
        for release in self.releases:
            release.after_failed_claim = self._after_failed_claim(release)
            release.transactional = self._after(release, "multi")
            if release.transactional:
                reads = _indexed(self, "reads", lambda read: (id(read.scope), read.receiver_shape, read.key_shape))
                release.watched_compare = any(
                    read.start <= release.start and self._check_of(read) is not None
                    for read in reads.get((id(release.scope), release.receiver_shape, release.key_shape), ())
                )
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
        if any(arg.keyword is not None and arg.keyword.value in stores.TRANSACTION_KEYWORDS for arg in site.call.args):
            return  # `client.delete(key, transaction=t)`: an operation of a transaction its store applies whole
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
            least = 1 + (spec.field is not None)
            if key is not None and least <= positional <= least + (spec.default is not None) and (member is not None) == (spec.field is not None):
                common, in_pipeline = self._common(site, store, key, member=member)
                self.reads.append(Read(**common, spec=spec))
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
                self.expiries.append(Expire(**common, ttl=ttl, unit=spec.unit, usage=site.usage, in_pipeline=in_pipeline, spec=spec))
                break
        if method == "update_item":
            self._document_renewal(site)
        spec = _lock_methods().get(method)
        if spec is not None and site.call.args:
            self._lock(site.call, site.scope, spec)
            return
        self._constructed_lock(site.call, site.scope)

    def _claim_families(self) -> None:
        """A client known by its name alone (`cache`) is one object: a release on it takes the family of
        the claims made on it (`cache.add` read as Django's, `cache.delete` first as redis-py's)."""
        families: dict = {}
        for claim in self.claims:
            if claim.via is None and claim.document is None:
                families.setdefault(claim.receiver_shape, set()).add(id(claim.store))
        stores_by_id = {id(claim.store): claim.store for claim in self.claims}
        for index, release in enumerate(self.releases):
            found = families.get(release.receiver_shape)
            if not found or id(release.store) in found or len(found) != 1 or release.via is not None:
                continue
            store = stores_by_id[next(iter(found))]
            site = self.sites.get(id(release.call))
            if site is None or max(self.recognition(s, site.call.func.value, site.scope)[0] for s in (store, release.store)) > 1:
                continue
            method = site.call.func.attr.value
            for other, spec in stores.release_specs(method):
                if other is store:
                    again = self._releases(site, store, spec)
                    if len(again) == 1:
                        self.releases[index] = again[0]
                    break

    def _command_words(self, call: cst.Call) -> list[str]:
        found = self.words.get(id(call))
        if found is None:
            found = self.words[id(call)] = _command_words(call)
        return found

    def _document_renewal(self, site: CallSite) -> None:
        """DynamoDB's `update_item` that sets only its item's times, with no holder in its condition:
        a renewal that checks nothing (LL010, no fix)."""
        from leaselint.model import documents

        for store in stores.STORES:
            if not any(spec.method == "update_item" and spec.form == "dynamo" for spec in store.claims):
                continue
            if not self._recognised(store, site):
                return
            document = documents.dynamo_renewal(self.bound_dynamo(site.call, site.scope))
            if document is None or document.checked or document.key is None:
                return
            common, in_pipeline = self._common(site, store, document.key, document, document.key_field)
            common["no_fix"] = "no token-checked renewal is written for DynamoDB"
            self.expiries.append(Expire(**common, ttl=None, unit="", usage=site.usage, in_pipeline=in_pipeline))
            return

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

    def _dropped_lambda_claims(self) -> list[tuple]:
        """`acquire_lock = lambda: cache.add(lock_id, "true", ttl)`, then `acquire_lock()` as a
        statement: the claim's answer is dropped where the name is called."""
        found = []
        for claim in self.claims:
            scope = claim.scope
            names = [
                name
                for name, values in scope.bindings.items()
                if len(values) == 1 and type(values[0]) is cst.Lambda and values[0].body is claim.call
            ]
            for name in names:
                for call, where in self.walker.name_calls.get(name, ()):
                    if where is scope and not call.args and self.walker.statement_calls.get(id(call)) == "statement":
                        found.append((call, where, name, claim.start.line, claim))
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
        returned) that no test of its own parameters guards (`if not blocking: return False`). The
        answer composes through the class's own methods (`acquire` returns what `_try_acquire` said)."""
        from leaselint.model.summary import _returns

        # (class, method) -> the failing return's line: whatever the caller passes, and by default.
        failing: dict[tuple[int, str], int] = {}
        by_default: dict[tuple[int, str], int] = {}

        def judge(scope: Scope, call: cst.Call, result_name: str | None) -> bool:
            where = (id(scope.cls), scope.name)
            returns = _returns(scope.node)
            line = self._failing_return(scope, call, result_name, returns)
            if line is not None:
                failing[where] = line
            line = line or self._failing_return(scope, call, result_name, returns, defaults=True)
            if line is not None:
                by_default[where] = line
            return line is not None

        for claim in self.claims:
            scope = claim.scope
            if scope.cls is None:
                scope = self.resolver._enclosing_method(scope) or scope  # a retried inner `_acquire()`
            if scope.cls is None or scope.self_name is None or scope.is_test or (id(scope.cls), scope.name) in by_default:
                continue
            if free_names(claim.key_shape) & set(scope.params):
                continue  # a store API of its own (`def add(self, key, value)`): its caller's key, no lease
            judge(scope, claim.call, claim.result_name)
        for _ in range(3):
            grown = False
            for site in self.walker.calls if by_default else ():
                scope = site.scope if site.scope.cls is not None else self.resolver._enclosing_method(site.scope)
                if scope is None or scope.cls is None or site.usage == "statement" or scope.is_test:
                    continue
                func = site.call.func
                if (id(scope.cls), scope.name) in by_default or not self.resolver.is_self(func.value, site.scope):  # type: ignore[union-attr]
                    continue
                callee = (id(scope.cls), func.attr.value)  # type: ignore[union-attr]
                if callee in failing or (callee in by_default and not site.call.args):
                    grown = judge(scope, site.call, self.walker.assigned.get(id(site.call))) or grown
            if not grown:
                break
        self.failing_methods = {(cls_id, name): line for (cls_id, name), line in by_default.items()}
        found = []
        classes = {info.name: info for info in self.walker.classes}
        for site in self.walker.calls if by_default else ():
            func = site.call.func
            cls = site.scope.cls
            if site.usage != "statement" or site.scope.is_test:
                continue
            if not self.resolver.is_self(func.value, site.scope):  # type: ignore[union-attr]
                # `lock = KeyLock(key)`, then `lock.acquire()`: an object of the module's own class.
                made = self.resolver.value_unless_none(func.value.value, site.scope) if type(func.value) is cst.Name else None  # type: ignore[union-attr]
                value = made[0] if made is not None else None
                if not (type(value) is cst.Call and type(value.func) is cst.Name and value.func.value in classes):
                    continue
                cls = classes[value.func.value]
                where = (id(cls), func.attr.value)  # type: ignore[union-attr]
                line = failing.get(where) if site.call.args else by_default.get(where)
                if line is not None and not self._state_tested(site.scope, cls.methods.get(func.attr.value)):  # type: ignore[union-attr]
                    found.append((site.call, site.scope, func.attr.value, line))  # type: ignore[union-attr]
                continue
            if cls is None:
                continue
            where = (id(cls), func.attr.value)  # type: ignore[union-attr]
            if where not in by_default and _abstract(cls.methods.get(func.attr.value)):
                # A base class's `__enter__` calling `self.acquire()` that its one subclass writes.
                subs = [info for info in self.walker.classes if cls.name in info.bases and (id(info), where[1]) in by_default]
                if len(subs) == 1:
                    where = (id(subs[0]), where[1])
            line = failing.get(where) if site.call.args else by_default.get(where)
            if line is None or site.scope.name == func.attr.value:  # type: ignore[union-attr]
                continue
            if self._state_tested(site.scope, cls.methods.get(func.attr.value)):  # type: ignore[union-attr]
                continue  # `if self.token is None: raise`: the caller asks the object instead
            found.append((site.call, site.scope, func.attr.value, line))  # type: ignore[union-attr]
        return found

    def _ignored_release_calls(self) -> list[tuple]:
        """`self.release()` as a statement (a `__exit__`) in a class named for a lock, where the class's
        release answers what the store said (`released = self._script(...)`, `return released`), through
        any number of its own methods: the caller throws away the news of a lost lease."""
        from leaselint.model.summary import _returns

        answering: dict[tuple[int, str], int] = {}
        methods = [
            scope
            for scope in self.walker.scopes
            if scope.cls is not None and scope.self_name is not None and not scope.cls.is_test
            and stores.lock_shaped(scope.cls.name, scope.cls.methods)
        ]
        for _ in range(4):
            grown = False
            for scope in methods:
                where = (id(scope.cls), scope.name)
                if where not in answering:
                    line = self._store_answer(scope, _returns(scope.node), answering)
                    if line is not None:
                        answering[where] = line
                        grown = True
            if not grown:
                break
        self.answering_methods = dict(answering)
        known = {id(r.call) for r in self.answered_calls}
        found = []
        classes = {info.name: id(info) for info in self.walker.classes if not info.is_test} if answering else {}
        for site in self.walker.calls if answering else ():
            func = site.call.func
            name = func.attr.value  # type: ignore[union-attr]
            if site.usage not in ("statement", "operand") or id(site.call) in known or site.scope.is_test:
                continue
            if not any(word in name.lower() for word in ("release", "unlock")) or site.scope.name == name:
                continue
            if site.scope.cls is not None and self.resolver.is_self(func.value, site.scope):  # type: ignore[union-attr]
                cls_id = id(site.scope.cls)
            else:
                # An object of the module's own lock class (`lock = JobLock(...)`, `self.lock = JobLock(...)`).
                cls_id = self._instance_of(func.value, site.scope, classes)  # type: ignore[union-attr]
            line = answering.get((cls_id, name)) if cls_id is not None else None
            if line is not None:
                found.append((site.call, site.scope, name, line))
        return found

    def _instance_of(self, node: cst.BaseExpression, scope, classes: dict) -> int | None:
        """The id of the module's class whose instance `node` is, by its one binding to `Class(...)`."""
        value = None
        if type(node) is cst.Name:
            found = self.resolver.value_unless_none(node.value, scope)  # `lock = None`, then `lock = JobLock(...)`
            value = found[0] if found is not None else None
        elif type(node) is cst.Attribute and type(node.value) is cst.Name and self.resolver.is_self(node.value, scope):
            held = self.resolver.self_attr_values(node.attr.value, scope)
            value = held[0][0] if len(held) == 1 else None
            where = held[0][1] if len(held) == 1 else None
            if type(value) is cst.Name and where is not None and where.name == "__init__" and where.cls is not None:
                # `self.lock = lock` of `__init__(self, lock)`: what the module's constructions pass.
                return self._constructed_with(where, value.value, classes)
        if type(value) is cst.Call and type(value.func) is cst.Name:
            return classes.get(value.func.value)
        return None

    def _constructed_with(self, init, param: str, classes: dict) -> int | None:
        """The class of what every `Class(...)` call of the module passes as `param` of its
        `__init__` (`AcquireProxy(lock=self)` in a method of the lock class), when it is one."""
        params = [name for name in init.params if name != init.self_name]
        if param not in params:
            return None
        found = set()
        for call, caller in self.walker.name_calls.get(init.cls.name, []):
            given = [a.value for a in call.args if a.keyword is not None and a.keyword.value == param]
            positional = [a.value for a in call.args if a.keyword is None and not a.star]
            if not given and len(positional) > params.index(param):
                given = [positional[params.index(param)]]
            if not given:
                return None
            value = given[0]
            if type(value) is cst.Name and self.resolver.is_self(value, caller):
                method = caller if caller.cls is not None else self.resolver._enclosing_method(caller)
                found.add(id(method.cls) if method is not None and method.cls is not None else None)
            else:
                found.add(self._instance_of(value, caller, classes) if type(value) is cst.Name else None)
        return found.pop() if len(found) == 1 else None

    def _store_answer(self, scope: Scope, returns: list, answering: dict) -> int | None:
        """The line of a return that hands back a store's answer: a name bound to a call's result, a
        test of one, `False` under a test of one, or what another answering method of the class says."""
        answers: set[str] = set()
        for name, values in scope.bindings.items():
            if len(values) == 1 and values[0] is not None and self._outside_call(values[0], scope, answering):
                answers.add(name)

        def says(node: cst.CSTNode) -> bool:
            if self._outside_call(node, scope, answering):
                return True
            return any(type(n) is cst.Name and n.value in answers for n in nodes(node, trivia=False))

        guards = [n for n in nodes(scope.node, trivia=False) if type(n) is cst.If]
        for guard in guards:
            test = guard.test
            if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not and says(test.expression):
                if any(type(n) in (cst.Call, cst.Raise) for n in nodes(guard.body, trivia=False)):
                    return None  # `if not ok: log.warning(...)`: the method tells of a lost lease itself
        for node in returns:
            value = node.value
            if value is None or (type(value) is cst.Name and value.value == "None"):
                continue
            if type(value) is cst.Name and value.value in ("False", "True"):
                # `if released: return True` (then `return False`): the answer, told by branch.
                if any(contains(guard.body, node) and says(guard.test) for guard in guards):
                    return self.positions[node].start.line
                continue
            if says(value):
                return self.positions[node].start.line
        return None

    def _outside_call(self, node: cst.CSTNode, scope: Scope, answering: dict) -> bool:
        """`node` holds a call to another object (a store, a script), or to a method of the class that
        answers: not a call of a builtin or of a method of the class that does not."""
        for n in nodes(node, trivia=False):
            if type(n) is not cst.Call:
                continue
            func = n.func
            if type(func) is cst.Attribute and self.resolver.is_self(func.value, scope) and func.attr.value in scope.cls.methods:  # type: ignore[union-attr]
                if (id(scope.cls), func.attr.value) in answering:
                    return True
                continue
            if type(func) is cst.Attribute:
                return True
        return False

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

    def _failing_return(self, scope: Scope, call: cst.Call, result_name: str | None, returns: list, defaults: bool = False) -> int | None:
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

        claim_nodes = {id(n) for n in nodes(call, trivia=False)}

        def chosen(test: cst.CSTNode, names=settings) -> bool:
            for n in nodes(test, trivia=False):
                if id(n) in claim_nodes:
                    continue  # `if not r.set(self.name, ...)`: the claim's own key is no caller's choice
                if type(n) is cst.Name and n.value in names:
                    return True
                if type(n) is cst.Attribute and n.attr.value in made_from and self.resolver.is_self(n.value, scope):
                    return True
            return False

        params = set(settings)

        def closed(test: cst.BaseExpression) -> bool:
            """The guard keeps the return shut: for a caller's choice; with `defaults`, for a caller
            that passes nothing (`if timeout is not None:` with `timeout=10` is open)."""
            if not chosen(test):
                return False
            if not defaults:
                return True
            value = by_default(test, scope.node)
            # Unknown: shut only by a parameter itself, not by a deadline made of one.
            return value is False or (value is None and chosen(test, params))

        for name, values in scope.bindings.items():
            if len(values) == 1 and values[0] is not None and chosen(values[0]):
                settings.add(name)
        guards = [n for n in nodes(scope.node, trivia=False) if type(n) is cst.If]
        for node in returns:
            value = node.value
            fails = (isinstance(value, cst.Name) and value.value == "False") or (
                value is not None and (contains_call_or_name(value, call, result_name))
            )
            if not fails:
                continue
            guarded = any(contains_call_or_name(guard.body, node, None) and closed(guard.test) for guard in guards)
            if not guarded:
                return self.positions[node].start.line
        return None

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
        return Write(**common, value=value, has_lifetime=any(get_arg(site.call, arg) is not None for arg in spec.lifetime), spec=spec)

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
        receiver_shape = self.resolver.client_shape(receiver, receiver_scope)
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


def _store_module_path(dotted: str) -> bool:
    """A dotted path through a module named for a store's client (`app.vendor.pymemcache.Client`)."""
    from leaselint.project import _store_modules

    return bool(set(dotted.split(".")[:-1]) & _store_modules())
