"""Claims and releases paired into leases: one key, one life, one lease."""

from __future__ import annotations

import re
from itertools import chain

import libcst as cst

from leaselint.model import documents, stores
from leaselint.model.call_parts import SLOT_CLAIM, _code
from leaselint.model.events import Claim, Expire, Lease, Release, Write
from leaselint.model.keys import extends, free_names
from leaselint.model.lock_names import name_words
from leaselint.model.scope import contains, Scope
from leaselint.model.traverse import nodes


def mark_coroutines(leases) -> None:
    """A lease whose claim is awaited is on an asyncio client: its releases answer coroutines too."""
    for lease in leases:
        # A project's own client (known by its method's name) may have sync methods beside async ones.
        if any(claim.store.claim_method_pattern for claim in lease.claims):
            continue
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
    classes: list = (),  # type: ignore[assignment]
) -> list[Lease]:
    """Leases: claims and releases of one key of one client; writes and expiries next to their claims.

    Not leases: a counted key (a rate limit), a key whose claim is never asked for its answer and
    does not name a lock (a cache write), and store API wrappers.
    """
    leases: dict[tuple, Lease] = {}
    homes = _Homes(classes)
    for claim in claims:
        if leasable(claim, counted):
            ident = (claim.receiver_shape, claim.key_shape)
            leases.setdefault((*ident, homes(claim)), Lease(*ident)).claims.append(claim)
    for lease in leases.values():
        # `setnx`, then `getset` to take over an expired holder's key: one claim, the getset its second step.
        created = {id(c.scope) for c in lease.claims if not c.spec.by_old_value}
        lease.claims = [c for c in lease.claims if not (c.spec.by_old_value and id(c.scope) in created)]
    by_parameter: dict[tuple, list[Lease]] = {}
    for lease in leases.values():
        for claim in lease.claims:
            for ident in (_parameter_ident(claim), _parameter_ident(claim, fields=True)):
                if ident is not None and lease not in by_parameter.get(ident, []):
                    by_parameter.setdefault(ident, []).append(lease)
    by_model: dict[str, list[Lease]] = {}
    for lease in leases.values():
        for claim in lease.claims:
            model = claim.document.model if claim.document is not None else None
            if model and lease not in by_model.get(model, []):
                by_model.setdefault(model, []).append(lease)
    # A key with text of its own (`f"lock:{name}"`) on one store: the same lease through whatever
    # receiver the release reaches the store by (`get_redis_connection()`, another class's client).
    by_key: dict[tuple, list[Lease]] = {}
    for lease in leases.values():
        if _has_text(lease.key_shape):
            for claim in lease.claims:
                ident = (claim.store.name, lease.key_shape)
                if lease not in by_key.get(ident, []):
                    by_key.setdefault(ident, []).append(lease)
    # (wrapper, key) -> the leases whose every claim a method of the wrapper makes on a client it holds.
    inner: dict[tuple, list[Lease]] = {}
    for lease in leases.values():
        shape = lease.receiver_shape
        if type(shape) is tuple and shape[:1] == ("attr",) and all(c.via is not None for c in lease.claims):
            inner.setdefault((shape[1], lease.key_shape), []).append(lease)
    # id(lease) -> id(scope) -> its claims there: a release's own function's claims are asked first.
    in_scope: dict[int, dict[int, list[Claim]]] = {}
    for lease in leases.values():
        scopes = in_scope[id(lease)] = {}
        for claim in lease.claims:
            scopes.setdefault(id(claim.scope), []).append(claim)
    for release in releases:
        lease = leases.get((release.receiver_shape, release.key_shape, homes(release)))
        if lease is None and release.via is not None and type(release.receiver_shape) is tuple and release.receiver_shape[:1] == ("attr",):
            # `client.adelete(k)` of a wrapper whose method deletes on `self.connection`, where the claim
            # is the wrapper's own `asetNx(k, ...)`, known by its name: the wrapper stands for its client.
            outer = leases.get((release.receiver_shape[1], release.key_shape, homes(release)))
            lease = outer if outer is not None and all(c.store.claim_method_pattern for c in outer.claims) else None
        if lease is None and release.via is None:
            # The other way round: `client.delete(k)` read as a store call, where the claim is the
            # wrapper's summarised `setNx(k, ...)` on `self.connection`.
            found = inner.get((release.receiver_shape, release.key_shape), [])
            lease = found[0] if len(found) == 1 and not any(release.method in c.wrapper_checked for c in found[0].claims) else None
        if release.document is not None and release.document.instance:
            # `self.delete()` in the lock model, `row.delete()`: a row of the model's one lease.
            found = by_model.get(release.document.model or "", [])
            lease = found[0] if len(found) == 1 else None
        if lease is None:
            # `get_lock(name)` and `unlock(lock)`: the caller's key, whatever each parameter is called.
            found = by_parameter.get(_parameter_ident(release) or (), [])
            if not found:
                # `f"lock:{handle.key}"` where the claim took `f"lock:{key}"`: a field of the same name.
                found = by_parameter.get(_parameter_ident(release, fields=True) or (), [])
            lease = found[0] if len(found) == 1 else None
        if lease is None and release.document is None:
            found = by_key.get((release.store.name, release.key_shape), [])
            # Only where a receiver's client is not known (a parameter, an attribute): two clients the
            # code names (`Redis()` and `Redis(db=2)`, two module clients) are two stores.
            if len(found) == 1 and _unknown_client(release) and all(_unknown_client(c) for c in found[0].claims):
                lease = found[0]
        beside = in_scope[id(lease)].get(id(release.scope), []) if lease is not None else []
        if lease is None or (_passes_through(release) and not (_namespaced(release) and beside)):
            continue
        if any(
            _paired(claim, release, line_of) and (one_life(claim.scope, release.scope, called) or _lock_key_outside_tests(claim, release))
            for claim in chain(beside, lease.claims)
        ):
            lease.releases.append(release)
    for lease in leases.values():
        # A release that frees fields (`update(owner=None)`) ends the lease only if it sets the claim's
        # token field back to the value the claim found free, and not as the other way of one setter
        # (`if on: ...update(flag=True) else: ...update(flag=False)`).
        tokens = {(c.document.token_field, c.document.free) for c in lease.claims if c.document is not None}
        lease.releases = [
            r
            for r in lease.releases
            if r.document is None
            or not r.document.cleared
            or (r.document.cleared & tokens and r.after_failed_claim is None and not any(_other_branch(c, r) for c in lease.claims))
        ]
    paired = [lease for lease in leases.values() if lease.releases]
    writes_of, expiries_of = _Nearby(writes), _Nearby(expiries)
    for lease in paired:
        _check_document_conditions(lease)
        for release in lease.releases:
            if release.deliberate == "name" and id(release.scope) in in_scope[id(lease)]:
                # `release_stale_locks()` that claims its own guard key first: its own lease, not a forced one.
                release.deliberate = ""
        for write in writes_of.near(lease):
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
        for expire in expiries_of.shaped(lease.receiver_shape, lease.key_shape, hashed):
            if expire.receiver_shape == lease.receiver_shape and (
                expire.key_shape == lease.key_shape or (hashed is not None and expire.key_shape == hashed)
            ):
                if any(_renews(expire, c, called) for c in lease.claims):
                    lease.renewals.append(expire)
                elif any(expire.scope is c.scope and c.start <= expire.start for c in lease.claims):
                    lease.expiries.append(expire)
    return paired


