"""What the model hands to rules: claims and releases of leases, with their nodes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Hashable

import libcst as cst

from leaselint.diagnostics import Position

if TYPE_CHECKING:
    from leaselint.model.documents import Document
    from leaselint.model.keys import Resolver
    from leaselint.model.scope import Scope
    from leaselint.model.values import Origin
    from leaselint.model.values import Origins
    from leaselint.model.stores import ClaimSpec, ExpireSpec, ReadSpec, ReleaseSpec, Store, WriteSpec

Shape = Hashable


@dataclass(eq=False)
class Event:
    store: Store
    call: cst.Call
    receiver: cst.BaseExpression
    receiver_shape: Shape
    key: cst.BaseExpression
    key_shape: Shape
    scope: Scope
    # The statement the call belongs to (a line, or the header of a compound statement).
    statement: cst.CSTNode
    # True when a new statement can be put right before `statement`.
    insertable: bool
    awaited: bool
    start: Position
    end: Position
    # The call that made the client (`Client(..., default_noreply=False)`), when it can be seen.
    client_call: cst.Call | None = None
    # Made by a call to a function of another module of the project, which claims or releases on the
    # caller's key (`release_lock(key)`): that function, as "`release_lock` (app/locks.py:12)".
    via: str | None = None
    # Why no fix may touch this event, or "": a claim a WATCH/MULTI transaction makes, a value written
    # inside a Lua script, keys named in a list (coredis).
    no_fix: str = ""
    # The client answers with coroutines: it is made by an asyncio client's module, or (for a release)
    # a claim of its lease is awaited.
    coroutine: bool = False
    # For a field of a hash (`hsetnx(name, field, value)`): the field; `key` is the hash.
    field: cst.BaseExpression | None = None
    # Made through a function of this module (`via`): where that function's own call is (start, end),
    # which is where the finding goes, the caller's call beside it.
    inside: tuple | None = None

    @property
    def method(self) -> str:
        func = self.call.func
        if isinstance(func, cst.Attribute):
            return func.attr.value
        return func.value if isinstance(func, cst.Name) else ""  # a script object: `unlock(keys=[k])`


@dataclass(eq=False)
class Claim(Event):
    spec: ClaimSpec = None  # type: ignore[assignment]
    value: cst.BaseExpression | None = None
    has_lifetime: bool = False
    # The literal lifetime, when the call names one (`ex=30`, `cache.add(k, v, 0.5)`).
    lifetime: cst.BaseExpression | None = None
    # "statement" when the result is thrown away, "expression" when the code uses it.
    usage: str = "expression"
    # The name the result is assigned to, and how often the function reads that name.
    result_name: str | None = None
    result_reads: int = 0
    # For claims inside a document (DynamoDB, MongoDB, etcd): the fields read from it.
    document: Document | None = None
    # Queued on a pipeline: its answer comes from the pipeline's execute().
    in_pipeline: bool = False
    # ... and that execute() is read in the claim's function.
    pipeline_read: bool = False
    # The answer is read only by an `if` that logs a failure and goes on (`if not got: log.warning(...)`).
    logged_only: bool = False
    # What the claim answers on success is not known (a script that reads, then writes when absent).
    answer_unknown: bool = False
    # The exception names caught by the `try` statements around the claim (`DuplicateKeyError`).
    caught: frozenset = frozenset()
    # In a test, an `if` or `while` tests the claim's answer: it decides what runs (not only an assert).
    decides: bool = False
    # A plain write that claims because a read found the key absent first (LL009).
    read_check: ReadCheck | None = None
    # Made through a function of this module that stores a value of its own (`"1"`): that function's
    # scope, where the value is read.
    value_scope: Scope | None = None
    # Made through another module's function that stores a value of its own: that value's origin.
    value_origin: "Origin | None" = None
    # Made through a wrapper's method on the client it holds: the wrapper's methods whose summaries
    # release with a holder check (its own `delete` comparing the token is not the client's).
    wrapper_checked: frozenset = frozenset()
    # ... and gives it its lifetime by a second call of its own (`setnx`, then `expire`).
    expiry_after: "Expire | None" = None


@dataclass(eq=False)
class ReadCheck:
    """The read before a check-then-claim write, and the `if` on its answer."""

    read: cst.Call
    guard: cst.If
    # The test asks presence itself (`exists`, `is None`), not the truth of a stored value.
    exact: bool


@dataclass(eq=False)
class Release(Event):
    spec: ReleaseSpec = None  # type: ignore[assignment]
    checked: bool = False
    in_pipeline: bool = False
    # How the result is used: "statement" (discarded), "await-statement", or "expression".
    usage: str = "expression"
    # The release names more keys than this one (delete(a, b)).
    other_keys: int = 0
    # Deletes on purpose: "guard" under `if force:`, "name" in an admin or force-release function
    # (`break_`, `force_release`, `reset`); "" otherwise.
    deliberate: str = ""
    # The holder token a checked release compares with.
    token: cst.BaseExpression | None = None
    # The `if` whose branch runs when the claim failed (`if not r.set(...): r.delete(k)`): the release
    # there frees another worker's claim.
    after_failed_claim: cst.If | None = None
    # Queued after `multi()` on a watched pipeline: a WATCH/MULTI/EXEC transaction.
    transactional: bool = False
    # Run at once by the watching pipeline of a `transaction(callback, key)` callback, before `multi()`.
    watched_callback: bool = False
    # For a transactional release: a read of the key compared with a token before it (WATCH, GET, compare).
    watched_compare: bool = False
    # A compare done in the client before this release (GET then compare then DEL).
    check: Check | None = None
    document: Document | None = None
    # For a checked release whose answer an `if` tests for a lost lease: that `if`, when its branch
    # drops the signal (`pass`, a bare `return`, a log at debug level).
    dropped: cst.If | None = None
    # For a checked release whose answer is given a name that nothing reads (`status = ...`): that name.
    unread: str | None = None
    # Made through another module's function whose blind release is a lease there too, and reported
    # there: it pairs with this module's claims, and LL001 leaves it to that module.
    reported_home: bool = False
    # Removes the holder's own member of a shared key (`zrem(KEYS[1], ARGV[1])`): a release only
    # where a slot claim of that key pairs with it, never by its form alone.
    slot: bool = False


@dataclass(eq=False)
class Check:
    """A client-side compare before a release: the read, the comparison, and the token compared with."""

    read: Event
    comparison: cst.Comparison
    token: cst.BaseExpression | None
    # The `if` whose test is the comparison, when there is one.
    guard: cst.If | None = None
    # The helper the read value was handed through before the compare (`self._to_str(r.get(key))`).
    through: cst.BaseExpression | None = None


@dataclass(eq=False)
class Read(Event):
    """`get(key)`: the value a client-side check compares."""

    spec: ReadSpec | None = None
    # Made through a helper that hands back a value made of the read (`return json.loads(raw)`): a
    # compare of it is a check, which a server-side compare cannot make as written.
    derived: bool = False
    # The helper hands back whether the key is absent (`return r.get(key) is None`, `not r.get(key)`).
    absent: bool = False


@dataclass(eq=False)
class Expire(Event):
    """A lifetime set after the claim by a second call (`expire(key, 30)`)."""

    ttl: cst.BaseExpression | None = None
    unit: str = "ex"
    usage: str = "expression"
    # Queued on a pipeline: its answer comes from the pipeline's execute().
    in_pipeline: bool = False
    spec: ExpireSpec | None = None


@dataclass(eq=False)
class LockObject:
    """A lock library object (`r.lock(name, timeout=...)`): it releases with a token check itself."""

    call: cst.Call
    key: cst.BaseExpression | None
    has_lifetime: bool
    scope: Scope
    start: Position
    end: Position
    # The client and key the lock stands on, when they can be told (`r.lock(name)`, `Lock(r, name)`).
    receiver_shape: Shape = None
    key_shape: Shape = None
    # The library's row (stores.LOCKS).
    spec: object = None


@dataclass(eq=False)
class Write(Event):
    """An unconditional write of a key (`set(key, value)`)."""

    value: cst.BaseExpression | None = None
    # The write sets a lifetime (`set(key, value, ex=30)`, `setex`).
    has_lifetime: bool = False
    spec: WriteSpec | None = None
    # Made through a helper that writes a value of its own (`"1"`): where that value comes from.
    value_origin: "Origin | None" = None


@dataclass(eq=False)
class Lease:
    """Claims and releases of one key of one store client."""

    receiver_shape: Shape
    key_shape: Shape
    claims: list[Claim] = field(default_factory=list)
    releases: list[Release] = field(default_factory=list)
    # Plain writes of a key that extends the lease's key, next to a claim (`claim:x:owner`).
    side_writes: list[Write] = field(default_factory=list)
    # Lifetimes set by a second call after a claim.
    expiries: list[Expire] = field(default_factory=list)
    # Lifetimes extended while the lease is held: in a loop after the claim, in a function nested in
    # the claim's (a heartbeat thread), in another method of its class, or in a renewing function.
    # A write of the key with a lifetime in such a place renews it too (and takes over another's claim).
    renewals: list[Expire | Write] = field(default_factory=list)
    # Plain writes of the lease's own key after a claim in its function, or in another method of its
    # class (`set(key, "busy")`, a heartbeat): they replace the token a checked release would compare with.
    overwrites: list[Write] = field(default_factory=list)
    # The other half of a lease split across modules (model/keyed.py): "path:line" of its claim (for
    # a lease of releases) or of its release (for a lease of claims).
    foreign: str = ""


@dataclass(eq=False)
class LeaseModel:
    module: cst.Module
    leases: list[Lease]
    # Every claim and release, leased or not (a claim never released is a marker, not a lease).
    claims: list[Claim]
    releases: list[Release]
    writes: list[Write]
    # Every `expire` of a key (a lease's own are in its `renewals` and `expiries` too).
    expiries: list[Expire]
    locks: list[LockObject]
    # `except LockNotOwnedError: pass` handlers and `suppress(LockError)` items.
    swallowed: list[cst.CSTNode]
    # Blind deletes of a lock object's key (the lock releases with a token check; this does not).
    lock_key_deletes: list[Release]
    # `r.pexpire(LOCK_KEY, ms)` beside `r.lock(LOCK_KEY, ...)`: renewals that check no holder (LL010).
    lock_key_renewals: list
    # `lock.release()` as a statement, not awaited, on an asyncio lock library's lock object.
    unawaited_lock_releases: list[tuple[cst.Call, Scope, LockObject]]
    scopes: list[Scope]
    resolver: Resolver
    origins: Origins
    # Bound name -> dotted import (`token_hex` -> `secrets.token_hex`).
    imports: dict[str, str]
    # Module facts the fixes need.
    logger_name: str | None
    imported_modules: set[str]
    # Of the modules a fix calls (secrets, logging), those whose name the module binds to something else.
    shadowed_modules: frozenset[str]
    module_names: set[str]
    script_constant: str | None
    positions: dict
    # A node's code as libcst writes it (keys.code_of), read from the module's code where it can be.
    code_of: Callable[[cst.CSTNode], str]
    # (call, scope) of every call that hands back a stored value (`get`, `getset`): what a fix that
    # changes the stored value must leave meaning the same.
    value_reads: list = field(default_factory=list)
    # Relative imports: bound name -> how many dots; a call assigned to one name: call id -> name.
    import_levels: dict = field(default_factory=dict)
    assigned: dict = field(default_factory=dict)
    # Imported names called (`release_lock(k)`), and (imported name, attribute) called (`locks.release(k)`).
    called_imports: set = field(default_factory=set)
    # Imported names handed to a script call as its text (`register_script(UNLOCK)`, `UNLOCK` imported).
    script_imports: set = field(default_factory=set)
    # Imported names (and (module, attribute) pairs) read in functions that claim: values another
    # module may make (summary._made_values).
    value_imports: set = field(default_factory=set)
    value_attributes: set = field(default_factory=set)
    called_attributes: set = field(default_factory=set)
    # Distinctive method names called on objects of no known class (`storage.put_if_empty(...)`).
    called_methods: set = field(default_factory=set)
    # `self.acquire()` thrown away where the class's acquire can answer that its claim failed:
    # (call, scope, method name, line of the failing return).
    ignored_claims: list = field(default_factory=list)
    # (call, scope, lock) of a lock object's `acquire(blocking=False)` whose answer nothing reads.
    untested_acquires: list = field(default_factory=list)
    # `except LockError: return` around a `with` of a lock object: it swallows the lost lease at exit too.
    with_swallows: list = field(default_factory=list)
    # (token node, call, scope, lock) of a holder token the caller gives a lock object
    # (`lock.acquire(token=...)`, python-redis-lock's `Lock(conn, name, id=...)`).
    lock_tokens: list = field(default_factory=list)
    # (token, call, scope, key) of holders handed to a lock API leaselint cannot read (build._api_tokens).
    api_tokens: list = field(default_factory=list)
    # (call, scope, method, line) of `self.release()` thrown away where the method answers a lost lease.
    ignored_releases: list = field(default_factory=list)
    # "Class.method" -> ("answers", line) for a lock class's method that answers a lost lease, or
    # ("fails", line) for one that can answer a failed claim: what other modules' callers may drop.
    lock_answers: dict = field(default_factory=dict)
    # Claims made through another module's helper (`take(name)` where `take` claims): for summaries.
    summarised_claims: list = field(default_factory=list)
    # Reads of a key (`get(key)`): a function that hands one back is summarised as a read.
    reads: list = field(default_factory=list)
    # (claim, expire): a claim helper's `setnx`, then its `expire` of the key (model/build.py).
    split_lifetimes: list = field(default_factory=list)
    # (claim, expire): an `expire` queued on the claim's pipeline, which runs whatever the claim answers.
    queued_lifetimes: list = field(default_factory=list)
    # (claim, expire): an `expire` in the branch where the claim failed (`elif not r.ttl(k): r.expire(k, 10)`).
    failed_claim_lifetimes: list = field(default_factory=list)
    # id(swallowing handler or `suppress` item) -> the release call it guards.
    swallowed_releases: dict = field(default_factory=dict)
    # Claims of no lease whose key and token are handed to a call named for releasing (model/build.py).
    handed_claims: list = field(default_factory=list)
    # Claims another module's helper makes with the token a call of this module passes (its lease
    # is at home there): only their tokens are read here.
    passed_claims: list = field(default_factory=list)
    # Claims and blind releases no lease of the module holds, by portable key (model/keyed.py).
    keyed: tuple = ()
    # Module constants holding a token-checked extend script: command (`pexpire`) -> name.
    extend_scripts: dict = field(default_factory=dict)
    # A module constant holding a hash field's compare-and-delete script (`hget` == ARGV[2], then `hdel`).
    field_script_constant: str | None = None
    # id(claim) -> origin of its stored value: see claim_origin.
    claim_origins: dict = field(default_factory=dict, repr=False)
    # Where new module constants go (after the leading imports), whether that is after an import,
    # and the module's leading import lines: (module name, start of the line, start of the next line,
    # is `from`). Worked out when a fix first asks (their statements' positions are made then).
    _header: tuple | None = field(default=None, repr=False)

    def key_text(self, event) -> str:
        """The key as a message names it between backticks: a hash field's as "hash` field `field"."""
        text = self.code_of(event.key)
        field = getattr(event, "field", None)
        return text if field is None else f"{text}` field `{self.code_of(field)}"

    def claim_origin(self, claim: Claim):
        """The origin of the value a claim stores (asked by LL002, LL003 and the fixes)."""
        found = self.claim_origins.get(id(claim)) or claim.value_origin
        if found is None:
            scope = claim.value_scope or claim.scope
            found = self.claim_origins[id(claim)] = self.origins.origin(claim.value, scope, claim.key_shape)
        return found

    def token_origins(self):
        """(lease, claim, origin of the stored value) for every claim of a lease, and (None, claim,
        origin) for a claim whose token is handed to a release leaselint cannot read."""
        for lease in self.leases:
            for claim in lease.claims:
                if claim.value is not None:
                    yield lease, claim, self.claim_origin(claim)
        for claim in (*self.handed_claims, *self.passed_claims):
            yield None, claim, self.claim_origin(claim)

    def _header_facts(self) -> tuple:
        if self._header is None:
            from leaselint.model.header import header_facts

            self._header = header_facts(self.module, self.positions)
        return self._header

    @property
    def header_position(self) -> Position:
        return self._header_facts()[0]

    @property
    def header_after_import(self) -> bool:
        return self._header_facts()[1]

    @property
    def leading_imports(self) -> list:
        return self._header_facts()[2]
