"""The generated trees: (c), lease-dense modules in many shapes; (d), a project whose leases go
through helper modules."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

# --------------------------------------------------------------------------------------------
# The lease-dense tree: every file claims and releases, in many shapes and names.

NOUNS = ["job", "report", "invoice", "feed", "account", "export", "batch", "index", "mailer", "billing", "sync",
         "crawler", "payout", "thumbnail", "ledger", "webhook", "digest", "backup", "import", "quota"]
VERBS = ["run", "process", "refresh", "rebuild", "settle", "send", "import", "render", "collect", "purge", "compact"]
ARGS = ["job", "name", "job_id", "account", "feed", "item", "task_id", "user_id", "slug", "key_part"]
WORK = ["work", "do_work", "process_item", "handle", "rebuild_index", "send_batch", "fetch", "compute", "post"]
SYNC_CLIENTS = ["r", "redis_client", "rdb", "conn", "client", "rds", "store", "lock_store"]
ASYNC_CLIENTS = ["ar", "aredis", "async_redis", "redis"]
PYMC_CLIENTS = ["mc", "memcached", "mc_client", "memcache"]
MEMCACHE_CLIENTS = ["mcache", "legacy_mc", "mc2", "shared_mc"]
CLASS_WORDS = ["Lock", "Lease", "Mutex", "Guard", "Claim", "Semaphore"]


class Names:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()
        self.sync = rng.choice(SYNC_CLIENTS)
        self.aio = rng.choice(ASYNC_CLIENTS)
        self.pymc = rng.choice(PYMC_CLIENTS)
        self.memcache = rng.choice(MEMCACHE_CLIENTS)
        self.imports: set[str] = set()
        self.setup: dict[str, str] = {}

    def unique(self, base: str) -> str:
        name, n = base, 2
        while name in self.used:
            name, n = f"{base}_{n}", n + 1
        self.used.add(name)
        return name

    def fn(self) -> str:
        return self.unique(f"{self.rng.choice(VERBS)}_{self.rng.choice(NOUNS)}")

    def cls(self) -> str:
        return self.unique(self.rng.choice(NOUNS).title() + self.rng.choice(CLASS_WORDS))

    def arg(self) -> str:
        return self.rng.choice(ARGS)

    def work(self) -> str:
        return self.rng.choice(WORK)

    def prefix(self) -> str:
        return f"{self.rng.choice(['lock', 'lease', 'mutex', 'busy', 'claim'])}:{self.rng.choice(NOUNS)}"

    def key(self, arg: str) -> str:
        p = self.prefix()
        return self.rng.choice([f'f"{p}:{{{arg}}}"', f'"{p}:%s" % {arg}', f'"{p}:{{}}".format({arg})', f'"{p}:" + str({arg})'])

    def ttl(self, ms: bool | None = None) -> str:
        seconds = self.rng.choice([5, 10, 30, 60, 120, 300, 900])
        if ms if ms is not None else self.rng.random() < 0.4:
            return f"px={seconds * 1000}"
        return f"ex={seconds}"

    def redis(self) -> str:
        self.imports.add("import redis")
        self.setup["redis"] = f"{self.sync} = redis.Redis(host=\"localhost\", port=6379)"
        return self.sync

    def aioredis(self) -> str:
        self.imports.add("import redis.asyncio as aioredis")
        self.setup["aioredis"] = f"{self.aio} = aioredis.Redis()"
        return self.aio

    def pymemcache(self) -> str:
        self.imports.add("from pymemcache.client.base import Client")
        self.setup["pymemcache"] = f"{self.pymc} = Client((\"localhost\", 11211))"
        return self.pymc

    def memcache_client(self) -> str:
        self.imports.add("import memcache")
        self.setup["memcache"] = f"{self.memcache} = memcache.Client([\"127.0.0.1:11211\"])"
        return self.memcache


def _function(n: Names) -> str:  # LL001 and LL002: literal holder, blind delete
    r, a, f = n.redis(), n.arg(), n.fn()
    key = n.key(a)
    holder = n.rng.choice(['"1"', '"locked"', "os.getpid()", "socket.gethostname()"])
    if "os." in holder:
        n.imports.add("import os")
    if "socket." in holder:
        n.imports.add("import socket")
    return f"""
def {f}({a}):
    if {r}.set({key}, {holder}, nx=True, {n.ttl()}):
        try:
            {n.work()}({a})
        finally:
            {r}.delete({key})
"""


def _local_key(n: Names) -> str:  # LL001 with a token: safe fix; early return
    r, a, f = n.redis(), n.arg(), n.fn()
    n.imports.add("import secrets")
    release = n.rng.choice(["delete", "unlink"])
    return f"""
