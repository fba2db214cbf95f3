"""Which files can hold a finding at all, decided before libcst is paid for.

A lease finding needs the words of a claim (or of a lock object, a token-checked
release, or a lock error) in the file, and most files have none. A few words are too
common to decide alone (`.add(`, `.lock(`, `Lock(`): for those a second look at the
bytes asks what the model would need to see (enough arguments, a client it can
recognise). A file that passes on the words of a claim alone gets one more look, on
CPython's tree (`second_look`): is there a call the model could take for a claim of
its own? Every word and method comes from the store table, so a new store row updates
the prefilter. The test suite runs every rule case through all the stages.
"""

from __future__ import annotations

import re
from functools import lru_cache

from leaselint.model import stores
from leaselint.model.lock_names import LOCK_CLASS_WORDS, names_lock, names_lost_lock

# Words too common to decide alone.
ADD, LOCK_METHOD = b".add(", b".lock("
# How far to look for the arguments of a call before giving up (and keeping the file).
_SCAN = 4000
# Substrings shared by several words: one scan for the shared part, then the words, in the few
# files that hold it. (`DELEX` and `DELIFEQ` share a scan of the lower-cased copy with `delex` and
# `delifeq` instead: `del` is in most files.)
_SHARED = (b"Lock", b"not_exist", b"NOT_EXIST", b"nx", b"NX")


@lru_cache(maxsize=1)
def _table() -> dict:
    claim_words: set[bytes] = set(stores.prefilter_words()) - {ADD}
    words = set(claim_words)
    # A lock library's release errors: those without "Lock" in their name (`NotAcquired`) are looked
    # for only in a text that names a lock (the library's name does: `redis_lock.NotAcquired`).
    errors = {name.encode() for name in stores.LOCK_RELEASE_ERRORS}
    lock_named_more = tuple(sorted(e for e in errors if b"Lock" not in e))
    words.update(errors - set(lock_named_more))
    words.update(_checked_release_words())
    names = sorted({spec.call.rsplit(".", 1)[-1].encode() for spec in stores.LOCKS if not spec.method})
    constructors = {name + b"(" for name in names}
    # `from redis.lock import Lock as L`: the call is then `L(...)`.
    aliases = re.compile(rb"\b(?:" + b"|".join(map(re.escape, names)) + rb")\s+as\s+\w")
    add_stores = [s for s in stores.STORES if any(c.method == "add" for c in s.claims)]
    # The model knows a client by import when the file imports its module (or a name from it).
    modules = {m for s in add_stores for m in s.modules}
    add_from = []
    for module in sorted(modules):
        head, _, last = module.rpartition(".")
        if head:
            from_import = rb"from\s+" + re.escape(head.encode()) + rb"\s+import\b[^\n]*\b" + re.escape(last.encode())
            add_from.append(re.compile(from_import))
    add_names = {n for s in add_stores for n in s.client_names}
    lock_clients = [spec.client for spec in stores.LOCKS if spec.method and spec.client is not None]
    lock_words = {m.split(".")[0].encode() for client in lock_clients for m in client.modules} | {
        spec.call.split(".")[0].encode() for spec in stores.LOCKS if not spec.method
    }
    groups: dict[bytes, list] = {}
    for word in sorted(words):
        gate = next((shared for shared in _SHARED if shared in word), word)
        groups.setdefault(gate, []).append(word)
    gates: dict[bytes, tuple[bytes, ...]] = {gate: (gate,) for gate in groups}
    for gate, pattern in stores.prefilter_patterns():
        groups.setdefault(gate, []).append(_compile(gate, pattern))
        # A pattern's gate, and a shared word its literal holds (`not_exist` in `not_exists`): both.
        gates[gate] = tuple(dict.fromkeys((*(w for w in _SHARED if w in pattern), gate)))
    # One word of each group, and the words that hold the common ones: a file with none is done.
    assert not any(b"\0" in word for word in words)
    lock_gates = [b"Lock", b"lock(", *(name for name in names if b"Lock" not in name)]
    first = tuple(dict.fromkeys([*(gate[0] for gate in gates.values()), *lock_gates, ADD]))
    # Words whose lower-case forms hold a shorter one's (`NX` and `nx`; `Lock`, `lock(` and `Redlock`):
    # one scan of a lower-cased copy for the shorter form, then the words, in the files that hold it.
    folded: dict[bytes, list[bytes]] = {}
    for word in sorted(first, key=len):
        part = next((part for part in folded if part in word.lower()), word.lower())
        folded.setdefault(part, []).append(word)
    first_words = tuple(words[0] for words in folded.values() if len(words) == 1)
    folded_parts = tuple((part, tuple(words)) for part, words in folded.items() if len(words) > 1)
    return {
        # The words scanned as they are, and (part, words) with the part scanned in the lower-cased copy.
        "first": first_words,
        "folded": folded_parts,
        # The same, words (and parts) that begin with one byte scanned together (_by_first_byte).
        "first_groups": _by_first_byte(first_words, lambda word: word),
        "folded_groups": _by_first_byte(folded_parts, lambda entry: entry[0]),
        "claim_words": frozenset(claim_words),
        "decisive": tuple(sorted(words)),
        "groups": tuple((gates[gate], tuple(members)) for gate, members in groups.items()),
        "constructors": tuple(sorted(constructors)),
        "constructor_names": tuple(names),
        "aliases": aliases,
        "lock_gates": tuple(lock_gates),
        "add_words": _fewest({m.encode() for m in modules}),
        "add_from": tuple(add_from),
        "add_names": frozenset(add_names),
        "lock_words": _fewest(lock_words),
        "lock_names": frozenset(n for client in lock_clients for n in client.client_names),
        "lock_registries": frozenset(r.rsplit(".", 1)[-1].encode() for client in lock_clients for r in client.client_registries),
        "lock_named_words": stores.lock_named_words(),
        "lock_named_more": lock_named_more,
        "lock_named_modules": _fewest({m for m, _ in stores.lock_named_words()}),
        # (module words, `<Model>.objects` pattern) of the stores whose rows claim (an ORM's lock model).
        "row_managers": tuple(
            (
                tuple(m.encode() for m in store.modules),
                re.compile(rb"\.(?:\s|\\)*" + stores.ORM_MANAGER.encode() + rb"\b"),
            )
            for store in stores.STORES
            if any(spec.form == "orm" for spec in store.claims)
        ),
        # A function named like a store method (a store API of the module's own): the second look decides.
        "method_defs": re.compile(
            rb"\bdef\s+_*(?:" + b"|".join(re.escape(m.encode()) for m in sorted(stores.method_names())) + rb")\s*\("
        ),
        # (module words, release words) of each store: a claim's words with these are worth a parse.
        "store_releases": tuple(
            (tuple(m.encode() for m in store.modules), tuple(f".{r.method}(".encode() for r in store.releases if not r.checked))
            for store in stores.STORES
            if store.releases
        ),
    }


