"""Run-time findings as leaselint reports them: `# noqa` honoured, the static reporters' shapes."""

from __future__ import annotations

import json
import os
from typing import TextIO

from leaselint.runtime.analyze import Finding
from leaselint.runtime.record import Event

FORMATS = ("full", "concise", "json", "sarif", "github", "gitlab", "junit")
_TESTS_SHOWN = 3


def _lines(path: str, cache: dict) -> list[str]:
    lines = cache.get(path)
    if lines is None:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = cache[path] = handle.read().splitlines()
        except OSError:
            lines = cache[path] = []
    return lines


def unsuppressed(findings: list[Finding]) -> list[Finding]:
    """The findings no `# noqa` (bare, or naming the code) on the reported line hides."""
    from leaselint.suppress import directives

    noqa: dict[str, dict] = {}
    kept = []
    for finding in findings:
        found = noqa.get(finding.path)
        if found is None:
            try:
                with open(finding.path, encoding="utf-8", errors="replace") as handle:
                    found = noqa[finding.path] = directives(handle.read())
            except OSError:
                found = noqa[finding.path] = {}
        directive = found.get(finding.line)
        if directive is None or not directive.hides(finding.code):
            kept.append(finding)
    return kept


def seen_by(finding: Finding) -> str:
    tests = finding.tests[:_TESTS_SHOWN]
    more = len(finding.tests) - len(tests)
    if not tests:
        return "seen at run time"
    return "seen in " + ", ".join(tests) + (f" and {more} more" if more > 0 else "")


def results(findings: list[Finding], relative_to: str | None = None) -> list:
    """FileResults for the static reporters: one per file, findings at their lines (paths shown
    relative to `relative_to` when given and below it)."""
    from leaselint.diagnostics import Diagnostic, FileResult, Position, Related

    cache: dict[str, list[str]] = {}
    by_path: dict[str, FileResult] = {}

    def span(path: str, line: int) -> tuple:
        lines = _lines(path, cache)
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        start = len(text) - len(text.lstrip())
        return Position(line, start), Position(line, max(len(text), start))

    for finding in findings:
        start, end = span(finding.path, finding.line)
        related = tuple(
            Related(*span(path, line), f"{message} ({os.path.basename(path)}:{line})")
            for path, line, message in finding.related
        )
        message = f"{finding.message} ({seen_by(finding)})"
        result = by_path.get(finding.path)
        if result is None:
            shown = finding.path
            if relative_to and finding.path.startswith(os.path.abspath(relative_to) + os.sep):
                shown = os.path.relpath(finding.path, relative_to)
            result = by_path[finding.path] = FileResult(shown)
        result.diagnostics.append(Diagnostic(finding.code, message, start, end, None, "", related))
    return list(by_path.values())


def write(findings: list[Finding], out: TextIO, output_format: str = "full", relative_to: str | None = None) -> None:
    from leaselint.report import REPORTERS

    REPORTERS[output_format](results(findings, relative_to), out, {"quiet": True})


def lines(findings: list[Finding], relative_to: str | None = None) -> list[str]:
    """One line a finding, `path:row:col: CODE message`, without a summary."""
    from leaselint.report.summary import heading

    return [heading(result.path, d, {}) for result in results(findings, relative_to) for d in result.diagnostics]


def format_for(path: str, output_format: str | None) -> str:
    if output_format:
        return output_format
    return "sarif" if path.endswith((".sarif", ".sarif.json")) else "json"


def dump_events(events: list[Event], path: str) -> None:
    """One process's events, written whole or not at all."""
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump([event.to_json() for event in events], handle)
    os.replace(temporary, path)


def load_events(folder: str) -> list[Event]:
    events: list[Event] = []
    for name in sorted(os.listdir(folder)):
        if name.startswith("events-") and name.endswith(".json"):
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    events.extend(Event.from_json(item) for item in json.load(handle))
            except (OSError, ValueError):
                continue
    return events
