from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Diagnostic
from leaselint.rule import Context, Invalid, Rule, Valid


class TokenBesideClaim(Rule):
    """
    ## What it does
    Reports a lease whose holder is recorded under a second key next to the
    claim: `set("claim:x", 1, nx=True, ...)` and then
    `set("claim:x:owner", token)`.

    ## Why is this bad?
    The claim and the record of its holder are two keys with two lifetimes and
    two writes. They expire, are evicted or are overwritten out of step:

    1. Worker A claims `claim:x` and writes `claim:x:owner = A`.
    2. `claim:x` expires; Worker B claims it and writes `claim:x:owner = B`,
       or crashes between the two writes and leaves `A` there.
    3. A checks `claim:x:owner` before releasing: what it reads says nothing
       reliable about who holds `claim:x` now.

    A token-checked release can only be atomic when the token is the claim's
    own value.

    ## Example
    ```python
    if r.set(f"claim:{job}", 1, nx=True, ex=30):
        r.set(f"claim:{job}:owner", token, ex=30)
    ```

    ## Use instead
    ```python
    if r.set(f"claim:{job}", token, nx=True, ex=30):
        ...
    ```

    ## Fix safety
    There is no automatic fix: the code that reads the second key must change
    too. Store the token as the claim's value and release with a
    compare-and-delete (LL001).
    """

    code = "LL007"
    name = "token-beside-claim"

    VALID = [
        Valid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                if r.set(f"claim:{job}", token, nx=True, ex=30):
                    r.set(f"result:{job}:started", 1, ex=30)
                    work(job)
                    r.delete(f"claim:{job}")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                if r.set(f"claim:{job}", 1, nx=True, ex=30):
                    r.set(f"claim:{job}:owner", token, ex=30)
        """
        ),
    ]
    INVALID = [
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                if r.set(f"claim:{job}", 1, nx=True, ex=30):
                    r.set(f"claim:{job}:owner", token, ex=30)
                    try:
                        work(job)
                    finally:
                        r.delete(f"claim:{job}", f"claim:{job}:owner")
        """,
            line=8,
            column=9,
            message_contains='The holder of lease `f"claim',
        ),
        Invalid(
            """\
            import redis


            class Lock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = "lock:" + name

                def acquire(self, token):
                    if not self.client.setnx(self.key, "1"):
                        return False
                    self.client.setex(self.key + ":holder", 30, token)
                    return True

                def release(self):
                    self.client.delete(self.key)
        """,
            line=12,
            column=9,
            message_contains='The holder of lease `self.key` is written to a second key `self.key + "',
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        key_text = context.model.key_text
        for lease in context.model.leases:
            if not lease.side_writes:
                continue
            claim_key = key_text(lease.claims[0])
            for write in lease.side_writes:
                yield self.at_event(
                    write,
                    f"The holder of lease `{claim_key}` is written to a second key `{key_text(write)}`: "
                    "the two can expire or change out of step; store the token as the claim's own value",
                )
