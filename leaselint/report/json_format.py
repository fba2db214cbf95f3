"""An array of findings in the shape of Ruff's JSON output."""

from __future__ import annotations

import os
from typing import TextIO

from leaselint.diagnostics import FileResult, Position
from leaselint.report import code_url

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
        "url": code_url(diagnostic.code),
        "noqa_row": diagnostic.start.line,
        **(
            {
                "related": [
                    {"message": r.message, "location": _where(r.start), "end_location": _where(r.end)}
                    for r in diagnostic.related
                ]
            }
            if diagnostic.related
            else {}
        ),
    }


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    texts = []
    for result in results:
        if result.diagnostics:
            filename = _string(os.path.abspath(result.path) if result.path != "-" else result.path)
            texts.extend(_item_text(filename, d) for d in result.diagnostics)
    out.write("[\n" + ",\n".join(texts) + "\n]\n" if texts else "[]\n")


# The text `json.dump(items, indent=2)` writes for `item(...)`, made directly: the standard library's
# indenting encoder is written in Python and took half a warm run of 13,000 findings.
try:
    # json.encoder's own string encoder, without importing the json package (1.3 ms) for it.
    from _json import encode_basestring_ascii as _string
except ImportError:  # no C accelerator: json.encoder's Python one
    from json.encoder import encode_basestring_ascii as _string


def _where_text(position: Position, indent: str) -> str:
    return f'{{\n{indent}  "row": {position.line},\n{indent}  "column": {position.column + 1}\n{indent}}}'


def _fix_text(fix) -> str:
    if fix is None:
        return "null"
    edits = ",\n".join(
        f'        {{\n          "content": {_string(e.content)},\n'
        f'          "location": {_where_text(e.start, "          ")},\n'
        f'          "end_location": {_where_text(e.end, "          ")}\n        }}'
        for e in fix.edits
    )
    return (
        f'{{\n      "applicability": {_string(fix.applicability.value)},\n'
        f'      "message": {_string(fix.message)},\n'
        f'      "edits": {"[" + chr(10) + edits + chr(10) + "      ]" if edits else "[]"}\n    }}'
    )


def _item_text(filename: str, diagnostic) -> str:
    return (
        f'  {{\n    "code": {_string(diagnostic.code)},\n'
        f'    "message": {_string(diagnostic.message)},\n'
        f'    "filename": {filename},\n'
        f'    "location": {_where_text(diagnostic.start, "    ")},\n'
        f'    "end_location": {_where_text(diagnostic.end, "    ")},\n'
        f'    "fix": {_fix_text(diagnostic.fix)},\n'
        f'    "url": {_string(code_url(diagnostic.code))},\n'
        f'    "noqa_row": {diagnostic.start.line}{_related_text(diagnostic.related)}\n  }}'
    )


def _related_text(related) -> str:
    """Other places that explain the finding: present only when there are some."""
    if not related:
        return ""
    entries = ",\n".join(
        f'      {{\n        "message": {_string(r.message)},\n'
        f'        "location": {_where_text(r.start, "        ")},\n'
        f'        "end_location": {_where_text(r.end, "        ")}\n      }}'
        for r in related
    )
    return f',\n    "related": [\n{entries}\n    ]'

