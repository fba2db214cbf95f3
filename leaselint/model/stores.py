"""Every client family leaselint knows, as data.

A row says how the family's claims, releases, reads and expiries look, and
which token-checked release its fixes write. Rules never name a store: they
read the events the model builds from this table.
"""

from __future__ import annotations

from dataclasses import dataclass


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


@dataclass(frozen=True)
class WriteSpec:
    """An unconditional write of a key's value (`set(key, value)`)."""

    method: str
    key: Arg
    value: Arg


@dataclass(frozen=True)
class ReadSpec:
    """A call that returns a key's value (`get(key)`)."""

    method: str
    key: Arg


@dataclass(frozen=True)
class ExpireSpec:
    """A call that sets a key's lifetime after it exists; `unit` is the keyword the claim takes for it."""

    method: str
    key: Arg
    ttl: Arg
    unit: str


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
    expiries: tuple[ExpireSpec, ...] = ()
    # Calls on a pipeline: after `watch` commands run at once, after `multi` they are queued.
    watch: tuple[str, ...] = ()
    multi: tuple[str, ...] = ()
    # Claims count only on a receiver recognised as this store's client (`add` is a common name).
    recognised_only: bool = False
    # Calls that open a pipeline on a client: releases on it are queued.
    pipelines: tuple[str, ...] = ()
    # The token-checked release the fixes write, by the `release` setting: a template
    # with {receiver}, {script}, {key} and {token}. Empty: the store has none.
    checked_release: tuple[tuple[str, str], ...] = ()
    # What to do instead when the store has no compare-and-delete in one step.
    no_checked_release: str = ""
    # Byte strings that must appear in a file for a claim of this store to be there.
    claim_words: tuple[bytes, ...] = ()


_KEY = Arg(0, "name")
_VALUE = Arg(1, "value")

REDIS = Store(
    name="redis",
    modules=("redis", "valkey", "aioredis", "django_redis", "coredis"),
    client_names=("redis", "client", "conn", "connection", "r", "rdb", "rds", "cache", "valkey"),
    claims=(
        ClaimSpec(
            "set",
            key=_KEY,
            value=_VALUE,
            flag=Arg(4, "nx"),
            lifetime=(Arg(2, "ex"), Arg(3, "px"), Arg(None, "exat"), Arg(None, "pxat")),
        ),
        ClaimSpec("setnx", key=_KEY, value=_VALUE),
        ClaimSpec(
            "execute_command",
            key=Arg(1),
            value=Arg(2),
            command="SET",
            command_flag="NX",
            lifetime_words=("EX", "PX", "EXAT", "PXAT"),
        ),
    ),
    releases=(
        ReleaseSpec("delete"),
        ReleaseSpec("unlink"),
        ReleaseSpec("getdel", key=_KEY, returns_value=True),
        ReleaseSpec("execute_command", command=("DEL", "UNLINK")),
        ReleaseSpec("execute_command", key=Arg(1), command=("DELIFEQ",), checked=True, token=Arg(2)),
        ReleaseSpec("execute_command", key=Arg(1), command=("DELEX",), checked=True, token=Arg(3)),
        ReleaseSpec("delex", key=_KEY, checked=True, token=Arg(None, "ifeq")),
        # eval of a compare-and-delete script: the key is the first KEYS entry.
        ReleaseSpec("eval", key=Arg(2), checked=True, script=Arg(0), token=Arg(3)),
    ),
    writes=(
        WriteSpec("set", key=_KEY, value=_VALUE),
        WriteSpec("setex", key=_KEY, value=Arg(2, "value")),
        WriteSpec("psetex", key=_KEY, value=Arg(2, "value")),
    ),
    reads=(ReadSpec("get", key=_KEY),),
    expiries=(
        ExpireSpec("expire", key=_KEY, ttl=Arg(1, "time"), unit="ex"),
        ExpireSpec("pexpire", key=_KEY, ttl=Arg(1, "time"), unit="px"),
        ExpireSpec("expireat", key=_KEY, ttl=Arg(1, "when"), unit="exat"),
        ExpireSpec("pexpireat", key=_KEY, ttl=Arg(1, "when"), unit="pxat"),
    ),
    watch=("watch",),
    multi=("multi",),
    pipelines=("pipeline", "transaction"),
    checked_release=(
        ("lua", "{receiver}.eval({script}, 1, {key}, {token})"),
        ("delifeq", '{receiver}.execute_command("DELIFEQ", {key}, {token})'),
        ("delex", '{receiver}.execute_command("DELEX", {key}, "IFEQ", {token})'),
    ),
    claim_words=(b"nx=True", b"setnx", b"NX"),
)

