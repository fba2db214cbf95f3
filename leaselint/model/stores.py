"""Every client family leaselint knows, as data.

A row says how the family's claims, releases, reads and expiries look, and
which token-checked release its fixes write. Rules never name a store: they
read the events the model builds from this table.
"""

from __future__ import annotations

import re

import functools

from dataclasses import dataclass
from functools import lru_cache

from leaselint.model.lock_names import LOCK_CLASS_WORDS


@dataclass(frozen=True)
class Arg:
    """Where an argument sits: a position, a keyword, or both."""

    index: int | None = None
    keyword: str | None = None


@dataclass(frozen=True)
class ClaimSpec:
    """A conditional create: `method(...)` that only writes when the key is absent."""

    method: str
    key: Arg
    value: Arg | None
    # For a field of a hash (`hsetnx(name, field, value)`): the field; the lease is the hash's field.
    field: Arg | None = None
    # An argument that must be a literal True (or name `flag_value`) for the call to be conditional.
    flag: Arg | None = None
    flag_value: str | None = None
    # For command-style calls: the command word and the words that make it conditional.
    command: str | None = None
    command_flag: str | None = None
    # Arguments (or command words) that give the claim a lifetime.
    lifetime: tuple[Arg, ...] = ()
    lifetime_words: tuple[str, ...] = ()
    # The store gives a claim without a lifetime argument a default one (Django's cache).
    default_lifetime: bool = False
    # Literal lifetimes that mean "never expires" on this store.
    forever: tuple[str, ...] = ("None",)
    # Lifetimes are cut to whole seconds: below one second nothing is stored, yet the claim succeeds.
    whole_seconds: bool = False
    # How the key and value are written: "call" (arguments), or inside a document:
    # "dynamo" (Item and ConditionExpression), "mongo" (`_id` of a document), "etcd" (a transaction).
    form: str = "call"
    # The claim answers "already held" only when called with this keyword (pymemcache's noreply=False),
    # unless the client was made with the client setting.
    needs_reply: tuple[str, str] | None = None
    # The claim answers "already held" by raising (DynamoDB, MongoDB's insert), not by its result.
    answers_by_raising: bool = False
    # For a script run by `method` (form "script"): where the script text is; the script's own
    # `set KEYS[1] ARGV[n] NX` is the claim, and ARGV[n] the stored value.
    script: Arg | None = None
    # Keywords this client's method does not take: a call with one is another family's
    # (`cache.set(k, v, timeout=30, nx=True)` is django-redis's cache, not redis-py).
    refuses: tuple[str, ...] = ()
    # Why no fix is written for a claim of this form (another client's API), or "".
    no_fix: str = ""
    # Why a claim of this form without a lifetime is a problem, when it is more than "no expiry".
    no_lifetime: str = ""


@dataclass(frozen=True)
class ReleaseSpec:
    """A call that removes a key. `checked` releases compare the holder first."""

    method: str
    # Key arguments: every positional one (delete(*keys)) or one Arg.
    key: Arg | None = None
    command: tuple[str, ...] = ()
    checked: bool = False
    # The call returns the old value rather than a count (GETDEL).
    returns_value: bool = False
    # For script calls: where the script text is; it must delete a key.
    script: Arg | None = None
    # Where a checked release takes the holder token.
    token: Arg | None = None
    # The key and token are the first items of list arguments (`keys=[key], args=[token]`).
    key_in_list: bool = False
    form: str = "call"
    # When a checked release found the lease lost, as a test of its result; empty: it raises instead.
    lost_when: str = "not {result}"
    # For fields of a hash (`hdel(name, *fields)`): where the first field is; every later one too.
    field: Arg | None = None
    # A keyword that makes the call compare before it deletes (bmemcached's `delete(key, cas=cas_id)`).
    checked_by: str | None = None
    # The method's name is everywhere in other code (`list.remove`): a module is not read for the
    # project's release helpers for this word alone (see prefilter.may_export).
    common_word: bool = False
    # The call is a lease release by its very form (a compare-and-delete script, DELIFEQ), not only
    # when the module also claims the key (a conditional delete of a document).
    self_evident: bool = False


@dataclass(frozen=True)
class WriteSpec:
    """An unconditional write of a key's value (`set(key, value)`)."""

    method: str
    key: Arg
    value: Arg
    # Arguments that give the written key a lifetime (`ex=`, `setex`'s seconds).
    lifetime: tuple[Arg, ...] = ()
    # The keyword the store's conditional create takes that lifetime as (`setex` -> `ex=`), when the
    # write names it apart from the claim's own arguments (LL009's fix).
    claim_unit: str = ""


@dataclass(frozen=True)
class ReadSpec:
    """A call that returns a key's value (`get(key)`), or a hash field's (`hget(name, field)`)."""

    method: str
    key: Arg
    field: Arg | None = None


@dataclass(frozen=True)
class ExpireSpec:
    """A call that sets a key's lifetime after it exists; `unit` is the keyword the claim takes for it."""

    method: str
    key: Arg
    ttl: Arg
    unit: str
    # For one field of a hash (`hexpire(name, seconds, field)`).
    field: Arg | None = None


@dataclass(frozen=True)
class LockSpec:
    """A lock object that claims and releases with a token check itself.

    `call` is a method on a client (`r.lock(name)`) or the dotted name of a constructor.
    """

    call: str
    method: bool
    key: Arg
    lifetime: tuple[Arg, ...] = ()
    # The library gives a lock without a lifetime argument a default one.
    default_lifetime: bool = False
    # For a method: the store whose clients have it (`r.lock(...)` on a redis client).
    client: Store | None = None
    # A keyword that hands the lock to the caller's own class (`lock_class=`): its lifetime is that class's.
    class_keyword: str | None = None