def _by_first_byte(items, word_of) -> tuple:
    """(pattern or None, items) per first byte of the items' words: one regex search for a literal
    byte and the rests after it costs about what one `in` costs (CPython's search for a short word
    reads some 1.3 GB/s), so words sharing their first byte are looked for in one pass; a lone word
    gets None (a plain `in`)."""
    by_byte: dict[int, list] = {}
    for item in items:
        by_byte.setdefault(word_of(item)[0], []).append(item)
    found = []
    for members in by_byte.values():
        if len(members) == 1:
            found.append((None, tuple(members)))
            continue
        head = word_of(members[0])[:1]
        rests = b"|".join(re.escape(word_of(m)[1:]) for m in members)
        found.append((re.compile(re.escape(head) + b"(?:" + rests + b")"), tuple(members)))
    return tuple(found)


def _fewest(words: set[bytes]) -> tuple[bytes, ...]:
    """The words that hold no other: a file holds one of `words` only if it holds one of these."""
    return tuple(sorted(word for word in words if not any(other in word for other in words if other != word)))


def _compile(word: bytes, pattern: bytes) -> re.Pattern:
    """`pattern` with a leading `\\b` moved behind its word (`\\bnx...` as `nx(?<=\\bnx)...`): the same
    matches, but the regex engine looks for the word instead of trying every position."""
    head = rb"\b" + word
    if pattern.startswith(head) and re.fullmatch(rb"\w+", word) and pattern[len(head) : len(head) + 1] not in b"*+?{":
        pattern = word + rb"(?<=" + head + rb")" + pattern[len(head) :]
    return re.compile(pattern)


def _checked_release_words() -> set[bytes]:
    """Words of the token-checked releases that report without a claim (the table's self-evident
    ones): their commands, as code writes them (the model reads command words in any case); `ARGV`
    for a compare-and-delete script (the model judges a script by its comparison with ARGV); a
    method of its own (`delex`). etcd's transaction needs `.transactions`, a claim word already."""
    found: set[bytes] = set()
    for store in stores.STORES:
        for spec in store.releases:
            if not spec.self_evident:
                continue
            if spec.script is not None:
                found.add(b"ARGV")  # `execute_command("EVAL", script, ...)` too: `eval` is in too many texts
            elif spec.command:
                found.update(word.encode() for command in spec.command for word in (command, command.lower()))
            elif spec.form == "call":
                found.add(spec.method.encode())
    return found


