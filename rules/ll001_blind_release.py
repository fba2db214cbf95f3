from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class BlindRelease(Rule):
    """
    ## What it does
    Reports a lease released by an operation that does not check who holds it:
    `delete`, `unlink`, `getdel`, `execute_command("DEL", ...)`, a `delete`
    queued on a pipeline, `delete(*keys)` of a comprehension, or a Lua script
    that deletes without comparing an argument (run by `eval`, `evalsha` or a
    `register_script` object), on a key the same client claimed with a
    conditional create (`set(key, value, nx=True, ...)`, `setnx`,
    `SET ... NX`, a Lua script's `set KEYS[1] ARGV[1] NX`, or a WATCH/MULTI
    transaction that tests the watched key absent, `if pipe.exists(key)` or
    `get` compared with None, then writes it after `multi()`: such a claim
    has no automatic fix); in a lock class (named for a lock, mutex, lease or
    semaphore, with acquire/release or `__enter__`/`__exit__`), `add(key,
    value, ttl)` on a client the module never shows, such as one handed in
    or made by `self.client_fn()`, is a cache's conditional create (no fix:
    its API is not known).

    Only leases are reported: a key that is both claimed and released in the
    module, directly or through a function of another module of the run that
    claims or releases on a key made of its parameters
    (`release_lock(key)` after `from .locks import release_lock`): such a
    finding is reported at the call, names the function and its line, and
    has no automatic fix (the delete to fix is inside that function). Not leases, and not reported: a cache entry (`set(k, v, ex=60)`
    then `delete(k)`); an idempotency marker (claimed, never released); an NX
    write whose answer is never read, unless its key names a lock (`lock`,
    `lease`, `mutex`, ...): that is a cache write; a key that is also counted
    (`incr`: a rate limit); a store API wrapper that hands its caller's key on
    (`def delete(self, key): self._cache.delete(key)`); and two functions that
    only share a parameter name, unless the releasing one is named for it
    (`release_lock(key)`), the claiming method of its class is (`claim`), or
    the key is one field of one record claimed with a lifetime (`entry.key`).
    A delete meant to break a lock whoever holds it is
    taken as deliberate: in a function named for it (a name with `break`,
    `reset`, `force` or `stale`, one that starts with `admin`, or exactly
    `clear` or `clear_all`; `clear_lock` is a release like any other) or
    under `if force:`.

    A delete in the branch where the claim failed (`if not r.set(...):
    r.delete(key)`) is reported too: the key is another worker's claim; and
    so is a plain delete of the key a lock object stands on (`lock =
    r.lock(key, timeout=30)` ... `r.delete(key)`), which bypasses the
    lock's own token check.
    A release after a client-side compare is LL004; one queued after
    `multi()` in a WATCH/MULTI/EXEC transaction is correct.

    ## Why is this bad?
    A lease has a deadline so that a crashed holder cannot block the job
    forever. A holder that is merely slow outlives it:

    1. Worker A claims `lock:job` for 30 s and starts the job.
    2. A pauses (garbage collection, a slow query) for 40 s; the claim expires.
    3. Worker B claims `lock:job` and starts the job.
    4. A finishes and runs `delete("lock:job")`: it deletes **B's** claim.
    5. Worker C claims `lock:job`: B and C now run the job at once.

    The release must delete the key only if it still holds the token this
    holder stored, and compare and delete in one server-side step.

    A token-checked release makes the *release* safe; it does not stop A and
    B from overlapping in step 3. By the time a release is refused, the
    overlap has happened. Two remedies address the overlap itself: renew the
    claim while the holder is healthy (a token-checked extend), or accept the
    overlap and put the real guard where the job's effects become durable (an
    idempotent write, a fencing number checked by the store that keeps the
    results). A longer lifetime is not a remedy: it only makes the gap rarer.

    ## Example
    ```python
    def run(job):
        if r.set(f"lock:{job}", "1", nx=True, ex=30):
            try:
                work(job)
            finally:
                r.delete(f"lock:{job}")
    ```

    ## Use instead
    ```python
    LEASE_RELEASE_SCRIPT = (
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('del', KEYS[1]) else return 0 end"
    )

    def run(job):
        token = secrets.token_hex(16)
        if r.set(f"lock:{job}", token, nx=True, ex=30):
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                    logging.getLogger(__name__).warning("lease %s was lost ...", f"lock:{job}")
    ```
    On Redis 8.4 and later `DELEX key IFEQ token`, and on Valkey 9 and later
    `DELIFEQ key token`, do the same in one command (the `release` setting).

    ## Fix safety
    The fix replaces the release with the compare-and-delete script, awaited
    for asyncio clients, and logs a warning when nothing was deleted (the
    lease was lost: another worker may have run the job). It adds the module
    constant and imports it needs once, and reuses the module's logger.

    It is **safe** when the claim already stores a token that is in reach at
    the release (a local of the same function, or an attribute of `self` set
    at the claim). It is **unsafe** when the claim stores something else (a
    constant, a host name) or its token is out of reach: the fix then makes
    `token = secrets.token_hex(16)` at the claim, stores it, and carries it to
    the release as a local or as an attribute on `self`. An object keeps the
    token only once its claim succeeded, starts with `None` (a class
    attribute), and a release holding none deletes nothing and answers 0 as a
    delete of a missing key does; a readable identity the claim stored stays
    in front of the fresh token. When another method reads the stored value
    back and parses or compares it, there is no fix. It is also unsafe in
    a pipeline, whose result arrives in `execute()`.

    A claim function and a release function (`acquire_lock(name)`,
    `release_lock(name)`) get an **unsafe** fix: the claim returns its fresh
    token (None when it failed), the release takes it as a new last
    parameter `token` and deletes nothing without one, and every caller in
    the file binds the claim's answer (`token = acquire_lock(name)`) and
    passes it (`release_lock(name, token=token)`). Callers in other files must
    pass it too: without it their call raises TypeError rather than
    release blindly. When a caller cannot be rewritten (it passes the answer
    on, or releases without a claim call beside it), there is no fix and the
    message names the line. A claim in another method or a nested function,
    or a release that deletes other keys too, gets no automatic fix and the
    message says why. A delete after a failed claim is
    removed (**safe**: the key was never this worker's), unless it follows the
    claim's early exit (`if r.set(...): return`) or the function reads the key's
    remaining lifetime (`r.ttl(key) == -1`: a recovery of a claim left without
    one, which goes once the claim sets its lifetime, LL005). No fix is written
    when the key is written again after the claim (the token it would compare
    with is gone), when a name the fix calls (`secrets`, `logging`) is bound to
    something else, or for an aioredis 1.x client, whose API differs.

    ## Without an automatic fix

    A finding says in a clause why it has no fix; what to do instead:

    - A cache API with no compare-and-delete (Django's cache, a client of no
      known kind): store a fresh token and check it right before the delete,
      keep the lifetime short and renew it while the holder is healthy, and
      guard the job's durable effects. With django-redis, `cache.lock(key,
      timeout=...)` releases with a token check.
    - pylibmc: with the client's `behaviors={"cas": True}`, `gets` the key,
      compare the token, then `cas(key, b"", cas_id, time=2592001)` (a time in
      the past: the item goes at once; `time=-1` becomes a far future),
      catching `pylibmc.NotFound` for a key already gone.
    - python-binary-memcached with several servers: give the client one
      server, or release with a token check per server.
    - valkey-glide: run a Lua compare-and-delete as a `Script` with
      `invoke_script(script, keys=[key], args=[token])`.
    - python-etcd, where an object may hold no token: keep the token the claim
      stored and pass it as `prevValue=` by hand.
    - SQL lock tables: put the holder's token column in the DELETE's WHERE and
      test the cursor's rowcount.
    - aioredis 1.x and coredis clients take other arguments (`eval(script,
      keys=[...], args=[...])`): write the token-checked release in their form.
    - A claim by `getset` or `msetnx`: claim with `set(key, token, nx=True,
      px=...)`, each key on its own or all in one Lua script that sets their
      lifetimes too. A WATCH/MULTI claim: store a fresh token in it and
      release with a token-checked compare-and-delete.
    - A claim and a release in functions the fix cannot join (the claim
      function is in `__all__` or used other than by calls, the key comes from
      the caller, no single claim call sits beside the release): return a
      fresh token from the claim and pass it to the release at each caller.
    - A lock given a weak token (`r.lock(name, token=...)`, LL002, LL003):
      pass no token and the lock makes its own, or pass
      `secrets.token_hex(16)`, after checking who reads the stored value back.
    - A claim whose answer leaselint cannot follow: assign it, return it, or
      test it in an `if`, so that the token is kept only once the claim
      succeeded.
    - A stored value that other code reads back (parses, compares, orders by
      the clock), or writes again after the claim: keep the value's meaning (a
      token beside it, split by every reader; a fresh token beside the time,
      compared whole) and keep the claim's value until the release.
    - A compare of a field of the stored value, after a decoder
      (`pickle.loads`) or through a helper: store the token on its own, as
      text, or compare in a Lua script.
    - A filter or document bound to a name first, or arguments from a dict
      (`**args`): add the owner's token there. A command in one formatted
      string: pass its words as arguments. A script that stores a value
      written in it: pass a fresh token as an argument (ARGV).
    - A delete that follows the claim's early exit, or clears a claim left
      without a lifetime: remove it once every claim sets its lifetime in the
      claim itself (LL005). A call that deletes other keys too: release the
      lease on its own.

    ## References
    - Redis, "Distributed Locks with Redis": https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/
    - Martin Kleppmann, "How to do distributed locking" (fencing tokens)
    """

    code = "LL001"
    name = "blind-release"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL001/
        Valid(
            """\
            # no rule reports this
            import redis

            r = redis.Redis()


            def forget(user_ids):
                keys = [f"profile:{uid}" for uid in user_ids]
                r.delete(*keys)
        """
        ),
    ]
    INVALID = [  # more in tests/cases/LL001/
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def nightly():
                if r.set("lock:nightly", "1", nx=True, ex=600):
                    run_all()
                    r.delete("lock:nightly")
        """,
            line=9,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def nightly():
                token = secrets.token_hex(16)
                if r.set("lock:nightly", token, nx=True, ex=600):
                    run_all()
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, "lock:nightly", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            "lock:nightly",
                        )
        """,
            applicability=Applicability.UNSAFE,
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        key_text = context.model.key_text
        for lease in context.model.leases:
            for release in lease.releases:
                if release.checked or release.deliberate or release.transactional or release.check:
                    continue
                if release.reported_home and release.after_failed_claim is None:
                    continue  # the helper's own module reports its delete
                if release.after_failed_claim is not None:
                    message = (
                        f"`{release.method}` of `{key_text(release)}` runs after the claim failed: "
                        "the key is another worker's claim, and this frees it"
                    )
                else:
                    message = (
                        f"`{release.method}` releases lease `{key_text(release)}` without checking the holder: "
                        "after its deadline it frees another worker's claim"
                    )
                try:
                    if release.after_failed_claim is not None:
                        fix = context.fixer.drop_release(release)
                    else:
                        fix = context.fixer.checked_release(lease, release)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(release, message, fix)
        for release in context.model.lock_key_deletes:
            yield self.at_event(
                release,
                f"`{release.method}` deletes the key of lock `{key_text(release)}` without checking the holder: "
                "release through the lock object (`lock.release()`), which checks its token",
            )