@dataclass(frozen=True)
class Store:
    name: str
    # Import roots whose clients belong to this family.
    modules: tuple[str, ...]
    # Attribute and variable names that usually hold such a client.
    client_names: tuple[str, ...]
    claims: tuple[ClaimSpec, ...]
    releases: tuple[ReleaseSpec, ...]
    writes: tuple[WriteSpec, ...] = ()
    reads: tuple[ReadSpec, ...] = ()
    # More calls that hand back the stored value (the key is their first argument): what a fix that
    # changes the value must find every reader of.
    value_reads: tuple[str, ...] = ()
    expiries: tuple[ExpireSpec, ...] = ()
    # Calls that count on a key: a key that is counted is a counter (a rate limit), not a lease.
    counters: tuple[str, ...] = ()
    # Calls on a pipeline: after `watch` commands run at once, after `multi` they are queued.
    watch: tuple[str, ...] = ()
    multi: tuple[str, ...] = ()
    # Reads that test, between `watch` and `multi`, whether the watched key is absent: a write of the
    # key queued after `multi` is then a claim (an optimistic WATCH/MULTI/EXEC transaction), standing
    # as the row's claim `optimistic_claim`. `absence_reads` answer presence itself (`exists`); the
    # value `optimistic_reads` answer must be compared with None or taken as false. Outside a
    # transaction the same read, then a plain write, is a check-then-claim (LL009).
    absence_reads: tuple[str, ...] = ()
    optimistic_reads: tuple[str, ...] = ()
    optimistic_claim: str = ""
    # Why no fix is written for a release that names its keys in a list (`delete([key])`), or "".
    listed_keys: str = ""
    # Claims count only on a receiver recognised as this store's client (`add` is a common name).
    recognised_only: bool = False
    # ... or on any receiver inside a lock-shaped class (see lock_shaped): the row then stands for a
    # cache API whose client the module never shows (a memcached client handed in), with no fix.
    lock_class_claims: bool = False
    # Any receiver in a module that imports the store counts as its client (collections of pymongo).
    module_wide: bool = False
    # The store's own `lock()` objects have a default lifetime (not redis-py's `timeout=None`).
    locks_checked: bool = False
    # Its conditional create is also how records are written (`insert_one({"_id": 1})`): a claim only
    # with the marks of one (see classify._used_as_claim), among them catching one of these errors.
    records: bool = False
    duplicate_errors: tuple[str, ...] = ()
    # Calls that open a pipeline on a client: releases on it are queued.
    pipelines: tuple[str, ...] = ()
    # Calls that start a transaction builder on a client (etcd3-py's `Txn()`): its operations are the
    # client's, run at once when committed.
    builders: tuple[str, ...] = ()
    callback_transactions: tuple[str, ...] = ()
    # Script objects: `release = r.register_script(LUA)` then `release(keys=[k], args=[t])`. The spec's
    # method is the call that makes the object; its key and token are the object call's arguments.
    script_objects: tuple[ReleaseSpec, ...] = ()
    # Calls that load a script and answer its digest, for `evalsha(digest, ...)`.
    script_loads: tuple[str, ...] = ()
    # The token-checked release the fixes write, by the `release` setting: a template
    # with {receiver}, {script}, {key} and {token}. Empty: the store has none.
    checked_release: tuple[tuple[str, str], ...] = ()
    # How the fix writes the checked release when it is more than one call: "memcached"
    # (gets, compare, cas to expire), "dynamo" (a condition on the token attribute),
    # "mongo" (the token in the filter), "etcd" (a transaction), "transact" (read, compare and delete
    # in the client's transaction block), "checked_keyword" (the release given the token by a keyword,
    # its compare error caught), "orm" (the owner in the rows' filter). Empty: `checked_release`.
    release_form: str = ""
    # For release forms with client-specific spelling: name -> text (see leaselint.rewrite).
    release_options: tuple[tuple[str, str], ...] = ()
    # Why a release the fix guards by a held token cannot be: the store's delete raises on a missing
    # key (python-etcd's EtcdKeyNotFound), which the guard would stop raising; or "".
    missing_raises: str = ""
    # Why the checked release needs a client made with one server (its first argument a one-item
    # list or a string), or "".
    single_server: str = ""
    # A client setting the checked release needs: (keyword, why); without it the fix is display-only.
    release_requires: tuple[str, str] | None = None
    # Context managers of the client that run their block as one step (`with cache.transact():`):
    # a read, a compare and a delete inside one are a checked release.
    transactions: tuple[str, ...] = ()
    # The token-checked release of a hash field ({field} beside the others), or "": none.
    checked_field_release: str = ""
    # What to do instead when the store has no compare-and-delete in one step.
    no_checked_release: str = ""
    # The token-checked renewal the fixes write: {receiver}, {script}, {key}, {token}, {ttl}; or why
    # the store has none.
    checked_extend: str = ""
    no_checked_extend: str = ""
    # (module, hint): added to that message in a module that imports `module` (the client family's
    # own way to a checked release, named only where that family is in sight).
    checked_release_hint: tuple[str, str] = ()
    # Why a claim of this store without a lifetime never ends, when it is more than "no expiry".
    no_lifetime: str = ""
    # Calls that read a key's remaining lifetime (a stale-claim recovery asks them before it deletes).
    lifetime_reads: tuple[str, ...] = ()
    # Client makers whose clients this store's fixes do not fit ({maker} in the reason names the one).
    other_api: tuple[tuple[str, ...], str] | None = None
    # Byte strings that must appear in a file for a claim of this store, and (word, regular
    # expression) pairs: the expression is tried only in files that hold the word.
    claim_words: tuple[bytes, ...] = ()
    claim_patterns: tuple[tuple[bytes, bytes], ...] = ()
    # Words of a claim looked for only in files that name a lock (`lock` is scanned anyway) and name
    # the store's module near their top (its import): a word of its own would cost a scan of every
    # file. Entries are (module word, claim word).
    lock_named_words: tuple[tuple[bytes, bytes], ...] = ()
    # Modules whose clients answer every call with a coroutine (asyncio clients): a call of one
    # that is not awaited sends nothing to the server.
    async_modules: tuple[str, ...] = ()


_KEY = Arg(0, "name")
_VALUE = Arg(1, "value")

