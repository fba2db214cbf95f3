from __future__ import annotations

from typing import Iterator

import libcst as cst

from leaselint.diagnostics import Diagnostic
from leaselint.rule import Context, Invalid, Rule, Valid


class ClaimAlwaysSucceeds(Rule):
    """
    ## What it does
    Reports a claim that cannot say "somebody else holds it": the result of an
    NX claim or `add` never tested (a bare statement, or assigned and never
    read, or read only by an `if not got:` with no `else` that only logs or
    prints and lets the job run; DynamoDB's conditional put and MongoDB's
    insert answer by raising, and are not reported); `self.acquire()` thrown away (a `__enter__` that
    enters whatever the answer) where the class's `acquire` claims and can
    return False, unless only a test of its own parameters leads there
    (`if not blocking: return False`), a base class's `__enter__` calling the
    `acquire` its one subclass writes, or `lock.acquire()` thrown away on an
    object of such a class, made in the module or imported from another
    module of the run; a claim helper of the module or the run that answers
    whether it got the lease (`if result: return True`, retried) called as a
    bare statement, and so is a claim written as a lambda bound to a name
    (`acquire_lock = lambda: cache.add(...)`, then `acquire_lock()`);
    pymemcache's `add` on a client with the default `noreply` (it
    returns True even when the key exists), and Django's `cache.add` with a
    literal timeout below one second.

    ## Why is this bad?
    The claim is the whole point of the lease: when its answer is ignored,
    every worker runs the job.

    1. Worker A claims `lock:job` and runs the job.
    2. Worker B's claim fails, but B never looks at the answer and runs the
       job too.

    Django's Redis and memcached cache backends cut timeouts to whole
    seconds: `cache.add(k, v, 0.5)` stores nothing (a 0 s lifetime) and still
    returns True, to every caller.

    ## Example
    ```python
    r.set(key, token, nx=True, ex=30)
    work()
    ```

    ## Use instead
    ```python
    if not r.set(key, token, nx=True, ex=30):
        return
    work()
    ```

    ## Fix safety
    pymemcache: the fix passes `noreply=False`, so `add` waits for the
    server's answer (**safe**). Otherwise there is no automatic fix: what to
    do when the lease is held (skip, retry, wait) is the program's decision.

    ## Without an automatic fix
    - An upsert whose filter names only the key: ask for a free or expired
      holder in the filter too (`{"_id": key, "expires": {"$lt": now}}`),
      whose duplicate key then says "held".
    """

    code = "LL008"
    name = "claim-always-succeeds"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL008/
        # The claim is queued on a pipeline: its answer is `acquired`, from execute(), and is tested.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def begin(req_id, body_hash):
                pipe = r.pipeline(transaction=False)
                pipe.set(f"idem:{req_id}", body_hash, nx=True, ex=60)
                pipe.get(f"idem:{req_id}:resp")
                acquired, cached = pipe.execute()
                if not acquired:
                    return "busy", cached
                try:
                    return "proceed", handle(req_id)
                finally:
                    r.delete(f"idem:{req_id}")
        """
        ),
        # The client's options come from a dict: they may set default_noreply=False.
        Valid(
            """\
            from pymemcache.client.base import Client

            OPTIONS = {"connect_timeout": 1, "timeout": 1, "default_noreply": False}
            mc = Client(("127.0.0.1", 11211), **OPTIONS)


            def run(job, token):
                if mc.add("lock:" + job, token, 60):
                    try:
                        work(job)
                    finally:
                        mc.delete("lock:" + job)
        """
        ),
    ]
    INVALID = [  # more in tests/cases/LL008/
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                r.set(f"lock:{job}", token, nx=True, ex=30)
                try:
                    work(job)
                finally:
                    r.delete(f"lock:{job}")
        """,
            line=7,
            column=5,
            message_contains='The answer of the claim of `f"lock',
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                ok = r.set(f"lock:{job}", token, nx=True, ex=30)
                work(job)
                r.delete(f"lock:{job}")
        """,
            line=7,
            column=10,
            message_contains='The answer of the claim of `f"lock',
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        for claim in context.model.claims:
            if claim.spec.needs_reply and claim.usage == "expression" and not _reply_requested(claim, code_of):
                argument, setting = claim.spec.needs_reply
                yield self.at_event(
                    claim,
                    f"`{claim.method}` without `{argument}=False` on a client without `{setting}=False` "
                    "returns True even when the key exists: every worker gets the lease",
                    None if claim.no_fix else context.fixer.add_keyword(claim.call, f"{argument}=False"),
                )
        for lease in context.model.leases:
            for claim in lease.claims:
                # A pipelined claim's answer arrives in execute(), which leaselint does not follow.
                untested = not claim.in_pipeline and (
                    claim.usage == "statement" or (claim.result_name and claim.result_reads == 0) or claim.logged_only
                )
                answered_by_raising = claim.spec.answers_by_raising or claim.caught & set(claim.store.duplicate_errors)
                if claim.document is not None and claim.document.overwrites:
                    yield self.at_event(
                        claim,
                        f"The upsert claiming `{key_text(claim)}` never fails: its filter names only the key, so "
                        "it writes over whoever holds it",
                    )
                elif untested and not answered_by_raising:
                    what = "is only logged" if claim.logged_only else "is never tested"
                    yield self.at_event(claim, f"The answer of the claim of `{key_text(claim)}` {what}: the job runs even when it is held")
                elif claim.spec.whole_seconds and _below_one_second(claim.lifetime):
                    yield self.at_node(
                        context,
                        claim.lifetime,
                        f"A lifetime below one second is cut to 0 s: the claim of `{key_text(claim)}` stores nothing "
                        "and still succeeds for every worker",
                    )


        for call, _scope, lock, logged in context.model.untested_acquires:
            what = "is only logged" if logged else "is never tested"
            yield self.at_node(
                context,
                call,
                f"The answer of this `acquire`, which gives up instead of waiting, {what}: "
                "the code after it runs even when another worker holds the lock",
            )
        for call, _scope, method, line in context.model.ignored_claims:
            yield self.at_node(
                context,
                call,
                f"`{method}` can answer that it did not get the lease ({line if isinstance(line, str) else f'line {line}'}), and this call throws the "
                "answer away: the code after it runs without the lease",
            )


def _reply_requested(claim, code_of) -> bool:
    argument, setting = claim.spec.needs_reply
    # `**options` may hold the argument or the setting: leaselint cannot tell, so it does not report.
    if any(a.keyword is not None and a.keyword.value == argument or a.star == "**" for a in claim.call.args):
        return True
    client = claim.client_call
    return client is not None and any(
        a.keyword is not None and a.keyword.value == setting and code_of(a.value) == "False" or a.star == "**"
        for a in client.args
    )


def _below_one_second(node: cst.BaseExpression | None) -> bool:
    if isinstance(node, (cst.Integer, cst.Float)):
        try:
            return 0 <= float(node.evaluated_value) < 1
        except (TypeError, ValueError):
            return False
    return False