def words() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """(decisive words, common words), for documentation and tests."""
    table = _table()
    return table["decisive"], (ADD, LOCK_METHOD, *table["constructors"])


# What the bytes say: nothing to find; only the words of a claim (ask `second_look`); more.
NOTHING, CLAIM_WORDS, MORE = 0, 1, 2


def may_hold_findings(data: bytes, noqa_rule: bool = False) -> bool:
    """False only when no rule can report anything in a file with these bytes."""
    return verdict(data, noqa_rule) != NOTHING


def verdict(data: bytes, noqa_rule: bool = False, path: str = "") -> int:
    """NOTHING when no rule can report anything in a file with these bytes; CLAIM_WORDS when the
    only words found are those of a claim; MORE otherwise. A `path` whose name names a lock
    (`locks.py`) counts as a text that does."""
    if noqa_rule and b"noqa" in data and b"LL" in data:
        return MORE
    table = _table()
    scanned: dict[bytes, bool] = {}
    for pattern, words in table["first_groups"]:
        if pattern is None:
            scanned[words[0]] = words[0] in data
        else:
            some = pattern.search(data) is not None
            for word in words:
                scanned[word] = some and word in data
    lower = data.lower()
    named_lock = False
    for pattern, parts in table["folded_groups"]:
        some = pattern is None or pattern.search(lower) is not None
        for part, words in parts:
            inside = some and part in lower
            named_lock = named_lock or (inside and part == b"lock")
            for word in words:
                scanned[word] = inside and word in data
    if named_lock and any(word in data for word in table["lock_named_more"]):
        return MORE
    if not any(scanned.values()):
        # A read, then a write (LL009), only in a file that names a lock ("lock" is scanned anyway)
        # and deletes (a script's release brings `ARGV`, a word scanned above).
        named_lock = named_lock or bool(path and names_lock(path))
        if (named_lock and _lock_named_claim(data, table)) or _lock_row(data, table) or _flag_claim(data, lower):
            return CLAIM_WORDS
        if _self_release(data, lower):
            # A lock class whose own release may answer a lost lease the caller drops (the second look asks).
            return CLAIM_WORDS
        if _lost_lock_handler(data):
            return MORE  # a project's own lost-lease error caught around a release
        if _api_holder(data, lower):
            return CLAIM_WORDS  # a holder handed to a lock API's take and give (the second look asks)
        if (b"partial(" in data or b"= " in data) and _bound_claim().search(data) is not None:
            return CLAIM_WORDS  # `claim = self.mc.add`, `partial(self.mc.add, key)`: the second look asks
        return CLAIM_WORDS if named_lock and b".delete(" in data and _read_then_write(data, True) else NOTHING

    def holds(word: bytes) -> bool:
        found = scanned.get(word)
        if found is None:
            found = scanned[word] = word in data
        return found

    claims = False
    for gate, members in table["groups"]:
        if all(holds(word) for word in gate):
            for member in members:
                if isinstance(member, bytes) and member not in table["claim_words"]:
                    if holds(member):
                        return MORE
                elif not claims and (holds(member) if isinstance(member, bytes) else member.search(data)):
                    claims = True
    if _lock_object(data, table, holds):
        return MORE
    if claims or _add_claim(data, table, holds):
        return MORE if _store_release(data, table) else CLAIM_WORDS
    # A release first, the rarest part (a script's brings `ARGV`, scanned above): one scan in most files.
    named_lock = named_lock or bool(path and names_lock(path))
    if (named_lock and _lock_named_claim(data, table)) or _lock_row(data, table) or _flag_claim(data, lower):
        return CLAIM_WORDS
    if _self_release(data, lower):
        return CLAIM_WORDS  # as above: a lock class's own release (the second look asks)
    if _lost_lock_handler(data):
        return MORE  # as above: a project's own lost-lease error
    if _api_holder(data, lower):
        return CLAIM_WORDS  # as above: a lock API handed a holder
    released = named_lock and (scanned.get(b"ARGV") or b".delete(" in data)
    return CLAIM_WORDS if released and _read_then_write(data, True) else NOTHING


def _flag_claim(data: bytes, lower: bytes) -> bool:
    """A field set only where it holds its free value (a flag lease): Django's `.filter(...).update(`,
    an SQL `UPDATE ... SET ... WHERE`, MongoDB's `$set` (the second look asks)."""
    return (
        (b").update(" in data and b".filter(" in data)
        or (b"update" in lower and b"set" in lower and b"where" in lower and b"execute" in lower)
        or b"$set" in data
    )