REDIS = Store(
    name="redis",
    modules=("redis", "valkey", "aioredis", "django_redis", "coredis"),
    async_modules=("redis.asyncio", "valkey.asyncio", "aioredis", "coredis"),
    client_names=("redis", "client", "conn", "connection", "r", "rdb", "rds", "cache", "valkey"),
    claims=(
        ClaimSpec(
            "set",
            key=_KEY,
            value=_VALUE,
            flag=Arg(None, "nx"),
            lifetime=(Arg(2, "ex"), Arg(3, "px"), Arg(None, "exat"), Arg(None, "pxat")),
            refuses=("timeout", "version"),
        ),
        ClaimSpec("setnx", key=_KEY, value=_VALUE),
        # Several keys at once, all or none: `msetnx({key: value, ...})`; no lifetime.
        ClaimSpec(
            "msetnx",
            key=Arg(0, "mapping"),
            value=None,
            form="mapping",
            no_lifetime="`msetnx` takes no lifetime, and an `expire` of each key after it leaves a window "
            "in which a crash keeps them forever",
        ),
        # A field of a hash: `hsetnx(name, field, value)` (huey's `put_if_empty`).
        ClaimSpec(
            "hsetnx",
            key=_KEY,
            value=Arg(2, "value"),
            field=Arg(1, "key"),
            no_lifetime="a hash field takes no lifetime in `hsetnx`, and an expiry of the whole hash ends (and "
            "extends) every field's claim at once: keep each lease in a key of its own "
            "(`set(key, token, nx=True, px=...)`), or give the field its own with `hpexpire` (Redis 7.4+)",
        ),
        # coredis: `set(key, value, condition=PureToken.NX, px=...)`.
        ClaimSpec(
            "set",
            key=_KEY,
            value=_VALUE,
            flag=Arg(None, "condition"),
            flag_value="NX",
            lifetime=(Arg(None, "ex"), Arg(None, "px"), Arg(None, "exat"), Arg(None, "pxat")),
            no_fix="the claim is coredis's (`condition=PureToken.NX`), whose client takes other arguments than the "
            "fix would write (`eval(script, keys=[...], args=[...])`, `delete([key])`)",
        ),
        ClaimSpec(
            "execute_command",
            key=Arg(1),
            value=Arg(2),
            command="SET",
            command_flag="NX",
            lifetime_words=("EX", "PX", "EXAT", "PXAT"),
        ),
        # A Lua script that claims: `redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`.
        ClaimSpec("eval", key=Arg(2), value=None, script=Arg(0), form="script"),
        ClaimSpec("evalsha", key=Arg(2), value=None, script=Arg(0), form="script"),
    ),
    releases=(
        ReleaseSpec("delete"),
        ReleaseSpec("unlink"),
        ReleaseSpec("getdel", key=_KEY, returns_value=True),
        ReleaseSpec("hdel", key=_KEY, field=Arg(1)),
        ReleaseSpec("execute_command", command=("DEL", "UNLINK")),
        ReleaseSpec(
            "execute_command", key=Arg(1), command=("DELIFEQ",), checked=True, token=Arg(2), self_evident=True
        ),
        ReleaseSpec("execute_command", key=Arg(1), command=("DELEX",), checked=True, token=Arg(3), self_evident=True),
        ReleaseSpec("delex", key=_KEY, checked=True, token=Arg(None, "ifeq"), self_evident=True),
        # eval of a compare-and-delete script: the key is the first KEYS entry.
        ReleaseSpec("eval", key=Arg(2), checked=True, script=Arg(0), token=Arg(3), self_evident=True),
        ReleaseSpec("evalsha", key=Arg(2), checked=True, script=Arg(0), token=Arg(3), self_evident=True),
    ),
    script_objects=(
        ReleaseSpec(
            "register_script", key=Arg(0, "keys"), checked=True, token=Arg(1, "args"), key_in_list=True,
            self_evident=True,
        ),
    ),
    script_loads=("script_load",),
    writes=(
        WriteSpec(
            "set", key=_KEY, value=_VALUE, lifetime=(Arg(2, "ex"), Arg(3, "px"), Arg(None, "exat"), Arg(None, "pxat"))
        ),
        WriteSpec("setex", key=_KEY, value=Arg(2, "value"), lifetime=(Arg(1, "time"),), claim_unit="ex"),
        WriteSpec("psetex", key=_KEY, value=Arg(2, "value"), lifetime=(Arg(1, "time_ms"),), claim_unit="px"),
    ),
    reads=(ReadSpec("get", key=_KEY), ReadSpec("hget", key=_KEY, field=Arg(1, "key"))),
    value_reads=("getset", "getex", "getdel"),
    expiries=(
        ExpireSpec("expire", key=_KEY, ttl=Arg(1, "time"), unit="ex"),
        ExpireSpec("pexpire", key=_KEY, ttl=Arg(1, "time"), unit="px"),
        ExpireSpec("expireat", key=_KEY, ttl=Arg(1, "when"), unit="exat"),
        ExpireSpec("pexpireat", key=_KEY, ttl=Arg(1, "when"), unit="pxat"),
        # Redis 7.4: a field's own lifetime (`hexpire(name, seconds, field)`).
        ExpireSpec("hexpire", key=_KEY, ttl=Arg(1, "seconds"), unit="", field=Arg(2)),
        ExpireSpec("hpexpire", key=_KEY, ttl=Arg(1, "milliseconds"), unit="", field=Arg(2)),
    ),
    counters=("incr", "incrby", "decr", "decrby", "incrbyfloat"),
    watch=("watch",),
    multi=("multi",),
    absence_reads=("exists",),
    optimistic_reads=("get",),
    optimistic_claim="set",
    # coredis's `delete([key])`.
    listed_keys="the release names its keys in a list (coredis's `delete([key])`): its client takes other "
    "arguments than the fix would write",
    pipelines=("pipeline", "transaction"),
    # `transaction(callback, *keys)`: the callback gets the watching pipeline as its first argument.
    callback_transactions=("transaction",),
    checked_extend="{receiver}.eval({script}, 1, {key}, {token}, {ttl})",
    # A hash field's: the script compares `hget(KEYS[1], ARGV[1])` with ARGV[2], then `hdel`s the field.
    checked_field_release="{receiver}.eval({script}, 1, {key}, {field}, {token})",
    checked_release=(
        ("lua", "{receiver}.eval({script}, 1, {key}, {token})"),
        ("delifeq", '{receiver}.execute_command("DELIFEQ", {key}, {token})'),
        ("delex", '{receiver}.execute_command("DELEX", {key}, "IFEQ", {token})'),
    ),
    # `.multi(`: a WATCH/MULTI/EXEC transaction may claim (absence_reads, optimistic_reads).
    claim_words=(b"setnx", b'"NX"', b"'NX'", b'"nx"', b"'nx'", b".multi("),
    claim_patterns=((b"nx", rb"\bnx\s*=\s*\(*\s*True\b"), (b".NX", rb"condition\s*=\s*\w+\.NX\b")),
    lifetime_reads=("ttl", "pttl"),
    other_api=(
        ("create_redis_pool", "create_redis", "create_connection", "create_pool"),
        "the client comes from aioredis 1.x (`{maker}`), whose `set` and `eval` take other arguments than the "
        "fix would write (`set(key, value, expire=..., exist=SET_IF_NOT_EXIST)`, `eval(script, keys=[...], args=[...])`)",
    ),
)