class _Nearby:
    """Writes or expiries by function, by class and by (client, key) shape, so that a lease looks
    only at those that can be its own; each list keeps the events' order."""

    def __init__(self, events: list) -> None:
        self.events = events
        self.by_scope: dict[int, list[int]] = {}
        self.by_class: dict[int, list[int]] = {}
        self.by_shape: dict[tuple, list[int]] = {}
        for i, event in enumerate(events):
            self.by_scope.setdefault(id(event.scope), []).append(i)
            if event.scope.cls is not None:
                self.by_class.setdefault(id(event.scope.cls), []).append(i)
            self.by_shape.setdefault((event.receiver_shape, event.key_shape), []).append(i)

    def near(self, lease: Lease) -> list:
        """The events in a function or class of the lease's claims, or of the lease's shape."""
        found = set(self.by_shape.get((lease.receiver_shape, lease.key_shape), ()))
        for claim in lease.claims:
            found.update(self.by_scope.get(id(claim.scope), ()))
            if claim.scope.cls is not None:
                found.update(self.by_class.get(id(claim.scope.cls), ()))
        return [self.events[i] for i in sorted(found)]

    def shaped(self, receiver_shape, key_shape, other_key=None) -> list:
        """The events of the client and of the key shape (or of `other_key`)."""
        found = set(self.by_shape.get((receiver_shape, key_shape), ()))
        if other_key is not None:
            found.update(self.by_shape.get((receiver_shape, other_key), ()))
        return [self.events[i] for i in sorted(found)]