def _self_release(data: bytes, lower: bytes) -> bool:
    """`self.release()` in a text that names a lock, lease, mutex or semaphore: a lock class's own
    release, whose answer a caller may drop."""
    return (b"self.release(" in data or b"self.unlock(" in data) and any(
        word.encode() in lower for word in LOCK_CLASS_WORDS
    )


_EXCEPT = re.compile(rb"\bexcept\b([^:\n]{1,200}):|\bsuppress\(([^)\n]{1,200})\)")


def _lost_lock_handler(data: bytes) -> bool:
    """An `except` or `suppress(...)` naming a project's error for a lost lease (`except LockLost:`)
    in a text that releases (lock_names.names_lost_lock)."""
    if not (b"except" in data or b"suppress(" in data) or not (b".release(" in data or b".unlock(" in data):
        return False
    return any(
        names_lost_lock(name.decode("ascii", "replace"))
        for match in _EXCEPT.finditer(data)
        for name in re.findall(rb"\w+", match.group(1) or match.group(2))
    )


def _api_holder(data: bytes, lower: bytes) -> bool:
    """A taking call and a giving call of a lock API (`.lock(`, `.release(`) in a text that names a
    holder (`host`, `owner`): the model asks whether they share it (build._api_tokens)."""
    words = _api_words()
    return (
        any(word in data for word in words[1])
        and any(word in data for word in words[0])
        and any(word in lower for word in words[2])
    )


def _api_words() -> tuple:
    found = _API_WORDS.get("words")
    if found is None:
        found = _API_WORDS["words"] = (
            tuple(b"." + m.encode() + b"(" for m in stores.API_TAKING),
            tuple(b"." + m.encode() + b"(" for m in stores.API_GIVING),
            tuple(w.encode() for w in stores.HOLDER_WORDS),
        )
    return found


_API_WORDS: dict = {}


# How far into a file its imports are looked for (a store's module named near the top).
_HEAD = 8192


def _store_release(data: bytes, table: dict) -> bool:
    """A release call of a store whose module the file names near its top, and no function named
    like a store method (a store API of its own, which the second look passes over): with a claim's
    words, CPython's look would send the file on, so it is not asked."""
    head = data[:_HEAD]
    return any(
        any(module in head for module in modules) and any(word in data for word in releases)
        for modules, releases in table["store_releases"]
    ) and table["method_defs"].search(data) is None


def _lock_row(data: bytes, table: dict) -> bool:
    """The manager of a model named for a lock (`JobLock.objects`) in a file that names the ORM's
    module near its top: a row claim may be there (the second look asks as the model does)."""
    head = data[:_HEAD]
    for modules, manager in table["row_managers"]:
        if any(module in head for module in modules) and stores.ORM_MANAGER.encode() in data:
            for found in manager.finditer(data):
                # The name before the dot, over spaces, line ends and a backslash continuing a line.
                end = found.start()
                while end > 0 and data[end - 1 : end] in b" \t\r\n\\":
                    end -= 1
                if stores.lock_model_name(_name_before(data, end).decode("ascii", "replace")):
                    return True
        if any(module in head for module in modules) and (b"self.create(" in data or b"self.get_or_create(" in data):
            # A manager's own `self.create(...)`, in a file with a class named for a lock.
            if any(stores.lock_model_name(m.group(1).decode("ascii", "replace")) for m in _CLASS.finditer(data)):
                return True
    return False


_CLASS = re.compile(rb"^[ \t]*class[ \t]+(\w+)", re.M)


def _lock_named_claim(data: bytes, table: dict) -> bool:
    """A claim word of a store whose module the file names near its top (its import): looked for
    only in files that name a lock."""
    head = data[:_HEAD]
    if not any(module in head for module in table["lock_named_modules"]):
        return False
    return any(module in head and word in data for module, word in table["lock_named_words"])


# A claim made by a read, then a plain write, then a release (LL009): `second_look` decides.
# The calls are the store table's (stores.read_then_write_methods).


@lru_cache(maxsize=1)
def _read_write_table() -> dict:
    reads, writes, releases = stores.read_then_write_methods()
    kinds = (("reads", reads), ("writes", writes), ("releases", releases))
    names = {kind: b"|".join(re.escape(m.encode()) for m in sorted(methods)) for kind, methods in kinds}
    return {
        "write_words": tuple(f".{m}(".encode() for m in sorted(writes)),
        # A write with an argument (`event.set()` is everywhere).
        "write_call": re.compile(rb"\.(?:" + names["writes"] + rb")\(\s*[^)\s]"),
        "read_words": tuple(f".{m}(".encode() for m in sorted(reads)),
        "release_words": tuple(f".{m}(".encode() for m in sorted(releases)),
        "read_key": re.compile(rb"\.(?:" + names["reads"] + rb")\(\s*([^()\s,]+)\s*\)"),
        "writes": names["writes"],
        "releases": names["releases"],
    }