# aioredis 1.x: `set(key, value, expire=..., exist=SET_IF_NOT_EXIST)`, `eval(script, keys=[...], args=[...])`.
AIOREDIS1 = Store(
    name="aioredis 1.x",
    modules=("aioredis",),
    async_modules=("aioredis",),
    client_names=("redis", "pool", "conn"),
    claims=(
        ClaimSpec(
            "set",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            flag=Arg(None, "exist"),
            flag_value="SET_IF_NOT_EXIST",
            lifetime=(Arg(None, "expire"), Arg(None, "pexpire")),
        ),
    ),
    releases=(
        ReleaseSpec(
            "eval",
            key=Arg(None, "keys"),
            checked=True,
            script=Arg(0),
            token=Arg(None, "args"),
            key_in_list=True,
            self_evident=True,
        ),
    ),
    pipelines=("pipeline", "multi_exec"),
    checked_extend="{receiver}.eval({script}, keys=[{key}], args=[{token}, {ttl}])",
    checked_release=(
        ("lua", "{receiver}.eval({script}, keys=[{key}], args=[{token}])"),
        ("delifeq", '{receiver}.execute("DELIFEQ", {key}, {token})'),
        ("delex", '{receiver}.execute("DELEX", {key}, "IFEQ", {token})'),
    ),
    claim_words=(b"SET_IF_NOT_EXIST",),
)

_NO_COMPARE_AND_DELETE = (
    "the cache API has no compare-and-delete: store a fresh token and check it right before the delete, "
    "keep the lifetime short and renew it while the holder is healthy, and guard the job's durable effects"
)


_NO_COMPARE_AND_TOUCH = (
    "the cache API has no compare-and-touch: the renewal extends whoever holds the key; read the stored "
    "token first and stop the job when it is not this holder's (a short window stays), or move the lease "
    "to a store that can compare and extend in one step"
)


# Django's cache API (any backend): `add` is a conditional create, `delete` is blind, and the API
# has no compare-and-delete.
DJANGO_CACHE = Store(
    name="Django cache",
    modules=("django.core.cache",),
    client_names=("cache", "_cache", "default_cache", "lock_cache"),
    claims=(
        ClaimSpec(
            "add",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            lifetime=(Arg(2, "timeout"),),
            default_lifetime=True,
            forever=("None",),
            # Django's Redis and memcached backends: `add(k, v, 0.5)` returns True and stores nothing.
            whole_seconds=True,
        ),
        # django-redis's cache: `set(k, v, timeout=30, nx=True)`, its lifetime in `timeout`.
        ClaimSpec(
            "set",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            flag=Arg(None, "nx"),
            lifetime=(Arg(2, "timeout"),),
            default_lifetime=True,
            forever=("None",),
        ),
    ),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    writes=(WriteSpec("set", key=Arg(0, "key"), value=Arg(1, "value")),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    absence_reads=("has_key",),
    optimistic_reads=("get",),
    expiries=(ExpireSpec("touch", key=Arg(0, "key"), ttl=Arg(1, "timeout"), unit="timeout"),),
    recognised_only=True,
    lock_class_claims=True,
    no_checked_release=_NO_COMPARE_AND_DELETE,
    no_checked_extend=_NO_COMPARE_AND_TOUCH,
    checked_release_hint=("django", "with django-redis, `cache.lock(key, timeout=...)` releases with a token check"),
    claim_words=(b".add(",),
)

# Flask-Caching and cachelib: `add` with timeout=None uses the default, timeout=0 never expires.
# Its Redis backend runs SETNX then a separate EXPIRE (see LL005).
FLASK_CACHE = Store(
    name="Flask-Caching",
    modules=("flask_caching", "cachelib"),
    client_names=("cache",),
    claims=(
        ClaimSpec(
            "add",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            lifetime=(Arg(2, "timeout"),),
            default_lifetime=True,
            forever=("0",),
        ),
    ),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    writes=(WriteSpec("set", key=Arg(0, "key"), value=Arg(1, "value")),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    absence_reads=("has",),
    optimistic_reads=("get",),
    recognised_only=True,
    no_checked_release=_NO_COMPARE_AND_DELETE,
    claim_words=(b".add(",),
)

_NO_MEMCACHED_EXTEND = (
    "memcached has no compare-and-touch in one command: renew with `gets`, compare the token, then "
    "`cas(key, token, cas_id, expire=ttl)`, which stores nothing when another worker wrote the key since"
)

# memcached clients: `add` claims; the checked release is compare-and-expire: `gets` gives the value and
# its CAS id, and `cas(key, b"", cas_id, expire=-1)` expires the item only if nobody wrote it since.
PYMEMCACHE = Store(
    name="pymemcache",
    modules=("pymemcache",),
    # Known by import only: memcached clients of other libraries go by the same names.
    client_names=(),
    claims=(
        ClaimSpec(
            "add",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            lifetime=(Arg(2, "expire"),),
            forever=("0", "None"),
            # With the client's default noreply, add() returns True even when the key exists.
            needs_reply=("noreply", "default_noreply"),
        ),
    ),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    expiries=(ExpireSpec("touch", key=Arg(0, "key"), ttl=Arg(1, "expire"), unit="expire"),),
    no_checked_extend=_NO_MEMCACHED_EXTEND,
    recognised_only=True,
    release_form="memcached",
    release_options=(
        ("gets", "{stored}, {cas} = {receiver}.gets({key})"),
        ("expire", '{receiver}.cas({key}, b"", {cas}, expire=-1, noreply=False)'),
    ),
    claim_words=(b".add(",),
)

PYTHON_MEMCACHED = Store(
    name="python-memcached",
    modules=("memcache",),
    client_names=(),
    claims=(
        ClaimSpec("add", key=Arg(0, "key"), value=Arg(1, "val"), lifetime=(Arg(2, "time"),), forever=("0",)),
    ),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    expiries=(ExpireSpec("touch", key=Arg(0, "key"), ttl=Arg(1, "time"), unit="time"),),
    no_checked_extend=_NO_MEMCACHED_EXTEND,
    recognised_only=True,
    release_form="memcached",
    release_options=(
        # python-memcached keeps the CAS id inside the client (cache_cas=True).
        ("gets", "{stored} = {receiver}.gets({key})"),
        ("compare", "{stored} != {token}"),
        ("expire", '{receiver}.cas({key}, "", time=-1)'),
    ),
    release_requires=(
        "cache_cas",
        "python-memcached's cas() is a plain set unless the client is made with cache_cas=True",
    ),
    claim_words=(b".add(",),
)

AIOMCACHE = Store(
    name="aiomcache",
    modules=("aiomcache",),
    async_modules=("aiomcache",),
    client_names=(),
    claims=(ClaimSpec("add", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "exptime"),), forever=("0",)),),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    recognised_only=True,
    release_form="memcached",
    release_options=(
        ("gets", "{stored}, {cas} = {receiver}.gets({key})"),
        # aiomcache rejects a negative exptime; an absolute time in the past expires at once.
        ("expire", '{receiver}.cas({key}, b"", {cas}, exptime=2592001)'),
        ("comment", "exptime=2592001 is an absolute time in the past: the item expires at once"),
    ),
    claim_words=(b".add(",),
)

