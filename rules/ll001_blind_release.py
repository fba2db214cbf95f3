from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.model.keys import code_of
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class BlindRelease(Rule):
    """
    ## What it does
    Reports a lease released by an operation that does not check who holds it:
    `delete`, `unlink`, `getdel`, `execute_command("DEL", ...)` or a `delete`
    queued on a pipeline, on a key the same client claimed with a conditional
    create (`set(key, value, nx=True, ...)`, `setnx`, `SET ... NX`).

    Only leases are reported: a key that is both claimed and released in the
    module. A cache entry (`set(k, v, ex=60)` then `delete(k)`) and an
    idempotency marker (claimed, never released) are not.

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
    the release as a local or as an attribute on `self`. It is also unsafe in
    a pipeline, whose result arrives in `execute()`. When the claim is in
    another function, or the release deletes other keys too, there is no
    automatic fix and the message says why.

    ## References
    - Redis, "Distributed Locks with Redis": https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/
    - Martin Kleppmann, "How to do distributed locking" (fencing tokens)
    """

    code = "LL001"
    name = "blind-release"
    fix_availability = "sometimes"

    VALID = []
    INVALID = []

    def check(self, context: Context) -> Iterator[Diagnostic]:
        for lease in context.model.leases:
            for release in lease.releases:
                if release.checked:
                    continue
                message = (
                    f"`{release.method}` releases lease `{code_of(release.key)}` without checking the holder: "
                    "after its deadline it frees another worker's claim"
                )
                try:
                    fix = context.fixer.checked_release(lease, release)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(release, message, fix)