def may_read_then_write(text: str) -> bool:
    """The bytes test of `_read_then_write` on a decoded text (for `second_look`)."""
    words = _read_write_table()["write_words"]
    return any(w.decode() in text for w in words) and _read_then_write(text.encode("utf-8", "surrogatepass"))


def _read_then_write(data: bytes, released: bool = False) -> bool:
    """A key read on its own (`.exists(key)`) that a plain write names first and a release names
    too (`delete(key)`, `eval(script, 1, key, ...)`). `released`: a release word is known there."""
    table = _read_write_table()
    if not any(word in data for word in table["write_words"]) or not table["write_call"].search(data):
        return False
    if not released and not any(word in data for word in table["release_words"]):
        return False
    if not any(word in data for word in table["read_words"]):
        return False
    for key in {match.group(1) for match in table["read_key"].finditer(data)}:
        name = re.escape(key)
        written = rb"\.(?:" + table["writes"] + rb")\(\s*" + name + rb"\s*,"
        freed = rb"\.(?:" + table["releases"] + rb")\([^)]*?(?<![\w.])" + name + rb"\s*[,)]"
        if re.search(written, data) is not None and re.search(freed, data) is not None:
            return True
    return False


@lru_cache(maxsize=1)
def _bound_claim():
    """A claim method bound to a name or to `partial` without being called there (walk.py reads
    the calls made through it)."""
    names = b"|".join(sorted({re.escape(spec.method.encode()) for store in stores.STORES for spec in store.claims}))
    return re.compile(rb"(?:=\s*|partial\(\s*)[\w.]+\.(?:" + names + rb")\s*(?:[,)\n#])")


def _add_claim(data: bytes, table: dict, holds) -> bool:
    """`x.add(key, value, ...)` on a client the model can recognise: by import or by name, or inside
    a lock class (one is named in the file)."""
    if not holds(ADD):
        return False
    library = None
    lock_class = None
    for at in _find_all(data, ADD):
        if _has_args(data, at + len(ADD), 2):
            if stores.client_named(_name_before(data, at).decode("ascii", "replace"), table["add_names"]):
                return True
            if lock_class is None:
                lock_class = _LOCK_CLASS.search(data) is not None
            if lock_class:
                return True
            if library is None:
                library = any(_imported(data, word) for word in table["add_words"]) or any(
                    pattern.search(data) for pattern in table["add_from"]
                )
            if library:
                return True
    return False


# An import statement's start: at the line's start, or after `try:`, `else:` or `;`.
_IMPORT_WORD = re.compile(rb"(?:^|[:;])[ \t]*(?:import|from)\b")


def _imported(data: bytes, word: bytes) -> bool:
    """`word` (a store's module) in an import statement's line: the model knows a client by the
    file's imports, not by a module named in a comment or a string."""
    for at in _find_all(data, word):
        start = data.rfind(b"\n", 0, at) + 1
        # Over lines a backslash continues (`import os, \` then the module).
        while start > 1 and data[start - 2 : start - 1] == b"\\":
            start = data.rfind(b"\n", 0, start - 2) + 1
        if _IMPORT_WORD.search(data[start:at]):
            return True
    return False


# A class named for a lock (stores.LOCK_CLASS_WORDS): `add` in it may claim on any receiver.
_LOCK_CLASS = re.compile(
    rb"^[ \t]*class[ \t]+\w*(?:"
    + b"|".join(b"|".join((w.encode(), w.capitalize().encode(), w.upper().encode())) for w in stores.LOCK_CLASS_WORDS)
    + rb")(?![a-z])",
    re.M,
)


def _lock_object(data: bytes, table: dict, holds) -> bool:
    """A lock made with arguments: a lock library in sight, or `.lock(...)` on a client's name."""
    # The lock gates (already scanned) hold every constructor's name and `.lock(`.
    if not any(holds(word) for word in table["lock_gates"]):
        return False
    constructors = [word for word in table["constructors"] if holds(word)]
    named = any(holds(name) for name in table["constructor_names"])
    if not constructors and not named and not holds(LOCK_METHOD):
        return False
    library = any(word in data for word in table["lock_words"])
    # The alias pattern is the slowest look: only for a file that names a lock library.
    if named and library and table["aliases"].search(data):
        return True
    for word in constructors:
        if library and any(_has_args(data, at + len(word), 1) for at in _find_all(data, word)):
            return True
    for at in _find_all(data, LOCK_METHOD):
        if _has_args(data, at + len(LOCK_METHOD), 1) and (
            library
            or stores.client_named(_name_before(data, at).decode("ascii", "replace"), table["lock_names"])
            or _registry_item_before(data, at, table["lock_registries"])
        ):
            return True
    return False