# pylibmc: no compare-and-delete, and `cas` raises NotFound on a key that expired since `gets`.
PYLIBMC = Store(
    name="pylibmc",
    modules=("pylibmc",),
    client_names=(),
    claims=(ClaimSpec("add", key=Arg(0, "key"), value=Arg(1, "val"), lifetime=(Arg(2, "time"),), forever=("0",)),),
    releases=(ReleaseSpec("delete", key=Arg(0)),),
    writes=(WriteSpec("set", key=Arg(0, "key"), value=Arg(1, "val"), lifetime=(Arg(2, "time"),)),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    optimistic_reads=("get",),
    expiries=(ExpireSpec("touch", key=Arg(0), ttl=Arg(1), unit="time"),),
    no_checked_extend=_NO_MEMCACHED_EXTEND,
    recognised_only=True,
    no_checked_release=(
        "pylibmc has no compare-and-delete: with the client's `behaviors={\"cas\": True}`, `gets` the key, "
        "compare the token, then `cas(key, b\"\", cas_id, time=2592001)` (a time in the past: the item goes "
        "at once; `time=-1` becomes a far future), catching `pylibmc.NotFound` for a key already gone"
    ),
    claim_words=(b".add(",),
)

# python-binary-memcached: `delete(key, cas=cas_id)` deletes only if nobody wrote the key since `gets`.
BMEMCACHED = Store(
    name="bmemcached",
    modules=("bmemcached",),
    client_names=(),
    claims=(ClaimSpec("add", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "time"),), forever=("0",)),),
    releases=(ReleaseSpec("delete", key=Arg(0, "key"), checked_by="cas"),),
    writes=(WriteSpec("set", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "time"),)),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    optimistic_reads=("get",),
    no_checked_extend=_NO_MEMCACHED_EXTEND,
    recognised_only=True,
    release_form="memcached",
    release_options=(
        ("gets", "{stored}, {cas} = {receiver}.gets({key})"),
        ("expire", "{receiver}.delete({key}, cas={cas})"),
    ),
    # `bmemcached.Client([a, b])` replicates: a CAS id of one server does not hold on the others.
    single_server="the client may replicate to several servers, where one server's CAS id does not hold "
    "on the others: give it one server, or release with a token check per server",
    claim_words=(b".add(",),
)

# diskcache (`Cache`, `FanoutCache`): a cache shared by processes through SQLite. `add` claims,
# `delete` is blind; `with cache.transact():` makes a read, a compare and a delete one step.
DISKCACHE = Store(
    name="diskcache",
    modules=("diskcache",),
    client_names=(),
    claims=(
        ClaimSpec("add", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "expire"),), forever=("None",)),
    ),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    writes=(WriteSpec("set", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "expire"),)),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    optimistic_reads=("get",),
    expiries=(ExpireSpec("touch", key=Arg(0, "key"), ttl=Arg(1, "expire"), unit="expire"),),
    no_checked_extend=(
        "renew inside `with cache.transact():` after comparing the stored token with this holder's "
        "(`if cache.get(key) == token: cache.touch(key, expire)`), and stop the job when it is not"
    ),
    transactions=("transact",),
    recognised_only=True,
    release_form="transact",
    # The calls the fix makes inside the transaction, and the keyword it keeps from the release.
    release_options=(("read", "get"), ("delete", "delete"), ("keep", "retry")),
    claim_words=(b".add(",),
)

# DynamoDB (boto3 client and Table resource): a conditional put claims; a delete without a condition is blind.
DYNAMODB = Store(
    name="DynamoDB",
    modules=("boto3", "aioboto3", "aiobotocore"),
    client_names=("table", "dynamodb", "ddb", "locks_table", "lock_table"),
    claims=(
        ClaimSpec("put_item", key=Arg(None, "Item"), value=None, form="dynamo", answers_by_raising=True),
        # `update_item(Key=..., UpdateExpression="SET owner = :o", ConditionExpression="attribute_not_exists(pk)")`.
        ClaimSpec("update_item", key=Arg(None, "Key"), value=None, form="dynamo", answers_by_raising=True),
    ),
    releases=(ReleaseSpec("delete_item", key=Arg(None, "Key"), form="dynamo", lost_when=""),),
    recognised_only=True,
    release_form="dynamo",
    no_lifetime=(
        "its condition ignores an expiry attribute: DynamoDB's TTL deletes expired items lazily, up to days "
        "later, so an expired claim must be taken over by the condition (`OR expires_at < :now`)"
    ),
    # A claim is a put_item whose condition requires the key absent.
    claim_patterns=((b"put_item", rb"not_exists"), (b"update_item", rb"not_exists")),
)

