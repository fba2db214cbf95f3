"""--statistics: how many findings each rule has, and how many of them --fix can fix."""

from __future__ import annotations

import json
from typing import TextIO

from leaselint.diagnostics import FileResult
from leaselint.report.summary import fixable_codes, paint, write_counts


def counts(results: list[FileResult], options: dict) -> list[dict]:
    from leaselint.rules import RULES_BY_CODE

    rows: dict[str, dict] = {}
    for result in results:
        for d in result.diagnostics:
            rule = RULES_BY_CODE.get(d.code)
            row = rows.setdefault(d.code, {"code": d.code, "name": rule.name if rule else d.name, "count": 0, "fixable": 0})
            row["count"] += 1
        for code, count in fixable_codes(result, options).items():
            rows[code]["fixable"] += count
    return sorted(rows.values(), key=lambda row: (-row["count"], row["code"]))


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    rows = counts(results, options)
    if options.get("json"):
        json.dump(rows, out, indent=2)
        out.write("\n")
        return
    if not rows:
        return
    width = max(len(str(row["count"])) for row in rows)
    for row in rows:
        code = paint(row["code"], options, fg="red", bold=True)
        fixable = f"({row['fixable']} fixable)" if row["fixable"] else ""
        out.write(f"{row['count']:>{width}}\t{code}\t{row['name']}\t{fixable}".rstrip() + "\n")
    write_counts(results, out, options)