def {f}({a}):
    key = {n.key(a)}
    token = secrets.token_hex(16)
    if not {r}.set(key, token, nx=True, {n.ttl()}):
        return None
    try:
        return {n.work()}({a})
    finally:
        {r}.{release}(key)
"""


def _class_lock(n: Names) -> str:  # LL001 across methods, key through __init__
    c, attr = n.cls(), n.rng.choice(["redis", "client", "conn", "store"])
    n.imports.add("import redis")
    p = n.prefix()
    key = n.rng.choice([f'"{p}:%s" % name', f'f"{p}:{{name}}"', f'"{p}:" + name'])
    return f"""
class {c}:
    def __init__(self, client: redis.Redis, name: str):
        self.{attr} = client
        self.key = {key}

    def acquire(self):
        return self.{attr}.set(self.key, "1", nx=True, ex={n.rng.choice([10, 30, 60])})

    def release(self):
        self.{attr}.delete(self.key)
"""


def _context_manager(n: Names) -> str:  # LL001 in __exit__, token on self
    c = n.cls()
    n.imports.add("import secrets")
    p = n.prefix()
    return f"""
class {c}:
    def __init__(self, client, name):
        self.client = client
        self.name = name

    def __enter__(self):
        self.token = secrets.token_hex(16)
        if not self.client.set(f"{p}:{{self.name}}", self.token, nx=True, {n.ttl(True)}):
            raise RuntimeError("busy")
        return self

    def __exit__(self, *exc):
        self.client.delete("{p}:{{}}".format(self.name))
"""


def _helper_pair(n: Names) -> str:  # LL001: claim in one function, release in another
    r, noun = n.redis(), n.rng.choice(NOUNS)
    acquire, release = n.unique(f"acquire_{noun}_lock"), n.unique(f"release_{noun}_lock")
    return f"""
def {acquire}(name):
    return {r}.set("%s_{noun}_lock" % name, "1", nx=True, ex={n.rng.choice([30, 60, 600])})


def {release}(name):
    {r}.delete(f"{{name}}_{noun}_lock")
"""


def _async(n: Names) -> str:  # LL001 on an asyncio client
    r, a, f = n.aioredis(), n.arg(), n.fn()
    return f"""
async def {f}({a}):
    key = {n.key(a)}
    if not await {r}.set(key, "busy", nx=True, {n.ttl(True)}):
        return
    try:
        await {n.work()}({a})
    finally:
        await {r}.delete(key)
"""


def _pipeline(n: Names) -> str:  # LL001: SET NX PX as a command, delete queued on a pipeline
    r, a, f = n.redis(), n.arg(), n.fn()
    return f"""
def {f}({a}, token):
    key = "settle:" + {a}
    if {r}.execute_command("SET", key, token, "NX", "PX", {n.rng.choice([5000, 10_000, 60_000])}):
        try:
            {n.work()}({a})
        finally:
            pipe = {r}.pipeline()
            pipe.delete(key)
            pipe.incr("{n.rng.choice(NOUNS)}:done")
            pipe.execute()
"""


def _setnx_expire(n: Names) -> str:  # LL005 (deadline set apart) and LL001
    r, a, f = n.redis(), n.arg(), n.fn()
    return f"""
def {f}({a}, token):
    key = {n.key(a)}
    if {r}.setnx(key, token):
        {r}.expire(key, {n.rng.choice([10, 30, 60])})
        try:
            {n.work()}({a})
        finally:
            {r}.delete(key)
"""


def _check_then_delete(n: Names) -> str:  # LL004
    r, a, f = n.redis(), n.arg(), n.fn()
    return f"""
def {f}({a}, token):
    key = {n.key(a)}
    if not {r}.set(key, token, nx=True, {n.ttl()}):
        return
    try:
        {n.work()}({a})
    finally:
        if {r}.get(key) == token:
            {r}.delete(key)
"""


def _guessable(n: Names) -> str:  # LL003 and LL001
    r, a, f = n.redis(), n.arg(), n.fn()
    module, token = n.rng.choice([("time", "str(time.time())"), ("uuid", "uuid.uuid1().hex"), ("random", "str(random.random())")])
    n.imports.add(f"import {module}")
    return f"""
def {f}({a}):
    key = {n.key(a)}
    token = {token}
    if not {r}.set(key, token, nx=True, {n.ttl()}):
        return
    try:
        {n.work()}({a})
    finally:
        {r}.delete(key)
"""


RELEASE_SCRIPT = (
    "RELEASE = \"if redis.call('get', KEYS[1]) == ARGV[1] then "
    "return redis.call('del', KEYS[1]) end return 0\""
)


def _swallowed_eval(n: Names) -> str:  # LL006: the checked release's answer is dropped
    r, a, f = n.redis(), n.arg(), n.fn()
    n.setup["release"] = RELEASE_SCRIPT
    return f"""
