from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.model.values import FIXED
from leaselint.rule import Context, Invalid, Rule, Valid, weak_token_findings


class FixedToken(Rule):
    """
    ## What it does
    Reports a lease whose stored holder value is the same for more than one
    claim attempt: a literal (`"1"`, `True`, `"locked"`), the host name
    (`socket.gethostname()`, `platform.node()`, `os.uname().nodename`,
    `os.environ["HOSTNAME"]`), any other environment variable or setting
    (`os.getenv("WORKER_ID")`, `settings.WORKER_NAME`), the process or
    thread id, the user name, the
    job or lock name itself, a module-level value (even a random one: it is
    made once per process), a value made once per instance in `__init__`,
    Celery's `app.oid` (one value per worker process), or a setting of one of
    the module's classes whose default is any of these (`config.worker_id`
    where `worker_id: str = field(default_factory=lambda: f"{host}:{pid}")`).
    A value written out by a helper named for encoding (`_encode(self._uuid)`,
    `base64.b64encode(host)`, not `make_token(host)`) is as fixed as what it
    encodes. Compositions are as good as their best part: `f"{host}:{pid}"` is fixed,
    `f"{host}-{uuid4()}"` is not; a setting with a fallback
    (`os.environ.get("WORKER_ID") or f"{host}:{pid}"`) is as weak as the
    fallback.

    The finding points at the claim (its value, where that is on the claim's
    first line) and names the value's origin. Only leases (claimed and released in the module) are checked,
    and the tokens callers give lock objects (`lock.acquire(token=...)` of
    redis-py and valkey-py, python-redis-lock's `Lock(conn, name, id=...)`),
    with no fix: the lock makes a fresh token of its own when given none. A
    token a caller passes to a lease helper of another module of the run
    (`memcache_lock(key, self.app.oid)`, where the helper claims and releases)
    is reported at the caller's argument; a helper of the module itself is
    reported at its claim, naming the callers' arguments. So is a holder handed to a lock API leaselint cannot read: a taking
    call (`lock`, `acquire`, `reserve`, `claim`) and a giving call
    (`release`, `unlock`) on one object, in one function or class or on a
    module-level object, passing the same argument named for a holder
    (`_lock.lock(task, host)` and `_lock.release(task, host)`;
    `Node.reserve(ctx, CONF.host, node)`), with no fix. A part named for a
    prefix or namespace (`lock_prefix + host`) is a name, not a token.

    ## Why is this bad?
    The holder token is how a release tells "my claim" from "somebody else's
    claim". A fixed token cannot tell two attempts of the same worker apart:

    1. Worker A (host `web-1`, pid 42) claims `lock:job` storing `web-1:42`.
    2. A stalls past the deadline; the claim expires.
    3. A, in another thread, claims `lock:job` again for the next run: `web-1:42`.
    4. The first attempt's release compares `web-1:42`, finds it, and deletes
       the second attempt's claim.
    5. Worker B claims `lock:job`: the second attempt and B run at once.

    A token must be fresh for every claim attempt and unguessable, and kept
    with the claim itself.

    ## Example
    ```python
    OWNER = f"{socket.gethostname()}:{os.getpid()}"

    def run(job):
        if r.set(f"lock:{job}", OWNER, nx=True, ex=30):
            try:
                work(job)
            finally:
                r.eval(RELEASE, 1, f"lock:{job}", OWNER)
    ```

    ## Use instead
    ```python
    def run(job):
        token = f"{OWNER}:{secrets.token_hex(8)}"  # or secrets.token_hex(16)
        if r.set(f"lock:{job}", token, nx=True, ex=30):
            try:
                work(job)
            finally:
                r.eval(RELEASE, 1, f"lock:{job}", token)
    ```

    ## Fix safety
    The fix makes `secrets.token_hex(16)` at the claim, stores it, and hands
    it to every release of the lease: a checked release gets the new token, a
    blind release becomes the token-checked release of LL001 (the two fixes
    compose into one edit). When the old value was a local used only by the
    lease, that assignment becomes fresh; when it is also used for something
    else (logged as the worker's name), it is kept and the token is added
    beside it. The fix is **safe** when the claim and its releases are in one
    function, and **unsafe** when the token must travel to another method (it
    becomes an attribute on `self`, set only once the claim succeeded). A
    value that reads as an identity (an owner, a host name) is kept in front:
    `f"{owner}:{secrets.token_hex(8)}"`, stored and compared whole; an
    attribute holding it (`self.owner`) keeps it, and the object holds its
    token in an attribute of its own (none before a claim succeeded), so an
    identity the class also sends to the store elsewhere gets no fix. A
    constant, a clock or a random value made once becomes
    `secrets.token_hex(16)`. When the stored value is read back and
    parsed or compared elsewhere, there is no fix. A claim function and a
    release function get LL001's fix for them (the claim returns the token,
    the release takes it, the callers pass it). When the release is in
    another method or a nested function, or the store has no
    compare-and-delete (the Django cache), there is no automatic fix.

    ## Without an automatic fix

    The reasons and what to do instead are those of LL001:
    `leaselint --explain LL001`. A lock API that takes the holder from its
    caller (`_lock.lock(task, host)`): pass it a token made fresh for each
    attempt (`secrets.token_hex(16)`), and give the same token back to its
    release.

    ## References
    - Martin Kleppmann, "How to do distributed locking"
    """

    code = "LL002"
    name = "fixed-token"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL002/
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.delete(f"lock:{job}")
        """
        ),
        Valid(
            """\
            import uuid

            import redis

            r = redis.Redis()


            def run(job):
                token = f"{socket.gethostname()}-{uuid.uuid4()}"
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)
                    r.delete(f"lock:{job}")
        """
        ),
    ]
    INVALID = [  # more in tests/cases/LL002/
        Invalid(
            """\
            import json
            import os
            import socket

            import redis

            r = redis.Redis()


            def rebuild(index):
                key = f"rebuild:{index}"
                holder = json.dumps({"host": socket.gethostname(), "pid": os.getpid()})
                if not r.set(key, holder, nx=True, ex=300):
                    return False
                try:
                    build(index)
                finally:
                    r.delete(key)
                return True
        """,
            line=13,
            column=23,
            fixed="""\
            import json
            import logging
            import os
            import secrets
            import socket

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def rebuild(index):
                key = f"rebuild:{index}"
                holder = "{}:{}".format(json.dumps({"host": socket.gethostname(), "pid": os.getpid()}), secrets.token_hex(8))
                if not r.set(key, holder, nx=True, ex=300):
                    return False
                try:
                    build(index)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, holder):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()
            CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"


            def compact(shard):
                key = f"compact:{shard}"
                if not r.eval(CLAIM, 1, key, "busy", 60_000):
                    return False
                try:
                    run_compaction(shard)
                finally:
                    r.delete(key)
                return True
        """,
            line=9,
            column=34,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()
            CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"


            def compact(shard):
                key = f"compact:{shard}"
                token = secrets.token_hex(16)
                if not r.eval(CLAIM, 1, key, token, 60_000):
                    return False
                try:
                    run_compaction(shard)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
                return True
        """,
            applicability=Applicability.SAFE,
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        yield from weak_token_findings(
            self,
            context,
            FIXED,
            "every claim attempt stores the same value, so a stale release matches a later claim",
        )


