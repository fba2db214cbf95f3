"""The differential fix check: run a lease module and its fixed copy side by side on a real Redis.

The lease API comes from the model: a function that claims and releases in one call, or a class
whose methods claim and release. Each is driven through the same scenarios on the original and the
fixed module:

- ordinary use (claim, release, claim again; release with nothing held; a failed second claim then
  the release; a contended claim; a context manager used twice; a job that raises; what the API reads
  back) must give the same results, raise the same exceptions and leave the same keys;
- the overlap (A's deadline passes, B claims through the same API, A releases) must leave B's claim in
  place after the fix, and must free it in the original (or the scenario proves nothing).

Names the module calls but does not define (`work`, `fetch`, `make_token`) are stubs that run the
scenario's hooks; module-level clients and clients made inside the module are pointed at the test's
server; `sleep` in a retry loop gives up after a while, so a blocking claim is an outcome, not a hang.
"""

from __future__ import annotations

import asyncio
import builtins
import inspect
import secrets
import threading
import time as real_time
import tempfile
import types
from dataclasses import dataclass, field
from typing import Any, Callable

import libcst as cst
import redis
import redis.asyncio

from leaselint.model.build import build_model

TTL_S = 30
TTL_MS = 30_000
SLEEPS_BEFORE_GIVING_UP = 30
# Client options the module's own clients keep on the test server.
CLIENT_OPTIONS = ("decode_responses", "encoding", "encoding_errors")


CONTENDED = "a runs while another worker holds the key"


class Blocked(Exception):
    """A claim kept retrying: in a scenario that is an outcome of its own."""


@dataclass
class Api:
    kind: str  # "function" (claims and releases in one call) or "class" (methods claim and release)
    name: str  # the function, or the class
    claim: str = ""  # the class's claiming method
    release: str = ""  # the class's releasing method
    method: str = ""  # for a method that claims and releases in one call
    is_async: bool = False
    # The class's methods that claim, release, write or renew: the rest only read (`holder()`).
    writers: frozenset = frozenset()


def lease_apis(source: str) -> list[Api]:
    """The lease entry points of a module, read from the lease model."""
    model = build_model(cst.parse_module(source))
    found: dict[tuple, Api] = {}
    events = [*model.claims, *model.releases, *model.writes, *(e for lease in model.leases for e in lease.expiries)]
    for lease in model.leases:
        for claim in lease.claims:
            own = any(r.via is None for r in lease.releases)
            for release in lease.releases:
                if release.via is not None and own:
                    continue  # a call of the module's release helper, whose own release is here: the helper is the entry point
                api = _api_of(claim.scope, release.scope)
                if api is not None and api.kind == "class":
                    cls = claim.scope.cls
                    api.writers = frozenset(e.scope.name for e in events if e.scope.cls is cls)
                if api is not None:
                    found.setdefault((api.kind, api.name, api.claim, api.release, api.method), api)
    # The callers of a claim function and its release function: the pair as the project uses it.
    calls = model.origins.name_calls
    for api in [a for a in found.values() if a.kind == "pair"]:
        claiming = {id(scope): scope for _, scope in calls.get(api.claim, [])}
        for _, scope in calls.get(api.release, []):
            if id(scope) in claiming and _top(scope) and scope.cls is None and scope.name not in (api.claim, api.release):
                found.setdefault(("function", scope.name), Api("function", scope.name, is_async=scope.is_async))
    for lock in model.locks:
        if _top(lock.scope) and lock.scope.cls is None:
            found.setdefault(("function", lock.scope.name), Api("function", lock.scope.name, is_async=lock.scope.is_async))
    for claim, _ in model.split_lifetimes:
        # A claim helper of no release in its module (`setnx`, then `expire`): run as its callers do.
        if _top(claim.scope) and claim.scope.cls is None:
            found.setdefault(("function", claim.scope.name), Api("function", claim.scope.name, is_async=claim.scope.is_async))
    leased = {id(r) for lease in model.leases if lease.claims for r in lease.releases}
    for release in model.releases:
        scope = release.scope
        if id(release) in leased or model.claims or not _top(scope) or scope.cls is not None:
            continue
        found.setdefault(("release", scope.name), Api("release", scope.name, is_async=scope.is_async))
    return list(found.values())


def _top(scope) -> bool:
    return scope.parent is not None and scope.parent.parent is None


def _outermost(scope):
    """The module-level function (or method) a nested function is inside: a transaction's callback."""
    while scope.parent is not None and scope.parent.parent is not None and scope.parent.cls is None and scope.cls is None:
        scope = scope.parent
    return scope


def _api_of(claim_scope, release_scope) -> Api | None:
    claim_scope, release_scope = _outermost(claim_scope), _outermost(release_scope)
    is_async = claim_scope.is_async or release_scope.is_async
    if claim_scope is release_scope:
        if claim_scope.cls is None and _top(claim_scope):
            return Api("function", claim_scope.name, is_async=is_async)
        if claim_scope.cls is not None and claim_scope.self_name:
            return Api("function", claim_scope.cls.name, method=claim_scope.name, is_async=is_async)
        return None
    if claim_scope.cls is None and release_scope.cls is None and _top(claim_scope) and _top(release_scope):
        return Api("pair", "", claim=claim_scope.name, release=release_scope.name, is_async=is_async)
    cls = claim_scope.cls
    if cls is not None and release_scope.cls is cls and claim_scope.self_name and release_scope.self_name:
        return Api("class", cls.name, claim=claim_scope.name, release=release_scope.name, is_async=is_async)
    return None


# Making a module run on the test server ----------------------------------------------------------


def _namespace(real, **overrides):
    """A stand-in for a module: its public names, some replaced."""
    proxy = types.SimpleNamespace(**{k: getattr(real, k) for k in dir(real) if not k.startswith("__")})
    for name, value in overrides.items():
        setattr(proxy, name, value)
    return proxy


