#!/usr/bin/env python3
"""leaselint's speed beside Ruff, Fixit, Bandit, Semgrep and bare libcst parsing.

    python benchmarks/run.py [--runs N] [--only a,b,c] [--quick]

Not a test: it measures, prints one report (Markdown tables: seconds, ratios, the issue's
targets met or not, a findings-equality check) and exits 0 whatever the numbers are.
Every tool runs as a child process with its output thrown away; a time is the wall time
of that process, from start to exit. See benchmarks/README.md for what each row means.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import textwrap
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"  # downloads (gitignored)
BIN = Path(sys.executable).parent

TREES = {"a": "stdlib", "b": "django", "c": "leases", "d": "helpers"}
TOOLS = ("leaselint", "ruff", "fixit", "bandit", "semgrep", "floor", "check")


# --------------------------------------------------------------------------------------------
# Running a child and timing it


@dataclass
class Run:
    seconds: float
    cpu: float  # user + system seconds of the child and its reaped children
    maxrss_kb: int
    code: int
    stderr: str


def child_env(work: Path) -> dict[str, str]:
    """Children compile and keep bytecode, as an installed tool does, without writing into the repository.

    PYTHONDONTWRITEBYTECODE (set on some development machines) would make every run of an editable
    install compile its modules again; a bytecode folder inside the work folder avoids that.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env["NO_COLOR"] = "1"
    # Semgrep asks the network for a newer version unless told not to (a minute and more offline).
    env["SEMGREP_ENABLE_VERSION_CHECK"] = "0"
    env["SEMGREP_SEND_METRICS"] = "off"
    return env


ENV: dict[str, str] | None = None


def run_once(cmd: list[str], cwd: str | None = None) -> Run:
    """Wall time, CPU time, peak resident memory and exit code of one child process."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(cmd, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, process.returncode, stderr)


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


@dataclass
class Measure:
    tool: str
    tree: str
    runs: list[Run] = field(default_factory=list)
    note: str = ""
    failed: str = ""  # why there is no number

    @property
    def median(self) -> float | None:
        return statistics.median(r.seconds for r in self.runs) if self.runs and not self.failed else None

    @property
    def cpu(self) -> float | None:
        return statistics.median(r.cpu for r in self.runs) if self.runs and not self.failed else None


# A first run longer than this many seconds makes a measurement slow (--slow-runs), or slowest (--slowest-runs);
# one shorter than FAST makes it fast (--fast-runs: a second's worth of runs is cheap, and noise is largest there).
FAST, SLOW, SLOWEST = 1, 10, 45


class Bench:
    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args = args
        self.work = work
        self.results: dict[tuple[str, str], Measure] = {}
        self.skipped: list[str] = []

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def count_after(self, first: Run, fixed: int | None, at_least: int) -> int:
        """How many runs in all, decided by the first: --fast-runs under 1 s, --runs, --slow-runs over 10 s,
        --slowest-runs over 45 s."""
        if fixed is not None:
            return fixed
        if first.seconds > SLOWEST:
            return max(self.args.slowest_runs, at_least)
        if first.seconds > SLOW:
            return max(self.args.slow_runs, at_least)
        if first.seconds < FAST:
            return max(self.args.fast_runs, self.args.runs)
        return self.args.runs

    def measure(self, tool: str, tree: str, make_cmd, ok=(0, 1), cwd=None, prime=None, runs: int | None = None, at_least: int = 1) -> Measure:
        """Timed runs of `make_cmd(i)`, as many as the first run's duration calls for (and `at_least`);
        `prime()` once before."""
        m = Measure(tool, tree)
        self.results[(tool, tree)] = m
        if prime is not None:
            prime()
        total = 1
        i = 0
        while i < total:
            run = run_once(make_cmd(i), cwd=cwd)
            if run.code not in ok:
                m.failed = f"exit {run.code}: {run.stderr.strip()[-300:]}"
                self.say(f"  {tool} on {tree}: FAILED ({m.failed})")
                return m
            m.runs.append(run)
            if i == 0:
                total = max(1, self.count_after(run, runs, at_least))
            i += 1
        self._said(m)
        return m

    def measure_in_turns(self, tree: str, specs: list[dict], at_least: int = 1) -> list[Measure]:
        """Several measurements run in turns, one run of each per round, so that a change in the machine's
        speed touches each alike (their ratios are what the targets compare). A spec holds `tool` and
        `make_cmd`, and may hold `ok`, `cwd`, `prime`; the slowest first run decides the rounds (at
        least `at_least`)."""
        measures = []
        for spec in specs:
            measures.append(Measure(spec["tool"], tree))
            self.results[(spec["tool"], tree)] = measures[-1]
            if spec.get("prime") is not None:
                spec["prime"]()
        rounds, i = 1, 0
        while i < rounds:
            for spec, m in zip(specs, measures):
                if m.failed:
                    continue
                run = run_once(spec["make_cmd"](i), cwd=spec.get("cwd"))
                if run.code not in spec.get("ok", (0, 1)):
                    m.failed = f"exit {run.code}: {run.stderr.strip()[-300:]}"
                    self.say(f"  {m.tool} on {tree}: FAILED ({m.failed})")
                    continue
                m.runs.append(run)
            if i == 0:
                firsts = [m.runs[0] for m in measures if m.runs]
                rounds = max(1, self.count_after(max(firsts, key=lambda r: r.seconds), None, at_least)) if firsts else 1
            i += 1
        for m in measures:
            if m.runs and not m.failed:
                self._said(m)
        return measures

    def _said(self, m: Measure) -> None:
        times = ", ".join(f"{r.seconds:.2f}" for r in m.runs)
        self.say(
            f"  {m.tool:<26} {m.tree:<7} median {m.median:8.3f} s, cpu {m.cpu:8.2f} s, "
            f"max rss {max(r.maxrss_kb for r in m.runs) / 1024:6.1f} MiB  ({len(m.runs)} runs: {times}; load {load()})"
        )


# --------------------------------------------------------------------------------------------
# Tools


def tool_cmd(name: str) -> list[str] | None:
    """The console script of this interpreter's environment, else the one on PATH."""
    candidate = BIN / name
    if candidate.exists():
        return [str(candidate)]
    found = shutil.which(name)
    return [found] if found else None


