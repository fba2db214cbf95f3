"""Claims made by a read, then a write: a WATCH/MULTI transaction's plain write after a test that the
key is absent, and a get-then-set outside a transaction (LL009)."""

from __future__ import annotations

import libcst as cst

from leaselint.model import stores
from leaselint.model.call_parts import (
    _absence_test,
    _block_of,
    _EVENT_FIELDS,
    _exits,
    _in_block_after,
    expiry_after,
    _leaves_unless_mine,
    _polarity,
    get_arg,
)
from leaselint.model.events import Claim, Read, ReadCheck, Write
from leaselint.model.pairing import _names_a_lock
from leaselint.model.scope import contains, contains_call_or_name
from leaselint.model.values import STORE_COUNTER, UNKNOWN
from leaselint.model.walk import CallSite


class ReadClaimsMixin:
    """Turns writes into claims where a read before them makes them conditional."""

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
            no_fix="the claim is a WATCH/MULTI transaction",
        )

    def _read_claims(self) -> None:
        """`if not r.get(key): r.set(key, token, ex=30)`, or `if r.exists(key): return` before the set:
        a claim made by reading and then writing, outside a transaction (LL009). The write becomes a
        claim, paired and checked like any other; its value must be one a claim stores (a constant, a
        token, a clock), not a computed result (a cache filled on a miss)."""
        reads: dict[int, list] = {}
        names = {m for store in stores.STORES for m in (*store.absence_reads, *store.optimistic_reads)}
        for site in self.walker.calls:
            if site.call.func.attr.value in names and len(site.call.args) == 1:  # type: ignore[union-attr]
                reads.setdefault(id(site.scope), []).append(site)
        for read in self.reads:
            if read.via is not None:
                # `if is_job_active(job_id): raise`: a read made through the project's own helper.
                reads.setdefault(id(read.scope), []).append(read)
        transactions = {id(site.scope) for _, site in self.transaction_calls}
        kept = []
        for write in self.writes:
            claim = None
            if id(write.scope) in reads and id(write.scope) not in transactions and not write.scope.is_test:
                claim = self._read_claim(write, reads[id(write.scope)])
            if claim is not None:
                self.paired_claims.append(claim)
            elif write.via is None:
                kept.append(write)  # (a helper's write the caller does not claim by is the helper's own)
        self.writes = kept

    def _read_claim(self, write: Write, sites: list[CallSite]) -> Claim | None:
        store = write.store
        site = self.sites.get(id(write.call)) if write.via is None else None
        best = 0
        for other in stores.STORES if site is not None else ():
            # A cache client known by its import (`from django.core.cache import cache`) is that cache's.
            if other.recognised_only and other is not store and any(w.method == write.method for w in other.writes):
                score = self.recognition(other, site.call.func.value, site.scope)[0] if site is not None else 0  # type: ignore[union-attr]
                if score > best:
                    store, best = other, score
        if not (store.absence_reads or store.optimistic_reads) or write.value is None:
            return None
        written = write.spec.method if write.via is not None and write.spec is not None else write.method
        if all(w.method != written for w in store.writes):
            return None
        if write.via is None and write.method == "set" and sum(a.keyword is None for a in write.call.args) > 4:
            return None  # `set(k, v, ex, px, nx)`: options given by position
        for site in sites:
            call = site.call
            if type(site) is Read:
                # Through a helper: its event carries the client, the key and the store's read.
                method = site.spec.method if site.spec is not None else ""
                if site.start.line > write.start.line or site.receiver_shape != write.receiver_shape or site.key_shape != write.key_shape:
                    continue
                if method not in (*store.absence_reads, *store.optimistic_reads):
                    continue
            else:
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
            found = self._guarding_if(write, call, method in store.absence_reads, type(site) is Read and site.absent)
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
            if write.via is not None:
                has_lifetime = spec.default_lifetime or write.has_lifetime  # (the helper's own arguments)
            fields = {f: getattr(write, f) for f in _EVENT_FIELDS if f != "no_fix"}
            fields["store"] = store
            return Claim(
                **fields,
                spec=spec,
                value=write.value,
                value_origin=write.value_origin,
                has_lifetime=has_lifetime,
                expiry_after=self._helper_expiry(write) if not has_lifetime and write.inside is not None else None,
                read_check=ReadCheck(call, branch, exact),
                no_fix="the claim is a read, then a plain write (LL009)",
            )
        return None

    def _helper_expiry(self, write: Write):
        """The `expire` of the key after the write in the module's own helper the write is made in
        (`redis.set(key, user)`, then `redis.expire(key, ttl)`): its lifetime's second call."""
        own = next((w for w in self.writes if w.via is None and w.start == write.inside[0]), None)  # type: ignore[index]
        return expiry_after(self.expiries, own) if own is not None else None

    def _claim_value(self, write: Write) -> bool:
        """The write stores what a claim stores (a constant, a token, a clock), or its key or function
        names a lock; not a value of unknown origin (a result a cache keeps)."""
        if write.value_origin is not None or self.origins is None:
            return True
        origin = self.origins.origin(write.value, write.scope)  # type: ignore[arg-type]
        if origin.kind != UNKNOWN and origin.reason != STORE_COUNTER:
            return True  # (a number the store's counter hands out is a sequence's, not a holder's)
        value = write.value
        held = value.value if type(value) is cst.Name else value.attr.value if type(value) is cst.Attribute else ""
        if any(word in held.lower() for word in stores.HOLDER_VALUE_NAMES):
            return True  # `r.set(key, token, ex=60)`: a name for who holds it
        name = write.scope.name.lower()
        return _names_a_lock(write.key_shape) or any(word in name for word in stores.LOCK_KEY_WORDS)

    def _guarding_if(self, write: Write, call: cst.Call, presence: bool, inverted: bool = False) -> tuple[cst.If, bool] | None:
        """The `if` that lets the write run only when `call` found the key absent: the write inside an
        `if` testing absence (`if not r.get(key):`), or right after an `if` testing presence whose body
        leaves (`if r.exists(key): return False`). With whether the test is exact (presence itself, or
        a compare with None, not the truth of a stored value)."""
        name = self.walker.assigned.get(id(call))
        if name is not None and contains_call_or_name(write.value, None, name):  # type: ignore[arg-type]
            return None  # `set(key, int(old) + 1)` updates the value it read
        for test, scope in self.walker.branch_tests_of(write.scope):
            if not contains_call_or_name(test, call, name):
                continue
            branch = self.walker.if_tests.get(id(test))
            polarity = _polarity(test, call, name, inverted)  # (inverted: a helper answering "free")
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
            # `while ...: if r.get(key): sleep(1) else: break`, then the write: the loop is left when
            # the key is found absent.
            leaving = branch.body if absent else (branch.orelse.body if isinstance(branch.orelse, cst.Else) else None)
            if leaving is not None and _breaks(leaving) and not contains(branch, write.call):
                # The innermost loop around the test: the one its `break` leaves.
                around = [node for node in _loops(write.scope.node) if contains(node.body, branch)]
                loop = around[-1] if around else None
                if loop is not None and not contains(loop, write.call) and _in_block_after(loop, write.statement, write.scope.node):
                    return branch, exact
            if (
                not absent
                and branch.orelse is None
                and (_exits(branch.body) or _leaves_unless_mine(branch.body, name))
                and not contains(branch, write.call)
            ):
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
            for test, scope in self.walker.branch_tests_of(write.scope):
                if contains_call_or_name(test, call, name):
                    if not (exists or _absence_test(test, call, name)):
                        continue
                    branch = self.walker.if_tests.get(id(test))
                    # The write happens only one way: inside the `if`, or after one that leaves
                    # (`if pipe.exists(key): return False`); not after `if old is None: old = 0`.
                    if branch is not None and (contains(branch, write.call) or _exits(branch.body)):
                        return True
        return False


def _breaks(block) -> bool:
    """The block leaves its loop by `break` (not one of a loop inside it)."""
    stack = [block]
    while stack:
        node = stack.pop()
        if type(node) is cst.Break:
            return True
        if type(node) in (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        stack.extend(node.children)
    return False


def _loops(function) -> list:
    """The `for` and `while` loops of a function, each after the loops around it, not those of
    functions inside it."""
    found, stack = [], [function.body] if hasattr(function, "body") else []
    while stack:
        node = stack.pop()
        if type(node) in (cst.For, cst.While):
            found.append(node)
        if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        stack.extend(reversed(node.children))
    return found