class RedisFamily:
    """A Redis server for the code under test: its modules, classes and clients stand for the test's."""

    name = "redis"

    @staticmethod
    def prepare() -> None:
        """Before the module under test is imported."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.client = redis.Redis.from_url(url)
        self.made: list = []

    def make(self, cls, options=None):
        kept = {k: v for k, v in (options or {}).items() if k in CLIENT_OPTIONS}
        made = cls.from_url(self.url, **kept)
        self.made.append(made)
        return made

    def point(self, module: types.ModuleType) -> None:
        def maker(cls):
            return lambda *a, **k: self.make(cls, k)

        sync = _namespace(redis, Redis=maker(redis.Redis), StrictRedis=maker(redis.Redis), from_url=maker(redis.Redis))
        sync.asyncio = _namespace(redis.asyncio, Redis=maker(redis.asyncio.Redis), from_url=maker(redis.asyncio.Redis))
        for name, value in list(vars(module).items()):
            if value is redis:
                setattr(module, name, sync)
            elif value is redis.asyncio:
                setattr(module, name, sync.asyncio)
            elif value in (redis.Redis, redis.StrictRedis):
                setattr(module, name, maker(redis.Redis))
            elif value is redis.asyncio.Redis:
                setattr(module, name, maker(redis.asyncio.Redis))
            elif isinstance(value, (redis.Redis, redis.asyncio.Redis)):
                setattr(module, name, self.make(type(value), value.get_connection_kwargs()))
        from redis.commands.core import AsyncScript, Script

        for name, value in list(vars(module).items()):
            if isinstance(value, (Script, AsyncScript)):  # registered at import, on the module's own client
                client = self.make(redis.asyncio.Redis if isinstance(value, AsyncScript) else redis.Redis)
                setattr(module, name, client.register_script(value.script))
            elif type(value).__module__ == module.__name__ and hasattr(value, "__dict__") and not isinstance(value, type):
                # An object of the module's own class made at import (`STORE = Store()`): its clients and scripts.
                for attribute, held in list(vars(value).items()):
                    if isinstance(held, (redis.Redis, redis.asyncio.Redis)):
                        setattr(value, attribute, self.make(type(held), held.get_connection_kwargs()))
                for attribute, held in list(vars(value).items()):
                    if isinstance(held, (Script, AsyncScript)):
                        client = self.make(redis.asyncio.Redis if isinstance(held, AsyncScript) else redis.Redis)
                        setattr(value, attribute, client.register_script(held.script))

    def argument(self, is_async: bool):
        """A client to hand the code under test (a parameter named for a client)."""
        return self.make(redis.asyncio.Redis if is_async else redis.Redis)

    def close(self, loop) -> None:
        for made in self.made:
            try:
                if isinstance(made, redis.asyncio.Redis):
                    loop.run_until_complete(made.aclose())
                else:
                    made.close()
            except Exception:
                pass
        self.client.close()

    # What the scenarios see of the store.
    def keys(self) -> set:
        return set(self.client.keys("*"))

    def get(self, key):
        """A string's value; a slot's key (set, sorted set, list, hash) as its members, without the
        sorted set's scores, which are clock readings."""
        kind = self.client.type(key)
        if kind in (b"zset", b"set"):
            return ("members", tuple(sorted(self.client.zrange(key, 0, -1) if kind == b"zset" else self.client.smembers(key))))
        if kind == b"list":
            return ("list", tuple(self.client.lrange(key, 0, -1)))
        if kind == b"hash":
            return ("hash", tuple(sorted(self.client.hgetall(key).items())))
        return self.client.get(key)

    def flush(self) -> None:
        self.client.flushall()

    def hold(self, key, value) -> None:
        """Another worker's claim of `key`, long-lived."""
        self.client.set(key, value, px=TTL_MS)

    def expire(self, key) -> None:
        """`key`'s deadline passes now."""
        self.client.pexpire(key, 1)
        real_time.sleep(0.01)
        assert self.client.exists(key) == 0


class _Recording:
    """A memcached client of the code under test that notes each key it touches (memcached lists none)."""

    def __init__(self, client, keys: set) -> None:
        self._client, self._keys = client, keys

    def __getattr__(self, name: str):
        found = getattr(self._client, name)
        if not callable(found):
            return found

        def call(*args, **kwargs):
            key = args[0] if args else kwargs.get("key")
            if isinstance(key, (str, bytes)):
                self._keys.add(key.encode() if isinstance(key, str) else key)
            return found(*args, **kwargs)

        return call


