"""What a Lua script run on Redis does to its keys, read from its text: claims, deletes, compares.

Plain regular expressions, no parse: the model reads scripts written in the code, the run-time
checker (leaselint/runtime) the scripts a client sends.
"""

from __future__ import annotations

import re

DELETES = re.compile(r"""call\(\s*['"](?:del|unlink|hdel)['"]""", re.IGNORECASE)
# A conditional create in Lua: `redis.call('set', KEYS[1], ARGV[n], 'NX', ...)` or `setnx`.
_LUA_SET = re.compile(
    r"""call\(\s*['"](set|setnx)['"]\s*,\s*KEYS\[1\]\s*,\s*ARGV\[(\d+)\]([^)]*)\)""", re.IGNORECASE
)
_LUA_LIFETIME = re.compile(r"""['"](?:ex|px|exat|pxat)['"]""", re.IGNORECASE)
_LUA_EXPIRE = re.compile(r"""call\(\s*['"]p?expire(?:at)?['"]\s*,\s*KEYS\[1\]""", re.IGNORECASE)


_LUA_SET_LITERAL = re.compile(
    r"""call\(\s*['"](set|setnx)['"]\s*,\s*KEYS\[1\]\s*,\s*(?:'[^']*'|"[^"]*"|\d+)\s*([^)]*)\)""", re.IGNORECASE
)


# A read of KEYS[1] that says whether it is there, and a write of it that stores ARGV[n].
_LUA_READ = re.compile(r"""call\(\s*['"](?:exists|get|hget|hmget|hexists)['"]\s*,\s*KEYS\[1\]""", re.IGNORECASE)
_LUA_WRITE = re.compile(
    r"""call\(\s*['"](set|hset|hmset)['"]\s*,\s*KEYS\[1\]\s*,(?:\s*['"][^'"]*['"]\s*,)?\s*ARGV\[(\d+)\]""",
    re.IGNORECASE,
)
# The branch the write stands in runs when the read found nothing.
# Or leaves when it found something: `if redis.call('hget', KEYS[1], 'writer') ~= false then return false end`.
_LUA_ABSENT = re.compile(
    r"""\bif\s+not\b|==\s*0\b|==\s*false\b|==\s*nil\b|~=\s*1\b|~=\s*(?:false|nil)\s*\)?\s*then\s+return\b""",
    re.IGNORECASE,
)


def lua_read_then_write(script: str) -> bool:
    """The script claims by reading KEYS[1] and writing it when absent (no SET NX): what it answers
    on success is the script's own choice (nothing, the holder's data when held)."""
    return not any(
        match.group(1).lower() == "setnx" or re.search(r"""['"]nx['"]""", match.group(match.lastindex), re.IGNORECASE)
        for pattern in (_LUA_SET, _LUA_SET_LITERAL)
        for match in pattern.finditer(script)
    )


def lua_claim(script: str) -> tuple[int, bool] | None:
    """(n, has a lifetime) when the script claims KEYS[1] storing ARGV[n] with a conditional create;
    n is 0 when the stored value is a literal of the script (`set KEYS[1] 'LOCK' NX`). A read of
    KEYS[1], then a write of it under a test that it was absent, in one script, claims too."""
    for pattern, literal in ((_LUA_SET, False), (_LUA_SET_LITERAL, True)):
        for match in pattern.finditer(script):
            command, rest = match.group(1).lower(), match.group(match.lastindex)
            if command == "setnx" or re.search(r"""['"]nx['"]""", rest, re.IGNORECASE):
                lifetime = bool(_LUA_LIFETIME.search(rest)) or bool(_LUA_EXPIRE.search(script))
                return (0 if literal else int(match.group(2))), lifetime
    read = _LUA_READ.search(script)
    write = _LUA_WRITE.search(script)
    if read and write and read.start() < write.start() and _LUA_ABSENT.search(script, read.start(), write.start()):
        rest = script[write.end() : script.find(")", write.end()) + 1]
        lifetime = bool(_LUA_LIFETIME.search(rest)) or bool(_LUA_EXPIRE.search(script))
        return int(write.group(2)), lifetime
    return None