def leasable(claim: Claim, counted: set) -> bool:
    """A claim that makes a lease once something releases its key: not a counted key (a rate
    limit), not a cache write (an answer never asked, a key that names no lock), not a record."""
    if (claim.receiver_shape, claim.key_shape) in counted:
        return False
    if _unanswered(claim) and not _names_a_lock(claim.key_shape) and not _in_lock_class(claim.scope):
        return False
    if claim.store.records and not _used_as_claim(claim):
        return False
    if claim.scope.is_test and not (claim.decides or _names_a_lock(claim.key_shape) or _names_a_lock(claim.receiver_shape)):
        # A test that asserts what a conditional create answers tests the store, not a lease.
        return False
    return True


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
    _token_by_release(lease)
    fields = {c.document.token_field for c in lease.claims if c.document is not None and c.document.token_field}
    for release in lease.releases:
        document = release.document
        if not fields or document is None or not release.checked or release.spec.self_evident:
            continue
        if release.spec.form in ("mongo", "orm", "sql"):
            release.checked = document.instance or bool(fields & set(document.fields))
            continue
        expression, names = (_code(node) if node is not None else "" for node in document.conditions)
        # A field the release names in its key (`concurrency_id`, a slot) is no holder's token.
        tokens = fields - set(document.fields) or {
            name
            for c in lease.claims
            if c.document is not None
            for name in c.document.fields
            if name not in document.fields and not name.startswith("$") and not documents._timed(name)
        }
        release.checked = any(_compares(expression, names, field) for field in tokens)


def slot_taken(release: Release, claims: list) -> bool:
    """A member removal (`zrem(KEYS[1], ARGV[1])`) gives back a slot its client takes in the module:
    of the same key, or of a key written out nowhere (`self._key(lease.name)`), not of another
    literal key (`srem("videos:known", v)` beside slots of `"transcoders"`)."""
    literal = release.key_shape[:1] == ("str",) and all(type(p) is str for p in release.key_shape[1])
    return any(
        c.no_fix == SLOT_CLAIM and c.receiver_shape == release.receiver_shape and (c.key_shape == release.key_shape or not literal)
        for c in claims
    )


def _other_branch(claim: Claim, release: Release) -> bool:
    """The claim and the release stand in two branches of one `if` of one function."""
    if claim.scope is not release.scope:
        return False
    for node in nodes(claim.scope.node, trivia=False):
        if type(node) is cst.If and node.orelse is not None:
            a, b = contains(node.body, claim.call), contains(node.orelse, claim.call)
            if (a and contains(node.orelse, release.call)) or (b and contains(node.body, release.call)):
                return True
    return False


def _token_by_release(lease: Lease) -> None:
    """A claimed document with no field named for a token (`{"_id": k, "host": h, "uuid": u}`): its
    token is the field the lease's release filters on (`{"_id": k, "uuid": u}`)."""
    compared = [
        name
        for release in lease.releases
        if release.document is not None and release.spec.form in ("mongo", "orm", "sql")
        for name, value in release.document.fields.items()
        if name != release.document.key_field and not name.startswith("$") and not documents._timed(name)
        and documents.free_code(value) is None  # a holder's value, not a state (`"state": "running"`)
    ]
    for claim in lease.claims:
        document = claim.document
        if document is None or document.token_field in documents.TOKEN_FIELDS or document.token_field in compared:
            continue
        name = next((n for n in compared if n in document.fields and n != document.key_field), None)
        if name is not None and claim.value is document.token:
            document.token_field, document.token = name, document.fields[name]
            claim.value = document.token


_ORDER = re.compile(r"\s*(<=|>=|<>|<|>)|(<=|>=|<>|<|>)\s*$")


def _compares(expression: str, names: str, field: str) -> bool:
    """The condition names the token field (or its `#alias`) in anything but an ordering alone:
    `owner = :me` and `Attr("owner").eq(me)` check the holder, `#O < :me` does not."""
    aliases = re.findall(rf"[\"'](#\w+)[\"']\s*:\s*[\"']{re.escape(field)}[\"']", names)
    for name in (field, *aliases):
        for match in re.finditer(rf"(?<![\w#:]){re.escape(name)}\b", expression):
            after, before = expression[match.end():match.end() + 3], expression[max(0, match.start() - 3):match.start()]
            if not (_ORDER.match(after) or _ORDER.search(before)):
                return True
    return False


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
    if _named_for(released.name, stores.RELEASE_WORDS + stores.END_WORDS):
        return True
    if released.name in called.get(id(claimed), ()) or claimed.name in called.get(id(released), ()):
        return True
    if isinstance(called, Called):
        return called.together(claimed.name, released.name)
    return any(claimed.name in names and released.name in names for names in called.values())