def _registry_item_before(data: bytes, dot: int, registries: frozenset) -> bool:
    """`caches["default"].lock(`: an item of a mapping of a lock client's store, as the model reads it."""
    if data[dot - 1 : dot] != b"]":
        return False
    opening = data.rfind(b"[", max(0, dot - 200), dot)
    return opening != -1 and _name_before(data, opening) in registries


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


# ------------------------------------------------------------------------------------------------
# The second look, on CPython's tree.


def second_look(tree, plain_writes: bool = True) -> bool:
    """False only when the model could find no lease in this tree of a file whose bytes hold only
    the words of a claim.

    Every rule's finding needs a claim of the model's (a lock object, a lock error or a
    compare-and-delete brings other words, which `verdict` keeps). So this looks for a call of a
    claim method whose receiver the model could take for that store's client, with the store's
    flag set, that is not a store API wrapper passing its caller's key on (the model's
    `_passes_through`). Every doubt keeps the file. `plain_writes`: the text may hold a plain
    write of a key it read (LL009), to look for.
    """
    facts = _Facts()
    facts.collect(tree)
    for call, function in facts.calls:
        method = call.func.attr  # type: ignore[attr-defined]
        for store, spec in stores.claim_specs(method):
            if store.recognised_only and not facts.recognisable(store, call.func.value):  # type: ignore[attr-defined]
                continue
            if spec.form == "orm" and not (
                _lock_row_create(call, facts.manager_class) or spec.method == "update" or (spec.method == "save" and _lock_row_save(call))
            ):
                continue
            if spec.form != "call" or spec.command is not None or spec.needs_reply:
                return True
            if spec.flag is not None and not _flag_set(_arg(call, spec.flag), spec.flag_value):
                continue
            key = _arg(call, spec.key)
            if key is None or not _passes_through(key, function):
                return True
        for _store, spec in stores.release_specs(method):
            if spec.self_evident:
                return True
        if method in _multi():
            return True  # a WATCH/MULTI/EXEC transaction may claim (the store table's optimistic_reads)
    if facts.lock_class and facts.self_release:
        return True  # the model asks whether the class's release answers a lost lease
    if facts.handed:
        return True
    if facts.api_taking and facts.api_giving:
        return True  # a lock API's take and give: the model asks whether they share a holder
    return plain_writes and _read_then_set(tree)


def _lock_row_save(call) -> bool:
    """`JobLock(name=key, ...).save()`, or any `save(force_insert=True)`: a row made by hand (the
    model asks for its IntegrityError caught, or the insert forced)."""
    import ast

    made = call.func.value
    if isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and stores.lock_model_name(made.func.id):
        return True
    return any(k.arg == "force_insert" for k in call.keywords)


def _lock_row_create(call, manager_class: bool = False) -> bool:
    """`JobLock.objects.create(name=key, ...)`, as the model takes a row claim: a model named for a
    lock, keyword arguments alone, one of them naming the row (`self.create(**params)` is none); in a
    file with a manager class, its own `self.create(...)` too (the model decides whose rows)."""
    import ast

    manager = call.func.value
    if call.args or any(k.arg is None for k in call.keywords):
        return False
    if manager_class and isinstance(manager, ast.Name) and manager.id == "self":
        return any(stores.row_key_name(k.arg) for k in call.keywords)
    if not (isinstance(manager, ast.Attribute) and manager.attr == stores.ORM_MANAGER and isinstance(manager.value, ast.Name)):
        return False
    return stores.lock_model_name(manager.value.id) and any(stores.row_key_name(k.arg) for k in call.keywords)


