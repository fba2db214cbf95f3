from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class CheckThenDelete(Rule):
    """
    ## What it does
    Reports a lease release that reads the key, compares the value in the
    client, and deletes in a second step: `if r.get(k) == token: r.delete(k)`,
    through a variable, with `.decode()`, with an early return
    (`if r.get(k) != token: return`), or `GETDEL` followed by a compare. The
    read and the delete may be the project's own functions (`cache_get(key)`,
    `cls.delete_lock(key)`), and the compare a clock check of a stored time
    (`now > int(stamp) + ttl`, reported with no fix).

    A `WATCH`/`MULTI`/`EXEC` transaction that queues the delete after
    `multi()` is correct and not reported. A `watch()` without `multi()` before
    the delete is reported: after `watch()` a redis-py pipeline runs commands
    at once, so nothing protects the delete.

    ## Why is this bad?
    The compare and the delete are two round trips; the lease can change hands
    between them:

    1. Worker A reads `lock:job`: it holds A's token.
    2. A pauses; the deadline passes; worker B claims `lock:job`.
    3. A deletes `lock:job`: it frees **B's** claim.
    4. Worker C claims `lock:job` and runs beside B.

    The gap is narrower than a blind delete's, not closed. `GETDEL` then
    compare deletes first and looks second: it always deletes.

    ## Example
    ```python
    if r.get(key) == token:
        r.delete(key)
    ```

    ## Use instead
    ```python
    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
        logger.warning("lease %s expired before release; another worker may hold it", key)
    ```

    ## Fix safety
    The fix is the compare-and-delete of LL001, done in one server step, with
    a lost lease logged. It uses the token the client-side check compared
    with, so it is **safe**; an `if` that only guarded the delete is replaced
    whole. Where the check's token cannot be told (a `GETDEL` whose value is
    compared), there is no automatic fix; nor where the check orders the
    stored value (`now < expires_at`, a clock check): that value is a time,
    not a token, and comparing it with `now` in the server would never match.
    In a `transaction(callback, key)` callback the fix queues the delete after
    `pipe.multi()`: the WATCH that `transaction` set then fails the EXEC when
    the key changed since the compare, and the callback runs again (**safe**).

    ## Without an automatic fix

    The reasons and what to do instead are those of LL001:
    `leaselint --explain LL001`.
    """

    code = "LL004"
    name = "check-then-delete"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL004/
        Valid(
            """\
            import redis

            r = redis.Redis(decode_responses=True)


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                def unlock(pipe):
                    if pipe.get(key) == token:
                        pipe.multi()
                        pipe.delete(key)

                r.transaction(unlock, key)
        """
        ),
        Valid(
            """\
            import redis
            from redis.exceptions import WatchError

            r = redis.Redis()


            def release(key, token):
                with r.pipeline() as pipe:
                    while True:
                        try:
                            pipe.watch(key)
                            if pipe.get(key) == token:
                                pipe.multi()
                                pipe.delete(key)
                                pipe.execute()
                                return True
                            pipe.unwatch()
                            return False
                        except WatchError:
                            continue


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)
        """
        ),
    ]
    INVALID = [  # more in tests/cases/LL004/
        Invalid(
            """\
            import redis

            r = redis.Redis(decode_responses=True)


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                def unlock(pipe):
                    if pipe.get(key) == token:
                        pipe.delete(key)

                r.transaction(unlock, key)
        """,
            line=13,
            column=13,
            fixed="""\
            import redis

            r = redis.Redis(decode_responses=True)


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                def unlock(pipe):
                    if pipe.get(key) == token:
                        pipe.multi()
                        pipe.delete(key)

                r.transaction(unlock, key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import time

            import redis

            r = redis.Redis()


            def run(name):
                key = f"lock:{name}"
                now = time.time()
                if not r.set(key, now + 30, nx=True, ex=30):
                    return False
                work()
                expires_at = r.get(key)
                if expires_at is not None and now < expires_at:
                    r.delete(key)
                return True
        """,
            line=16,
            column=9,
            message_contains="(no automatic fix: the release is guarded by ordering the stored value",
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        key_text = context.model.key_text
        for lease in context.model.leases:
            for release in lease.releases:
                check = release.check
                if check is None or release.deliberate:
                    continue
                if check.read is release:
                    message = (
                        f"Lease `{key_text(release)}` is deleted by `getdel` before its value is compared: "
                        "it frees whoever holds the lease"
                    )
                else:
                    message = (
                        f"Lease `{key_text(release)}` is compared in the client (`{check.read.method}` then "
                        f"compare) and released by `{release.method}` in a second step: it can change hands in between"
                    )
                try:
                    if check.read is release or check.token is None:
                        raise NoFix("compare and delete in one server step (LL001's compare-and-delete)")
                    fix = context.fixer.checked_release(lease, release)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(release, message, fix)
