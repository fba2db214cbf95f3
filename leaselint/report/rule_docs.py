"""Rule documentation for people and tools, read from the rule classes (their docstrings are the docs)."""

from __future__ import annotations

import re
import textwrap

FIX_WORDS = {
    "always": "Fix is always available.",
    "sometimes": "Fix is sometimes available.",
    "none": "Fix is not available.",
}
_URL = re.compile(r"https?://[^\s)>\]]+")


def documentation(rule) -> str:
    return textwrap.dedent(type(rule).__doc__ or "").strip()


def section(rule, title: str) -> str:
    """The text under `## title` in the rule's documentation."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", documentation(rule), re.M | re.S)
    return match.group(1).strip() if match else ""


def summary(rule) -> str:
    """The first paragraph of "What it does", on one line."""
    first = section(rule, "What it does").split("\n\n")[0]
    return " ".join(first.split())


def links(rule) -> list[str]:
    return _URL.findall(section(rule, "References"))


def explain(rule) -> str:
    return f"# {rule.name} ({rule.code})\n\n{FIX_WORDS.get(rule.fix_availability, '')}\n\n{documentation(rule)}\n"


def rule_table(rules) -> str:
    rows = [("code", "name", "fix")] + [(r.code, r.name, r.fix_availability) for r in rules]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    return "".join(f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c}\n" for a, b, c in rows)