class Called(dict):
    """scope id -> the names of the functions it (or a function inside it) calls, with an index by
    name, made when first asked (the classifier fills it before pairing asks)."""

    def together(self, one: str, other: str) -> bool:
        """Some function calls both names (the module counts for the calls made at its top only:
        every call of the module is inside it)."""
        index = self.__dict__.get("callers")
        if index is None:
            index = self.__dict__["callers"] = {}
            top = self.__dict__.get("module")
            for scope, names in self.items():
                if scope == top:
                    names = self.__dict__.get("at_top", ())
                for name in names:
                    index.setdefault(name, set()).add(scope)
        first, second = index.get(one), index.get(other)
        if not first or not second:
            return False
        return not (first.isdisjoint(second) if len(first) <= len(second) else second.isdisjoint(first))


def _lock_key_outside_tests(claim: Claim, release: Release) -> bool:
    """A key that names a lock (`LOCK_KEY`) is one lease across the module's functions, outside tests."""
    return not claim.scope.is_test and not release.scope.is_test and _names_a_lock(claim.key_shape)


# Errors of reading a stored value back (`json.loads`, `pickle.loads`, `int(...)`).
_UNREADABLE = frozenset({"ValueError", "JSONDecodeError", "UnpicklingError", "TypeError", "UnicodeDecodeError", "DecodeError"})


def _clears_unreadable(claim: Claim, release: Release) -> bool:
    """The release runs before the claim in its function, in an `except` of an error of reading a
    value back (`except ValueError: r.delete(key)` after `json.loads(raw)`): it clears a value no
    claim wrote, not a holder's claim."""
    if claim.scope is not release.scope or not release.start < claim.start:
        return False
    for node in nodes(release.scope.node):
        if type(node) is cst.ExceptHandler and node.type is not None and contains(node.body, release.call):
            types = [e.value for e in node.type.elements] if type(node.type) is cst.Tuple else [node.type]  # type: ignore[union-attr]
            caught = {_code(t).rsplit(".", 1)[-1] for t in types}
            if caught and caught <= _UNREADABLE:
                return True
    return False


def _paired(claim: Claim, release: Release, line_of=None) -> bool:
    if _clears_unreadable(claim, release):
        return False
    if _rebound_between(claim, release, line_of) or (
        _passes_through(claim) and not (_namespaced(claim) and claim.scope is release.scope)
    ):
        return False
    if claim.scope is not release.scope and _from_parameters(claim) and _from_parameters(release):
        # `acquire_lock(key)` and `release_lock(key)` are a pair; `acquire_lock(key)` and
        # `cache_delete(key)` only share a parameter name, as `put_if_empty(key)` and
        # `delete_data(key)` share `self.result_key(key)`: the caller's key, passed on.
        name = release.scope.name
        # A key that names a lock (`f"lock:{name}"`) is the lease's own, whatever the release's name;
        # so is a call of a function whose release is a lease where it is written (`cls.remove_lock(k)`).
        return _named_for(name, stores.RELEASE_WORDS) or (
            not isinstance(claim.key, cst.Name) and _names_a_lock(claim.key_shape)
        ) or _same_record_field(claim, release) or _taken_by_name(claim, release) or _one_template(claim, release) or release.reported_home
    return True


def _named_for(name: str, words: tuple) -> bool:
    """A word of the function's name begins with one of `words` (`release_lock`, `unlockJob`,
    `finished`; not `unblock_phone`, whose `lock` is inside a word)."""
    return any(part.startswith(words) for part in name_words(name))


def _taken_by_name(claim: Claim, release: Release) -> bool:
    """`claim(msg_id)` storing `f"dedup:{msg_id}"` and a delete of that same key in another method of
    its class: the claim's function is named for taking a lease (a cache's `add(key)` is not)."""
    return (
        bool(set(name_words(claim.scope.name)) & _CLAIMING_WORDS)
        and claim.scope.cls is not None
        and claim.scope.cls is release.scope.cls
        and not isinstance(claim.key, cst.Name)
        and claim.key_shape == release.key_shape
    )


