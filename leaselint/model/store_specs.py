"""What a row of the store table says (leaselint/model/stores.py): the row dataclasses."""

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
    # The call writes whatever is there and answers the old value (`getset`): a claim only where the
    # code tests that answer (`if old is None:`), the first writer being the holder.
    by_old_value: bool = False
    # For a script claim: its keys and arguments are lists (`eval(script, keys=[key], args=[token])`).
    key_in_list: bool = False
    # Two positional arguments may be a key and a value or a key and a lifetime (`setnx_ex(key, 60)`):
    # the value is read only from a third one, a lifetime keyword beside it, or its own keyword.
    value_beside_lifetime: bool = False


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
    # Why no fix may touch a release of this kind (its client's API is not one the fixes write for).
    no_fix: str = ""


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
    # The value handed back when the key is absent (`cache.get(key, None)`).
    default: Arg | None = None


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
    # Where the caller may choose the holder token: a constructor argument (python-redis-lock's `id=`),
    # and the keyword of the lock's `acquire` (redis-py's `acquire(token=...)`).
    token: Arg | None = None
    acquire_token: str | None = None


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
    # Mappings whose items are this store's clients, by their full names (`caches["default"]`).
    client_registries: tuple[str, ...] = ()
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
    # What a checked release raises when it finds the lease lost (a failed condition): an `except` of
    # one that does nothing swallows the signal (LL006).
    lost_errors: tuple[str, ...] = ()
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
    # A regular expression of method names: a claim spec with the method "" stands for every method
    # whose whole name it matches (a project's own `set_if_absent`), after the rows that name it.
    claim_method_pattern: str = ""
