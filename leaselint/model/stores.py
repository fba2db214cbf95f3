"""Every client family leaselint knows, as data.

A row says how the family's claims, releases, reads and expiries look, and
which token-checked release its fixes write. Rules never name a store: they
read the events the model builds from this table.

The rows are in store_table.py, their dataclasses in store_specs.py; this module names them all
and looks things up in the table.
"""

from __future__ import annotations

import re

import functools

from functools import lru_cache

from leaselint.model.lock_names import LOCK_CLASS_WORDS, name_words
from leaselint.model.store_specs import Arg, ClaimSpec, ReleaseSpec, WriteSpec, ReadSpec, ExpireSpec, LockSpec, Store  # noqa: F401
# The table's names other modules read as stores.X.
from leaselint.model.store_table import (  # noqa: F401
    LOCK_QUERIES,
    LOCK_RELEASE_ERRORS,
    LOCKS,
    ORM_MANAGER,
    ROW_KEY_FIELDS,
    SQL_NO_FIX,
    STORES,
    lock_model_name,
    row_key_name,
)


# Why no fix rewrites a release whose filter is a dict bound to a name first; the LL006 log, which
# writes the call as it is, is still made.
NAMED_FILTER = "the filter is a dict bound to a name first"


# The table does not change: each lookup is made once per method.


@lru_cache(maxsize=None)
def _specs(kind: str, method: str) -> tuple:
    """(store, spec) of every row of `kind` (claims, releases, ...) for `method`, in table order; for a
    claim method, then the rows whose name pattern takes it (see Store.claim_method_pattern)."""
    found = tuple((store, spec) for store in STORES for spec in getattr(store, kind) if spec.method == method)
    if kind != "claims" or not method or claim_pattern().fullmatch(method) is None:
        return found
    # After the rows that name it (etcd's `put_if_not_exists` on an etcd client only).
    return found + tuple(
        (store, spec)
        for store in STORES
        if store.claim_method_pattern and re.fullmatch(store.claim_method_pattern, method)
        for spec in store.claims
        if not spec.method
    )


class ClaimNames(frozenset):
    """Claim method names: those the table names, and those a row's name pattern takes."""

    def __contains__(self, name) -> bool:
        return frozenset.__contains__(self, name) or claim_pattern().fullmatch(name) is not None


@lru_cache(maxsize=1)
def claim_pattern() -> re.Pattern:
    """Every row's pattern of claim method names, as one expression (`fullmatch` a method's name)."""
    patterns = [store.claim_method_pattern for store in STORES if store.claim_method_pattern]
    return re.compile("|".join(f"(?:{p})" for p in patterns) or "(?!)")


def row_ref(store: Store, spec) -> tuple | None:
    """(store name, table part, index): a row of the table as plain data (module summaries keep it)."""
    for part in ("claims", "releases", "script_objects", "reads", "writes", "expiries"):
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


@functools.lru_cache(maxsize=None)
def script_taking_methods() -> frozenset[str]:
    """Methods whose first argument is a script's text: `eval`, `register_script`, `script_load`."""
    return frozenset(
        {
            *(spec.method for store in STORES for spec in (*store.claims, *store.releases) if spec.script is not None and spec.script.index == 0),
            *(spec.method for store in STORES for spec in store.script_objects),
            *script_load_methods(),
        }
    )


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
# Objects and modules that hold a project's settings (`django.conf.settings`, `CONF`, `flask.g`): a
# client or a value there is the deployment's, of no store family or origin the model can tell.
CONFIG_OBJECTS = frozenset({"settings", "conf", "cfg", "config", "environ", "current_app", "g"})
# Keywords that hand a store call to a transaction (arakoon's `transaction=`, a `txn=` of a client's
# own): the call is one step of it, checked by the transaction's own asserts.
TRANSACTION_KEYWORDS = frozenset({"transaction", "txn"})