def leaselint_cmd() -> tuple[list[str], str]:
    script = BIN / "leaselint"
    if script.exists():
        return [str(script)], f"the console script {script}"
    return [sys.executable, "-m", "leaselint"], f"{sys.executable} -m leaselint (no console script in {BIN})"


def version_of(cmd: list[str]) -> str:
    try:
        out = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=300, env=ENV)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"unavailable ({exc})"
    text = (out.stdout or out.stderr).strip().splitlines()
    if out.returncode != 0 or not text:
        return f"unavailable (exit {out.returncode})"
    return text[0].strip()


SEMGREP_RULE = """\
rules:
  - id: blind-lease-release
    languages: [python]
    severity: WARNING
    message: a key claimed with nx=True is released with a plain delete
    patterns:
      - pattern: $R.delete($K)
      - pattern-inside: |
          if $R.set($K, $V, nx=True, ...):
            ...
"""
FIXIT_RULE = "fixit.rules:NoRedundantFString"
BANDIT_TEST = "B101"


# --------------------------------------------------------------------------------------------
# Trees


def excluded_names() -> frozenset[str]:
    """The folder names leaselint and Ruff skip by default, so every tool sees the same files."""
    try:
        from leaselint.discover import DEFAULT_EXCLUDES

        return frozenset(DEFAULT_EXCLUDES)
    except ImportError:
        return frozenset({".git", "venv", ".venv", "__pycache__", "node_modules", "build", "dist", ".tox", ".nox", "site-packages"})


def python_files(root: Path) -> list[Path]:
    skip = excluded_names()
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip and not d.startswith("."))
        found.extend(Path(folder) / f for f in sorted(files) if f.endswith((".py", ".pyi")))
    return found


def copy_python_tree(source: Path, target: Path) -> None:
    """Only .py/.pyi files, without the folders leaselint and Ruff skip by default (site-packages, venv...)."""
    skip = excluded_names()

    def ignore(folder: str, names: list[str]) -> list[str]:
        return [
            n
            for n in names
            if n in skip
            or n.startswith(".")
            or (not os.path.isdir(os.path.join(folder, n)) and not n.endswith((".py", ".pyi")))
        ]

    shutil.copytree(source, target, ignore=ignore, symlinks=True)


def stdlib_tree(work: Path) -> Path:
    target = work / "stdlib"
    copy_python_tree(Path(sysconfig.get_paths()["stdlib"]), target)
    return target