# `local lock_key = KEYS[1]`, `local ttl = tonumber(ARGV[2])`: a Lua local standing for a key or an argument.
_LUA_LOCAL = re.compile(r"\blocal\s+(\w+)\s*=\s*((?:tonumber\s*\(\s*)?(?:KEYS|ARGV)\[\d+\](?:\s*\))?)[ \t]*(?=[\r\n;]|--|$)")


def lua_plain(script: str) -> str:
    """The script with each local that stands for a key or an argument, bound once and never
    assigned again, written as what it stands for (`setnx(lock_key, ...)` -> `setnx(KEYS[1], ...)`)."""
    if "local" not in script:
        return script
    for match in _LUA_LOCAL.finditer(script):
        name, value = match.group(1), match.group(2)
        if name in ("KEYS", "ARGV") or len(re.findall(rf"\blocal\s+{name}\b", script)) != 1:
            continue
        head, tail = script[: match.end()], script[match.end() :]
        if re.search(rf"(?<![\w.]){name}\s*=(?!=)", tail):
            continue  # assigned again further down
        script = head + re.sub(rf"(?<![\w.\[]){name}\b(?!\s*\()", lambda _: value, tail)
    return script


_COMPARES_ARGUMENT = re.compile(r"==\s*ARGV\[|ARGV\[\d+\]\s*==|~=\s*ARGV\[|ARGV\[\d+\]\s*~=")


_ARGUMENT_LOCAL = re.compile(r"\blocal\s+(\w+)\s*=\s*ARGV\[\d+\]")


# The key's value searched for an argument: `string.find(redis.call('get', KEYS[1]), ARGV[1])`,
# `string.find(held, ARGV[1]) == 1` or `held:find(ARGV[1], 1, true)` where `local held =
# redis.call('get', KEYS[1])`: a holder told by a prefix or a part of the value.
_GET = r"""redis\.(?:p?call)\(\s*['"](?i:get)['"]\s*,\s*KEYS\[1\]\s*\)"""
_FINDS_IN_GET = re.compile(r"\b(?:string\.)?(?:find|match)\s*\(\s*" + _GET + r"""\s*(?:or\s*['"]['"]\s*)?,\s*(?:ARGV\[\d+\]|(\w+))""")
_FINDS_IN_LOCAL = re.compile(r"""\bstring\.(?:find|match)\s*\(\s*(\w+)\s*,\s*(?:ARGV\[\d+\]|(\w+))|\b(\w+):(?:find|match)\s*\(\s*(?:ARGV\[\d+\]|(\w+))""")
_GET_LOCAL = re.compile(r"\blocal\s+(\w+)\s*=\s*" + _GET)


def _finds_holder(script: str) -> bool:
    arguments = set(_ARGUMENT_LOCAL.findall(script))
    for found in _FINDS_IN_GET.finditer(script):
        if found.group(1) is None or found.group(1) in arguments:
            return True
    values = set(_GET_LOCAL.findall(script))
    for found in _FINDS_IN_LOCAL.finditer(script):
        value = found.group(1) or found.group(3)
        argument = found.group(2) or found.group(4)
        if value in values and (argument is None or argument in arguments):
            return True
    return False


def compares_argument(script: str) -> bool:
    """The script compares the key's value with an argument, directly or through a Lua local
    (`local token = ARGV[1]` ... `== token`), or searches the key's value for it (a prefix or a part)."""
    if _COMPARES_ARGUMENT.search(script) or _finds_holder(script):
        return True
    return any(re.search(rf"(?:==|~=)\s*{name}\b|\b{name}\s*(?:==|~=)", script) for name in _ARGUMENT_LOCAL.findall(script))