# A lock API leaselint cannot read, told by its method names: one that takes the lease and one that
# gives it back, called on one object with the same holder (`_lock.lock(task, host)`, then
# `_lock.release(task, host)`; `Node.reserve(ctx, CONF.host, node)`, `Node.release(ctx, CONF.host, n)`).
API_TAKING = frozenset({"lock", "acquire", "acquire_lock", "reserve", "claim", "take", "lock_task", "try_lock", "trylock", "get_lock"})
API_GIVING = frozenset({"release", "unlock", "release_lock", "unlock_task", "unreserve", "free"})
# Words of a value that names a holder (the argument's own code): `host`, `owner`, `worker_id`, `CONSUMER`.
HOLDER_WORDS = ("host", "owner", "holder", "worker", "token", "ident", "uuid", "pid", "consumer", "node_name",
                "instance", "engine", "server", "process", "client_id", "member", "locker")
# Names of a value that says who holds a key (`token`, `owner`, `job.worker_id`), not a result a cache keeps.
HOLDER_VALUE_NAMES = ("token", "owner", "holder", "worker", "ident", "uuid", "pid", "locker", "hostname", "node_id", "client_id", "session_id")
LOCK_CLASS_METHODS = frozenset({"acquire", "release", "lock", "unlock", "__enter__", "__exit__", "__aenter__", "__aexit__"})


def coroutine_maker(dotted: str) -> bool:
    """`dotted` (a client maker or lock class, by its full name) is of an asyncio client: its calls
    answer coroutines."""
    return any(dotted == m or dotted.startswith(m + ".") for store in STORES for m in store.async_modules)


# Client names too common to tell a store by as a part of a longer name (`cache_client`).
_GENERIC_CLIENT_WORDS = frozenset({"client", "conn", "connection", "cache", "r", "pool", "_cache"})


def client_named(name: str, names) -> bool:
    """`name` (a receiver's last name) is a usual name of a store's client: one of `names`, with
    leading underscores (`self._redis`), or a store's own word inside it (`redis_client`, `rdb_conn`)."""
    name = name.lstrip("_")
    if name in names:
        return True
    return any(part in names and part not in _GENERIC_CLIENT_WORDS for part in name.split("_") if part)


def lock_shaped(name: str, methods) -> bool:
    """A class named for a lock, mutex, lease or semaphore (a word of its name: `MemcachedLock`,
    `lease_handle`, not `Blocking`) that acquires or releases, or is a context manager."""
    words = set(name_words(name))
    return bool(words & set(LOCK_CLASS_WORDS)) and any(_lock_method(method) for method in methods)


def _lock_method(name: str) -> bool:
    """`acquire`, `__exit__`, or a name of such words (`acquire_lock`, `releaseLock`, `try_unlock`)."""
    if name in LOCK_CLASS_METHODS:
        return True
    words = set(name_words(name))
    return bool(words & _LOCK_METHOD_WORDS)


_LOCK_METHOD_WORDS = frozenset({"acquire", "release", "lock", "unlock"})

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
        spec.method
        for store in STORES
        for spec in (*store.claims, *store.releases)
        if spec.method and spec.method != "execute_command"
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


# Method names too common to stand for one project method wherever they are called on an object of
# unknown class (`session.delete(row)`); the stores' own methods are left to the store table.
_COMMON_METHODS = frozenset(
    {
        "get", "set", "add", "put", "pop", "remove", "delete", "update", "insert", "clear", "close", "run",
        "call", "send", "execute", "acquire", "release", "lock", "unlock", "start", "stop", "wait", "join",
        "append", "extend", "format", "encode", "decode", "save", "load", "open", "read", "write", "flush",
    }
)


def distinctive_method(name: str) -> bool:
    """A method name that names one project method wherever it is called (`put_if_empty`,
    `release_lock`): not a store's method, not a common word, a compound or a lease word."""
    if name in _COMMON_METHODS or name.startswith("__") or name in method_names():
        return False
    lowered = name.lower()
    return "_" in name.strip("_") or any(word in lowered for word in LOCK_KEY_WORDS)
