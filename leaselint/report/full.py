"""Each finding with its source line, a marker under the span, and the fix title."""

from __future__ import annotations

from typing import TextIO

from leaselint.diagnostics import Applicability, FileResult
from leaselint.report.summary import heading, paint, write_summary
from leaselint.source import LineIndex


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    for result in results:
        index = LineIndex(result.original_text if result.fixed_text is None else result.fixed_text) if (
            result.original_text is not None
        ) else None
        for d in result.diagnostics:
            out.write(heading(result.path, d, options) + "\n")
            if index is not None and d.start.line <= len(index.starts):
                line = index.line_text(d.start.line).expandtabs(1)
                width = len(str(d.start.line))
                end = d.end.column if d.end.line == d.start.line else len(line)
                carets = paint("^" * max(end - d.start.column, 1) + f" {d.code}", options, fg="red", bold=True)
                gutter = paint(" " * width + " |", options, fg="blue", bold=True)
                number = paint(f"{d.start.line} |", options, fg="blue", bold=True)
                out.write(f"{gutter}\n{number} {line}\n{gutter} {' ' * d.start.column}{carets}\n")
                for related in d.related:
                    note_line = paint(" " * width + " = note:", options, fg="cyan", bold=True)
                    out.write(
                        f"{note_line} {related.message}: {result.path}:{related.start.line}:{related.start.column + 1}\n"
                    )
                if d.fix is not None:
                    note = "" if d.fix.applicability is Applicability.SAFE else f" ({d.fix.applicability.value})"
                    help_line = paint(" " * width + " = help:", options, fg="cyan", bold=True)
                    out.write(f"{help_line} {d.fix.message}{note}\n")
            out.write("\n")
    write_summary(results, out, options)
