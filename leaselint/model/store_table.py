"""The store table's rows: every client family leaselint knows, and the lock objects."""

from __future__ import annotations

import re

from leaselint.model.lock_names import LOCK_CLASS_WORDS, lock_model_name  # noqa: F401
from leaselint.model.store_specs import Arg, ClaimSpec, ExpireSpec, LockSpec, ReadSpec, ReleaseSpec, Store, WriteSpec
from leaselint.model.store_table_apps import CASHEWS, PROJECT_CLIENT

_KEY = Arg(0, "name")
_VALUE = Arg(1, "value")

_RAW_EXECUTE = "the command is aioredis 1.x's raw `execute`, which leaselint does not rewrite"
_LIFETIME_WORDS = ("EX", "PX", "EXAT", "PXAT")

REDIS = Store(
    name="redis",
    modules=("redis", "valkey", "aioredis", "django_redis", "coredis"),
    async_modules=("redis.asyncio", "valkey.asyncio", "aioredis", "coredis"),
    client_names=("redis", "client", "conn", "connection", "r", "rdb", "rds", "cache", "valkey"),
    # Django's named caches: django-redis's `caches["default"].lock(...)`, as `cache.lock` is.
    client_registries=("django.core.cache.caches",),
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
        # `old = getset(key, value)`, then `if old is None`: the first writer holds it (each writer
        # overwrites the value, so the holder's token is gone once a second one tries).
        ClaimSpec(
            "getset",
            key=_KEY,
            value=_VALUE,
            by_old_value=True,
            no_fix="the claim is a `getset`, which answers the old value and overwrites the holder's",
            no_lifetime="`getset` takes no lifetime, and an `expire` after it leaves a window in which a crash keeps "
            "the key forever: claim with `set(key, token, nx=True, px=...)`",
        ),
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
            no_lifetime="a hash field takes no lifetime in `hsetnx`, and an expiry of the whole hash ends every "
            "field's claim at once",
        ),
        # coredis: `set(key, value, condition=PureToken.NX, px=...)`.
        ClaimSpec(
            "set",
            key=_KEY,
            value=_VALUE,
            flag=Arg(None, "condition"),
            flag_value="NX",
            lifetime=(Arg(None, "ex"), Arg(None, "px"), Arg(None, "exat"), Arg(None, "pxat")),
            no_fix="the claim is coredis's (`condition=PureToken.NX`), whose client takes other arguments",
        ),
        ClaimSpec(
            "execute_command",
            key=Arg(1),
            value=Arg(2),
            command="SET",
            command_flag="NX",
            lifetime_words=("EX", "PX", "EXAT", "PXAT"),
        ),
        # aioredis 1.x's raw command: `await conn.execute("set", key, token, "ex", 30, "nx")`.
        ClaimSpec("execute", key=Arg(1), value=Arg(2), command="SET", command_flag="NX",
                  lifetime_words=_LIFETIME_WORDS, no_fix=_RAW_EXECUTE),
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
        ReleaseSpec("execute", command=("DEL", "UNLINK"), no_fix=_RAW_EXECUTE),
        ReleaseSpec(
            "execute_command", key=Arg(1), command=("DELIFEQ",), checked=True, token=Arg(2), self_evident=True
        ),
        ReleaseSpec("execute_command", key=Arg(1), command=("DELEX",), checked=True, token=Arg(3), self_evident=True),
        ReleaseSpec("delex", key=_KEY, checked=True, token=Arg(None, "ifeq"), self_evident=True),
        # eval of a compare-and-delete script: the key is the first KEYS entry.
        ReleaseSpec("eval", key=Arg(2), checked=True, script=Arg(0), token=Arg(3), self_evident=True),
        ReleaseSpec("evalsha", key=Arg(2), checked=True, script=Arg(0), token=Arg(3), self_evident=True),
        # The same through the raw command: `execute_command("EVAL", script, 1, key, token)`.
        ReleaseSpec(
            "execute_command",
            key=Arg(3),
            command=("EVAL", "EVALSHA"),
            checked=True,
            script=Arg(1),
            token=Arg(4),
            self_evident=True,
        ),
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
    claim_words=(b"setnx", b"getset", b'"NX"', b"'NX'", b'"nx"', b"'nx'", b".multi("),
    claim_patterns=(
        (b"nx", rb"\bnx\s*=\s*\(*\s*True\b"),
        (b".NX", rb"condition\s*=\s*\w+\.NX\b"),
        # `execute_command(f"SET {key} {token} NX PX {ttl}")`
        (b" NX", rb"\b[Ss][Ee][Tt]\s+\{[^{}]*\}\s+\{[^{}]*\}\s+NX\b"),
    ),
    lifetime_reads=("ttl", "pttl"),
    other_api=(
        ("create_redis_pool", "create_redis", "create_connection", "create_pool"),
        "the client comes from aioredis 1.x (`{maker}`), whose `set` and `eval` take other arguments",
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
        *(
            ClaimSpec(method, key=Arg(None, "keys"), value=None, script=Arg(0), form="script", key_in_list=True)
            for method in ("eval", "evalsha")
        ),
    ),
    releases=tuple(
        ReleaseSpec(
            method,
            key=Arg(None, "keys"),
            checked=True,
            script=Arg(0),
            token=Arg(None, "args"),
            key_in_list=True,
            self_evident=True,
        )
        for method in ("eval", "evalsha")
    ),
    script_loads=("script_load",),
    pipelines=("pipeline", "multi_exec"),
    checked_extend="{receiver}.eval({script}, keys=[{key}], args=[{token}, {ttl}])",
    checked_release=(
        ("lua", "{receiver}.eval({script}, keys=[{key}], args=[{token}])"),
        ("delifeq", '{receiver}.execute("DELIFEQ", {key}, {token})'),
        ("delex", '{receiver}.execute("DELEX", {key}, "IFEQ", {token})'),
    ),
    claim_words=(b"SET_IF_NOT_EXIST",),
)