# aioredis 1.x: `set(key, value, expire=..., exist=SET_IF_NOT_EXIST)`, `eval(script, keys=[...], args=[...])`.
AIOREDIS1 = Store(
    name="aioredis 1.x",
    modules=("aioredis",),
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
            "eval", key=Arg(None, "keys"), checked=True, script=Arg(0), token=Arg(None, "args"), key_in_list=True
        ),
    ),
    pipelines=("pipeline", "multi_exec"),
    checked_release=(
        ("lua", "{receiver}.eval({script}, keys=[{key}], args=[{token}])"),
        ("delifeq", '{receiver}.execute("DELIFEQ", {key}, {token})'),
        ("delex", '{receiver}.execute("DELEX", {key}, "IFEQ", {token})'),
    ),
    claim_words=(b"SET_IF_NOT_EXIST",),
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
    ),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    writes=(WriteSpec("set", key=Arg(0, "key"), value=Arg(1, "value")),),
    reads=(ReadSpec("get", key=Arg(0, "key")),),
    expiries=(ExpireSpec("touch", key=Arg(0, "key"), ttl=Arg(1, "timeout"), unit="timeout"),),
    recognised_only=True,
    no_checked_release=(
        "the cache API has no compare-and-delete: store a fresh token and check it right before the delete, "
        "keep the lifetime short and renew it while the holder is healthy, and guard the job's durable effects; "
        "with django-redis, `cache.lock(key, timeout=...)` releases with a token check"
    ),
    claim_words=(b".add(",),
)

STORES: tuple[Store, ...] = (REDIS, AIOREDIS1, DJANGO_CACHE)

# Lock objects that release with a token check of their own. They are never blind releases;
# a lock without a lifetime is LL005, a swallowed release error LL006.
LOCKS: tuple[LockSpec, ...] = (
    # redis-py, redis.asyncio, valkey-py, django-redis `cache.lock`: timeout=None means no expiry.
    LockSpec("lock", method=True, key=Arg(0, "name"), lifetime=(Arg(1, "timeout"),)),
    LockSpec("redis.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),)),
    LockSpec("redis.asyncio.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),)),
    LockSpec("valkey.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),)),
    # python-redis-lock: expire=None means no expiry.
    LockSpec("redis_lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "expire"),)),
    # pottery and sherlock give every lock a default lifetime.
    LockSpec("pottery.Redlock", method=False, key=Arg(None, "key"), default_lifetime=True),
    LockSpec("sherlock.Lock", method=False, key=Arg(0, "lock_name"), default_lifetime=True),
    LockSpec("sherlock.RedisLock", method=False, key=Arg(0, "lock_name"), default_lifetime=True),
)
# Exceptions a lock raises when its release finds somebody else's claim (or none).
LOCK_RELEASE_ERRORS = frozenset(
    {"LockNotOwnedError", "LockError", "NotAcquired", "ReleaseUnlockedLock", "LockException", "LockReleaseError"}
)


def claim_specs(method: str) -> list[tuple[Store, ClaimSpec]]:
    return [(store, spec) for store in STORES for spec in store.claims if spec.method == method]


def release_specs(method: str) -> list[tuple[Store, ReleaseSpec]]:
    return [(store, spec) for store in STORES for spec in store.releases if spec.method == method]


def write_specs(method: str) -> list[tuple[Store, WriteSpec]]:
    return [(store, spec) for store in STORES for spec in store.writes if spec.method == method]


def read_specs(method: str) -> list[tuple[Store, ReadSpec]]:
    return [(store, spec) for store in STORES for spec in store.reads if spec.method == method]


def expire_specs(method: str) -> list[tuple[Store, ExpireSpec]]:
    return [(store, spec) for store in STORES for spec in store.expiries if spec.method == method]


def transaction_methods() -> tuple[set[str], set[str]]:
    """(watch-like, multi-like) pipeline methods of every store."""
    return {n for s in STORES for n in s.watch}, {n for s in STORES for n in s.multi}


def pipeline_methods() -> set[str]:
    return {name for store in STORES for name in store.pipelines}


def prefilter_words() -> tuple[bytes, ...]:
    return tuple(word for store in STORES for word in store.claim_words)
