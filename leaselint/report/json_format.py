"""An array of findings in the shape of Ruff's JSON output."""

from __future__ import annotations

import json
import os
from typing import TextIO

from leaselint.diagnostics import FileResult, Position

def _where(position: Position) -> dict:
    return {"row": position.line, "column": position.column + 1}


def item(path: str, diagnostic) -> dict:
    fix = diagnostic.fix
    return {
        "code": diagnostic.code,
        "message": diagnostic.message,
        "filename": os.path.abspath(path) if path != "-" else path,
        "location": _where(diagnostic.start),
        "end_location": _where(diagnostic.end),
        "fix": None
        if fix is None
        else {
            "applicability": fix.applicability.value,
            "message": fix.message,
            "edits": [
                {"content": e.content, "location": _where(e.start), "end_location": _where(e.end)}
                for e in fix.edits
            ],
        },
        "url": None,
        "noqa_row": diagnostic.start.line,
    }


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    items = [item(r.path, d) for r in results for d in r.diagnostics]
    json.dump(items, out, indent=2)
    out.write("\n")