# What to do instead is in the rules' documentation ("Without an automatic fix" of LL001 and LL010).
_NO_COMPARE_AND_DELETE = "the cache API has no compare-and-delete"


_NO_COMPARE_AND_TOUCH = "the cache API has no compare-and-touch"


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
    reads=(ReadSpec("get", key=Arg(0, "key"), default=Arg(1, "default")),),
    absence_reads=("has_key",),
    optimistic_reads=("get",),
    expiries=(ExpireSpec("touch", key=Arg(0, "key"), ttl=Arg(1, "timeout"), unit="timeout"),),
    recognised_only=True,
    lock_class_claims=True,
    no_checked_release=_NO_COMPARE_AND_DELETE,
    no_checked_extend=_NO_COMPARE_AND_TOUCH,
    checked_release_hint=("django", "django-redis's `cache.lock()` has one"),
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

_NO_MEMCACHED_EXTEND = "memcached has no compare-and-touch in one command"

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
    reads=(ReadSpec("get", key=Arg(0, "key"), default=Arg(1, "default")),),
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
    no_checked_release="pylibmc has no compare-and-delete call",
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
    single_server="the client may replicate to several servers, where one server's CAS id does not hold on the others",
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
    reads=(ReadSpec("get", key=Arg(0, "key"), default=Arg(1, "default")),),
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
    lost_errors=("ConditionalCheckFailedException", "ConditionFailedException", "ConditionalCheckFailed"),
    no_lifetime=(
        "its condition ignores an expiry attribute, and DynamoDB's TTL deletes expired items only days later"
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
        # A replacement upserted where the filter finds no live holder: a taken key raises DuplicateKeyError.
        ClaimSpec("find_one_and_replace", key=Arg(0, "filter"), value=None, form="mongo"),
        ClaimSpec("replace_one", key=Arg(0, "filter"), value=None, form="mongo"),
        # pymongo 2 and 3: `insert(doc)`, and `find_and_modify(query, update, upsert=True)`.
        ClaimSpec("insert", key=Arg(0, "doc_or_docs"), value=None, form="mongo", answers_by_raising=True),
        ClaimSpec("find_and_modify", key=Arg(0, "query"), value=None, form="mongo", answers_by_raising=True),
    ),
    releases=(
        ReleaseSpec("delete_one", key=Arg(0, "filter"), form="mongo", lost_when="{result}.deleted_count == 0"),
        ReleaseSpec("delete_many", key=Arg(0, "filter"), form="mongo", lost_when="{result}.deleted_count == 0"),
        ReleaseSpec(
            "find_one_and_delete", key=Arg(0, "filter"), form="mongo", returns_value=True, lost_when="{result} is None"
        ),
        # A holder's field emptied (`{"$set": {"owner": None}}`, `$unset`) where a claim set it.
        ReleaseSpec("update_one", key=Arg(0, "filter"), form="mongo", lost_when="{result}.modified_count == 0"),
        ReleaseSpec("find_one_and_update", key=Arg(0, "filter"), form="mongo", lost_when="{result} is None"),
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
        "python-etcd's refresh() checks no holder"
    ),
    recognised_only=True,
    release_form="checked_keyword",
    lost_errors=("EtcdCompareFailed",),
    release_options=(("keyword", "prevValue"), ("error", "etcd.EtcdCompareFailed")),
    missing_raises="the release raises EtcdKeyNotFound when nothing holds the key, which a release "
    "skipped for want of a token would stop",
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


_NOT_ROW_KEY = ("owner", "holder", "worker", "_by", "user", "until", "expire", "time", "stamp", "_at", "date", "age")


def row_key_name(name: str) -> bool:
    """A lock model's field that names the row: a usual name, or one that says so (`locked_object`,
    `resource_key`, `task_name`); not an owner, a lookup (`name__in`) or a time."""
    if name in ROW_KEY_FIELDS:
        return True
    lowered = name.lower()
    if "__" in name or any(word in lowered for word in _NOT_ROW_KEY):
        return False
    return lowered.startswith("lock") or lowered.endswith(("_name", "_key", "_object", "_resource"))