class MemcachedFamily:
    """A memcached for pymemcache, python-memcached and aiomcache clients, seen through pymemcache."""

    name = "memcached"
    prepare = RedisFamily.prepare

    def __init__(self, server: tuple[str, int]) -> None:
        from pymemcache.client.base import Client

        self.server = server
        self.client = Client(server, default_noreply=False)
        self.touched: set = set()
        self.made: list = []
        # pymemcache clients made for the module (noreply by default): see _settle.
        self.synced: list = []
        self.bytes_tokens = False

    def _pymemcache(self, options):
        from pymemcache.client.base import Client

        kept = {k: v for k, v in options.items() if k in ("default_noreply", "serde")}
        return Client(self.server, **kept)

    def point(self, module: types.ModuleType) -> None:
        import importlib

        libraries = {}
        for name in ("pymemcache.client.base", "pymemcache", "memcache", "aiomcache", "bmemcached"):
            try:
                libraries[name] = importlib.import_module(name)
            except ImportError:
                pass
        host, port = self.server
        wrap = lambda client: _Recording(client, self.touched)  # noqa: E731
        makers = {}
        if "pymemcache.client.base" in libraries:
            base = libraries["pymemcache.client.base"]
            makers[base.Client] = lambda *a, **k: self._remember_sync(wrap(self._pymemcache(k)))
        if "memcache" in libraries:
            memcache = libraries["memcache"]
            makers[memcache.Client] = lambda *a, **k: wrap(
                memcache.Client([f"{host}:{port}"], **{n: v for n, v in k.items() if n == "cache_cas"})
            )
        if "bmemcached" in libraries:
            bmemcached = libraries["bmemcached"]
            makers[bmemcached.Client] = lambda *a, **k: wrap(bmemcached.Client([f"{host}:{port}"]))
        if "aiomcache" in libraries and any(v is libraries["aiomcache"] or isinstance(v, libraries["aiomcache"].Client) for v in vars(module).values()):
            self.bytes_tokens = True  # aiomcache stores bytes only
        if "aiomcache" in libraries:
            aiomcache = libraries["aiomcache"]
            makers[aiomcache.Client] = lambda *a, **k: self._remember(wrap(aiomcache.Client(host, port)))
        for name, value in list(vars(module).items()):
            if isinstance(value, type) and value in makers:
                setattr(module, name, makers[value])
            elif type(value) in makers:
                options = {"default_noreply": getattr(value, "default_noreply", True), "cache_cas": getattr(value, "cache_cas", False)}
                setattr(module, name, makers[type(value)](**options))
            else:
                for library in libraries.values():
                    if value is library and hasattr(library, "Client") and library.Client in makers:
                        setattr(module, name, _namespace(library, Client=makers[library.Client]))

    def _remember(self, client):
        self.made.append(client)
        return client

    def _remember_sync(self, client):
        self.synced.append(client)
        return client

    def _settle(self) -> None:
        """A command with a reply on each client the module made: a `noreply` command it sent before
        is then done (the server answers a connection's commands in order)."""
        for client in self.synced:
            try:
                client.version()
            except Exception:
                pass

    def argument(self, is_async: bool):
        return _Recording(self._pymemcache({"default_noreply": False}), self.touched)

    def close(self, loop) -> None:
        for made in self.made:
            try:
                loop.run_until_complete(made._client.close())
            except Exception:
                pass
        self.client.close()

    def keys(self) -> set:
        self._settle()
        return {key for key in self.touched if self.client.get(key) is not None}

    def get(self, key):
        self._settle()
        return self.client.get(key)

    def flush(self) -> None:
        self._settle()
        self.client.flush_all()

    def hold(self, key, value) -> None:
        self.client.set(key, value, expire=TTL_S)

    def expire(self, key) -> None:
        self.client.delete(key)  # memcached counts lifetimes in seconds: the key going is the same


class DiskcacheFamily:
    """A diskcache folder of the test's own for the code under test: its `Cache` and `FanoutCache`
    objects, and the ones it makes, are made anew there (a cache's folder is its store)."""

    name = "diskcache"
    prepare = RedisFamily.prepare

    def __init__(self, folder) -> None:
        import diskcache

        self.diskcache = diskcache
        self.folder = tempfile.mkdtemp(prefix="diskcache-", dir=folder)
        self.view = None
        self.made: list = []

    def make(self, cls, options=None):
        kept = {k: v for k, v in (options or {}).items() if k == "shards"}
        made = cls(self.folder, **kept)
        self.made.append(made)
        self.view = self.view or made
        return made

    def point(self, module: types.ModuleType) -> None:
        classes = (self.diskcache.Cache, self.diskcache.FanoutCache)
        maker = lambda cls: lambda *a, **k: self.make(cls, k)  # noqa: E731
        for name, value in list(vars(module).items()):
            if value is self.diskcache:
                overrides = {cls.__name__: maker(cls) for cls in classes}
                setattr(module, name, _namespace(self.diskcache, **overrides))
            elif value in classes:
                setattr(module, name, maker(value))
            elif type(value) in classes:
                shards = {"shards": len(value._shards)} if hasattr(value, "_shards") else {}
                setattr(module, name, self.make(type(value), shards))

    def argument(self, is_async: bool):
        return self.make(self.diskcache.Cache)

    def close(self, loop) -> None:
        for made in self.made:
            made.close()

    def _view(self):
        if self.view is None:
            self.make(self.diskcache.Cache)
        return self.view

    def keys(self) -> set:
        view = self._view()
        return {key for key in list(view) if view.get(key) is not None}

    def get(self, key):
        return self._view().get(key.decode() if isinstance(key, bytes) else key)

    def flush(self) -> None:
        self._view().clear()

    def hold(self, key, value) -> None:
        self._view().set(key.decode() if isinstance(key, bytes) else key, value, expire=TTL_S)

    def expire(self, key) -> None:
        self._view().delete(key.decode() if isinstance(key, bytes) else key)