def _read_then_set(tree) -> bool:
    """An `if` that reads a key (`r.exists(k)`, `cache.get(k)`) and a plain write of the same key on
    the same receiver later in the same function (LL009's shape, read as the model reads it: one
    scope, the read first; the model decides the rest)."""
    import ast

    read_names, write_names, _ = stores.read_then_write_methods()
    reads: dict[tuple, int] = {}
    writes = []
    # (receiver, key) of reads a function hands back (`return bool(r.get(key))`): a caller may test
    # them and then call the function that writes the key (model/read_claims.py).
    returned: set[tuple] = set()
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    # (node, its scope, inside an `if`/`while` test): a function's scope begins at its body.
    stack = [(tree, 0, False)]
    while stack:
        node, scope, in_test = stack.pop()
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.args:
            method = node.func.attr
            if in_test and method in read_names and len(node.args) == 1:
                ident = (scope, ast.dump(node.func.value), ast.dump(node.args[0]))
                reads[ident] = min(reads.get(ident, node.lineno), node.lineno)
            elif method in write_names:
                writes.append((scope, node))
        if isinstance(node, functions):
            inner = id(node)
            for item in node.body:
                stack.append((item, inner, False))
            for part in (*node.decorator_list, node.args, node.returns):
                if part is not None:
                    stack.append((part, scope, in_test))
            continue
        if isinstance(node, (ast.If, ast.While)):
            stack.append((node.test, scope, True))
            for item in (*node.body, *node.orelse):
                stack.append((item, scope, in_test))
            continue
        if type(node) is ast.Return and node.value is not None:
            for inner in ast.walk(node.value):
                if type(inner) is ast.Call and type(inner.func) is ast.Attribute and inner.func.attr in read_names and len(inner.args) == 1:
                    returned.add((ast.dump(inner.func.value), ast.dump(inner.args[0])))
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            # `holder = cache.get(key)`, tested later by its name.
            value = node.value.value if type(node.value) is ast.Await else node.value
            stack.append((value, scope, True))
            continue
        for child in ast.iter_child_nodes(node):
            stack.append((child, scope, in_test))
    if not (reads or returned):
        return False
    for scope, call in writes:
        line = reads.get((scope, ast.dump(call.func.value), ast.dump(call.args[0])))
        if line is not None and line <= call.lineno:
            return True
        if (ast.dump(call.func.value), ast.dump(call.args[0])) in returned:
            return True
    return False


@lru_cache(maxsize=1)
def _multi() -> frozenset[str]:
    return frozenset(m for store in stores.STORES if store.optimistic_reads for m in store.multi)


@lru_cache(maxsize=1)
def _methods() -> frozenset[str]:
    """Claim methods, and the methods of token-checked releases that report without a claim."""
    claims = {spec.method for store in stores.STORES for spec in store.claims}
    evident = {spec.method for store in stores.STORES for spec in store.releases if spec.self_evident}
    return stores.ClaimNames(claims | evident | _multi())


class _Facts:
    """What the second look needs from the whole tree, in one pass."""

    def __init__(self) -> None:
        self.calls: list = []
        self.imports: set[str] = set()
        self.imported_names: set[str] = set()
        self.bound_names: set[str] = set()
        self.bound_attrs: set[str] = set()
        # Functions and methods: the model follows one that is called (`get_client()`, `self.client()`).
        self.defined_names: set[str] = set()
        # A class of the file is lock-shaped (stores.lock_shaped).
        self.lock_class = False
        # A class of the file derives from a Django manager or queryset (`class LockManager(Manager)`).
        self.manager_class = False
        # `self.release()` (or `self.unlock()`) is called: a lock class's release whose answer may be dropped.
        self.self_release = False
        # A claim method handed to a runner or bound to a name (walk.py's handed calls).
        self.handed = False
        # Calls of a lock API's taking and giving methods with two arguments or more (build._api_tokens).
        self.api_taking = False
        self.api_giving = False

    def collect(self, tree) -> None:
        import ast

        methods = _methods()
        api_taking, api_giving = stores.API_TAKING, stores.API_GIVING
        node_type, call, name, attribute, load = ast.AST, ast.Call, ast.Name, ast.Attribute, ast.Load
        functions = (ast.FunctionDef, ast.AsyncFunctionDef)
        stack = [(tree, None)]
        push = stack.append
        # Exact types (CPython's parser makes no subclasses) and the fields read directly: this walk
        # is most of the second look.
        while stack:
            node, function = stack.pop()
            kind = type(node)
            if kind is call:
                if type(node.func) is attribute and len(node.args) + len(node.keywords) >= 2:
                    if node.func.attr in api_taking:
                        self.api_taking = True
                    elif node.func.attr in api_giving:
                        self.api_giving = True
                if type(node.func) is attribute and node.func.attr in methods:
                    self.calls.append((node, function))
                elif any(type(a) is attribute and a.attr in methods for a in node.args[:2]):
                    # `asyncio.to_thread(r.set, ...)`, `partial(mc.add, key)`: a claim method handed on
                    # (the model reads runners and bound methods; every doubt keeps the file).
                    self.handed = True
                elif (
                    type(node.func) is attribute
                    and node.func.attr in ("release", "unlock")
                    and type(node.func.value) is name
                    and node.func.value.id == "self"
                ):
                    self.self_release = True
            elif kind is ast.Assign and type(node.value) is attribute and node.value.attr in methods:
                self.handed = True  # `claim = self.mc.add`, then `claim(key, token, 60)`
            elif kind is name:
                if type(node.ctx) is not load:
                    self.bound_names.add(node.id)
            elif kind is attribute:
                if type(node.ctx) is not load:
                    self.bound_attrs.add(node.attr)
            elif kind is ast.ClassDef:
                if not self.manager_class:
                    self.manager_class = any(
                        (base.attr if type(base) is attribute else getattr(base, "id", "")).endswith(("Manager", "QuerySet"))
                        for base in node.bases
                    )
                if not self.lock_class:
                    defined = [item.name for item in node.body if type(item) in functions]
                    self.lock_class = stores.lock_shaped(node.name, defined)
            elif kind is ast.Import:
                for alias in node.names:
                    self.imports.add(alias.name)
                    self.imported_names.add(alias.asname or alias.name.split(".")[0])
            elif kind is ast.ImportFrom:
                # As the model's walker reads it: a relative import's dots are dropped.
                for alias in node.names:
                    self.imports.add(f"{node.module}.{alias.name}" if node.module else alias.name)
                    self.imported_names.add(alias.asname or alias.name)
            elif kind in functions:
                self.defined_names.add(node.name)
            elif kind is ast.arg and node.annotation is not None:
                # `client: GlideClient`: the model may know the client by its annotation.
                self.bound_names.add(node.arg)
            inner = node if kind in functions else function
            for field in node._fields:
                value = getattr(node, field, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, node_type):
                            push((item, inner))
                elif isinstance(value, node_type) and field != "ctx":
                    push((value, inner))

    def imports_store(self, store) -> bool:
        return any(name == m or name.startswith(m + ".") for name in self.imports for m in store.modules)

    def recognisable(self, store, receiver) -> bool:
        """Whether the model could recognise `receiver` as the store's client (`Classifier.recognition`),
        by its own name, by a module-wide import, or as made by the store's modules; or the file has a
        lock class, in which the store's claims count on any receiver (`Classifier._in_lock_class`)."""
        import ast

        if store.lock_class_claims and self.lock_class:
            return True

        last = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
        if stores.client_named(last, store.client_names):
            return True
        if not self.imports_store(store):
            return False
        if store.module_wide:
            return True
        node, called = receiver, False
        while isinstance(node, (ast.Call, ast.Subscript, ast.Attribute)):
            if isinstance(node, ast.Attribute) and self._may_make(node.attr, called):
                return True  # perhaps a `self` attribute set somewhere, or a method that makes it
            called = isinstance(node, ast.Call)
            node = node.func if called else node.value
        return isinstance(node, ast.Name) and (node.id in self.imported_names or self._may_make(node.id, called))

    def _may_make(self, name: str, called: bool) -> bool:
        """A name bound to a value, or a function called there (`get_client()`): a method not called
        (a `cached_property` holding the client) is a value the model does not follow."""
        return name in self.bound_attrs or name in self.bound_names or (called and name in self.defined_names)


