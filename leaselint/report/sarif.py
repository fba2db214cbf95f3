"""SARIF 2.1.0 for code-scanning tools: the rules with their documentation, results, and fixes."""

from __future__ import annotations

import json
import os
import pathlib
import urllib.parse
from typing import TextIO

from leaselint import __version__
from leaselint.diagnostics import Diagnostic, FileResult, Position
from leaselint.report.rule_docs import documentation, links, section, short_description, url

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def uri(path: str) -> dict:
    """A relative path stays relative to the checkout (%SRCROOT%), as code scanning expects."""
    if os.path.isabs(path):
        return {"uri": pathlib.Path(path).as_uri()}
    return {"uri": urllib.parse.quote(path.replace(os.sep, "/")), "uriBaseId": "%SRCROOT%"}


def region(start: Position, end: Position) -> dict:
    # SARIF lines and columns are 1-based; columns count code points (the run's columnKind).
    return {"startLine": start.line, "startColumn": start.column + 1, "endLine": end.line, "endColumn": end.column + 1}


def rule_descriptor(rule) -> dict:
    descriptor = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": short_description(rule)},
        "fullDescription": {"text": section(rule, "What it does")},
        "help": {"text": documentation(rule), "markdown": documentation(rule)},
        "helpUri": url(rule),
        "defaultConfiguration": {"level": "error"},
        "properties": {"fix_availability": rule.fix_availability},
    }
    references = links(rule)
    if references:
        descriptor["properties"]["references"] = references
    return descriptor


def result_item(path: str, d: Diagnostic, rule_index: dict[str, int]) -> dict:
    item = {
        "ruleId": d.code,
        "level": "error",
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {"artifactLocation": uri(path), "region": region(d.start, d.end)}}],
    }
    if d.code in rule_index:
        item["ruleIndex"] = rule_index[d.code]
    if d.related:
        item["relatedLocations"] = [
            {
                "id": number,
                "physicalLocation": {"artifactLocation": uri(path), "region": region(r.start, r.end)},
                "message": {"text": r.message},
            }
            for number, r in enumerate(d.related)
        ]
    if d.fix is not None:
        item["fixes"] = [
            {
                "description": {"text": f"{d.fix.message} ({d.fix.applicability.value})"},
                "artifactChanges": [
                    {
                        "artifactLocation": uri(path),
                        "replacements": [
                            {"deletedRegion": region(e.start, e.end), "insertedContent": {"text": e.content}}
                            for e in d.fix.edits
                        ],
                    }
                ],
            }
        ]
    return item


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    from leaselint.rules import ALL_RULES

    rule_index = {rule.code: number for number, rule in enumerate(ALL_RULES)}
    errors = [error for r in results for error in r.internal_errors]
    run = {
        "tool": {
            "driver": {
                "name": "leaselint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [rule_descriptor(rule) for rule in ALL_RULES],
            }
        },
        "columnKind": "unicodeCodePoints",
        "invocations": [
            {
                "executionSuccessful": not errors,
                "toolExecutionNotifications": [
                    {"level": "error", "message": {"text": error}} for error in errors
                ],
            }
        ],
        "results": [result_item(r.path, d, rule_index) for r in results for d in r.diagnostics],
    }
    json.dump({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, out, indent=2)
    out.write("\n")
