from __future__ import annotations

from typing import Iterator

import libcst as cst

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class CheckThenClaim(Rule):
    """
    ## What it does
    Reports a lease claimed by reading and then writing: a read of the key
    (`get`, `exists`, Django's `cache.get` or `cache.has_key`, Flask-Caching's
    `cache.has`) whose `if` lets a plain `set`/`setex`/`psetex` (`cache.set`)
    of the same key run only when the key was absent (or a loop that waits
    for the key to be gone and leaves by `break` when it is, the write after
    it), outside a WATCH/MULTI transaction. The read and the write may each be
    made through the project's own helper (`if is_job_active(job_id): raise`,
    then `set_job_active(job_id)`, which writes `"1"`); the finding is then at
    the helper's write when the helper is the module's own and does more than
    that one call, else at the caller's call. It is a lease when the key is also released (a delete in the
    same lease's life) and the value written is one a claim stores (a
    constant, a token, a clock, or a name for a holder: `token`, `owner`,
    `job.worker_id`), not a computed result: a cache filled on a
    miss is not reported, nor a default put in place when missing (a branch
    that holds only the write). For speed, files are looked at for this shape
    only when they name a lock somewhere (`lock` in any case: a key, a
    function, a class).

    ## Why is this bad?
    The read and the write are two steps, and another worker can run between
    them:

    1. Workers A and B both run `r.exists("lock:job")`: both find it absent.
    2. A writes `lock:job` and starts the job.
    3. B writes `lock:job` too (over A's value) and starts the same job.

    Both think they hold the lease; A's release then frees B's claim.

    ## Example
    ```python
    if r.exists(key):
        return False
    r.set(key, token, ex=600)
    ```

    ## Use instead
    ```python
    if not r.set(key, token, nx=True, ex=600):
        return False
    ```

    ## Fix safety
    The fix writes the store's conditional create with the write's own
    arguments: `set(..., nx=True)` (`setex`/`psetex` become `set(..., nx=True,
    ex=/px=)`) on Redis, `cache.add(...)` on Django's cache and
    Flask-Caching. A write inside `if <absent>:` moves into the test; a write
    after `if <present>: return` is wrapped in `if not <claim>:` with the same
    early exit (the read stays as a fast path). **Safe** when the read asks
    presence itself (`exists`, `has_key`, a compare with None); **unsafe** when
    it tests the truth of the stored value (`if not r.get(key)`), which also
    took a stored `""` or `0` as free. There is no fix when code runs in the
    branch before the write, or the write passes other options (`xx`,
    `keepttl`).

    ## Without an automatic fix
    - A branch that runs code before the write: move the write first, then
      claim with the conditional create.
    - A claim that waits in a loop until the key is gone: loop on the
      conditional create instead.
    - A read and a write made through the project's own helpers (`if
      is_job_active(job_id): raise`, then `set_job_active(job_id)`): make the
      writing helper claim with the conditional create and hand back its
      answer, and have the caller act on that answer instead of the read.
    - A read that lets the key's own holder through (`if holder: if holder
      != me: return`, then the write): claim with the conditional create,
      and refresh one's own claim with a token-checked renewal.
    """

    code = "LL009"
    name = "check-then-claim"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL009/
        # A cache filled on a miss: the value written is what it computed.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def profile(user):
                key = f"profile:{user}"
                value = r.get(key)
                if value is None:
                    value = render(user)
                    r.set(key, value, ex=300)
                return value


            def forget(user):
                r.delete(f"profile:{user}")
        """
        ),
        # WATCH, the read, MULTI, then the write: the transaction fails if the key changed.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def enqueue(query, job_id):
                key = f"query-lock:{query}"
                with r.pipeline() as pipe:
                    pipe.watch(key)
                    if pipe.get(key) is None:
                        pipe.multi()
                        pipe.set(key, job_id, ex=600)
                        pipe.execute()
                        return True
                return False


            def done(query):
                r.delete(f"query-lock:{query}")
        """
        ),
    ]

    INVALID = [  # more in tests/cases/LL009/
        # The read, then an early exit, then the plain write.
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def index_site(site):
                key = f"crawl:{site}:lock"
                if r.exists(key):
                    return False
                token = secrets.token_hex(16)
                r.set(key, token, ex=600)
                try:
                    crawl(site)
                finally:
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=13,
            column=5,
            fixed="""\
            import secrets

            import redis

            r = redis.Redis()


            def index_site(site):
                key = f"crawl:{site}:lock"
                if r.exists(key):
                    return False
                token = secrets.token_hex(16)
                if not r.set(key, token, ex=600, nx=True):
                    return False
                try:
                    crawl(site)
                finally:
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='Lease `key` is claimed by reading it (`exists`) and then writing it (`set`): two workers can both find it free and both claim it',
        ),
        # Django's cache: the write inside the branch that found no holder.
        Invalid(
            """\
            import uuid

            from django.core.cache import cache


            class CronLock:
                def __init__(self, name, timeout=3600):
                    self.key = f"cron-lock:{name}"
                    self.timeout = timeout

                def lock(self):
                    if cache.get(self.key) is None:
                        cache.set(self.key, uuid.uuid4().hex, self.timeout)
                        return True
                    return False

                def release(self):
                    cache.delete(self.key)
        """,
            line=13,
            column=13,
            fixed="""\
            import uuid

            from django.core.cache import cache


            class CronLock:
                def __init__(self, name, timeout=3600):
                    self.key = f"cron-lock:{name}"
                    self.timeout = timeout

                def lock(self):
                    if cache.add(self.key, uuid.uuid4().hex, self.timeout):
                        return True
                    return False

                def release(self):
                    cache.delete(self.key)
        """,
            applicability=Applicability.SAFE,
            message_contains='Lease `self.key` is claimed by reading it (`get`) and then writing it (`set`): two workers can both find it free and both claim it',
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        key_text = context.model.key_text
        for lease in context.model.leases:
            for claim in lease.claims:
                check = claim.read_check
                if check is None:
                    continue
                func = check.read.func
                # A store's read (`get`), or the project's helper that makes it (`is_job_active`).
                read = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "read")
                message = (
                    f"Lease `{key_text(claim)}` is claimed by reading it (`{read}`) and then writing it "
                    f"(`{claim.method}`): two workers can both find it free and both claim it"
                )
                try:
                    fix = context.fixer.claim_in_one_step(claim)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(claim, message, fix)
