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
class Store:
    name: str
    # Import roots whose clients belong to this family.
    modules: tuple[str, ...]
    # Attribute and variable names that usually hold such a client.
    client_names: tuple[str, ...]
    claims: tuple[ClaimSpec, ...]
    releases: tuple[ReleaseSpec, ...]
    writes: tuple[WriteSpec, ...] = ()
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
    claims=(ClaimSpec("add", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "timeout"),)),),
    releases=(ReleaseSpec("delete", key=Arg(0, "key")),),
    writes=(WriteSpec("set", key=Arg(0, "key"), value=Arg(1, "value")),),
    recognised_only=True,
    no_checked_release=(
        "the cache API has no compare-and-delete: store a fresh token and check it right before the delete, "
        "keep the lifetime short and renew it while the holder is healthy, and guard the job's durable effects; "
        "with django-redis, `cache.lock(key, timeout=...)` releases with a token check"
    ),
    claim_words=(b".add(",),
)

STORES: tuple[Store, ...] = (REDIS, AIOREDIS1, DJANGO_CACHE)


def claim_specs(method: str) -> list[tuple[Store, ClaimSpec]]:
    return [(store, spec) for store in STORES for spec in store.claims if spec.method == method]


def release_specs(method: str) -> list[tuple[Store, ReleaseSpec]]:
    return [(store, spec) for store in STORES for spec in store.releases if spec.method == method]


def write_specs(method: str) -> list[tuple[Store, WriteSpec]]:
    return [(store, spec) for store in STORES for spec in store.writes if spec.method == method]


def pipeline_methods() -> set[str]:
    return {name for store in STORES for name in store.pipelines}


def prefilter_words() -> tuple[bytes, ...]:
    return tuple(word for store in STORES for word in store.claim_words)
