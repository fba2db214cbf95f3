from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Diagnostic
from leaselint.rule import Context, Invalid, Rule, Valid


class UnparsableFile(Rule):
    """
    ## What it does
    Reports a file leaselint cannot read, decode or parse, with the reason and,
    for a syntax error, the line and column.

    ## Why is this bad?
    A file that cannot be parsed cannot be checked: a lease bug in it would go
    unseen. The run goes on with the other files, and the exit code is 1.

    ## Example
    ```python
    def release(:
    ```

    ## Use instead
    Fix the syntax error, or exclude the file if it is not Python.

    ## Fix safety
    There is no fix.
    """

    code = "LL000"
    name = "unparsable-file"

    VALID = [Valid("x = 1\n")]
    INVALID = [
        Invalid("def release(:\n    pass\n", line=1, message_contains="syntax error"),
        Invalid("x = 1\nprint 'hello'\n", line=2, message_contains="syntax error"),
    ]

    def check(self, context: Context) -> Iterator[Diagnostic]:
        # The engine reports LL000 before any model exists; nothing to do on a parsed module.
        return iter(())
