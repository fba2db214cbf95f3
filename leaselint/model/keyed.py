"""Leases whose claim and release are in two modules of the project.

A claim no release of its module pairs with, and a blind release no claim of its module pairs with,
are handed to the project pass by their key written without the module's own names (`portable`):
literal text, `self.<attribute>` (a property of a shared base class), a name or key maker imported
from another module of the project. When a claim of one module and a release of another have the
same portable key on the same store, each module gets the other's event (`foreign`), and the model
makes them one lease: the release is reported where it is (LL001), the claim where it is (LL002,
LL003, LL005), neither with a fix, since the other half is elsewhere.

An event is a tuple: (kind, store name, key, receiver or None, path:line), kind "claim", "release",
"compared" (a release after a compare of the holder in the client, `if holder != me: raise`, then
`delete`) or "held" (a claim that is a lease in its own module too, which only a "compared" release
of another module pairs with: LL004 there).
"""

from __future__ import annotations

import libcst as cst

from leaselint.model.events import Lease
from leaselint.model.keys import free_names
from leaselint.project import absolute_key
from leaselint.model.pairing import leasable, _names_a_lock, _passes_through

# How much literal text a key needs to name one lease across modules (`lock:` does, `:` does not).
_MIN_LETTERS = 3


def portable(shape, imports: dict, levels: dict):
    """The shape with its local names unnamed ("*"), imported names as ("import", level, dotted), or
    None when nothing in it names the lease across modules."""
    found = _portable(shape, imports, levels)
    return found if _names_one(found) else None


def _portable(shape, imports: dict, levels: dict):
    if type(shape) is str:
        return shape
    if type(shape) is not tuple or not shape:
        return "*"
    kind = shape[0]
    if kind == "name" and len(shape) == 2:
        name = shape[1]
        return ("import", levels.get(name, 0), imports[name]) if name in imports else "*"
    if kind == "self" and len(shape) == 2:
        return ("self", shape[1])
    if kind == "str" and len(shape) == 2:
        return ("str", tuple(part if type(part) is str else _part(_portable(part, imports, levels)) for part in shape[1]))
    if kind == "attr" and len(shape) == 3:
        inner = _portable(shape[1], imports, levels)
        if type(inner) is tuple and inner[:1] == ("import",):
            return ("import", inner[1], f"{inner[2]}.{shape[2]}")  # `conn.r` is `from app.conn import r`
        return ("attr", inner, shape[2])
    if kind == "call" and len(shape) == 3:
        return ("call", _portable(shape[1], imports, levels), len(shape[2]))
    return "*"


def _part(portable_part):
    """A part of a key's text: a call of the module's own (`resolve(url).kwargs.get("uid")`) is the
    module's value, as a local name is; one of an imported key maker stays."""
    if type(portable_part) is tuple and portable_part[:1] == ("call",) and not (
        type(portable_part[1]) is tuple and portable_part[1][:1] == ("import",)
    ):
        return "*"
    return portable_part


def _names_one(shape) -> bool:
    if shape == "*" or shape is None:
        return False
    if shape[0] == "str":
        letters = sum(ch.isalpha() for part in shape[1] if type(part) is str for ch in part)
        return letters >= _MIN_LETTERS or any(type(part) is tuple and _names_one(part) for part in shape[1])
    if shape[0] == "attr":
        return _names_one(shape[1])
    if shape[0] == "call":
        return type(shape[1]) is tuple and shape[1][0] == "import"
    return True


def _own_key(event, helper: bool = False) -> bool:
    """The key is the module's own, not its function's caller's (a parameter in it is the project
    pass's function summaries' to follow), unless its own text or key maker names a lock
    (`f"export-lock:{id}"`, `export_lock(id)`: one lease whichever module holds the id)."""
    if not (free_names(event.key_shape) & set(event.scope.params)):
        return True
    # A function named for the lease's API (`release_lock(name)`) is a helper: its callers' summaries
    # carry its key (`release_lock(job)` at the claim's side).
    # `helper`: a claim that is a lease in its own module, handed to the other modules' releases of
    # the same key (`redis_client.delete(f"lock:{doc_id}")` beside no call of the helper).
    api = any(word in event.scope.name.lower() for word in _API_WORDS) and not helper
    if api or type(event.key_shape) is not tuple or event.key_shape[:1] not in (("str",), ("call",)):
        return False
    # Text of its own long enough to name one key (`f"regen_paired_data_{uid}"` in a task that takes
    # the uid): the same lease whichever function the uid is handed to.
    return _names_a_lock(event.key_shape) or _letters(event.key_shape) >= _OWN_TEXT


