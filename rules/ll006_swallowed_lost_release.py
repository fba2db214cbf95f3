from __future__ import annotations

from typing import Iterator

import libcst as cst

from leaselint.diagnostics import Applicability, Diagnostic, Related
from leaselint.model.call_parts import SILENT_SCRIPT
from leaselint.model.pairing import clears_before_claim, slot_taken
from leaselint.model.traverse import nodes
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid, span


class SwallowedLostRelease(Rule):
    """
    ## What it does
    Reports a token-checked release whose outcome is thrown away: the result
    of a compare-and-delete script, `DELIFEQ` or `delex` used as a bare
    statement (or through a helper of the module or the run that hands the
    answer back: the store's answer, its truth by literals, or a WATCH/MULTI
    transaction's `return True`/`return False` after a compare, where the
    helper itself tells no one else: no log above info, no error tracker, no
    print), or of a script that gives back a
    semaphore's slot (`zrem`,
    `srem`, `hdel` of the holder's member); a release script that returns
    nothing (no fix); `except LockNotOwnedError: pass` (or `LockError`, or a
    project's own error named for a lost lock: `LockLost`,
    `LeaseExpiredError`; `...`, `continue`) around `lock.release()`;
    `contextlib.suppress(LockError)` around a lock's block or release; each
    points at the release it drops. A handler that only returns, or logs at
    debug level, drops the error as well; so does `except Exception: pass`
    (or a bare `except:`) around the release of a lock object the module
    makes. The same goes for an `if` that tests the release's answer for a
    lost lease (`if not release(keys=[k], args=[t]):`) and then only passes,
    returns or logs at debug level; and a `self.release()` thrown away (in
    `__exit__`, say, or another module's `lock.release()`) where the class's
    `release` (or `release_lock`, `unlock`) returns that answer; and an
    answer given a name that nothing reads (`status = release(...)`); and
    `except LockError: return` around `with r.lock(..., timeout=...)`, which
    takes the release's `LockNotOwnedError` too (no fix). Logging at info
    level or above, counting, re-raising, returning the result, or any use
    of it is handling. Not reported: a release in a function that takes the
    lease (`acquire` clearing its own leftover first), where finding nothing
    is usual.

    ## Why is this bad?
    A release that deleted nothing is the only evidence that the lease was
    lost: its lifetime ran out while the job ran, and another worker may have
    run the same job at the same time. Dropping it hides the overlap, and the
    lifetime that is too short stays too short.

    1. Worker A's job outlives its lease; worker B claims and runs the job too.
    2. A's release compares its token, finds B's, and deletes nothing.
    3. The result (0, or `LockNotOwnedError`) is discarded: nobody learns that
       the job ran twice.

    ## Example
    ```python
    try:
        lock.release()
    except LockNotOwnedError:
        pass
    ```

    ## Use instead
    ```python
    try:
        lock.release()
    except LockNotOwnedError as exc:
        logger.warning("lease lost before release: %s", exc)
    ```

    ## Fix safety
    **Safe**: the result is checked and a warning naming the key is logged
    (the module's logger is reused when it has one); for a swallowed lock
    error, the error is bound and logged. Every fix leaselint writes handles
    the outcome already, so its own output never triggers this rule. A log at
    debug level becomes a warning with the same message; before a `return` or
    `continue` the warning is added and the handler still leaves (the same in
    an `if` that tests the release's answer and does nothing); a bare
    `except:` logs with `exc_info=True`. A `suppress(LockError)` has no
    automatic fix: replace it with a handler.
    """

    code = "LL006"
    name = "swallowed-lost-release"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL006/
        Valid(
            """\
            import redis
            from redis.exceptions import LockNotOwnedError


            class JobLock:
                def __init__(self, client, name):
                    self.lock = client.lock(f"job:{name}", timeout=30)

                def acquire(self):
                    return self.lock.acquire(blocking=False)

                def release(self):
                    try:
                        self.lock.release()
                    except LockNotOwnedError:
                        return False
                    return True
        """
        ),
    ]
    INVALID = [  # more in tests/cases/LL006/
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def nightly():
                lock = r.lock("nightly", timeout=600)
                if not lock.acquire(blocking=False):
                    return
                try:
                    run_all()
                finally:
                    try:
                        lock.release()
                    except:
                        pass
        """,
            line=15,
            column=9,
            fixed="""\
            import logging

            import redis

            r = redis.Redis()


            def nightly():
                lock = r.lock("nightly", timeout=600)
                if not lock.acquire(blocking=False):
                    return
                try:
                    run_all()
                finally:
                    try:
                        lock.release()
                    except:
                        logging.getLogger(__name__).warning(
                            "lease lost before release", exc_info=True
                        )
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis
            from redis.exceptions import LockNotOwnedError

            r = redis.Redis()


            def sync(account):
                lock = r.lock(f"sync:{account}", timeout=30)
                if not lock.acquire(blocking=False):
                    return
                try:
                    pull(account)
                finally:
                    try:
                        lock.release()
                    except LockNotOwnedError:
                        return
        """,
            line=16,
            column=16,
            fixed="""\
            import logging

            import redis
            from redis.exceptions import LockNotOwnedError

            r = redis.Redis()


            def sync(account):
                lock = r.lock(f"sync:{account}", timeout=30)
                if not lock.acquire(blocking=False):
                    return
                try:
                    pull(account)
                finally:
                    try:
                        lock.release()
                    except LockNotOwnedError as exc:
                        logging.getLogger(__name__).warning("lease lost before release: %s", exc)
                        return
        """,
            applicability=Applicability.SAFE,
        ),
    ]

    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        leased = {id(release) for lease in context.model.leases for release in lease.releases}
        for release in context.model.releases:
            if not release.checked or release.in_pipeline or not release.spec.lost_when:
                continue
            silent = release.no_fix == SILENT_SCRIPT
            if release.usage == "expression" and release.dropped is None and release.unread is None and not silent:
                continue
            # The project's checked release (`release_lock(...)`) answers to be used; a test calling it is no lease.
            evident = not release.scope.is_test if release.via is not None else release.spec.self_evident and (not release.slot or slot_taken(release, context.model.claims))
            if not (evident or id(release) in leased):
                continue
            if release.after_failed_claim is not None or clears_before_claim(release):
                continue  # a cleanup where the claim failed, or before the claim: no lease was held to lose
            what = f"token-checked release of `{key_text(release)}`"
            if silent:
                yield self.at_event(release, f"The {what} runs a script that returns nothing: a lost lease goes unnoticed (no automatic fix: {SILENT_SCRIPT})", None)
                continue
            if release.unread is not None:
                fix = _fix(context.fixer.log_unread_release, release)
                message = f"The result of the {what} is kept in `{release.unread}`, which nothing reads: a lost lease goes unnoticed"
                yield self.at_event(release, message, fix)
                continue
            if release.dropped is not None:
                fix = _fix(context.fixer.log_dropped_release, release)
                if _logs_debug(release.dropped):
                    message = f"The {what} reports a lost lease only at debug level: production never sees it"
                else:
                    message = f"The {what} reports a lost lease to a branch that does nothing: it goes unnoticed"
                yield self.at_event(release, message, fix)
                continue
            fix = _fix(context.fixer.log_lost_release, release)
            if release.via:
                what += f" by {release.via}, which returns it,"
            yield self.at_event(release, f"The result of the {what} is thrown away: a lost lease goes unnoticed", fix)
        for call, _scope, method, line in context.model.ignored_releases:
            yield self.at_node(
                context,
                call,
                f"`{method}` answers whether the lease was still held ({line if isinstance(line, str) else f'line {line}'}), and this call throws the "
                "answer away: a lost lease goes unnoticed",
            )
        for node in context.model.swallowed:
            call = context.model.swallowed_releases.get(id(node))
            related = (Related(*span(context, call), "the release whose lost lease it drops"),) if call is not None else ()
            if isinstance(node, cst.ExceptHandler):
                fix = _fix(context.fixer.log_swallowed_error, node)
                caught = f"`{code_of(node.type)}`" if node.type is not None else "A bare `except:`"
                if _logs_debug(node):
                    message = f"{caught} from a lock release is logged only at debug level: production never sees a lost lease"
                else:
                    message = f"{caught} from a lock release is swallowed: a lost lease goes unnoticed"
                yield self.at_node(context, node.type or node, message, fix, related)
            else:
                what = f"`{code_of(node.item)}` hides a lost lease: log the lock error instead"  # type: ignore[attr-defined]
                yield self.at_node(context, node, what, related=related)
        for h in context.model.with_swallows:
            yield self.at_node(context, h.type, f"`{code_of(h.type)}` around a `with` of a lock swallows its release's lost lease too: catch `LockNotOwnedError` apart")


def _fix(make, node):
    try:
        return make(node)
    except NoFix:
        return None


def _logs_debug(node: cst.If | cst.ExceptHandler) -> bool:
    return any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "debug"
        for n in nodes(node.body, trivia=False)
    )
