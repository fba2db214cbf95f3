"""Which files can hold a finding at all, decided from their bytes before any decode or parse.

A lease finding needs the words of a claim (or of a lock object, a token-checked
release, or a lock error) in the file, and most files have none. A few words are too
common to decide alone (`.add(`, `.lock(`, `Lock(`): for those a second look at the
bytes asks what the model would need to see (enough arguments, a client it can
recognise). Every word comes from the store table, so a new store row updates the
prefilter. The test suite runs every rule case through both paths.
"""

from __future__ import annotations

import re
from functools import lru_cache

from leaselint.model import stores

# Words too common to decide alone.
ADD, LOCK_METHOD = b".add(", b".lock("
# How far to look for the arguments of a call before giving up (and keeping the file).
_SCAN = 4000
# Substrings shared by several words: one scan for the shared part, then the words, in the few
# files that hold it.
_SHARED = (b"Lock", b"not_exist", b"NOT_EXIST", b"DEL", b"transactions.", b"nx", b"NX")


@lru_cache(maxsize=1)
def _table() -> dict:
    words: set[bytes] = set(stores.prefilter_words()) - {ADD}
    words.update(name.encode() for name in stores.LOCK_RELEASE_ERRORS)
    # Token-checked releases: a compare-and-delete script, DELIFEQ, DELEX.
    words.update({b"ARGV", b"DELIFEQ", b"DELEX", b".delex("})
    constructors = {spec.call.rsplit(".", 1)[-1].encode() + b"(" for spec in stores.LOCKS if not spec.method}
    add_stores = [s for s in stores.STORES if any(c.method == "add" for c in s.claims)]
    # The model knows a client by import when the file imports its module (or a name from it).
    imports = []
    for module in sorted({m for s in add_stores for m in s.modules}):
        head, _, last = module.rpartition(".")
        imports.append(re.escape(module.encode()))
        if head:
            imports.append(rb"from\s+" + re.escape(head.encode()) + rb"\s+import\b[^\n]*\b" + re.escape(last.encode()))
    add_words = re.compile(b"|".join(imports))
    add_names = {n for s in add_stores for n in s.client_names}
    lock_clients = [spec.client for spec in stores.LOCKS if spec.method and spec.client is not None]
    lock_words = {m.split(".")[0].encode() for client in lock_clients for m in client.modules} | {
        spec.call.split(".")[0].encode() for spec in stores.LOCKS if not spec.method
    }
    groups: dict[bytes, list] = {}
    for word in sorted(words):
        gate = next((shared for shared in _SHARED if shared in word), word)
        groups.setdefault(gate, []).append(word)
    for gate, pattern in stores.prefilter_patterns():
        groups.setdefault(gate, []).append(re.compile(pattern))
    return {
        "decisive": tuple(sorted(words)),
        "groups": tuple((gate, tuple(members)) for gate, members in groups.items()),
        "constructors": tuple(sorted(constructors)),
        "add_words": add_words,
        "add_names": frozenset(n.encode() for n in add_names),
        "lock_words": tuple(sorted(lock_words)),
        "lock_names": frozenset(n.encode() for client in lock_clients for n in client.client_names),
    }


def words() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """(decisive words, common words), for documentation and tests."""
    table = _table()
    return table["decisive"], (ADD, LOCK_METHOD, *table["constructors"])


def may_hold_findings(data: bytes, noqa_rule: bool = False) -> bool:
    """False only when no rule can report anything in a file with these bytes."""
    if noqa_rule and b"noqa" in data and b"LL" in data:
        return True
    table = _table()
    for gate, members in table["groups"]:
        if gate in data:
            for member in members:
                if member in data if isinstance(member, bytes) else member.search(data):
                    return True
    return _add_claim(data, table) or _lock_object(data, table)


def _add_claim(data: bytes, table: dict) -> bool:
    """`x.add(key, value, ...)` on a client the model can recognise: by import or by name."""
    if ADD not in data:
        return False
    library = table["add_words"].search(data) is not None
    for at in _find_all(data, ADD):
        if (library or _name_before(data, at) in table["add_names"]) and _has_args(data, at + len(ADD), 2):
            return True
    return False


def _lock_object(data: bytes, table: dict) -> bool:
    """A lock made with arguments: a lock library in sight, or `.lock(...)` on a client's name."""
    constructors = [word for word in table["constructors"] if word in data]
    if not constructors and LOCK_METHOD not in data:
        return False
    library = any(word in data for word in table["lock_words"])
    for word in constructors:
        if library and any(_has_args(data, at + len(word), 1) for at in _find_all(data, word)):
            return True
    for at in _find_all(data, LOCK_METHOD):
        if _has_args(data, at + len(LOCK_METHOD), 1) and (library or _name_before(data, at) in table["lock_names"]):
            return True
    return False


def _find_all(data: bytes, word: bytes):
    at = data.find(word)
    while at != -1:
        yield at
        at = data.find(word, at + 1)


def _has_args(data: bytes, start: int, count: int) -> bool:
    """The call whose `(` ends at `start` has at least `count` arguments; True when unsure."""
    depth = 0
    for index in range(start, min(len(data), start + _SCAN)):
        char = data[index : index + 1]
        if char in b"\"'#\\":
            return True
        if char in b" \t\r\n":
            continue
        if count == 1 and depth == 0:
            return char != b")"
        if char in b"([{":
            depth += 1
        elif char in b")]}":
            if depth == 0:
                return False
            depth -= 1
        elif char == b"," and depth == 0:
            return True
    return True


def _name_before(data: bytes, dot: int) -> bytes:
    """The identifier right before `.lock(`: `redis` in `self.redis.lock(`."""
    end = dot
    start = end
    while start > 0 and (data[start - 1 : start].isalnum() or data[start - 1 : start] == b"_"):
        start -= 1
    return data[start:end]