class DynamoFamily:
    """A DynamoDB table on moto's in-process emulator (the suite's fixture keeps it on): boto3 clients
    and tables of the code under test are made anew on it, and its table is made with the hash key
    the module's items use."""

    name = "DynamoDB"
    prepare = RedisFamily.prepare

    def __init__(self, boto3) -> None:
        self.boto3 = boto3
        self.client = boto3.client("dynamodb")
        self.table_name, self.key_name = "locks", "pk"

    def point(self, module: types.ModuleType) -> None:
        import re

        from botocore.client import BaseClient

        source = inspect.getsource(module)
        found = re.search(r'Key=\{"(\w+)"', source)
        self.key_name = found.group(1) if found else "pk"
        named = re.search(r'(?:TableName=|Table\()"(\w+)"', source)
        self.table_name = named.group(1) if named else "locks"
        self._new_table()
        for name, value in list(vars(module).items()):
            if isinstance(value, BaseClient):
                setattr(module, name, self.boto3.client("dynamodb"))
            elif type(value).__name__ == "dynamodb.Table":
                setattr(module, name, self.boto3.resource("dynamodb").Table(value.name))

    def _new_table(self) -> None:
        if self.table_name in self.client.list_tables()["TableNames"]:
            self.client.delete_table(TableName=self.table_name)
        self.client.create_table(
            TableName=self.table_name,
            KeySchema=[{"AttributeName": self.key_name, "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": self.key_name, "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )

    def argument(self, is_async: bool):
        return self.boto3.client("dynamodb")

    def close(self, loop) -> None:
        pass

    def _items(self) -> list:
        if self.table_name not in self.client.list_tables()["TableNames"]:
            return []
        return self.client.scan(TableName=self.table_name)["Items"]

    def keys(self) -> set:
        items = self._items()
        if items and self.key_name not in items[0]:
            # A table an earlier module made with another hash key: read its key from the table.
            schema = self.client.describe_table(TableName=self.table_name)["Table"]["KeySchema"]
            self.key_name = schema[0]["AttributeName"]
        return {item[self.key_name]["S"] for item in items}

    def get(self, key):
        item = self.client.get_item(TableName=self.table_name, Key={self.key_name: {"S": key}}).get("Item")
        return None if item is None else tuple(sorted((k, tuple(v.items())) for k, v in item.items()))

    def flush(self) -> None:
        for key in self.keys():
            self.expire(key)

    def hold(self, key, value) -> None:
        owner = value.decode() if isinstance(value, bytes) else value
        far = str(int(real_time.time()) + 3600)
        self.client.put_item(
            TableName=self.table_name,
            Item={self.key_name: {"S": key}, "owner": {"S": owner}, "expires_at": {"N": far}},
        )

    def expire(self, key) -> None:
        self.client.delete_item(TableName=self.table_name, Key={self.key_name: {"S": key}})


class EtcdFamily:
    """An etcd for python-etcd3 clients."""

    name = "etcd"

    @staticmethod
    def prepare() -> None:
        from conftest import require_etcd3

        require_etcd3()  # python-etcd3 imports only so under protobuf >= 4

    def __init__(self, server: tuple[str, int]) -> None:
        import etcd3

        self.etcd3 = etcd3
        self.server = server
        self.client = etcd3.client(host=server[0], port=server[1], timeout=10)

    def point(self, module: types.ModuleType) -> None:
        host, port = self.server
        maker = lambda *a, **k: self.etcd3.client(host=host, port=port, timeout=10)  # noqa: E731
        for name, value in list(vars(module).items()):
            if value is self.etcd3:
                setattr(module, name, _namespace(self.etcd3, client=maker))
            elif isinstance(value, self.etcd3.Etcd3Client):
                setattr(module, name, maker())

    def argument(self, is_async: bool):
        return self.etcd3.client(host=self.server[0], port=self.server[1], timeout=10)

    def lease(self):
        return self.client.lease(TTL_S)

    def close(self, loop) -> None:
        self.client.close()

    def keys(self) -> set:
        return {meta.key for _, meta in self.client.get_all()}

    def get(self, key):
        return self.client.get(key)[0]

    def flush(self) -> None:
        for key in self.keys():
            self.client.delete(key)

    def hold(self, key, value) -> None:
        self.client.put(key, value, lease=self.lease())

    def expire(self, key) -> None:
        self.client.delete(key)  # its lease ran out: the key is gone


class MongoFamily:
    """MongoDB on mongomock (an in-memory emulator, one store per family) for pymongo clients: the
    module's clients, databases and collections are made anew on it. Another worker's claim is a
    document with its `_id`, an owner, and lifetimes far ahead under the names lock documents use."""

    name = "MongoDB"
    prepare = RedisFamily.prepare
    LIFETIMES = ("expires", "expires_at", "expire_at", "locked_until", "taken_at", "timestamp")

    def __init__(self, _server=None) -> None:
        import mongomock
        import pymongo

        self.mongomock, self.pymongo = mongomock, pymongo
        self.store = mongomock.store.ServerStore()
        self.seen: list = []  # (database, collection) names the module uses

    def make(self, *args, **kwargs):
        return self.mongomock.MongoClient(_store=self.store)

    def point(self, module: types.ModuleType) -> None:
        from pymongo.collection import Collection
        from pymongo.database import Database

        for name, value in list(vars(module).items()):
            if value is self.pymongo:
                setattr(module, name, _namespace(self.pymongo, MongoClient=self.make))
            elif value is self.pymongo.MongoClient:
                setattr(module, name, self.make)
            elif isinstance(value, self.pymongo.MongoClient):
                setattr(module, name, self.make())
            elif isinstance(value, Collection):
                self.seen.append((value.database.name, value.name))
                setattr(module, name, self.make()[value.database.name][value.name])
            elif isinstance(value, Database):
                setattr(module, name, self.make()[value.name])

    def argument(self, is_async: bool):
        return self.make()["test"]["locks"]

    def close(self, loop) -> None:
        pass

    def _collections(self):
        client = self.make()
        for db in client.list_database_names():
            for name in client[db].list_collection_names():
                yield client[db][name]

    def _target(self):
        client = self.make()
        found = list(self._collections())
        if found:
            return found[0]
        db, name = self.seen[0] if self.seen else ("test", "locks")
        return client[db][name]

    def keys(self) -> set:
        return {doc["_id"] for coll in self._collections() for doc in coll.find({})}

    def get(self, key):
        for coll in self._collections():
            doc = coll.find_one({"_id": key})
            if doc is not None:
                return tuple(sorted((k, repr(v)) for k, v in doc.items()))
        return None

    def flush(self) -> None:
        for coll in self._collections():
            coll.delete_many({})

    def hold(self, key, value) -> None:
        import datetime

        far = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) + datetime.timedelta(days=1)
        owner = value.decode() if isinstance(value, bytes) else value
        self._target().insert_one({"_id": key, "owner": owner, **{name: far for name in self.LIFETIMES}})

    def expire(self, key) -> None:
        for coll in self._collections():
            coll.delete_one({"_id": key})


class _ServerFamily:
    """A store family whose clients a module makes with `library.<maker>(...)`: the library, the maker
    and the clients the module made are pointed at the test's server."""

    prepare = RedisFamily.prepare
    maker = ""

    def __init__(self, library, server: tuple[str, int]) -> None:
        self.library = library
        self.server = server
        self.client = self.make()

    def make(self, *args, **kwargs):
        return getattr(self.library, self.maker)(host=self.server[0], port=self.server[1])

    def is_client(self, value) -> bool:
        raise NotImplementedError

    def point(self, module: types.ModuleType) -> None:
        for name, value in list(vars(module).items()):
            if value is self.library:
                setattr(module, name, _namespace(self.library, **{self.maker: self.make}))
            elif value is getattr(self.library, self.maker):
                setattr(module, name, self.make)
            elif self.is_client(value):
                setattr(module, name, self.make())

    def argument(self, is_async: bool):
        return self.make()

    def close(self, loop) -> None:
        pass

    def flush(self) -> None:
        for key in self.keys():
            self.expire(key)

    def keys(self) -> set:
        raise NotImplementedError

    def expire(self, key) -> None:
        raise NotImplementedError


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


class Etcd2Family(_ServerFamily):
    """The same etcd through its v2 API (the test server runs with `--enable-v2`), for python-etcd."""

    name = "etcd v2"
    maker = "Client"

    def __init__(self, server: tuple[str, int]) -> None:
        import etcd

        super().__init__(etcd, server)

    def is_client(self, value) -> bool:
        return isinstance(value, self.library.Client)

    def keys(self) -> set:
        try:
            found = self.client.read("/", recursive=True)
        except self.library.EtcdKeyNotFound:
            return set()
        return {leaf.key for leaf in found.leaves if not leaf.dir and leaf.key != "/"}

    def get(self, key):
        try:
            return self.client.read(key).value
        except self.library.EtcdKeyNotFound:
            return None

    def hold(self, key, value) -> None:
        self.client.write(key, _text(value), ttl=TTL_S)

    def expire(self, key) -> None:
        try:
            self.client.delete(key)
        except self.library.EtcdKeyNotFound:
            pass


class Etcd3gwFamily(_ServerFamily):
    """The same etcd through its gRPC gateway (`/v3/`), for etcd3gw clients."""

    name = "etcd3gw"
    maker = "client"

    def __init__(self, server: tuple[str, int]) -> None:
        import etcd3gw

        super().__init__(etcd3gw, server)

    def is_client(self, value) -> bool:
        return type(value).__name__ == "Etcd3Client" and type(value).__module__.startswith("etcd3gw")

    def keys(self) -> set:
        return {meta["key"] for _, meta in self.client.get_all()}

    def get(self, key):
        found = self.client.get(_text(key))
        return found[0] if found else None

    def hold(self, key, value) -> None:
        self.client.put(_text(key), _text(value), lease=self.client.lease(TTL_S))

    def expire(self, key) -> None:
        self.client.delete(_text(key))


class _Sleeps:
    """`time` and `asyncio` as the module sees them: `sleep` counts, and gives up when a claim spins."""

    def __init__(self) -> None:
        self.count = 0
        self.time = types.SimpleNamespace(**{k: getattr(real_time, k) for k in dir(real_time) if not k.startswith("__")})
        self.time.sleep = self.sleep
        self.asyncio = types.SimpleNamespace(**{k: getattr(asyncio, k) for k in dir(asyncio) if not k.startswith("__")})
        self.asyncio.sleep = self.async_sleep

    def sleep(self, seconds: float = 0) -> None:
        self.count += 1
        if self.count > SLEEPS_BEFORE_GIVING_UP:
            raise Blocked()
        real_time.sleep(0)  # no time passes: a claim that retries until a deadline is Blocked, every run

    async def async_sleep(self, seconds: float = 0, *args) -> None:
        self.count += 1
        if self.count > SLEEPS_BEFORE_GIVING_UP:
            raise Blocked()
        await asyncio.sleep(0)


class Stub:
    """A name the module calls and does not define: it runs the scenario's hook (awaitable in async code)."""

    def __init__(self, world: "World", name: str) -> None:
        self.world, self.name = world, name

    def __getattr__(self, name: str) -> "Stub":
        if name.startswith("__"):
            raise AttributeError(name)
        return Stub(self.world, name)

    def __call__(self, *args, **kwargs):
        if self.name in ("make_token", "new_token", "token"):
            return secrets.token_hex(8)
        if self.name in ("already_synced", "is_done"):
            return False
        if self.name == "sleep":
            return self.world.sleeps.async_sleep() if self.world.is_async else self.world.sleeps.sleep()
        handed = next((a for a in args if callable(a) and not isinstance(a, Stub)), None)
        if handed is not None:
            return handed()  # `retry(attempt)`, `run_in_executor(fn)`: the project's helper runs it
        if self.world.is_async:
            return self.world.async_hook(self.name)
        return self.world.hook(self.name)


class World:
    """One module under test, loaded fresh, with its hooks, on one store family's test server."""

    def __init__(self, module: types.ModuleType, family, is_async: bool) -> None:
        self.module, self.store, self.is_async = module, family, is_async
        self.store.flush()
        self.sleeps = _Sleeps()
        self.during: list[Callable] = []  # what the next `work()` does
        self.calls: list[str] = []
        self.tokens: dict[str, str] = {}
        self.loop = asyncio.new_event_loop() if is_async else None
        self._point_at_server()

    def _point_at_server(self) -> None:
        module = self.module
        self.store.point(module)
        for name, value in list(vars(module).items()):
            if value is real_time:
                setattr(module, name, self.sleeps.time)
            elif value is asyncio:
                setattr(module, name, self.sleeps.asyncio)
            elif value is real_time.sleep:
                setattr(module, name, self.sleeps.sleep)
        stubs = {name for name, value in vars(module).items() if isinstance(value, Stub)}
        for name in _free_names(module) | stubs:
            setattr(module, name, Stub(self, name))

    def token(self, who: str):
        token = self.tokens.setdefault(who, f"{who}-{secrets.token_hex(8)}")
        return token.encode() if getattr(self.store, "bytes_tokens", False) else token

    def test_client(self):
        """A client for the code under test to be handed (an argument named for a client)."""
        return self.store.argument(self.is_async)

    # hooks
    def hook(self, name: str) -> None:
        self.calls.append(name)
        if self.during:
            self.during.pop(0)()

    async def async_hook(self, name: str) -> None:
        self.calls.append(name)
        if self.during:
            result = self.during.pop(0)()
            if inspect.isawaitable(result):
                await result

    def run(self, value):
        """The value, awaited when the module's code handed back a coroutine."""
        if inspect.isawaitable(value):
            return self.loop.run_until_complete(value)
        return value

    def close(self) -> None:
        self.store.close(self.loop)
        if self.loop is not None:
            self.loop.close()


def _free_names(module: types.ModuleType) -> set[str]:
    """Names the module's code reads that nothing binds: calls to the project's own code."""
    import ast

    tree = ast.parse(inspect.getsource(module))
    bound = set(vars(module)) | set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    return {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound
    }


# Arguments made from parameter names -----------------------------------------------------------

CLIENT_WORDS = ("client", "redis", "conn", "connection", "store", "backend", "cache", "rds")
TTL_WORDS = ("ttl", "timeout", "expire", "expiry", "lifetime", "duration", "seconds", "lease_time")
CALLABLE_WORDS = ("work", "fn", "func", "callback", "target", "body", "handler", "task_fn")
IDENTITY_WORDS = ("owner", "identity", "instance_id", "worker", "holder", "worker_id", "node")


def arguments(function: Callable, world: World, who: str, name: str = "nightly") -> tuple[list, dict]:
    """Arguments for `function`'s required parameters, from their names; `who` tells workers apart
    (each worker passes the same token and identity to every call)."""
    args: list = []
    for parameter in list(inspect.signature(function).parameters.values()):
        if parameter.default is not inspect.Parameter.empty or parameter.kind in (
            inspect.Parameter.VAR_POSITIONAL,
            inspect.Parameter.VAR_KEYWORD,
        ):
            continue
        made = _of_module_class(parameter.annotation, world, who, name)
        args.append(made if made is not None else _argument(parameter.name.lower(), world, who, name))
    return args, {}


def _of_module_class(annotation, world: World, who: str, name: str):
    """An object of the module's own class a parameter is annotated with (`settings: WorkerSettings`),
    made with the arguments its constructor asks for."""
    if not isinstance(annotation, type) or annotation.__module__ != world.module.__name__:
        return None
    args, kwargs = arguments(annotation, world, who, name)
    return annotation(*args, **kwargs)


def _argument(word: str, world: World, who: str, name: str):
    if word in ("db", "database", "storage", "repo"):
        return Stub(world, word)
    if word in ("r", "mc") or any(part in word for part in CLIENT_WORDS):
        return world.test_client()
    if word.endswith("_ms") or word in ("ms", "px", "ttl_ms", "timeout_ms"):
        return TTL_MS
    if any(part in word for part in TTL_WORDS) or word in ("ex", "ttl"):
        return TTL_S
    if word in CALLABLE_WORDS:
        return Stub(world, word)
    if word in ("token", "identifier"):
        return world.token(who)
    if word in IDENTITY_WORDS:
        return f"worker-{who}"
    if word == "now":
        return int(real_time.time())
    if word == "lease" and hasattr(world.store, "lease"):
        return world.store.lease()
    if word in ("key", "lock_key", "lock_name"):
        return f"lock:{name}"
    return name


# Observations --------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one step gave: its result (or exception type) and which keys exist afterwards."""

    step: str
    result: Any
    keys: tuple
    # The result before a stored value in it was replaced by "<the stored value>".
    raw: Any = None

    def same_as(self, other: "Outcome", answers_token: bool = False) -> bool:
        """`answers_token`: a claim function the fix made answer its token (a function pair)."""
        if self.step != other.step:
            return False
        if not _same(self.result, other.result) and not (answers_token and _claim_answers_token(self, other)):
            return False
        if self.step == CONTENDED:
            # The original may free the other worker's claim (the bug); the fix keeps it.
            return set(self.keys) <= set(other.keys)
        return self.keys == other.keys


def _claim_answers_token(before: Outcome, after: Outcome) -> bool:
    """A claim function fixed to answer its token: the token where it answered True, None where it
    answered False or None (callers that test the answer read the same)."""
    if " claims" not in before.step:
        return False
    if before.result is True:
        return after.result == "<the stored value>"
    return before.result in (False, None) and after.result is None


def _same(a, b) -> bool:
    if isinstance(a, (bytes, str)) and isinstance(b, type(a)) and a != b:
        # A readable value kept as the prefix of a composite one (`owner` -> `owner:<token>`).
        return b.startswith(a + (b":" if isinstance(a, bytes) else ":"))
    return a == b


@dataclass
class Scenarios:
    ordinary: list[Outcome] = field(default_factory=list)
    # The overlap: did B's claim survive A's release?
    b_kept: bool | None = None
    overlap_note: str = ""
    # The value a worker stores is the same at each of its claims and differs from another
    # worker's: an identity (an owner), which callers read back and a fix must keep readable.
    identity: bool = False


def _result(value) -> Any:
    if isinstance(value, BaseException):
        return f"raises {type(value).__name__}"
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_result(v) for v in value)
    return f"<{type(value).__name__}>"


class Driver:
    """Runs the scenarios on one module."""

    def __init__(self, world: World, api: Api) -> None:
        self.world, self.api = world, api
        self.outcomes: list[Outcome] = []
        self.tokens: set = set()

    def keys(self) -> tuple:
        return tuple(sorted(self.world.store.keys()))

    def step(self, label: str, call: Callable[[], Any]) -> Any:
        self.world.sleeps.count = 0
        try:
            value = self.world.run(call())
        except Blocked:
            value = Blocked()
        except Exception as exc:  # the API's own exceptions are outcomes
            value = exc
        result = raw = _result(value)
        if isinstance(result, (str, bytes)) and result in self._stored():
            result = "<the stored value>"
        self.outcomes.append(Outcome(label, result, self.keys(), raw))
        return value

    def values(self) -> dict:
        return {key: self.world.store.get(key) for key in self.world.store.keys()}

    def _stored(self) -> set:
        stored = set(self.tokens)
        for key in self.world.store.keys():
            try:
                value = self.world.store.get(key)
            except Exception:  # not a plain value (a hash, a list)
                continue
            if isinstance(value, bytes):
                stored |= {value, value.decode(errors="replace")}
            elif isinstance(value, str):
                stored |= {value, value.encode()}
        self.tokens = stored
        return stored


def run_scenarios(world_for: Callable[[], World], api: Api) -> Scenarios:
    if api.kind in ("class", "pair"):
        return _class_scenarios(world_for, api)
    if api.kind == "release":
        return _release_scenarios(world_for, api)
    return _function_scenarios(world_for, api)


class _Worker:
    """A worker of a function pair: it calls the module's claim and release functions."""

    def __init__(self, who: str) -> None:
        self._fix_check_who = who


def _instance(world: World, api: Api, who: str):
    if api.kind == "pair":
        return _Worker(who)
    cls = getattr(world.module, api.name)
    # A base class whose factory method its subclasses write (`connect()`): drive the module's last one.
    subclasses = [c for c in vars(world.module).values() if isinstance(c, type) and c is not cls and issubclass(c, cls)]
    cls = subclasses[-1] if subclasses else cls
    args, kwargs = arguments(cls, world, who)
    made = cls(*args, **kwargs)
    try:
        made._fix_check_who = who
    except AttributeError:  # __slots__
        pass
    return made


def _readers(cls, api: Api) -> list[str]:
    """Methods that take nothing and, by the lease model, neither claim, release nor write: what the
    API reads back (`holder()`, `locked()`)."""
    names = []
    for name, member in vars(cls).items():
        if name.startswith("_") or name in api.writers or not callable(member):
            continue
        try:
            required = [
                p
                for p in list(inspect.signature(member).parameters.values())[1:]
                if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            ]
        except (TypeError, ValueError):
            continue
        if not required:
            names.append(name)
    return sorted(names)


def _class_scenarios(world_for: Callable[[], World], api: Api) -> Scenarios:
    scenarios = Scenarios()
    world = world_for()
    try:
        drive = Driver(world, api)
        a, b = _instance(world, api, "a"), _instance(world, api, "b")
        readers = _readers(type(a), api) if api.kind == "class" else []
        def method_of(obj, name):
            return getattr(world.module if api.kind == "pair" else obj, name)

        def claim(obj):
            method = method_of(obj, api.claim)
            args, kwargs = arguments(method, world, obj._fix_check_who)
            return method(*args, **kwargs)

        def release(obj):
            method = method_of(obj, api.release)
            args, kwargs = arguments(method, world, obj._fix_check_who)
            if api.kind == "pair" and _takes_token(method) and not _takes_token(method_of(obj, api.claim)):
                # The fixed pair: the claim answers the token the release takes.
                args[-1] = answers.get(obj._fix_check_who)
            return method(*args, **kwargs)

        answers: dict = {}

        def claim(obj, claim=claim):
            answer = world.run(claim(obj))
            if answer:  # a caller keeps the token it holds when a second claim fails
                answers[obj._fix_check_who] = answer
            return answer

        read = lambda: [drive.step(f"a.{r}()", lambda r=r: getattr(a, r)()) for r in readers]  # noqa: E731
        drive.step("a releases before claiming", lambda: release(a))
        read()
        drive.step("a claims", lambda: claim(a))
        a_stored = drive.values()
        read()
        drive.step("b claims while a holds", lambda: claim(b))
        drive.step("a claims again while holding", lambda: claim(a))
        drive.step("a releases", lambda: release(a))
        read()
        drive.step("a releases again", lambda: release(a))
        drive.step("b claims", lambda: claim(b))
        b_stored = drive.values()
        drive.step("b releases", lambda: release(b))
        drive.step("a claims a third time", lambda: claim(a))
        scenarios.identity = bool(a_stored) and a_stored == drive.values() and a_stored != b_stored
        drive.step("a releases a third time", lambda: release(a))
        if hasattr(a, "__enter__") or hasattr(a, "__aenter__"):
            for turn in ("first", "second"):
                drive.step(f"with a ({turn})", lambda: _enter_exit(world, a))
        scenarios.ordinary = drive.outcomes

        # The overlap: A's deadline passes, B claims, A releases.
        world.store.flush()
        a, b = _instance(world, api, "a"), _instance(world, api, "b")
        before = set(world.store.keys())
        if not world.run(claim(a)) and not (set(world.store.keys()) - before):
            scenarios.overlap_note = "a's claim failed on an empty store"
            return scenarios
        keys = set(world.store.keys()) - before
        _expire_now(world, keys)
        if not world.run(claim(b)) and not (set(world.store.keys()) & keys):
            scenarios.overlap_note = "b's claim failed after a's deadline"
            return scenarios
        held = {k: world.store.get(k) for k in keys}
        try:
            world.run(release(a))
        except Exception:
            pass
        scenarios.b_kept = all(world.store.get(k) == v for k, v in held.items())
    finally:
        world.close()
    return scenarios


def _release_scenarios(world_for: Callable[[], World], api: Api) -> Scenarios:
    """A release on its own, handed the key and the token: of a key it holds, a key another worker
    holds, a key that is gone."""
    scenarios = Scenarios()
    world = world_for()
    try:
        drive = Driver(world, api)
        key = "lock:nightly"
        world.store.hold(key, world.token("a"))
        drive.step("a releases what it holds", lambda: _call(world, api, "a"))
        world.store.hold(key, b"worker-other")
        drive.step(CONTENDED, lambda: _call(world, api, "a"))
        scenarios.b_kept = world.store.get(key) == b"worker-other"
        world.store.flush()
        drive.step("a releases what is gone", lambda: _call(world, api, "a"))
        scenarios.ordinary = drive.outcomes
    finally:
        world.close()
    return scenarios


def _takes_token(function) -> bool:
    return "token" in inspect.signature(function).parameters


def _enter_exit(world: World, obj):
    if hasattr(obj, "__aenter__"):

        async def use():
            async with obj:
                pass

        return use()
    with obj:
        pass
    return None


def _expire_now(world: World, keys) -> None:
    for key in keys:
        world.store.expire(key)


def _entry(world: World, api: Api, who: str):
    target = getattr(world.module, api.name)
    if api.method:
        target = getattr(_instance(world, api, who), api.method)
    return target


def _function_scenarios(world_for: Callable[[], World], api: Api) -> Scenarios:
    scenarios = Scenarios()
    world = world_for()
    try:
        drive = Driver(world, api)
        call = lambda who: (lambda: _call(world, api, who))  # noqa: E731
        drive.step("a runs", call("a"))
        world.store.flush()  # what a run leaves has expired before the next
        drive.step("a runs again", call("a"))
        world.store.flush()

        def raises():
            raise RuntimeError("job failed")

        world.during = [raises]
        drive.step("a's job raises", call("a"))
        world.during = []
        world.store.flush()
        # Contended: another worker holds what a run claims (when a run claims anything).
        claimed = _claimed_keys(world, api)
        for key in claimed:
            world.store.hold(key, b"worker-other")
        if claimed:
            drive.step(CONTENDED, call("a"))
        scenarios.ordinary = drive.outcomes
        scenarios.b_kept, scenarios.overlap_note = _function_overlap(world, api)
    finally:
        world.close()
    return scenarios


def _claimed_keys(world: World, api: Api) -> set:
    """The keys one run claims: seen from inside its job."""
    seen: set = set()
    world.store.flush()
    world.during = [lambda: seen.update(world.store.keys())]
    world.calls = []
    try:
        world.run(_call(world, api, "a"))
    except Exception:
        pass
    world.during = []
    world.store.flush()
    return seen


def _job_calls(world: World, api: Api) -> int:
    """How many calls of the project's code one run makes (the overlap comes at the last)."""
    _claimed_keys(world, api)
    return len(world.calls)


def _call(world: World, api: Api, who: str):
    target = _entry(world, api, who)
    args, kwargs = arguments(target, world, who)
    return target(*args, **kwargs)


def _function_overlap(world: World, api: Api) -> tuple[bool | None, str]:
    """A's job outlives A's deadline and B claims, through the same function, in another thread (or
    task); A's release comes while B's job runs."""
    calls = _job_calls(world, api)
    if calls == 0:
        return None, "a's run calls nothing while it holds the lease"
    world.store.flush()
    before = set(world.store.keys())
    seen: dict = {}
    b_holds = threading.Event()
    b_may_finish = threading.Event()

    def b_job():
        seen["b"] = {k: world.store.get(k) for k in seen["keys"]}
        b_holds.set()
        b_may_finish.wait(5)

    async def b_job_async():
        seen["b"] = {k: world.store.get(k) for k in seen["keys"]}
        b_holds.set()
        while not b_may_finish.is_set():
            await asyncio.sleep(0.001)

    def a_job():
        seen["keys"] = set(world.store.keys()) - before
        _expire_now(world, seen["keys"])
        thread = threading.Thread(target=lambda: _run_b(world, api, b_job, seen), daemon=True)
        seen["thread"] = thread
        thread.start()
        b_holds.wait(5)

    async def a_job_async():
        seen["keys"] = set(world.store.keys()) - before
        _expire_now(world, seen["keys"])
        world.during = [b_job_async]
        seen["task"] = asyncio.ensure_future(_call(world, api, "b"))
        while not b_holds.is_set() and not seen["task"].done():
            await asyncio.sleep(0.001)

    world.during = [lambda: None] * (calls - 1) + [a_job_async if world.is_async else a_job]
    try:
        world.run(_call(world, api, "a"))
    except Exception as exc:
        seen.setdefault("a_error", exc)
    if "keys" not in seen:
        return None, "a's job never ran"
    if not b_holds.is_set():
        b_may_finish.set()
        return None, "b's claim failed after a's deadline"
    kept = all(world.store.get(k) == v for k, v in seen["b"].items())
    b_may_finish.set()
    if "thread" in seen:
        seen["thread"].join(5)
    if "task" in seen:
        try:
            world.loop.run_until_complete(seen["task"])
        except Exception:
            pass
    return kept, ""


def _run_b(world: World, api: Api, job, seen) -> None:
    world.during = [job]
    try:
        _call(world, api, "b")
    except Exception as exc:
        seen["b_error"] = exc