def _arg(call, where):
    """`get_arg` of the model, on CPython's tree."""
    import ast

    if where.keyword is not None:
        for keyword in call.keywords:
            if keyword.arg == where.keyword:
                return keyword.value
    if where.index is not None:
        for position, value in enumerate(call.args):
            if isinstance(value, ast.Starred):
                return None
            if position == where.index:
                return value
    return None


def _flag_set(node, name) -> bool:
    import ast

    if name is None:
        return isinstance(node, ast.Constant) and node.value is True
    if isinstance(node, ast.Attribute):
        return node.attr == name
    if isinstance(node, ast.Constant) and name in ("False", "None"):
        return repr(node.value) == name  # `prevExist=False`: a Name in libcst's tree, a constant here
    return isinstance(node, ast.Name) and node.id == name


def _passes_through(key, function) -> bool:
    """A store API wrapper: in a function named like a store method, the key is its parameter."""
    import ast

    if function is None or not isinstance(key, ast.Name):
        return False
    name = function.name.lstrip("_")
    if name not in stores.method_names() or "lock" in name or "lease" in name:
        return False  # as the model: a lock's own API (`unlock`, `set_lock`) is no store wrapper
    arguments = function.args
    params = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    params.update(a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None)
    return key.id in params


@lru_cache(maxsize=1)
def _release_call() -> re.Pattern:
    methods = sorted(
        {spec.method for store in stores.STORES for spec in (*store.releases, *store.script_objects) if not spec.common_word}
        | {spec.method for store in stores.STORES for spec in store.expiries}  # a renewal helper's
    )
    return re.compile(rb"\.(?:" + b"|".join(re.escape(m.encode()) for m in methods) + rb")\(")


def may_export(data: bytes) -> bool:
    """Whether a module other modules call could hand them a claim, a release or a renewal (project
    pass): the words of a claim, or a release or expiry call alone (`def release_lock(key): r.delete(key)`)."""
    return verdict(data) != NOTHING or _release_call().search(data) is not None
