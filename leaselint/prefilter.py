"""Which files can hold a finding at all, decided from their bytes before any parse.

A lease finding needs the words of a claim (or of a lock object, a token-checked
release, or a lock error) in the file. Most files have none: they are done without
decoding or parsing. A few words are too common to decide alone (`.add(`, `.lock(`,
`Lock(`); for those a second stage looks with CPython's `ast`, far cheaper than
libcst, for a call that could be a claim on a client that also releases.
Every word comes from the store table, so a new store row updates the prefilter.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from leaselint.model import stores

# Words too common to decide alone: they send a file to the second stage.
COMMON = frozenset({b".add(", b".lock(", b"Lock(", b"Redlock("})


@lru_cache(maxsize=1)
def words() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """(decisive words, common words) from the store table."""
    found: set[bytes] = set(stores.prefilter_words())
    for spec in stores.LOCKS:
        name = spec.call.rsplit(".", 1)[-1]
        found.add(f".{name}(".encode() if spec.method else f"{name}(".encode())
    found.update(name.encode() for name in stores.LOCK_RELEASE_ERRORS)
    # Token-checked releases: a compare-and-delete script, DELIFEQ, DELEX.
    found.update({b"ARGV", b"DELIFEQ", b"DELEX", b".delex("})
    decisive = tuple(sorted(word for word in found if word not in COMMON))
    common = tuple(sorted(word for word in found if word in COMMON))
    return decisive, common


def may_hold_findings(data: bytes, noqa_rule: bool = False) -> bool:
    """False only when no rule can report anything in a file with these bytes."""
    if noqa_rule and b"noqa" in data and b"LL" in data:
        return True
    decisive, common = words()
    if any(word in data for word in decisive):
        return True
    if not any(word in data for word in common):
        return False
    return _second_stage(data)


def _second_stage(data: bytes) -> bool:
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # Not Python that ast can read: let the full parse report it.
        return True
    claims = released = False
    release_methods = {spec.method for store in stores.STORES for spec in store.releases}
    store_modules = {m.split(".")[0] for store in stores.STORES if store.recognised_only for m in store.modules}
    imports_store = False
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            imports_store = imports_store or any(n.split(".")[0] in store_modules for n in names)
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        arity = len(node.args) + len(node.keywords)
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("lock", "Lock", "Redlock") and arity >= 1:
            return True
        if isinstance(func, ast.Attribute):
            if name == "add" and arity >= 2:
                claims = True
            elif name in release_methods:
                released = True
    # The model pairs receivers through assignments (`c = self.cache`), so any release will do here.
    return claims and (released or imports_store)