def {f}({a}, token):
    key = {n.key(a)}
    if {r}.set(key, token, nx=True, {n.ttl()}):
        try:
            {n.work()}({a})
        finally:
            {r}.eval(RELEASE, 1, key, token)
"""


def _lock_object(n: Names) -> str:  # LL006: LockNotOwnedError swallowed
    r, a, f = n.redis(), n.arg(), n.fn()
    n.imports.add("from redis.exceptions import LockNotOwnedError")
    return f"""
def {f}({a}):
    lock = {r}.lock(f"{n.prefix()}:{{{a}}}", timeout={n.rng.choice([10, 30, 120])})
    if lock.acquire(blocking=False):
        try:
            {n.work()}({a})
        finally:
            try:
                lock.release()
            except LockNotOwnedError:
                pass
"""


def _django_cache(n: Names) -> str:  # LL001 (no compare-and-delete in the cache API), LL008 below 1 s
    n.imports.add("from django.core.cache import cache")
    a, f = n.arg(), n.fn()
    timeout = n.rng.choice(["60", "300", "timeout=30", "0.5"])
    return f"""
def {f}({a}, token):
    key = f"{n.prefix()}:{{{a}}}"
    if cache.add(key, token, {timeout}):
        try:
            {n.work()}({a})
        finally:
            cache.delete(key)
"""


def _pymemcache(n: Names) -> str:  # LL008 (noreply) and LL001
    mc, a, f = n.pymemcache(), n.arg(), n.fn()
    return f"""
def {f}({a}, token):
    key = {n.key(a)}
    if {mc}.add(key, token, expire={n.rng.choice([30, 60, 300])}):
        try:
            {n.work()}({a})
        finally:
            {mc}.delete(key)
"""


def _memcache(n: Names) -> str:  # python-memcached add/delete: LL001
    mc, a, f = n.memcache_client(), n.arg(), n.fn()
    return f"""
def {f}({a}, token):
    key = f"{n.prefix()}:{{{a}}}"
    if {mc}.add(key, token, time={n.rng.choice([30, 60, 300])}):
        try:
            {n.work()}({a})
        finally:
            {mc}.delete(key)
"""


def _token_beside(n: Names) -> str:  # LL007
    r, a, f = n.redis(), n.arg(), n.fn()
    return f"""
def {f}({a}, token):
    if {r}.set(f"claim:{{{a}}}", 1, nx=True, ex=30):
        {r}.set(f"claim:{{{a}}}:owner", token, ex=30)
        try:
            {n.work()}({a})
        finally:
            {r}.delete(f"claim:{{{a}}}", f"claim:{{{a}}}:owner")
"""


def _untested_claim(n: Names) -> str:  # LL008: the claim's answer is never read
    r, a, f = n.redis(), n.arg(), n.fn()
    key = n.key(a)
    return f"""
def {f}({a}, token):
    {r}.set({key}, token, nx=True, {n.ttl()})
    try:
        {n.work()}({a})
    finally:
        {r}.delete({key})
"""


def _safe(n: Names) -> str:  # no finding: token, checked release, logged loss
    r, a, f = n.redis(), n.arg(), n.fn()
    n.imports.update({"import secrets", "import logging"})
    n.setup["release"] = RELEASE_SCRIPT
    return f"""
def {f}({a}):
    key = {n.key(a)}
    token = secrets.token_hex(16)
    if not {r}.set(key, token, nx=True, {n.ttl()}):
        return False
    try:
        {n.work()}({a})
    finally:
        if not {r}.eval(RELEASE, 1, key, token):
            logging.getLogger(__name__).warning("lost %s", key)
    return True
"""


def _filler(n: Names) -> str:  # ordinary code between the leases
    f = n.fn()
    return f'''
def {f}(items, *, limit=100):
    """Return the first `limit` items that pass the filter, in order."""
    kept = []
    for position, item in enumerate(items):
        if position >= limit:
            break
        if item is not None and getattr(item, "active", True):
            kept.append({{"position": position, "value": item, "label": f"{{item!r:>10}}"}})
    return sorted(kept, key=lambda entry: (entry["position"], str(entry["value"])))
'''


SHAPES = [_function, _local_key, _class_lock, _context_manager, _helper_pair, _async, _pipeline, _setnx_expire,
          _check_then_delete, _guessable, _swallowed_eval, _lock_object, _django_cache, _pymemcache, _memcache,
          _token_beside, _untested_claim, _safe]


def lease_module(rng: random.Random) -> str:
    n = Names(rng)
    parts = [shape(n) for shape in rng.sample(SHAPES, rng.randint(3, 6))]
    parts.insert(rng.randint(0, len(parts)), _filler(n))
    header = f'"""Generated lease code for leaselint\'s benchmark ({len(parts)} blocks)."""\n'
    imports = "\n".join(sorted(n.imports))
    setup = "\n".join(n.setup[k] for k in sorted(n.setup))
    return f"{header}\n{imports}\n\n{setup}\n\n" + "\n".join(textwrap.dedent(p).strip() + "\n\n" for p in parts)