# MongoDB (pymongo, motor): an insert of a fixed `_id` (or an upsert) claims; a delete by `_id` alone is blind.
MONGODB = Store(
    name="MongoDB",
    modules=("pymongo", "motor"),
    client_names=("locks", "leases", "collection", "coll"),
    claims=(
        ClaimSpec("insert_one", key=Arg(0, "document"), value=None, form="mongo", answers_by_raising=True),
        ClaimSpec("update_one", key=Arg(0, "filter"), value=None, form="mongo"),
        ClaimSpec("find_one_and_update", key=Arg(0, "filter"), value=None, form="mongo"),
        # pymongo 2 and 3: `insert(doc)`, and `find_and_modify(query, update, upsert=True)`.
        ClaimSpec("insert", key=Arg(0, "doc_or_docs"), value=None, form="mongo", answers_by_raising=True),
        ClaimSpec("find_and_modify", key=Arg(0, "query"), value=None, form="mongo", answers_by_raising=True),
    ),
    releases=(
        ReleaseSpec("delete_one", key=Arg(0, "filter"), form="mongo", lost_when="{result}.deleted_count == 0"),
        ReleaseSpec(
            "find_one_and_delete", key=Arg(0, "filter"), form="mongo", returns_value=True, lost_when="{result} is None"
        ),
        # pymongo 2 and 3: `remove(spec)` answers `{"n": count, ...}`.
        ReleaseSpec("remove", key=Arg(0, "spec_or_id"), form="mongo", lost_when='{result}["n"] == 0', common_word=True),
    ),
    recognised_only=True,
    module_wide=True,
    records=True,
    # OperationFailure: pymongo's parent of DuplicateKeyError, which legacy upserts catch.
    duplicate_errors=("DuplicateKeyError", "NotUniqueError", "OperationFailure"),
    release_form="mongo",
    no_lifetime="the document has no expiry field: add one (with a TTL index) and take over expired claims",
    claim_words=(b"insert_one",),
    lock_named_words=((b"pymongo", b".insert("),),
    claim_patterns=((b"upsert", rb"\bupsert\s*=\s*\(*\s*True\b"),),
)

# etcd v3 (python-etcd3): a transaction on `create(key) == 0` or `put_if_not_exists` claims; `delete` is blind.
ETCD = Store(
    name="etcd",
    modules=("etcd3", "aetcd", "aetcd3"),
    client_names=("etcd", "etcd_client"),
    claims=(
        ClaimSpec("put_if_not_exists", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "lease"),)),
        ClaimSpec("transaction", key=Arg(None, "compare"), value=None, form="etcd"),
    ),
    releases=(
        ReleaseSpec("delete", key=Arg(0, "key")),
        ReleaseSpec(
            "transaction",
            key=Arg(None, "compare"),
            checked=True,
            form="etcd",
            lost_when="not {result}[0]",
            self_evident=True,
        ),
    ),
    recognised_only=True,
    locks_checked=True,
    release_form="etcd",
    # `client.transactions.value(...)`, or through `t = client.transactions`.
    claim_words=(b"put_if_not_exists", b".transactions"),
)

# etcd v2 (python-etcd, `etcd.Client`): `write(key, value, prevExist=False, ttl=...)` claims (raising
# EtcdAlreadyExist when held), `delete(key)` is blind, `delete(key, prevValue=token)` checked (raising
# EtcdCompareFailed when another value is stored).
ETCD2 = Store(
    name="etcd v2",
    modules=("etcd",),
    client_names=(),
    claims=(
        ClaimSpec(
            "write",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            flag=Arg(None, "prevExist"),
            flag_value="False",
            lifetime=(Arg(2, "ttl"),),
            answers_by_raising=True,
        ),
    ),
    releases=(ReleaseSpec("delete", key=Arg(0, "key"), checked_by="prevValue", lost_when=""),),
    reads=(ReadSpec("get", key=Arg(0, "key")), ReadSpec("read", key=Arg(0, "key"))),
    expiries=(ExpireSpec("refresh", key=Arg(0, "key"), ttl=Arg(1, "ttl"), unit="ttl"),),
    no_checked_extend=(
        "python-etcd's refresh() checks no holder: renew with `test_and_set(key, token, token, ttl)`, which "
        "raises EtcdCompareFailed when another worker's value is stored"
    ),
    recognised_only=True,
    release_form="checked_keyword",
    release_options=(("keyword", "prevValue"), ("error", "etcd.EtcdCompareFailed")),
    missing_raises="the release raises EtcdKeyNotFound when nothing holds the key, and a release by an object "
    "that holds no token would stop raising it: keep the token the claim stored and pass it as `prevValue=` by hand",
    duplicate_errors=("EtcdAlreadyExist",),
    lock_named_words=((b"etcd", b"prevExist"),),
)

# etcd3gw (etcd's gRPC gateway): transactions are dicts, their keys and values base64-encoded.
ETCD3GW = Store(
    name="etcd3gw",
    modules=("etcd3gw",),
    client_names=(),
    claims=(ClaimSpec("transaction", key=Arg(0, "txn"), value=None, form="etcd3gw"),),
    releases=(
        ReleaseSpec("delete", key=Arg(0, "key")),
        ReleaseSpec(
            "transaction",
            key=Arg(0, "txn"),
            checked=True,
            form="etcd3gw",
            lost_when='not {result}.get("succeeded", False)',
            self_evident=True,
        ),
    ),
    recognised_only=True,
    module_wide=True,
    locks_checked=True,
    no_checked_release=(
        "etcd3gw deletes with a check only in a transaction: compare the key's VALUE with the holder's "
        "token and `request_delete_range` on success, both base64-encoded as the claim's"
    ),
    lock_named_words=((b"etcd3gw", b"request_put"),),
)

# The manager a Django model's rows are made through, and the fields that name a lock model's row
# (`JobLock.objects.create(name=key, ...)`), in the order a claim's key is looked for.
ORM_MANAGER = "objects"
ROW_KEY_FIELDS = ("name", "key", "lock_name", "job_name", "task_name", "resource", "lock_key", "lock_id")
_NAME_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")


