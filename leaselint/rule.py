"""What a rule is: a code, a name, its documentation, its cases and a small check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator

import libcst as cst

from leaselint.diagnostics import HANDED_KEY, Applicability, Diagnostic, Fix, Position, Related
from leaselint.model.events import Event, LeaseModel
from leaselint.rewrite import LeaseFixer, NoFix


@dataclass(frozen=True)
class Valid:
    """Code the rule must not report."""

    code: str


@dataclass(frozen=True)
class Invalid:
    """Code the rule reports at `line` (and `column`, 1-based, when given).

    `fixed` is the whole text after `--fix --unsafe-fixes`; None means no fix is written.
    """

    code: str
    line: int
    column: int | None = None
    fixed: str | None = None
    applicability: Applicability | None = None
    message_contains: str | None = None


@dataclass
class Context:
    model: LeaseModel
    fixer: LeaseFixer


class Rule:
    """Subclasses set the class attributes and write `check`; the docstring is the user documentation."""

    code: ClassVar[str]
    name: ClassVar[str]
    # "always", "sometimes" or "none": what --list-rules shows.
    fix_availability: ClassVar[str] = "none"
    VALID: ClassVar[list[Valid]] = []
    INVALID: ClassVar[list[Invalid]] = []

    def check(self, context: Context) -> Iterator[Diagnostic]:
        raise NotImplementedError

    def at_event(self, event: Event, message: str, fix: Fix | None = None) -> Diagnostic:
        if event.inside is not None:
            # Made by the module's own helper: reported at the helper's store call, which is what
            # to change, with the call that hands it this lease's key.
            related = (Related(event.start, event.end, HANDED_KEY),)
            return Diagnostic(self.code, message, *event.inside, fix, self.name, related)
        return Diagnostic(self.code, message, event.start, event.end, fix, self.name)

    def at_node(
        self, context: Context, node: cst.CSTNode, message: str, fix: Fix | None = None, related: tuple = ()
    ) -> Diagnostic:
        return Diagnostic(self.code, message, *span(context, node), fix, self.name, related)


def span(context: Context, node: cst.CSTNode) -> tuple[Position, Position]:
    where = context.model.positions[node]
    return Position(where.start.line, where.start.column), Position(where.end.line, where.end.column)


def weak_token_findings(rule: Rule, context: Context, kind: str, problem: str) -> Iterator[Diagnostic]:
    """A weak holder token is reported at the claim: at its value where that is on the claim's first
    line, else at the claim's call (a document over several lines, a transaction's operations made
    before it), with the place the value was made, or the arguments callers pass for it, as related
    locations. A claim made inside a helper of another module is reported at each caller's argument
    (shared by LL002 and LL003)."""
    seen: set[int] = set()
    makers: set[int] = set()
    for lease, claim, origin in context.model.token_origins():
        if origin.kind != kind and origin.also is not None:
            origin = origin.also
        if origin.kind != kind or claim.value is None or id(claim.value) in seen:
            continue
        if claim.via is not None and origin.node is not None and id(origin.node) in makers:
            continue  # one value, stored by a helper's claim and by its callers' summarised claims
        if origin.node is not None:
            makers.add(id(origin.node))
        key = context.model.key_text(claim)
        message = f"The holder token of lease `{key}` comes from {origin.reason}: {problem}"
        try:
            if lease is None:
                raise NoFix(f"the claim is made inside {claim.via}" if claim.via else "its release is out of sight")
            fix = context.fixer.fresh_token(lease, claim)
        except NoFix as why:
            fix = None
            message += f" (no automatic fix: {why})"
        stored = span(context, claim.value)
        if origin.at_calls and claim.via is not None:
            # A helper of another module claims: each caller writes the value into its call
            # (`memcache_lock(key, task.app.oid)`).
            for node in origin.arguments:
                if id(node) not in seen:
                    seen.add(id(node))
                    related = (Related(*stored, f"the claim of `{key}` stores it here"),)
                    yield rule.at_node(context, node, message, fix, related)
            continue
        seen.add(id(claim.value))
        seen.update(id(node) for node in origin.arguments)
        related: tuple = ()
        for node in origin.arguments or ((origin.node,) if origin.node is not None else ()):
            made = span(context, node)
            if not (stored[0] <= made[0] and made[1] <= stored[1]):
                related += (Related(*made, "a caller passes the value here" if origin.at_calls else "the value is made here"),)
        called = span(context, claim.call)
        at = claim.value
        # (A claim made inside a helper is reported at the helper's own store call, its value's.)
        if claim.via is None and not (called[0] <= stored[0] <= called[1]):
            # The value sits outside the call (a transaction's operations, `put_item(**args)`).
            at = claim.call
            related += (Related(*stored, "the value is written here"),)
        elif claim.via is None and stored[0].line != called[0].line:
            # A document written over several lines (`insert_one({..., "owner": HOST})`).
            at = claim.call
            related += (Related(*stored, "the value is stored here"),)
        yield rule.at_node(context, at, message, fix, related)
    model = context.model
    handed = [
        (token, scope, None, f"The holder given to `{_method(call)}` for `{_named(model, key)}`", "the lock's own API takes the holder")
        for token, call, scope, key in model.api_tokens
    ] + [
        (token, scope, lock.key_shape, f"The holder token of lock `{_named(model, lock.key)}`", "other code may read the lock's token back")
        for token, call, scope, lock in model.lock_tokens
    ]
    for token, scope, key_shape, subject, why in handed:
        # Tokens handed to a lock object or a lock API of no fix: where each comes from.
        origin = model.origins.origin(token, scope, key_shape)
        if origin.kind != kind and origin.also is not None:
            origin = origin.also
        if origin.kind != kind or id(token) in seen:
            continue
        seen.add(id(token))
        message = f"{subject} comes from {origin.reason}: {problem} (no automatic fix: {why})"
        related = ()
        if origin.node is not None:
            made, stored = span(context, origin.node), span(context, token)
            if not (stored[0] <= made[0] and made[1] <= stored[1]):
                related = (Related(*made, "the value is made here"),)
        yield rule.at_node(context, token, message, None, related)


def _method(call) -> str:
    return call.func.attr.value if type(call.func) is cst.Attribute else "the call"


def _named(model, key) -> str:
    return model.code_of(key) if key is not None else "the lock"