# Rows of a lock model through Django's ORM: `JobLock.objects.create(name=key, owner=token, ...)`,
# raising IntegrityError on the unique name, claims; `JobLock.objects.filter(name=key).delete()` is
# blind, with the owner in the filter checked. Only models named for a lock (LOCK_CLASS_WORDS).
DJANGO_ORM = Store(
    name="Django ORM",
    modules=("django",),
    client_names=(),
    claims=(
        ClaimSpec("create", key=Arg(None, "name"), value=None, form="orm", answers_by_raising=True),
        # Its answer is `(row, created)`: created says the claim succeeded.
        ClaimSpec("get_or_create", key=Arg(None, "name"), value=None, form="orm"),
        # `filter(pk=k, owner__isnull=True).update(owner=me)`: a holder's field set where it is empty.
        ClaimSpec("update", key=Arg(None, "pk"), value=None, form="orm"),
        # `JobLock(name=key, owner=me).save(force_insert=True)`, or `save()` with IntegrityError caught:
        # the row `create` makes, made by hand.
        ClaimSpec("save", key=Arg(None, "name"), value=None, form="orm", answers_by_raising=True),
    ),
    releases=(ReleaseSpec("delete", form="orm", lost_when="{result}[0] == 0"), ReleaseSpec("update", form="orm", lost_when="{result} == 0")),
    recognised_only=True,
    module_wide=True,
    records=True,
    duplicate_errors=("IntegrityError",),
    release_form="orm",
    no_lifetime="the row has no expiry field",
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
_GLIDE_NO_FIX = "valkey-glide has no compare-and-delete call"
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

# Rows of a lock table through SQL (DB-API drivers, SQLAlchemy connections): `cursor.execute("INSERT
# INTO locks (name, owner, expires_at) VALUES (%s, %s, %s)", (...))` claims; `DELETE FROM locks WHERE
# name = %s` is blind, with the owner column in the WHERE checked; the cursor's rowcount answers.
SQL_NO_FIX = (
    "the SQL statements are written by hand"
)
_SQL_INTO = rb"(?i:insert)\s+(?:(?i:ignore|or\s+ignore)\s+)?(?i:into)\s+"
# A table named for locks, or an insert naming a holder's column.
_SQL_LOCK_TABLE = _SQL_INTO + rb"\S*(?i:lock|lease|mutex|semaphore|leader)"
_SQL_HOLDER_COLUMN = _SQL_INTO + rb"\S+\s*(?:(?i:as)\s+\w+\s*)?\([^)]*\b(?i:owner|holder|locked_by|lease)\b"
SQL = Store(
    name="SQL",
    modules=(
        "psycopg2", "psycopg", "pymysql", "MySQLdb", "mysql", "sqlite3", "aiomysql", "aiopg", "aiosqlite",
        "sqlalchemy", "pg8000", "oracledb", "cx_Oracle", "django.db",
    ),
    client_names=(),
    claims=(ClaimSpec("execute", key=Arg(0, "operation"), value=None, form="sql", answers_by_raising=True, no_fix=SQL_NO_FIX),),
    releases=(ReleaseSpec("execute", key=Arg(0, "operation"), form="sql", lost_when="{result}.rowcount == 0", common_word=True),),
    recognised_only=True,
    module_wide=True,
    records=True,
    duplicate_errors=("IntegrityError", "UniqueViolation", "UniqueViolationError"),
    release_form="sql",
    no_lifetime="the row has no expiry column",
    no_checked_release=SQL_NO_FIX,
    claim_patterns=(
        (b"INSERT", _SQL_LOCK_TABLE),
        (b"insert into", _SQL_LOCK_TABLE),
        (b"INSERT", _SQL_HOLDER_COLUMN),
        (b"insert into", _SQL_HOLDER_COLUMN),
    ),
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
    SQL,
    CASHEWS,
    PROJECT_CLIENT,
)

# Lock objects that release with a token check of their own. They are never blind releases;
# a lock without a lifetime is LL005, a swallowed release error LL006.
LOCKS: tuple[LockSpec, ...] = (
    # redis-py, redis.asyncio, valkey-py, django-redis `cache.lock`: timeout=None means no expiry.
    # `acquire(token=...)` lets the caller choose the holder token (a fresh one is made without it).
    LockSpec(
        "lock",
        method=True,
        key=Arg(0, "name"),
        lifetime=(Arg(1, "timeout"),),
        client=REDIS,
        class_keyword="lock_class",
        acquire_token="token",
    ),
    LockSpec("redis.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),), acquire_token="token"),
    LockSpec(
        "redis.asyncio.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),), acquire_token="token"
    ),
    LockSpec("valkey.lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "timeout"),), acquire_token="token"),
    # python-redis-lock: expire=None means no expiry; `id=` is the holder token (random without it).
    LockSpec("redis_lock.Lock", method=False, key=Arg(1, "name"), lifetime=(Arg(2, "expire"),), token=Arg(3, "id")),
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