def lock_model_name(name: str | None) -> bool:
    """A model class named for a lock (`JobLock`, `LeaseRow`): its rows may be leases (LOCK_CLASS_WORDS)."""
    return bool({word.lower() for word in _NAME_WORDS.findall(name or "")} & set(LOCK_CLASS_WORDS))


# Rows of a lock model through Django's ORM: `JobLock.objects.create(name=key, owner=token, ...)`,
# raising IntegrityError on the unique name, claims; `JobLock.objects.filter(name=key).delete()` is
# blind, with the owner in the filter checked. Only models named for a lock (LOCK_CLASS_WORDS).
DJANGO_ORM = Store(
    name="Django ORM",
    modules=("django",),
    client_names=(),
    claims=(ClaimSpec("create", key=Arg(None, "name"), value=None, form="orm", answers_by_raising=True),),
    releases=(ReleaseSpec("delete", form="orm", lost_when="{result}[0] == 0"),),
    recognised_only=True,
    module_wide=True,
    records=True,
    duplicate_errors=("IntegrityError",),
    release_form="orm",
    no_lifetime=(
        "the row has no expiry field: add one, and take over an expired row in one step "
        "(`filter(name=key, expires_at__lt=now).delete()` before the create)"
    ),
)

# etcd3-py (`etcd3.Client`, beside python-etcd3's `etcd3.client`): a transaction builder,
# `t = client.Txn(); t.If(t.key(k).version == 0); t.Then(t.put(k, v, lease=lease.ID)); t.commit()`.
ETCD3PY = Store(
    name="etcd3-py",
    modules=("etcd3",),
    client_names=(),
    claims=(
        # Answered by `commit()`, not by the call that adds the put (LL008 does not follow it there).
        ClaimSpec("success", key=Arg(0), value=None, form="builder", answers_by_raising=True),
        ClaimSpec("Then", key=Arg(0), value=None, form="builder", answers_by_raising=True),
    ),
    releases=(
        ReleaseSpec("delete_range", key=Arg(0, "key")),
        # Answered by `commit().succeeded`, which the model does not follow: no LL006 on it.
        ReleaseSpec("success", checked=True, form="builder", lost_when="", self_evident=True, common_word=True),
        ReleaseSpec("Then", checked=True, form="builder", lost_when="", self_evident=True, common_word=True),
    ),
    recognised_only=True,
    module_wide=True,
    no_checked_release=(
        "etcd3-py deletes with a check only in a transaction: `t.If(t.key(key).value == token)`, "
        "`t.Then(t.delete(key))`, then test `t.commit().succeeded`"
    ),
    builders=("Txn",),
    lock_named_words=((b"etcd3", b".Txn("),),
)

# valkey-glide (`glide`, asyncio; `glide_sync` alike): `set(k, v, conditional_set=ConditionalChange.
# ONLY_IF_DOES_NOT_EXIST, expiry=ExpirySet(...))` claims; `delete([k])` takes a list and is blind.
_GLIDE_NO_FIX = (
    "valkey-glide has no compare-and-delete call: run a Lua compare-and-delete as a `Script` with "
    "`invoke_script(script, keys=[key], args=[token])`"
)
GLIDE = Store(
    name="valkey-glide",
    modules=("glide", "glide_sync"),
    async_modules=("glide",),
    client_names=(),
    claims=(
        ClaimSpec(
            "set",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            flag=Arg(2, "conditional_set"),
            flag_value="ONLY_IF_DOES_NOT_EXIST",
            lifetime=(Arg(3, "expiry"),),
            no_fix=_GLIDE_NO_FIX,
        ),
    ),
    releases=(ReleaseSpec("delete"),),
    listed_keys=_GLIDE_NO_FIX,
    recognised_only=True,
    no_checked_release=_GLIDE_NO_FIX,
    claim_words=(b"ONLY_IF_DOES_NOT_EXIST",),
)

STORES: tuple[Store, ...] = (
    REDIS,
    AIOREDIS1,
    DJANGO_CACHE,
    FLASK_CACHE,
    PYMEMCACHE,
    PYTHON_MEMCACHED,
    AIOMCACHE,
    PYLIBMC,
    BMEMCACHED,
    DISKCACHE,
    DYNAMODB,
    MONGODB,
    ETCD,
    ETCD2,
    ETCD3GW,
    ETCD3PY,
    GLIDE,
    DJANGO_ORM,
)

