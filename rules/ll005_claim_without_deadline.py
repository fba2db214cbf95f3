from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic, Fix
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid

NO_LIFETIME = "no automatic fix: choosing a lifetime is a decision"


class ClaimWithoutDeadline(Rule):
    """
    ## What it does
    Reports a lease that can outlive a crashed holder: `setnx` with no expiry,
    `set(k, v, nx=True)` without `ex`/`px`/`exat`/`pxat`, Django's
    `cache.add(k, v, None)`, `r.lock(name)` or `redis.lock.Lock(...)` without
    `timeout`, `redis_lock.Lock(conn, name)` without `expire`; and a claim whose
    lifetime is set by a separate `expire`/`pexpire` after the create.

    Flask-Caching's Redis backend implements `add` as `SETNX` followed by a
    separate `EXPIRE` itself: a crash between the two leaves a key without a
    lifetime, whatever the caller passes. Prefer a client that claims with
    `SET ... NX PX` in one command.

    DynamoDB: a claim whose condition only requires the key absent
    (`attribute_not_exists(pk)`) never ends, because TTL deletes expired
    items lazily, up to days later; the condition must also admit an expired
    claim. MongoDB: a claim document without an expiry field.

    A lock object made inside a test (a test function, fixture or test class,
    or anywhere in a test module: a file under a folder named `test`, `tests`,
    `testing`, `test_*` or `*_tests` below the configuration's folder, or
    named `test_*.py`, `*_test.py`, `conftest.py` or `tests.py`) is the test's
    own and is not reported.

    Lease keys only: a counter or marker set with `incr` or `set(nx=True)`
    and never released is not a lease.

    ## Why is this bad?
    A lease without a deadline is held forever by a holder that died:

    1. Worker A runs `setnx("lock:job", token)`.
    2. A is killed (deploy, OOM) before `expire("lock:job", 30)` or before
       its release.
    3. `lock:job` never expires: every later worker is refused, forever,
       until somebody deletes the key by hand.

    ## Example
    ```python
    if r.setnx(key, token):
        r.expire(key, 30)
    ```

    ## Use instead
    ```python
    if r.set(key, token, nx=True, ex=30):
        ...
    ```

    ## Fix safety
    For the two-step form the fix claims with one `set(k, v, nx=True, ex=ttl)`
    (`px=` for `pexpire`) with the lifetime the code already chose, and
    removes the `expire` call: **safe** when the lifetime is a positive number
    written in place. A lifetime held in a name or an attribute makes it
    **unsafe**: SET refuses a lifetime of 0 or less, which EXPIRE accepted (it
    deleted the key). Where the code reads `setnx`'s answer other than in an
    `if` or `while`, the fix wraps the claim in `bool(...)`: `setnx` answers
    False where `set(nx=True)` answers None, and callers keep reading False.
    When no lifetime exists anywhere there is no automatic fix: choosing a
    lifetime is a decision.

    ## Without an automatic fix

    Choosing a lifetime is a decision: pick one longer than the job and renew
    it while the holder is healthy.

    - A field of a hash (`hsetnx`): keep each lease in a key of its own
      (`set(key, token, nx=True, px=...)`), or give the field its own lifetime
      with `hpexpire` (Redis 7.4+).
    - DynamoDB: its TTL deletes expired items lazily, up to days later, so the
      claim's condition must take over an expired claim (`OR expires_at <
      :now`).
    - Rows (Django's ORM, SQL): add an expiry field, and take over an expired
      row in one step (`filter(name=key, expires_at__lt=now).delete()` before
      the create).
    - A claim and its expiry queued on a pipeline: set the lifetime in the
      claim and drop the expiry by hand (one command fewer moves the answers
      `execute()` returns).
    """

    code = "LL005"
    name = "claim-without-deadline"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL005/
        Valid(
            """\
            import redis

            r = redis.Redis()


            def hit(client_ip):
                count = r.incr(f"rate:{client_ip}")
                r.expire(f"rate:{client_ip}", 60)
                return count
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def mark(event_id):
                return r.setnx(f"seen:{event_id}", 1)
        """
        ),
    ]
    INVALID = [  # more in tests/cases/LL005/
        Invalid(
            """\
            import redis

            r = redis.Redis()
            CLAIM = "if redis.call('setnx', KEYS[1], ARGV[1]) == 1 then return 1 end return 0"


            def migrate(name, token):
                key = f"migrate:{name}"
                if r.eval(CLAIM, 1, key, token) == 1:
                    apply_migration(name)
                    r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            line=9,
            column=8,
            message_contains='(no automatic fix: choosing a lifetime is a decision',
        ),
        # A lock handed back to the caller is held there: still one without a lifetime.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def job_lock(job):
                lock = r.lock(f"lock:{job}")
                return lock
        """,
            line=7,
            message_contains="has no timeout",
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        key_text = context.model.key_text
        reported: set[int] = set()
        at: set[tuple[int, int]] = set()
        for lease in context.model.leases:
            for claim in lease.claims:
                if claim.has_lifetime or id(claim.call) in reported:
                    continue
                reported.add(id(claim.call))  # one report for a call that claims several keys (`msetnx`)
                later = [e for e in lease.expiries if e.scope is claim.scope and claim.start <= e.start]
                if not later and claim.expiry_after is not None:
                    later = [claim.expiry_after]  # in the module's own function that claims
                key = key_text(claim)
                if later:
                    expire = later[0]
                    message = (
                        f"Lease `{key}` gets its lifetime from a second call (`{expire.method}`): "
                        "a crash between the two leaves a claim that never expires"
                    )
                    try:
                        fix = context.fixer.merge_lifetime(claim, expire)
                    except NoFix as why:
                        fix = None
                        message += f" (no automatic fix: {why})"
                    found = self.at_event(claim, message, fix)
                else:
                    why = claim.spec.no_lifetime or claim.store.no_lifetime or "a crashed holder keeps it forever"
                    found = self.at_event(claim, f"Lease `{key}` is claimed without a lifetime: {why} ({NO_LIFETIME})")
                at.add((found.start.line, found.start.column))
                yield found
        for claim, expire in context.model.split_lifetimes:
            # A claim helper's own `setnx`, then `expire`: reported once, there, for all its callers.
            if id(claim.call) in reported or (claim.start.line, claim.start.column) in at:
                continue
            key = key_text(claim)
            message = (
                f"Lease `{key}` gets its lifetime from a second call (`{expire.method}`): "
                "a crash between the two leaves a claim that never expires"
            )
            try:
                fix = context.fixer.merge_lifetime(claim, expire)
                # No lease in sight: the second call may refresh a key held already (a sliding lifetime).
                fix = Fix(fix.message, fix.edits, Applicability.UNSAFE)
            except NoFix as why:
                fix = None
                message += f" (no automatic fix: {why})"
            yield self.at_event(claim, message, fix)
        for lock in context.model.locks:
            # A test's lock object is the test's own (a test of the lock library, or of the code that
            # takes it), held for the test alone: no lease another worker waits on.
            if not lock.has_lifetime and not lock.scope.is_test:
                name = key_text(lock) if lock.key is not None else "the lock"
                yield self.at_node(
                    context,
                    lock.call,
                    f"Lock `{name}` has no timeout: a crashed holder keeps it forever ({NO_LIFETIME})",
                )