def lease_tree(work: Path, files: int, seed: int) -> Path:
    rng = random.Random(seed)
    root = work / "leases"
    for i in range(files):
        package = root / f"{rng.choice(NOUNS)}_{i // 100:02d}"
        package.mkdir(parents=True, exist_ok=True)
        (package / f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{i:05d}.py").write_text(lease_module(rng), encoding="utf-8")
    return root


# A project whose leases go through helper modules (the project pass): per package a client module,
# a helper module (claim, blind release, checked release), callers of the helpers, and ordinary modules.

HELPERS = """\
from .store import r

RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


def acquire_lock(name, token, ttl=30):
    return r.set(f"lock:{name}", token, nx=True, ex=ttl)


def drop_lock(name):
    r.delete(f"lock:{name}")


def release_lock(name, token):
    return r.eval(RELEASE, 1, f"lock:{name}", token)
"""

CALLERS = (
    # LL001 through the helper: blind release of a lease claimed through the helper
    """\
    def {f}({a}):
        token = secrets.token_hex(16)
        if acquire_lock({a}, token):
            try:
                {work}({a})
            finally:
                drop_lock({a})
    """,
    # LL006 at the call: the checked release's answer dropped
    """\
    def {f}({a}):
        token = secrets.token_hex(16)
        if not acquire_lock({a}, token):
            return False
        try:
            {work}({a})
        finally:
            release_lock({a}, token)
        return True
    """,
    # no finding: the answer is logged
    """\
    def {f}({a}):
        token = secrets.token_hex(16)
        if acquire_lock({a}, token):
            try:
                {work}({a})
            finally:
                if not release_lock({a}, token):
                    log.warning("lease %s lost", {a})
    """,
)


def helper_module(rng: random.Random) -> str:
    n = Names(rng)
    parts = [rng.choice(CALLERS).format(f=n.fn(), a=n.arg(), work=n.work()) for _ in range(rng.randint(1, 3))]
    parts.insert(rng.randint(0, len(parts)), _filler(n))
    head = "import logging\nimport secrets\n\nfrom .locks import acquire_lock, drop_lock, release_lock\n\nlog = logging.getLogger(__name__)\n"
    return head + "\n\n" + "\n".join(textwrap.dedent(p).strip() + "\n\n" for p in parts)


def plain_module(rng: random.Random) -> str:
    n = Names(rng)
    return "\n\n".join(textwrap.dedent(_filler(n)).strip() + "\n" for _ in range(rng.randint(2, 5)))


def helper_tree(work: Path, files: int, seed: int) -> Path:
    """`files` modules in packages named, as in (c), by a noun and the hundred of the module's number
    (so a package holds a few modules); each package has its client and helper module, and a quarter
    of the modules call the helpers. The files leaselint must parse (helpers and callers) are listed
    in `.floor-files` for the floor."""
    rng = random.Random(seed)
    root = work / "helpers"
    candidates = []
    for i in range(files):
        package = root / f"{rng.choice(NOUNS)}_{i // 100:02d}"
        if not package.exists():
            package.mkdir(parents=True)
            (package / "__init__.py").write_text("")
            (package / "store.py").write_text("import redis\n\nr = redis.Redis()\n")
            (package / "locks.py").write_text(HELPERS)
            candidates.append(package / "locks.py")
        path = package / f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{i:05d}.py"
        if rng.random() < 0.25:
            path.write_text(helper_module(rng), encoding="utf-8")
            candidates.append(path)
        else:
            path.write_text(plain_module(rng), encoding="utf-8")
    (root / ".floor-files").write_text("".join(f"{p.relative_to(root)}\n" for p in candidates))
    return root


def dense_module(rng: random.Random, size: int) -> str:
    """One lease-dense module of about `size` bytes: the shapes of (c) in turn, with a filler block
    after every fourth, under one header of imports and clients."""
    n = Names(rng)
    parts: list[str] = []
    total = 0
    while total < size:
        shape = _filler if len(parts) % 5 == 4 else rng.choice(SHAPES)
        part = textwrap.dedent(shape(n)).strip() + "\n\n\n"
        parts.append(part)
        total += len(part)
    header = f'"""Generated lease-dense module for leaselint\'s benchmark ({len(parts)} blocks)."""\n'
    imports = "\n".join(sorted(n.imports))
    setup = "\n".join(n.setup[k] for k in sorted(n.setup))
    return f"{header}\n{imports}\n\n{setup}\n\n\n" + "".join(parts).rstrip("\n") + "\n"
