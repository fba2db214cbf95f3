"""One line a finding: `path:row:col: CODE message`."""

from __future__ import annotations

from typing import TextIO

from leaselint.diagnostics import FileResult
from leaselint.report.summary import heading, write_summary


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    for result in results:
        for d in result.diagnostics:
            out.write(heading(result.path, d, options) + "\n")
    write_summary(results, out, options)