def _one_template(claim: Claim, release: Release) -> bool:
    """`set(f"processing:{event_id}", 1, nx=True, ex=60)` whose answer decides, in one method, and a
    delete of the key built the same way in another method of its class: a claim with a deadline of a
    key whose own text names work in progress, whatever the two methods are called (a cooldown, a
    throttle or a cache entry claimed so and deleted is no lease)."""
    return (
        claim.has_lifetime
        and not _unanswered(claim)
        and claim.scope.cls is not None
        and claim.scope.cls is release.scope.cls
        and claim.key_shape == release.key_shape
        and _text_inside(claim.key_shape)
    )


# Words of a key that marks work in progress (`processing:`, `inflight:`, `export-running:`), not a
# cooldown, a throttle or a cache entry, which a claim with a deadline also makes.
_PROGRESS_WORDS = ("processing", "inflight", "in_flight", "in-flight", "running", "busy", "working", "in_progress", "in-progress")


def _text_inside(shape) -> bool:
    """A key built with text of its own that names work in progress, perhaps through a helper
    (`self._key(f"processing:{id}")`)."""
    if _has_text(shape):
        text = " ".join(part.lower() for part in shape[1] if type(part) is str)
        return any(word in text for word in _PROGRESS_WORDS)
    return type(shape) is tuple and any(_text_inside(part) for part in shape if type(part) is tuple)


def _same_record_field(claim: Claim, release: Release) -> bool:
    """`set(record.key, v, nx=True, ex=ttl)` and `delete(record.key)` in two methods of one class: one
    field of one record, claimed with a lifetime (a cache's `add(key)` and `delete(key)` take the
    key itself, and a record made for good is a row, not a lease)."""
    shape = claim.key_shape
    return (
        claim.has_lifetime
        and claim.scope.cls is not None
        and claim.scope.cls is release.scope.cls
        and type(shape) is tuple
        and shape[:1] == ("attr",)
        and type(shape[1]) is tuple
        and shape[1][:1] == ("name",)
        and shape == release.key_shape
    )


class _Homes:
    """The class an event's `self` is an object of, for an event whose client or key is reached
    through `self`: its group of classes joined by inheritance in the module (a base's claim and a
    subclass's or a mixin's release are one object's). Two unrelated classes' `self.client` are two
    objects, whatever the shapes say (a sync and an asyncio twin of one store class). None for other
    events."""

    def __init__(self, classes) -> None:
        # Classes joined by inheritance in the module are one group (a class and its bases and
        # mixins); its first member's name stands for it.
        parent: dict[str, str] = {}

        def top(name: str) -> str:
            while parent.get(name, name) != name:
                name = parent[name]
            return name

        names = {info.name for info in classes}
        for info in classes:
            parent.setdefault(info.name, info.name)
            for base in info.bases:
                if base in names:
                    parent.setdefault(base, base)
                    one, other = top(info.name), top(base)
                    if one != other:
                        parent[max(one, other)] = min(one, other)
        self.top = top

    def __call__(self, event) -> str | None:
        if not (_through_self(event.receiver_shape) or _through_self(event.key_shape)):
            return None
        scope = event.scope
        while scope.cls is None and scope.parent is not None:
            scope = scope.parent
        return self.top(scope.cls.name) if scope.cls is not None else None


def _through_self(shape) -> bool:
    if type(shape) is not tuple:
        return False
    if shape[:1] == ("self",):
        return True
    return any(_through_self(part) for part in shape)


def _parameter_ident(event, fields: bool = False) -> tuple | None:
    """(client, key shape with its parameters unnamed) of an event whose key is made of its
    function's parameters alone (`f"lock:{name}"`, a row's `name=name`): functions that take their
    caller's key, whatever each calls it. For a bare parameter, only a row or document of a model
    named for a lock, or a client named for one."""
    params = set(event.scope.params) - {event.scope.self_name}
    if not _from_parameters(event) and not (free_names(event.key_shape) and free_names(event.key_shape) <= params):
        return None  # (`key = f"lock:{name}"` first: made of parameters all the same)
    if _unnamed(event.key_shape, params) == ("param",):
        document = event.document
        if document is None or not (
            _names_a_lock(event.receiver_shape) or (document.model and stores.lock_model_name(document.model))
        ):
            return None
    return (event.receiver_shape, _unnamed(event.key_shape, params, fields))