# Letters of literal text that name one key across modules by themselves, with a parameter in it.
_OWN_TEXT = 10


def _letters(shape) -> int:
    if shape[:1] != ("str",):
        return 0
    return sum(ch.isalpha() for part in shape[1] if type(part) is str for ch in part)


_API_WORDS = ("lock", "lease", "release", "free", "claim", "acquire")


def _unpaired(claims, releases, leases, counted, exported: bool = False):
    """("claim", claim) and ("release", release) of the module's events that no lease of its own holds
    and that may be one half of a lease across modules: leasable claims and releases that check no
    holder in one step (blind, or after a read compared in the client) of the module's own keys,
    outside tests. `exported`: what the module hands the others, where a claim that is a lease at
    home is one too (another module may release its key directly)."""
    held = {id(event) for lease in leases for event in (*lease.claims, *lease.releases)}
    for claim in claims:
        home = id(claim) in held
        if (home and not exported) or claim.via is not None or claim.scope.is_test or claim.spec is None:
            continue
        if leasable(claim, counted) and not _passes_through(claim) and _own_key(claim, helper=home):
            yield ("held" if home else "claim"), claim
    for release in releases:
        if id(release) in held or release.via is not None or release.scope.is_test:
            continue
        if release.checked or release.deliberate or release.transactional or release.other_keys:
            continue
        if release.check is not None and not _names_a_lock(release.key_shape):
            continue  # a compare of a status (`if status != b"failed"`), not of a holder
        if not _passes_through(release) and _own_key(release):
            yield ("compared" if release.check is not None else "release"), release


def _clients(event, imports: dict, levels: dict) -> list:
    """The portable receivers: how the client is made, and for a client bound once at the top of the
    module (`redis_client = redis.from_url(...)`) its name there too, as other modules import it
    (`("own", name)`)."""
    found = [portable(event.receiver_shape, imports, levels)]
    receiver = event.receiver
    if type(receiver) is cst.Name and receiver.value not in imports:
        module = event.scope
        while module.parent is not None:
            module = module.parent
        if len(module.bindings.get(receiver.value, ())) == 1 and receiver.value not in _local_names(event.scope, module):
            found.append(("own", receiver.value))
    return found


def _local_names(scope, module) -> set:
    names: set = set()
    while scope is not None and scope is not module:
        names.update(scope.bindings)
        names.update(scope.params)
        scope = scope.parent
    return names


def events(claims, releases, leases, counted, imports: dict, levels: dict) -> tuple:
    """The module's claims and blind releases that no lease of its own holds, by portable key."""
    found = []
    for kind, event in _unpaired(claims, releases, leases, counted, exported=True):
        key = portable(event.key_shape, imports, levels)
        if key is not None:
            for receiver in _clients(event, imports, levels):
                found.append((kind, event.store.name, key, receiver, event.start.line))
    return tuple(found)


def pair_foreign(project, claims, releases, leases: list, counted, imports: dict, levels: dict) -> list[Lease]:
    """Leases made of this module's unpaired claims and releases and the other modules' events that
    the project pass put in `project[3]` ((kind, store, key, receiver, "path:line"), keys absolute)."""
    foreign = project[3] if project is not None and len(project) > 3 else ()
    if not foreign:
        return []
    module, is_package = project[0], project[1]
    wanted: dict[tuple, list] = {}
    for kind, store, key, receiver, where in foreign:
        wanted.setdefault((kind, store, key), []).append((receiver, where))
    made: dict[tuple, Lease] = {}
    for kind, event in list(_unpaired(claims, releases, leases, counted)):
        key = absolute_key(portable(event.key_shape, imports, levels), module, is_package)
        receivers = [absolute_key(r, module, is_package) for r in _clients(event, imports, levels)]
        # A release pairs with another module's claim that is a lease there only after a compare of
        # the holder it made (it takes itself for the holder); a blind one there is a cleanup's.
        others = {"compared": ("claim", "held"), "release": ("claim",)}.get(kind, ("release", "compared"))
        where = next(
            (
                w
                for other_kind in others
                for other, w in wanted.get((other_kind, event.store.name, key), ())
                if other is None or any(r is None or r == other for r in receivers)
            ),
            None,
        )
        if where is None:
            continue
        lease = made.setdefault((kind, event.receiver_shape, event.key_shape), Lease(event.receiver_shape, event.key_shape))
        lease.foreign = where
        if kind == "claim":
            lease.claims.append(event)
            event.no_fix = f"the lease is released in another module ({where})"
        else:
            lease.releases.append(event)
            event.no_fix = f"the lease is claimed in another module ({where})"
    return list(made.values())
