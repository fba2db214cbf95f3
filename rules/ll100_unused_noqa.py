from __future__ import annotations

import re
from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position
from leaselint.rule import Context, Invalid, Rule, Valid
from leaselint.source import LineIndex
from leaselint.suppress import Noqa, rewritten

_OURS = re.compile(r"LL[0-9]+")


class UnusedNoqa(Rule):
    """
    ## What it does
    Reports a `# noqa: LLxxx` code that hides nothing: the rule it names
    does not report that line (any more), or no rule has that code. Codes of
    other linters (`E501`, `S105`) and a bare `# noqa` are left alone.

    It is not selected by default: turn it on with `extend-select = ["LL100"]`
    or `--extend-select LL100`. The rules a directive names are checked even
    when they are not selected, so the answer does not depend on the selection.

    ## Why is this bad?
    A team adopting leaselint marks today's findings with `# noqa` (see
    `--add-noqa`) and fixes them over time. A directive left behind after its
    lease was fixed would silently hide the next bug written on that line.

    ## Example
    ```python
    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):  # noqa: LL001
        log.warning("lease %s lost", key)
    ```

    ## Use instead
    ```python
    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
        log.warning("lease %s lost", key)
    ```

    ## Fix safety
    The fix is safe: it removes the unused codes from the directive, or the
    whole directive when none is left; words after it stay a comment.
    """

    code = "LL100"
    name = "unused-noqa"
    fix_availability = "always"

    VALID = [
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.delete(f"lock:{job}")  # noqa: LL001
        """
        ),
        Valid("x = 1  # noqa\ny = 2  # noqa: E501\n"),
        Valid('MARKER = "# noqa: LL001"\n'),
    ]
    INVALID = [
        Invalid(
            "x = 1  # noqa: LL001\n",
            line=1,
            column=8,
            message_contains="unused: `LL001`",
            fixed="x = 1\n",
            applicability=Applicability.SAFE,
        ),
        Invalid(
            "x = 1  # noqa: E501, LL001\n",
            line=1,
            column=8,
            fixed="x = 1  # noqa: E501\n",
        ),
        Invalid(
            "x = 1  # noqa: LL999 kept for the audit\n",
            line=1,
            message_contains="unknown: `LL999`",
            fixed="x = 1  # kept for the audit\n",
        ),
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.delete(f"lock:{job}")  # noqa: LL000, LL001
        """,
            line=14,
            column=38,
            message_contains="unused: `LL000`",
            fixed="""\
            import secrets

            import redis

            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.delete(f"lock:{job}")  # noqa: LL001
        """,
        ),
    ]

    def check(self, context: Context) -> Iterator[Diagnostic]:
        # The engine calls `stale` once the other rules have run: their findings are what it needs.
        return iter(())

    def stale(
        self, noqa: dict[int, Noqa], used: dict[int, set[str]], unchecked: set[str], known: set[str], index: LineIndex
    ) -> list[Diagnostic]:
        """One finding per directive naming leaselint codes that hid nothing on its line."""
        found = []
        for line, directive in sorted(noqa.items()):
            hid = used.get(line, set())
            ours = [c for c in directive.codes if _OURS.fullmatch(c) and c != self.code and c not in unchecked]
            unused = [c for c in ours if c in known and c not in hid]
            unknown = [c for c in ours if c not in known]
            if not unused and not unknown:
                continue
            parts = [f"{label}: {', '.join(f'`{c}`' for c in codes)}" for label, codes in
                     (("unused", unused), ("unknown", unknown)) if codes]
            keep = [c for c in directive.codes if c not in unused and c not in unknown]
            start, end, content = rewritten(directive, keep, index.line_text(line))
            title = "Remove the unused `noqa` directive" if not keep else "Remove the unused codes from the `noqa` directive"
            fix = Fix(title, (Edit(Position(line, start), Position(line, end), content),), Applicability.SAFE)
            found.append(
                Diagnostic(
                    self.code,
                    f"unused `noqa` directive ({'; '.join(parts)})",
                    Position(line, directive.start),
                    Position(line, directive.end),
                    fix,
                    self.name,
                )
            )
        return found
