from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class BlindRenewal(Rule):
    """
    ## What it does
    Reports a renewal of a held lease that does not check the holder:
    `expire`, `pexpire`, `expireat` or `pexpireat` of the lease's key on a
    Redis client, `touch` on a Django cache or a memcached client, or
    DynamoDB's `update_item` that sets only the item's times with no holder in
    its condition (Python's `and` between two conditions keeps the last), made
    while the lease is held: in a loop after the claim, in a function nested
    in the claim's (a heartbeat thread), in another method of the lock's
    class, or in a module function named for renewing (`extend`, `renew`,
    `refresh`, `heartbeat`, `keep_alive`), itself or through the project's
    own helper that only moves the deadline (`apply_expiry(client, key, ms)`,
    no fix; the finding is at the helper's call of the store when the helper
    is the module's own). A write of the key with a lifetime
    (`set(key, token, ex=30)`) in such a place renews it too, and also takes
    over a key another worker claimed. The deadline that a claim without one
    gets from a second call right after it is LL005's, unless the call is
    queued with the claim on one pipeline (`pipe.setnx(k, v)`,
    `pipe.expire(k, 30)`): it runs when the claim failed too, so the worker
    that lost the race extends the holder's deadline; so does an `expire` in
    the branch where the claim failed (`elif not r.ttl(key): r.expire(key,
    10)`, a recipe for a holder that crashed before its `expire`). A function named for
    ending (`finish_job`, `release`) that lets the key run out is a release,
    not a renewal. So is a lifetime set by hand on a lock object's key
    (`r.pexpire(KEY, ms)` beside `r.lock(KEY)`). Renewals in tests are not
    reported.

    ## Why is this bad?
    The renewal extends whoever holds the key now:

    1. Worker A claims `lock:job` for 30 s and starts a heartbeat that runs
       `expire("lock:job", 30)` every 10 s.
    2. A stalls for 40 s (a GC pause, a slow disk): the lease expires, and
       worker B claims `lock:job`.
    3. A's heartbeat wakes up and extends `lock:job`: B's claim, not A's.
       `expire` answers True, so A carries on as if it still held the lease,
       and A and B now do the job at the same time.

    ## Example
    ```python
    def heartbeat(key, stop):
        while not stop.wait(10):
            r.expire(key, 30)
    ```

    ## Use instead
    ```python
    EXTEND = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"

    def heartbeat(key, token, stop):
        while not stop.wait(10):
            if not r.eval(EXTEND, 1, key, token, 30):
                log.warning("lease %s lost", key)
                break
    ```
    redis-py's `Lock.extend()` and `Lock.reacquire()` already check the token.

    ## Fix safety
    On a Redis client the fix runs a Lua script that compares the stored
    value with the holder's token and extends only then, with the same
    command and lifetime. The token is the one the claim stored: a name the
    renewal sees, or the object's attribute (then the renewal runs only while
    the object holds one). Where the renewal's answer was thrown away, a
    lost lease is logged as a warning; where it was used, it is kept a bool
    (`bool(...)`: the script answers 1 or 0). **Safe** with a lifetime
    written as a number; **unsafe** when it is held in a name, which may be a
    `timedelta` that `expire` takes and a script argument does not. There is
    no fix when the claim stores no fresh token (LL002, LL003: fix those
    first), when the renewal passes `nx`/`xx`/`gt`/`lt`, and for Django's
    cache and memcached, which cannot compare and extend in one step (the
    message says why, and "Without an automatic fix" below what to do).

    ## Without an automatic fix

    A renewal extends whoever holds the key; what to do instead:

    - A cache API with no compare-and-touch: read the stored token first and
      stop the job when it is not this holder's (a short window stays), or
      move the lease to a store that can compare and extend in one step.
    - memcached: renew with `gets`, compare the token, then `cas(key, token,
      cas_id, expire=ttl)`, which stores nothing when another worker wrote the
      key since.
    - DynamoDB: add the holder's token to the renewal's `ConditionExpression`.
    - python-etcd: renew with `test_and_set(key, token, token, ttl)`, which
      raises `EtcdCompareFailed` when another worker's value is stored.
    - A renewal that cannot see the token this holder stored (a name it sees,
      or an attribute set only once a claim succeeded): pass it in and extend
      with a token check.
    - A renewal that writes the key again, or is queued on a pipeline: extend
      each lease with a token check in one server step.
    """

    code = "LL010"
    name = "blind-renewal"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL010/
        # The deadline of a claim that has none, set right after it, is LL005's.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def nightly(job, token):
                if r.setnx(f"nightly:{job}", token):
                    r.expire(f"nightly:{job}", 300)
                    try:
                        run(job)
                    finally:
                        r.delete(f"nightly:{job}")
        """
        ),
    ]

    INVALID = [  # more in tests/cases/LL010/
        # A heartbeat thread nested in the claim's function: the token is a name it sees.
        Invalid(
            """\
            import secrets
            import threading

            import redis

            r = redis.Redis()


            def run_export(job):
                key = f"lock:export:{job}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=30):
                    return False
                done = threading.Event()

                def beat():
                    while not done.wait(10):
                        r.expire(key, 30)

                threading.Thread(target=beat, daemon=True).start()
                try:
                    export(job)
                finally:
                    done.set()
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=18,
            column=13,
            fixed="""\
            import logging
            import secrets
            import threading

            import redis

            LEASE_EXPIRE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"
            )

            r = redis.Redis()


            def run_export(job):
                key = f"lock:export:{job}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=30):
                    return False
                done = threading.Event()

                def beat():
                    while not done.wait(10):
                        if not r.eval(LEASE_EXPIRE_SCRIPT, 1, key, token, 30):
                            logging.getLogger(__name__).warning(
                                "lease %s expired before renewal; another worker may hold it", key
                            )

                threading.Thread(target=beat, daemon=True).start()
                try:
                    export(job)
                finally:
                    done.set()
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='`expire` renews lease `key`',
        ),
        # A lock class whose extend() answers the renewal: the token the object keeps once a claim succeeded.
        Invalid(
            """\
            import uuid


            class RedisLease:
                def __init__(self, client, name, ttl=30):
                    self.client = client
                    self.name = f"lease:{name}"
                    self.ttl = ttl
                    self.token = None

                def acquire(self):
                    token = uuid.uuid4().hex
                    if self.client.set(self.name, token, nx=True, ex=self.ttl):
                        self.token = token
                        return True
                    return False

                def extend(self):
                    return self.client.pexpire(self.name, self.ttl * 1000)

                def release(self):
                    self.client.delete(self.name)
                    self.token = None
        """,
            line=19,
            column=16,
            fixed="""\
            import uuid

            LEASE_PEXPIRE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
            )


            class RedisLease:
                def __init__(self, client, name, ttl=30):
                    self.client = client
                    self.name = f"lease:{name}"
                    self.ttl = ttl
                    self.token = None

                def acquire(self):
                    token = uuid.uuid4().hex
                    if self.client.set(self.name, token, nx=True, ex=self.ttl):
                        self.token = token
                        return True
                    return False

                def extend(self):
                    return bool(self.token is not None and self.client.eval(LEASE_PEXPIRE_SCRIPT, 1, self.name, self.token, self.ttl * 1000))

                def release(self):
                    self.client.delete(self.name)
                    self.token = None
        """,
            applicability=Applicability.UNSAFE,
            message_contains='`pexpire` renews lease `self.name`',
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        key_text = context.model.key_text
        for lease in context.model.leases:
            for renewal in lease.renewals:
                message = (
                    f"`{renewal.method}` renews lease `{key_text(renewal)}` without checking the holder: "
                    "after its deadline it extends another worker's claim"
                )
                try:
                    fix = context.fixer.checked_renewal(lease, renewal)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(renewal, message, fix)
        for claim, expire in context.model.queued_lifetimes:
            yield self.at_event(
                expire,
                f"`{expire.method}` is queued with the claim of lease `{key_text(claim)}` and runs when the claim failed too: "
                "a worker that lost the race extends the holder's deadline",
            )
        for claim, expire in context.model.failed_claim_lifetimes:
            yield self.at_event(
                expire,
                f"`{expire.method}` of lease `{key_text(claim)}` runs where its claim failed: it changes the deadline "
                "of a claim another worker holds, without asking that holder",
            )
        for renewal in context.model.lock_key_renewals:
            what = f"`{renewal.method}` renews the key of lock `{key_text(renewal)}` without checking the holder"
            yield self.at_event(renewal, what + ": extend it through the lock object (`lock.extend()`), which checks its token")