# Lock objects that release with a token check of their own. They are never blind releases;
# a lock without a lifetime is LL005, a swallowed release error LL006.
LOCKS: tuple[LockSpec, ...] = (
    # redis-py, redis.asyncio, valkey-py, django-redis `cache.lock`: timeout=None means no expiry.
    LockSpec(
        "lock", method=True, key=Arg(0, "name"), lifetime=(Arg(1, "timeout"),), client=REDIS, class_keyword="lock_class"
    ),
    LockSpec("redis.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),)),
    LockSpec("redis.asyncio.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),)),
    LockSpec("valkey.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),)),
    # python-redis-lock: expire=None means no expiry.
    LockSpec("redis_lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "expire"),)),
    # coredis: LuaLock(client, name, timeout=None) never expires without a timeout.
    LockSpec("coredis.recipes.locks.LuaLock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),)),
    # pottery and sherlock give every lock a default lifetime.
    LockSpec("pottery.Redlock", method=False, key=Arg(None, "key"), default_lifetime=True),
    LockSpec("sherlock.Lock", method=False, key=Arg(0, "lock_name"), default_lifetime=True),
    LockSpec("sherlock.RedisLock", method=False, key=Arg(0, "lock_name"), default_lifetime=True),
)
# Lock object methods that ask about or adjust a lock without holding it.
LOCK_QUERIES = frozenset({"locked", "owned", "extend", "reacquire", "reset", "reset_all", "get_owner_id"})
# Exceptions a lock raises when its release finds somebody else's claim (or none).
LOCK_RELEASE_ERRORS = frozenset(
    {"LockNotOwnedError", "LockError", "NotAcquired", "ReleaseUnlockedLock", "LockException", "LockReleaseError"}
)


# The table does not change: each lookup is made once per method.


@lru_cache(maxsize=None)
def _specs(kind: str, method: str) -> tuple:
    """(store, spec) of every row of `kind` (claims, releases, ...) for `method`, in table order."""
    return tuple((store, spec) for store in STORES for spec in getattr(store, kind) if spec.method == method)


def row_ref(store: Store, spec) -> tuple | None:
    """(store name, table part, index): a row of the table as plain data (module summaries keep it)."""
    for part in ("claims", "releases", "script_objects"):
        for index, row in enumerate(getattr(store, part)):
            if row is spec:
                return (store.name, part, index)
    return None


def row_of(ref: tuple):
    """(store, spec) of a row_ref."""
    name, part, index = ref
    for store in STORES:
        if store.name == name:
            return store, getattr(store, part)[index]
    raise KeyError(name)


def claim_specs(method: str) -> tuple[tuple[Store, ClaimSpec], ...]:
    return _specs("claims", method)


def script_object_specs(method: str) -> tuple[tuple[Store, ReleaseSpec], ...]:
    """The stores whose `method` makes a script object (`register_script`)."""
    return tuple((store, spec) for store in STORES for spec in store.script_objects if spec.method == method)


@functools.lru_cache(maxsize=None)
def value_read_methods() -> frozenset[str]:
    """Methods that hand back a stored value, in any store: reads and value reads."""
    return frozenset(
        name for store in STORES for name in (*(spec.method for spec in store.reads), *store.value_reads)
    )


def callback_transactions() -> frozenset[str]:
    return frozenset(name for store in STORES for name in store.callback_transactions)


def script_load_methods() -> frozenset[str]:
    return frozenset(name for store in STORES for name in store.script_loads)


def release_specs(method: str) -> tuple[tuple[Store, ReleaseSpec], ...]:
    return _specs("releases", method)


def write_specs(method: str) -> tuple[tuple[Store, WriteSpec], ...]:
    return _specs("writes", method)


def read_specs(method: str) -> tuple[tuple[Store, ReadSpec], ...]:
    return _specs("reads", method)


@lru_cache(maxsize=1)
def read_then_write_methods() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(reads, plain writes, releases) of the stores whose reads can test a key's absence: the calls
    of a check-then-claim (LL009)."""
    found = [s for s in STORES if s.absence_reads or s.optimistic_reads]
    return (
        frozenset(m for s in found for m in (*s.absence_reads, *s.optimistic_reads)),
        frozenset(w.method for s in found for w in s.writes),
        frozenset(r.method for s in found for r in s.releases if r.form == "call"),
    )


def expire_specs(method: str) -> tuple[tuple[Store, ExpireSpec], ...]:
    return _specs("expiries", method)


@lru_cache(maxsize=None)
def transaction_methods() -> tuple[frozenset[str], frozenset[str]]:
    """(watch-like, multi-like) pipeline methods of every store."""
    return frozenset(n for s in STORES for n in s.watch), frozenset(n for s in STORES for n in s.multi)


# Words of a key that names a lock. A claim whose answer is never read is a lease only with them:
# otherwise it is a cache write or a counter's first value.
LOCK_KEY_WORDS = ("lock", "lease", "mutex", "leader", "semaphore", "claim", "owner", "singleton")
# LOCK_CLASS_WORDS (lock_names.py, where file names read them): a class named for one of these
# (`MemcachedLock`, `LeaseMutex`) with the methods of one is a lock class.
LOCK_CLASS_METHODS = frozenset({"acquire", "release", "lock", "unlock", "__enter__", "__exit__", "__aenter__", "__aexit__"})


def coroutine_maker(dotted: str) -> bool:
    """`dotted` (a client maker or lock class, by its full name) is of an asyncio client: its calls
    answer coroutines."""
    return any(dotted == m or dotted.startswith(m + ".") for store in STORES for m in store.async_modules)


def lock_shaped(name: str, methods) -> bool:
    """A class named for a lock, mutex, lease or semaphore (a word of its name: `MemcachedLock`,
    `lease_handle`, not `Blocking`) that acquires or releases, or is a context manager."""
    words = {word.lower() for word in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)}
    return bool(words & set(LOCK_CLASS_WORDS)) and bool(LOCK_CLASS_METHODS & set(methods))

# Words of a function that releases on purpose, whoever holds the lock (admin and force paths).
FORCE_WORDS = ("force", "stale", "break", "reset")
FORCE_NAMES = frozenset({"clear", "clear_all"})
# Words of a function that releases a lease handed to it by key alone (`release_lock(key)`).
RELEASE_WORDS = ("release", "unlock", "free", "lock", "lease", "exit", "done", "finish")
# Words of a function that ends a job, and so may end its lease (`stop`, `cleanup`).
END_WORDS = ("stop", "clean", "teardown")
# Words of a function that keeps a held lease alive (`extend`, `heartbeat`, `keep_alive`).
RENEW_WORDS = ("renew", "extend", "refresh", "heartbeat", "keep", "touch", "prolong", "sustain", "bump")


@lru_cache(maxsize=None)
def counter_methods() -> frozenset[str]:
    return frozenset(name for store in STORES for name in store.counters)


@lru_cache(maxsize=None)
def commands(store: Store) -> frozenset[str]:
    """The store's methods that send a key's value or a token to the server: claims, releases (scripts
    among them), reads, expiries and the calls that hand a value back."""
    return frozenset(
        spec.method for spec in (*store.claims, *store.releases, *store.reads, *store.expiries)
    ) | frozenset(store.value_reads)


@lru_cache(maxsize=None)
def method_names() -> frozenset[str]:
    """Every claim and release method of every store."""
    return frozenset(
        spec.method for store in STORES for spec in (*store.claims, *store.releases) if spec.method != "execute_command"
    )


@lru_cache(maxsize=None)
def builder_methods() -> frozenset[str]:
    return frozenset(name for store in STORES for name in store.builders)


@lru_cache(maxsize=None)
def pipeline_methods() -> frozenset[str]:
    return frozenset(name for store in STORES for name in store.pipelines)


def prefilter_words() -> tuple[bytes, ...]:
    return tuple(word for store in STORES for word in store.claim_words)


def lock_named_words() -> tuple[tuple[bytes, bytes], ...]:
    """(module word, claim word) of every store."""
    return tuple(entry for store in STORES for entry in store.lock_named_words)


def prefilter_patterns() -> tuple[tuple[bytes, bytes], ...]:
    return tuple(pattern for store in STORES for pattern in store.claim_patterns)