# A slot of a semaphore or a reader's place in a lock: the token ARGV[n] written as a member of
# KEYS[i] (`zadd KEYS[i] score ARGV[n]`, `sadd`, `hset KEYS[i] ARGV[n] v`, `rpush`), and removed by
# `zrem`/`srem`/`hdel`/`lrem` of the same member.
_MEMBER_WRITES = (
    re.compile(r"""call\(\s*['"]zadd['"]\s*,\s*KEYS\[(\d+)\]\s*,[^\n]*?,\s*ARGV\[(\d+)\]\s*\)""", re.IGNORECASE),
    re.compile(r"""call\(\s*['"](?:sadd|lpush|rpush)['"]\s*,\s*KEYS\[(\d+)\]\s*,\s*ARGV\[(\d+)\]\s*\)""", re.IGNORECASE),
    re.compile(r"""call\(\s*['"]hset(?:nx)?['"]\s*,\s*KEYS\[(\d+)\]\s*,\s*ARGV\[(\d+)\]\s*,""", re.IGNORECASE),
)
# What says whether a slot is free: a count or a presence of the key, never of the member itself.
_SLOT_TEST = re.compile(
    r"""\bif\b[^\n]*call\(\s*['"](?:zcard|scard|hlen|llen|get|exists|zcount|hget)['"]\s*,\s*KEYS\[\d+\]\s*(?:,\s*['"][^'"]*['"]\s*)?\)"""
    r"""|call\(\s*['"](?:zcard|scard|hlen|llen|get|zcount)['"]\s*,\s*KEYS\[\d+\][^\n]*\n(?:[^\n]*\n){0,3}?\s*if\b""",
    re.IGNORECASE,
)
_MEMBER_REMOVE = re.compile(
    r"""call\(\s*['"](zrem|srem|hdel|lrem)['"]\s*,\s*KEYS\[(\d+)\]\s*,\s*(?:-?\d+\s*,\s*)?ARGV\[(\d+)\]\s*\)""",
    re.IGNORECASE,
)


def _member_write(script: str):
    """(KEYS index, ARGV index, where) of the first write of an argument as a member of a key."""
    found = [m for pattern in _MEMBER_WRITES for m in pattern.finditer(script)]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    return int(first.group(1)), int(first.group(2)), first.start()


def lua_member_claim(script: str) -> tuple[int, int, bool] | None:
    """(i, n, has a lifetime) when the script takes a slot of KEYS[i] for the token ARGV[n]: it
    tests a count or presence first (`if redis.call('zcard', KEYS[1]) >= limit then return 0 end`),
    then writes the token as a member. A lifetime is an expiry of the key or a purge by score."""
    found = _member_write(script)
    if found is None:
        return None
    index, argument, where = found
    test = _SLOT_TEST.search(script)
    if test is None or test.start() > where:
        return None
    if re.search(rf"""call\(\s*['"][lr]push['"]\s*,\s*KEYS\[{index}\]""", script, re.IGNORECASE) and re.search(
        rf"""call\(\s*['"]llen['"]\s*,\s*KEYS\[{index}\]""", script, re.IGNORECASE
    ):
        return None  # a list capped by its own length is a bounded queue: its items are payloads
    lifetime = re.search(
        rf"""call\(\s*['"](?:p?expire(?:at)?|zremrangebyscore)['"]\s*,\s*KEYS\[{index}\]""", script, re.IGNORECASE
    )
    return index, argument, lifetime is not None


def lua_member_release(script: str) -> tuple[int, int] | None:
    """(i, n) when the script removes the member ARGV[n] of KEYS[i] (`zrem`, `srem`, `hdel`, `lrem`)
    and deletes no whole key of its own."""
    match = _MEMBER_REMOVE.search(script)
    if match is None or re.search(r"""call\(\s*['"](?:del|unlink)['"]""", script, re.IGNORECASE):
        return None
    return int(match.group(2)), int(match.group(3))


def lua_answers(script: str) -> bool:
    """The script returns something: a caller can read from its answer whether it did its work."""
    return re.search(r"\breturn\s+(?!nil\b|end\b)[^\s;]", script) is not None
