"""One line a finding: `path:row:col: CODE message`."""

from __future__ import annotations

from typing import TextIO

from leaselint.diagnostics import FileResult
from leaselint.report.summary import fix_marker, write_summary


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    for result in results:
        for d in result.diagnostics:
            marker = fix_marker(d, options)
            out.write(f"{result.path}:{d.start.line}:{d.start.column + 1}: {d.code} {marker}{d.message}\n")
    write_summary(results, out, options)
