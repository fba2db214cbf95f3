"""Leases whose claim and release are in two modules of the project.

A claim no release of its module pairs with, and a blind release no claim of its module pairs with,
are handed to the project pass by their key written without the module's own names (`portable`):
literal text, `self.<attribute>` (a property of a shared base class), a name or key maker imported
from another module of the project. When a claim of one module and a release of another have the
same portable key on the same store, each module gets the other's event (`foreign`), and the model
makes them one lease: the release is reported where it is (LL001), the claim where it is (LL002,
LL003, LL005), neither with a fix, since the other half is elsewhere.

An event is a tuple: (kind, store name, key, receiver or None, path:line), kind "claim" or "release".
"""

from __future__ import annotations

from leaselint.model.events import Lease
from leaselint.model.keys import free_names
from leaselint.project import absolute_key
from leaselint.model.pairing import leasable, _passes_through

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
        return ("str", tuple(part if type(part) is str else _portable(part, imports, levels) for part in shape[1]))
    if kind == "attr" and len(shape) == 3:
        return ("attr", _portable(shape[1], imports, levels), shape[2])
    if kind == "call" and len(shape) == 3:
        return ("call", _portable(shape[1], imports, levels), len(shape[2]))
    return "*"


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


def _own_key(event) -> bool:
    """The key is the module's own, not its function's caller's (a parameter in it is the project
    pass's function summaries' to follow)."""
    return not (free_names(event.key_shape) & set(event.scope.params))


def events(claims, releases, leases, counted, imports: dict, levels: dict) -> tuple:
    """The module's claims and blind releases that no lease of its own holds, by portable key."""
    held = {id(event) for lease in leases for event in (*lease.claims, *lease.releases)}
    found = []
    for claim in claims:
        if id(claim) in held or claim.via is not None or not leasable(claim, counted) or claim.scope.is_test:
            continue
        if _passes_through(claim) or not _own_key(claim):
            continue
        key = portable(claim.key_shape, imports, levels)
        if key is not None and claim.spec is not None:
            found.append(("claim", claim.store.name, key, portable(claim.receiver_shape, imports, levels), claim.start.line))
    for release in releases:
        if id(release) in held or release.via is not None or release.scope.is_test:
            continue
        if release.checked or release.deliberate or release.transactional or release.check or release.other_keys:
            continue
        if _passes_through(release) or not _own_key(release):
            continue
        key = portable(release.key_shape, imports, levels)
        if key is not None:
            found.append(("release", release.store.name, key, portable(release.receiver_shape, imports, levels), release.start.line))
    return tuple(found)


def pair_foreign(project, claims, releases, leases: list, counted, imports: dict, levels: dict) -> list[Lease]:
    """Leases made of this module's unpaired claims and releases and the other modules' events that
    the project pass put in `project[3]` ((kind, store, key, receiver, "path:line"), keys absolute)."""
    foreign = project[3] if project is not None and len(project) > 3 else ()
    if not foreign:
        return []
    module, is_package = project[0], project[1]
    wanted = {}
    for kind, store, key, receiver, where in foreign:
        wanted.setdefault((kind, store, key), []).append((receiver, where))
    held = {id(event) for lease in leases for event in (*lease.claims, *lease.releases)}
    made: dict[tuple, Lease] = {}

    def match(kind: str, event) -> str | None:
        key = absolute_key(portable(event.key_shape, imports, levels), module, is_package)
        receiver = absolute_key(portable(event.receiver_shape, imports, levels), module, is_package)
        for other, where in wanted.get((kind, event.store.name, key), ()):
            if receiver is None or other is None or receiver == other:
                return where
        return None

    for claim in claims:
        if id(claim) in held or claim.via is not None or claim.scope.is_test or not leasable(claim, counted):
            continue
        if _passes_through(claim) or not _own_key(claim):
            continue
        where = match("release", claim)
        if where is not None:
            lease = made.setdefault(("claim", claim.receiver_shape, claim.key_shape), Lease(claim.receiver_shape, claim.key_shape))
            lease.claims.append(claim)
            lease.foreign = where
            claim.no_fix = f"the lease is released in another module ({where}): change both by hand"
    for release in releases:
        if id(release) in held or release.via is not None or release.scope.is_test:
            continue
        if release.checked or release.deliberate or release.transactional or release.check or release.other_keys:
            continue
        if _passes_through(release) or not _own_key(release):
            continue
        where = match("claim", release)
        if where is not None:
            lease = made.setdefault(("release", release.receiver_shape, release.key_shape), Lease(release.receiver_shape, release.key_shape))
            lease.releases.append(release)
            lease.foreign = where
            release.no_fix = f"the lease is claimed in another module ({where}): store a fresh token there and check it here by hand"
    return list(made.values())