def django_tree(work: Path, refresh: bool) -> tuple[Path, str]:
    folder = CACHE / "django"
    folder.mkdir(parents=True, exist_ok=True)
    archives = sorted(folder.glob("[Dd]jango-*"), key=lambda p: p.stat().st_mtime)
    if refresh or not archives:
        for old in archives:
            old.unlink()
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q", "django", "-d", str(folder)],
            check=True,
        )
        archives = sorted(folder.glob("[Dd]jango-*"), key=lambda p: p.stat().st_mtime)
    archive = archives[-1]
    unpacked = work / "django-unpacked"
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z:
            z.extractall(unpacked)
        root = unpacked / "django"
    else:
        with tarfile.open(archive) as t:
            t.extractall(unpacked, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(unpacked)
        root = next(p for p in unpacked.iterdir() if p.is_dir())
    target = work / "django"
    copy_python_tree(root, target)
    return target, archive.name


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


# --------------------------------------------------------------------------------------------
# The floor: bare libcst.parse_module over a tree, as a whole process like leaselint


def _parse_one(data: bytes) -> int:
    import libcst

    libcst.parse_module(data.decode("utf-8"))
    return 0


def _parse_with_positions(data: bytes) -> int:
    """A parse and libcst's own PositionProvider over the tree, as a libcst linter that reports
    positions pays for them (the tree is not copied: nothing changes it)."""
    import libcst
    from libcst.metadata import MetadataWrapper, PositionProvider

    MetadataWrapper(libcst.parse_module(data.decode("utf-8")), unsafe_skip_copy=True).resolve(PositionProvider)
    return 0


# The floors measured on (c): (row name, --floor-kind).
FLOORS = (("libcst floor", "parse"), ("libcst parse + PositionProvider", "positions"))


def floor_cmd(tree: str, jobs: int, kind: str = "parse"):
    """The command of a floor run, as `measure` takes it."""
    return lambda i: [sys.executable, __file__, "--floor", tree, "--floor-jobs", str(jobs), "--floor-kind", kind]


def floor_main(tree: str, jobs: int, kind: str = "parse") -> None:
    """Walk, read every file in this process, parse them in `jobs` processes (fork, like leaselint);
    with kind "positions", also resolve libcst's PositionProvider on each tree."""
    import libcst  # noqa: F401  (timed: leaselint imports it too)

    one = _parse_with_positions if kind == "positions" else _parse_one
    if kind == "positions":
        import libcst.metadata  # noqa: F401  (imported before the pool forks, as leaselint's model is)
    listed = Path(tree) / ".floor-files"
    if listed.exists():  # tree (d): the floor is the parse of the files leaselint must parse
        paths = [Path(tree) / line for line in listed.read_text().splitlines() if line]
    else:
        paths = python_files(Path(tree))
    datas = [path.read_bytes() for path in paths]
    if jobs <= 1:
        for data in datas:
            one(data)
        return
    context = multiprocessing.get_context("fork")
    chunk = max(1, len(datas) // (jobs * 32))  # chunks as leaselint's (CHUNKS_PER_WORKER)
    with context.Pool(jobs) as pool:
        for _ in pool.imap(one, datas, chunksize=chunk):
            pass


# --------------------------------------------------------------------------------------------
# Findings equality


def load_findings(path: Path) -> list[str]:
    """A JSON report as sorted canonical lines, one per finding (fixes included)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return sorted(json.dumps(item, sort_keys=True) for item in json.loads(text or "[]"))


# --------------------------------------------------------------------------------------------
# Machine


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "OS": f"{platform.system()} {platform.release()}",
        "Python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
    }


def leaselint_origin() -> str:
    """Where the measured leaselint comes from, with the commit when it is a git checkout."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", "import leaselint, os; print(os.path.dirname(leaselint.__file__))"],
            capture_output=True, text=True, env=ENV, timeout=60,
        )
        folder = out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not folder:
        return "unknown"
    git = subprocess.run(["git", "-C", folder, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if git.returncode != 0:
        return folder
    dirty = subprocess.run(["git", "-C", folder, "status", "--porcelain", "--", "."], capture_output=True, text=True).stdout.strip()
    return f"{folder} (git {git.stdout.strip()}{', with uncommitted changes' if dirty else ''})"


# --------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5, help="runs of a measurement whose first run takes up to 10 s (default 5)")
    p.add_argument("--fast-runs", type=int, default=15, help="runs of a measurement whose first run takes under 1 s (default 15)")
    p.add_argument("--slow-runs", type=int, default=3, help="runs of a measurement whose first run takes 10 to 45 s, and at least "
                   "this many of every slower leaselint and libcst-floor measurement, which the targets compare (default 3)")
    p.add_argument("--slowest-runs", type=int, default=1, help="runs of a measurement of another tool whose first run takes over 45 s (default 1)")
    p.add_argument("--fixit-runs", type=int, default=1, help="runs of every Fixit measurement (default 1: minutes per run)")
    p.add_argument("--files", type=int, default=2000, help="files in the lease-dense tree (c) (default 2000)")
    p.add_argument("--helper-files", type=int, default=5000, help="modules in the helper-module project tree (d) (default 5000)")
    p.add_argument("--seed", type=int, default=8, help="seed of the generated trees")
    p.add_argument(
        "--only",
        default="",
        help="comma-separated trees (a/stdlib, b/django, c/leases, d/helpers) and/or tools (leaselint, ruff, fixit, bandit, semgrep, "
        "floor, check); default: everything",
    )
    p.add_argument("--quick", action="store_true", help="a smoke run: 1 run each, 300 files in (c), no Fixit on (a)")
    p.add_argument("--work-dir", help="where the trees go (default: a new temporary folder, removed at the end); keep it outside a git repository")
    p.add_argument("--keep", action="store_true", help="keep the work folder")
    p.add_argument("--refresh-django", action="store_true", help="download Django again instead of using benchmarks/.cache")
    p.add_argument("--report", help="also write the report (Markdown) to this file")
    p.add_argument("--note", help="a line for the report's machine table (e.g. which leaselint commit is installed)")
    p.add_argument("--floor", help=argparse.SUPPRESS)
    p.add_argument("--floor-jobs", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument("--floor-kind", choices=[kind for _, kind in FLOORS], default="parse", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.runs = args.fast_runs = args.slow_runs = args.slowest_runs = args.fixit_runs = 1
        if args.files == 2000:
            args.files = 300
        if args.helper_files == 5000:
            args.helper_files = 500
    trees, tools = [], []
    for item in filter(None, (s.strip().lower() for s in args.only.split(","))):
        if item in TREES:
            trees.append(item)
        elif item in TREES.values():
            trees.append(next(k for k, v in TREES.items() if v == item))
        elif item in TOOLS:
            tools.append(item)
        else:
            p.error(f"--only: unknown item {item!r}; trees: a, b, c, d (stdlib, django, leases, helpers); tools: {', '.join(TOOLS)}")
    args.trees = sorted(set(trees)) or list(TREES)
    args.tools = tools or list(TOOLS)
    return args


def main(argv: list[str] | None = None) -> int:
    global ENV
    args = parse_args(argv)
    if args.floor:
        floor_main(args.floor, args.floor_jobs, args.floor_kind)
        return 0
    made = args.work_dir is None
    work = Path(args.work_dir or tempfile.mkdtemp(prefix="leaselint-bench-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    ENV = child_env(work)
    try:
        return Report(args, work).run()
    finally:
        if made and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif args.keep:
            print(f"work folder kept: {work}")


class Report(Bench):
    def run(self) -> int:
        args, work = self.args, self.work
        started = time.perf_counter()
        self.load_start = load()
        self.outputs: dict[tuple[str, str], Path] = {}  # (tree, variant) -> a JSON report a timed run wrote
        ll, ll_how = leaselint_cmd()
        self.ll = ll
        tools = {name: tool_cmd(name) for name in ("ruff", "fixit", "bandit", "semgrep")}
        versions = {"leaselint": f"{version_of(ll)}, from {leaselint_origin()}"}
        for name, cmd in tools.items():
            versions[name] = version_of(cmd) if cmd else "not installed"
            if cmd is None or versions[name].startswith("unavailable") or versions[name] == "not installed":
                if name in args.tools:
                    self.skipped.append(f"{name} ({versions[name]}; the bench extra installs it: pip install -e '.[bench]')")
                tools[name] = None
        try:
            from importlib.metadata import version

            versions["libcst"] = version("libcst")
        except Exception:  # noqa: BLE001
            versions["libcst"] = "not installed"
        self.say(f"leaselint runs as {ll_how}; load average at start: {self.load_start}")
        for line in self.skipped:
            self.say(f"could not run {line}: going on without it")

        rule = work / "semgrep-rule.yml"
        rule.write_text(SEMGREP_RULE)
        commands = {
            "ruff": lambda path: [*tools["ruff"], "check", "--isolated", "--select", "E9", "--no-cache", path],
            # Semgrep runs in the tree (its root is the project root), so the tree's .semgrepignore applies.
            "semgrep": lambda path: [*tools["semgrep"], "scan", "--config", str(rule), "--metrics=off", "--disable-version-check",
                                     "--quiet", "--max-target-bytes=0", "."],
            "bandit": lambda path: [*tools["bandit"], "-q", "-r", "-t", BANDIT_TEST, path],
            "fixit": lambda path: [*tools["fixit"], "--rules", FIXIT_RULE, "lint", path],
        }

        # Warm-up: every tool once on a one-file tree, untimed, so that no timed run compiles bytecode.
        warm = work / "warmup"
        warm.mkdir()
        (warm / "lease.py").write_text(lease_module(random.Random(0)), encoding="utf-8")
        (warm / ".semgrepignore").write_text("# scan every file\n")
        run_once([*ll, "--isolated", "--no-cache", str(warm)])
        for _, kind in FLOORS:
            run_once(floor_cmd(str(warm), 2, kind)(0))
        for name, cmd in commands.items():
            if tools[name]:
                run_once(cmd(str(warm)), cwd=str(warm))

        # Trees
        trees: dict[str, Path] = {}
        info: dict[str, str] = {}
        for letter in args.trees:
            t0 = time.perf_counter()
            if letter == "a":
                trees["a"] = stdlib_tree(work)
                info["a"] = f"the standard library of Python {platform.python_version()} ({sysconfig.get_paths()['stdlib']}), copied"
            elif letter == "b":
                try:
                    trees["b"], name = django_tree(work, args.refresh_django)
                    info["b"] = f"Django, from {name} (pip download --no-deps django, kept in benchmarks/.cache/django), unpacked"
                except (subprocess.CalledProcessError, OSError, StopIteration) as exc:
                    self.skipped.append(f"tree (b): cannot get Django ({exc})")
                    self.say(f"could not get Django ({exc}): going on without tree (b)")
                    continue
            elif letter == "c":
                trees["c"] = lease_tree(work, args.files, args.seed)
                info["c"] = f"generated lease-dense tree, seed {args.seed}"
            else:
                trees["d"] = helper_tree(work, args.helper_files, args.seed)
                listed = len((trees["d"] / ".floor-files").read_text().splitlines())
                info["d"] = f"generated project whose leases go through helper modules, seed {args.seed}; {listed} files to parse"
            files = python_files(trees[letter])
            size = sum(f.stat().st_size for f in files)
            info[letter] += f"; {len(files)} files, {size / 1e6:.1f} MB"
            # Semgrep's default ignore list skips test/ and tests/ folders; an ignore file of the tree's own
            # replaces it, so that Semgrep scans what the other tools scan.
            (trees[letter] / ".semgrepignore").write_text("# scan every file, like the other tools\n")
            self.say(f"tree ({letter}) {TREES[letter]}: {info[letter]}  [{time.perf_counter() - t0:.1f} s to prepare]")

        want = set(args.tools)
        for letter, tree in trees.items():
            self.say(f"\n== tree ({letter}) {TREES[letter]}")
            path, name = str(tree), TREES[letter]
            # On (a) and (b), whose targets compare leaselint with Ruff, the three run in turns; on (c),
            # leaselint with one and two processes and the floor with as many.
            ruff_in_turns = letter in "ab" and "leaselint" in want and "ruff" in want and bool(tools["ruff"])
            floor_in_turns = letter in "cd" and "leaselint" in want and "floor" in want
            if "leaselint" in want:
                self._leaselint(letter, path, name, commands["ruff"](path) if ruff_in_turns else None, floor_in_turns)
            if "floor" in want and letter in "cd" and not floor_in_turns:
                for jobs in (1, 2):
                    for floor, kind in FLOORS:
                        self.measure(f"{floor}, {jobs} proc", name, floor_cmd(path, jobs, kind), ok=(0,), at_least=args.slow_runs)
            for tool in ("ruff", "semgrep", "bandit", "fixit"):
                if tool not in want or not tools[tool] or (tool == "ruff" and ruff_in_turns):
                    continue
                if tool == "fixit" and args.quick and letter == "a":
                    self.say("  fixit on stdlib: skipped with --quick (minutes a run)")
                    continue
                # Fixit's exit code is a bit set: 1 for lint results, 2 for files it could not lint (syntax errors).
                ok = (0, 1, 2, 3) if tool == "fixit" else (0, 1)
                self.measure(tool, name, lambda i, t=tool: commands[t](path), ok=ok, cwd=path, runs=args.fixit_runs if tool == "fixit" else None)
            if "check" in want:
                self._check(letter, path, name)

        self.elapsed = time.perf_counter() - started
        self.load_end = load()
        report = self._report(ll_how, versions, info)
        print("\n" + report)
        if args.report:
            Path(args.report).write_text(report + "\n", encoding="utf-8")
        return 0

    # ---------------------------------------------------------------------------------------

    def _fresh(self, tag: str) -> str:
        return tempfile.mkdtemp(prefix=f"cache-{tag}-", dir=self.work)

    def _out(self, name: str, label: str, i: int) -> Path:
        folder = self.work / "reports"
        folder.mkdir(exist_ok=True)
        return folder / f"{name}-{label.replace(' ', '_')}-{i}.json"

    def _leaselint(self, letter: str, path: str, name: str, ruff: list[str] | None = None, floor: bool = False) -> None:
        """Cold: a new, empty --cache-dir per run (the cache is written, as on a first run). Warm: the same
        --cache-dir as a run before it, on the unchanged tree. Reports go to a JSON file (as in CI), which
        the findings check then compares. With `ruff`, cold, warm and Ruff run in turns; with `floor` (on
        (c)), cold with one and two processes and the libcst floor with as many."""
        base = [*self.ll, "--isolated", "--output-format", "json"]

        def cold(label: str, extra: list[str]):
            def make(i: int) -> list[str]:
                out = self._out(name, label, i)
                if i == 0:
                    self.outputs[(name, label)] = out
                return [*base, *extra, "--cache-dir", self._fresh("cold"), "--output-file", str(out), path]

            return make

        cores = os.cpu_count() or 1
        if letter in "cd":
            if floor:
                specs = []
                for jobs in (1, 2):
                    specs.append({"tool": f"leaselint cold --jobs {jobs}", "make_cmd": cold(f"jobs {jobs}", ["--jobs", str(jobs)])})
                    for floor, kind in FLOORS:
                        specs.append({"tool": f"{floor}, {jobs} proc", "make_cmd": floor_cmd(path, jobs, kind), "ok": (0,)})
                self.measure_in_turns(name, specs, at_least=self.args.slow_runs)
            else:
                for jobs in (1, 2):
                    self.measure(f"leaselint cold --jobs {jobs}", name, cold(f"jobs {jobs}", ["--jobs", str(jobs)]), at_least=self.args.slow_runs)
            if cores <= 2:
                # The default is --jobs <cores>: the row above is that run.
                self.results[("leaselint cold", name)] = self.results[(f"leaselint cold --jobs {cores}", name)]
                self.outputs[(name, "cold")] = self.outputs[(name, f"jobs {cores}")]
                self.say(f"  leaselint cold ({letter}) is the --jobs {cores} run: the default on this {cores}-core machine")
            else:
                self.measure("leaselint cold", name, cold("cold", []), at_least=self.args.slow_runs)
        elif ruff is None:
            self.measure("leaselint cold", name, cold("cold", []), at_least=self.args.slow_runs)
        warm = self._fresh("warm")

        def make_warm(i: int) -> list[str]:
            out = self._out(name, "warm", i)
            if i == 0:
                self.outputs[(name, "warm")] = out
            return [*base, "--cache-dir", warm, "--output-file", str(out), path]

        def prime_warm() -> None:
            # Two runs: the first fills the cache, the second adds the folder listings, which leaselint
            # remembers from a cache's second run on. Timed runs then find the cache as it stays.
            for _ in range(2):
                run_once([*base, "--cache-dir", warm, "--output-file", os.devnull, path])

        if ruff is not None:
            self.measure_in_turns(
                name,
                [
                    {"tool": "leaselint cold", "make_cmd": cold("cold", [])},
                    {"tool": "leaselint warm", "make_cmd": make_warm, "prime": prime_warm},
                    {"tool": "ruff", "make_cmd": lambda i: ruff, "cwd": path},
                ],
            )
            return
        self.measure("leaselint warm", name, make_warm, prime=prime_warm, at_least=self.args.slow_runs)

    def _check(self, letter: str, path: str, name: str) -> None:
        """Findings with and without the prefilter, the cache (cold and warm), one or two worker processes.

        Reports written by the timed runs are reused; the rest are made here."""
        base = [*self.ll, "--isolated", "--output-format", "json"]
        t0 = time.perf_counter()
        cache = self._fresh("check")
        variants = {
            "no cache": [*base, "--no-cache"],
            "no prefilter": [*base, "--no-cache", "--no-prefilter"],
            "cache cold": [*base, "--cache-dir", cache],
            "cache warm": [*base, "--cache-dir", cache],
            "--jobs 1": [*base, "--no-cache", "--jobs", "1"],
            "--jobs 2": [*base, "--no-cache", "--jobs", "2"],
        }
        reuse = {"cache cold": "cold", "cache warm": "warm", "--jobs 1": "jobs 1", "--jobs 2": "jobs 2"}
        got: dict[str, list[str]] = {}
        made: list[str] = []
        extra_note = ""
        for label, cmd in variants.items():
            out = self.outputs.get((name, reuse.get(label, "")))
            if out is None or (label == "cache warm" and "cache cold" in made):
                out = self._out(name, f"check {label}", 0)
                run = run_once([*cmd, "--output-file", str(out), path])
                made.append(label)
                if label == "no prefilter":
                    extra_note = f"; the --no-prefilter run took {run.seconds:.1f} s with a peak of {run.maxrss_kb * 1024 / 1e6:.0f} MB"
                if run.code not in (0, 1):
                    m = Measure("check", name, failed=f"{label}: exit {run.code}: {run.stderr.strip()[-300:]}")
                    self.results[("check", name)] = m
                    self.say(f"  findings check on {name}: FAILED ({m.failed})")
                    return
            got[label] = load_findings(out)
        reference = got["no cache"]

        def codes(items: list[str]) -> list[str]:
            return [json.loads(i)["code"] for i in items]

        def parsed(items: list[str]) -> list[str]:
            return [i for i in items if json.loads(i)["code"] != "LL000"]

        differences = []
        for label, items in got.items():
            if label == "no prefilter":
                # By design (README) a file the prefilter skips is not checked for syntax either (LL000);
                # every other finding must be the same.
                if parsed(items) != parsed(reference):
                    differences.append(f"{label} ({len(parsed(items))} findings besides LL000 against {len(parsed(reference))})")
            elif items != reference:
                differences.append(f"{label} ({len(items)} findings against {len(reference)})")
        extra_ll000 = codes(got["no prefilter"]).count("LL000") - codes(reference).count("LL000")
        files = {json.loads(i)["filename"] for i in reference}
        per_code: dict[str, int] = {}
        for code in codes(reference):
            per_code[code] = per_code.get(code, 0) + 1
        m = Measure("check", name)
        m.note = (
            f"{len(reference)} findings in {len(files)} files"
            + (f" ({', '.join(f'{k} {v}' for k, v in sorted(per_code.items()))})" if per_code else "")
            + (f"; --no-prefilter adds {extra_ll000} LL000 (syntax errors) in files the prefilter skips, as documented" if extra_ll000 else "")
            + extra_note
        )
        m.failed = "differ: " + "; ".join(differences) if differences else ""
        self.results[("check", name)] = m
        verdict = "identical" if not differences else "DIFFERENT: " + "; ".join(differences)
        self.say(f"  findings {verdict} across {', '.join(variants)}: {m.note}  [{time.perf_counter() - t0:.1f} s, made here: {', '.join(made) or 'none'}]")

    # ---------------------------------------------------------------------------------------

    def _get(self, tool: str, letter: str) -> float | None:
        m = self.results.get((tool, TREES[letter]))
        return m.median if m else None

    def _report(self, ll_how: str, versions: dict[str, str], info: dict[str, str]) -> str:
        out: list[str] = []
        add = out.append
        add("### Machine\n")
        add("| | |\n|---|---|")
        for k, v in machine().items():
            add(f"| {k} | {v} |")
        add(f"| load average (1, 5, 15 min) | at start {self.load_start}; at end {self.load_end} |")
        for k, v in versions.items():
            add(f"| {k} | {v} |")
        add(f"| leaselint ran as | {ll_how} |")
        if self.args.note:
            add(f"| note | {self.args.note} |")
        add("")
        add("### Trees\n")
        for letter, text in info.items():
            add(f"- ({letter}) {TREES[letter]}: {text}")
        add("")
        names = [v for v in TREES.values() if v in {tree for (_, tree) in self.results}]
        header = "| tool | " + " | ".join(f"({k}) {v}" for k, v in TREES.items() if v in names) + " |"
        rule = "|---|" + "---|" * len(names)
        tools_seen = []
        for (tool, _tree) in self.results:
            if tool not in tools_seen and tool != "check":
                tools_seen.append(tool)

        def table(title: str, cell) -> None:
            add(f"### {title}\n")
            add(header)
            add(rule)
            for tool in tools_seen:
                cells = []
                for name in names:
                    m = self.results.get((tool, name))
                    cells.append("" if m is None else "failed" if (m.failed or not m.runs) else cell(m))
                add(f"| {tool} | " + " | ".join(cells) + " |")
            add("")

        def wall(m: Measure) -> str:
            times = [r.seconds for r in m.runs]
            spread = f", {min(times):.3f}–{max(times):.3f}" if len(times) > 1 else ""
            return f"**{m.median:.3f}** (×{len(times)}{spread})"

        table("Wall time, seconds (median; ×runs, min–max)", wall)
        table("CPU time (user + system, child and its workers), seconds, median", lambda m: f"{m.cpu:.2f}")
        if self.skipped:
            add("Not run: " + "; ".join(self.skipped) + "\n")
        for (tool, tree), m in self.results.items():
            if m.failed and tool != "check":
                add(f"- {tool} on {tree} failed: {m.failed}")

        def ratio(a: float | None, b: float | None) -> float | None:
            return a / b if a is not None and b else None

        rows = []  # (label, value, target text, test)
        for letter in ("a", "b", "c"):
            cold, warm, ruff = self._get("leaselint cold", letter), self._get("leaselint warm", letter), self._get("ruff", letter)
            target = letter in "ab"
            rows.append((f"leaselint cold / ruff ({letter})", ratio(cold, ruff), "≤ 2" if target else "", (lambda v: v <= 2) if target else None))
            rows.append((f"leaselint warm / ruff ({letter})", ratio(warm, ruff), "≤ 1" if target else "", (lambda v: v <= 1) if target else None))
            rows.append((f"fixit / leaselint cold ({letter})", ratio(self._get("fixit", letter), cold), "≥ 100" if letter == "b" else "", (lambda v: v >= 100) if letter == "b" else None))
            rows.append((f"semgrep / leaselint cold ({letter})", ratio(self._get("semgrep", letter), cold), "> 1" if letter == "b" else "", (lambda v: v > 1) if letter == "b" else None))
            rows.append((f"bandit / leaselint cold ({letter})", ratio(self._get("bandit", letter), cold), "", None))
        for jobs in (1, 2):
            rows.append((
                f"leaselint --jobs {jobs} / libcst floor, {jobs} proc (c)",
                ratio(self._get(f"leaselint cold --jobs {jobs}", "c"), self._get(f"libcst floor, {jobs} proc", "c")),
                "≤ 1.5",
                lambda v: v <= 1.5,
            ))
        for jobs in (1, 2):
            rows.append((
                f"leaselint --jobs {jobs} / libcst parse + PositionProvider, {jobs} proc (c), for reference",
                ratio(self._get(f"leaselint cold --jobs {jobs}", "c"), self._get(f"libcst parse + PositionProvider, {jobs} proc", "c")),
                "",
                None,
            ))
        for jobs in (1, 2):
            rows.append((
                f"leaselint --jobs {jobs} / libcst floor of the files to parse, {jobs} proc (d)",
                ratio(self._get(f"leaselint cold --jobs {jobs}", "d"), self._get(f"libcst floor, {jobs} proc", "d")),
                "≤ 2",
                lambda v: v <= 2,
            ))
        rows.append(("libcst parse + PositionProvider / libcst floor, 1 proc (c), for reference", ratio(self._get("libcst parse + PositionProvider, 1 proc", "c"), self._get("libcst floor, 1 proc", "c")), "", None))
        rows.append(("leaselint --jobs 1 / --jobs 2 (c)", ratio(self._get("leaselint cold --jobs 1", "c"), self._get("leaselint cold --jobs 2", "c")), "≥ 1.7", lambda v: v >= 1.7))
        rows.append(("libcst floor 1 proc / 2 proc (c), for reference", ratio(self._get("libcst floor, 1 proc", "c"), self._get("libcst floor, 2 proc", "c")), "", None))
        add("### Ratios and targets (from the medians, compared unrounded)\n")
        add("| ratio | value | target | met |\n|---|---|---|---|")
        for label, value, target, test in rows:
            if value is None:
                continue
            met = "" if test is None else ("yes" if test(value) else "**no**")
            add(f"| {label} | {value:.2f} | {target} | {met} |")
        m = self.results.get(("leaselint cold", "stdlib"))
        if m and m.runs and not m.failed:
            peak = max(r.maxrss_kb for r in m.runs) * 1024 / 1e6
            add(f"| peak memory of leaselint cold on (a), MB (highest max RSS of {len(m.runs)} runs) | {peak:.1f} | ≤ 250 | {'yes' if peak <= 250 else '**no**'} |")
        checks = [(name, m) for (tool, name), m in self.results.items() if tool == "check"]
        for name, m in checks:
            add(f"| findings identical: prefilter, cache, jobs ({name}) | {'identical' if not m.failed else m.failed} | identical | {'yes' if not m.failed else '**no**'} |")
        add("")
        for name in names:
            m = self.results.get(("leaselint cold", name))
            if m and m.runs and not m.failed:
                add(f"- peak memory of leaselint cold on {name}: {max(r.maxrss_kb for r in m.runs) * 1024 / 1e6:.1f} MB (largest process)")
        for name, m in checks:
            if m.note:
                add(f"- findings on {name}: {m.note}")
        add(
            f"\nWhole run: {self.elapsed / 60:.1f} minutes (--runs {self.args.runs}, --slow-runs {self.args.slow_runs}, "
            f"--slowest-runs {self.args.slowest_runs}, --fixit-runs {self.args.fixit_runs}, --files {self.args.files})."
        )
        return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
