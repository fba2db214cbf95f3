"""GitHub Actions workflow commands: one `::error` annotation a finding."""

from __future__ import annotations

from typing import TextIO

from leaselint.diagnostics import FileResult


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    for result in results:
        for d in result.diagnostics:
            properties = {
                "title": f"leaselint ({d.code})",
                "file": result.path,
                "line": d.start.line,
                "col": d.start.column + 1,
                "endLine": d.end.line,
                "endColumn": d.end.column + 1,
            }
            fields = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
            where = f"{result.path}:{d.start.line}:{d.start.column + 1}"
            out.write(f"::error {fields}::{escape_data(f'{where}: {d.code} {d.message}')}\n")