def _unnamed(shape, params: set, fields: bool = False):
    """The shape with its parameters unnamed; `fields`: a parameter and a parameter's field are
    both known by their last name (`key` and `handle.key` alike, not `job.lock_key` and
    `job.cache_key`)."""
    if type(shape) is tuple:
        if len(shape) == 2 and shape[0] == "name" and shape[1] in params:
            return ("field", shape[1]) if fields else ("param",)
        if fields and shape[:1] == ("attr",) and len(shape) == 3 and _unnamed(shape[1], params) == ("param",):
            return ("field", shape[2])
        return tuple(_unnamed(part, params, fields) for part in shape)
    return shape


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
    if claim.pipeline_read:
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
        or (document is not None and document.free is not None)  # an update where a field is free
        or _names_a_lock(claim.key_shape)
        or _names_a_lock(claim.receiver_shape)
    )


def _in_lock_class(scope) -> bool:
    """A method of a class named for a lock with a lock's methods (`class DMutex` with `acquire`):
    what it claims is the lock, whatever its key is called."""
    while scope.cls is None and scope.parent is not None:
        scope = scope.parent
    cls = scope.cls
    return cls is not None and not cls.is_test and stores.lock_shaped(cls.name, cls.methods)


def _unknown_client(event) -> bool:
    """The receiver is a parameter or an attribute whose client the module does not make or name."""
    module = event.scope
    while module.parent is not None:
        module = module.parent
    shape = event.receiver_shape
    while type(shape) is tuple and len(shape) == 3 and shape[0] == "attr":
        shape = shape[1]  # `self.app.redis`, `backend.client`: as unknown as what holds it
    if type(shape) is not tuple or len(shape) != 2:
        return False
    if shape[0] == "self":
        return True
    return shape[0] == "name" and shape[1] not in module.bindings and shape[1] not in module.params


def _has_text(shape) -> bool:
    """A built string with literal text of its own (`f"lock:{name}"`, `"jobs:" + job_id`)."""
    return (
        type(shape) is tuple
        and len(shape) == 2
        and shape[0] == "str"
        and any(type(part) is str and sum(c.isalpha() for c in part) >= 2 for part in shape[1])
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
    if name not in stores.method_names() or "lock" in name or "lease" in name:
        return False  # `unlock(name)`, `set_lock(key, ...)`: a lock's own API, not a store's wrapped
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
    if line_of is None:
        return False

    def lines(names) -> list[int]:
        statements = [statement for name in names for statement in claim.scope.binding_lines.get(name, ())]
        # `client = None` (in an `except`, say): no other client or key, and a release on it fails.
        return [line_of(statement) for statement in statements if statement is not None and not _to_none(statement)]

    key_names = free_names(claim.key_shape)
    end = release.start.line
    if type(release.key) is cst.Name and release.key.value not in key_names:
        # `held = lock_key` once claimed, released as `held`: the key's names matter until then.
        held = lines([release.key.value])
        if len(held) == 1 and claim.start.line < held[0] <= end:
            end = held[0]
    return any(claim.start.line < line <= end for line in lines(key_names)) or any(
        claim.start.line < line <= release.start.line for line in lines(free_names(claim.receiver_shape))
    )


def _to_none(statement) -> bool:
    """`name = None` alone on its line."""
    body = getattr(statement, "body", None)
    if type(statement) is not cst.SimpleStatementLine or len(body) != 1 or type(body[0]) is not cst.Assign:
        return False
    value = body[0].value
    return type(value) is cst.Name and value.value == "None"


# Words of a function that takes a lease: a release in it clears a leftover before the claim.
_TAKING_WORDS = ("acquire", "claim", "obtain", "grab")
# ... and a function that claims one by its name, with the lock's own words.
_CLAIMING_WORDS = frozenset({*_TAKING_WORDS, "lock", "reserve", "lease"})


def clears_before_claim(release: Release) -> bool:
    """A checked release in a function that takes the lease (`acquire`: delete my own leftover first,
    then claim): finding nothing there is the usual answer, not a lost lease. The function is named
    for taking (a word of its name) and claims after the release (a store's claim or an `acquire`)."""
    words = set(re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", release.scope.name).lower()))
    if not words & set(_TAKING_WORDS) or words & {"release", "unlock"}:
        return False
    body = getattr(getattr(release.scope.node, "body", None), "body", ())
    at = next((i for i, statement in enumerate(body) if contains(statement, release.call)), None)
    if at is None:
        return False
    taking = {"acquire", "lock"} | {m for m in stores.method_names() if stores.claim_specs(m)}
    return any(
        type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in taking
        for statement in body[at + 1 :]
        for node in nodes(statement, trivia=False)
    )
