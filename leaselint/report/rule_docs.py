"""Rule documentation for people and tools, read from the rule classes (their docstrings are the docs)."""

from __future__ import annotations

import re
import textwrap

from leaselint.report import PAGE, code_url

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


def short_description(rule) -> str:
    """The summary up to its first colon, semicolon or full stop outside backquotes: one short sentence
    (`Reports a lease released by an operation that does not check who holds it.`)."""
    text = summary(rule)
    quoted = False
    for index, char in enumerate(text):
        if char == "`":
            quoted = not quoted
        elif not quoted and char in ":;." and text[index + 1 : index + 2] in (" ", ""):
            return text[:index] + "."
    return text


def url(rule) -> str:
    return code_url(rule.code)


def rules_page(rules) -> str:
    """leaselint/docs/rules.md: a table of the rules, then each rule's `--explain` text under an
    anchor of its code (`#ll001`)."""
    parts = [
        "# leaselint rules\n",
        "<!-- Made from the rules' documentation by `python -m leaselint.report.rule_docs`: edit the rules, "
        "not this page. -->\n",
        "| code | name | fix | what it reports |\n|---|---|---|---|\n"
        + "".join(f"| [{r.code}](#{r.code.lower()}) | {r.name} | {r.fix_availability} | {short_description(r)} |\n" for r in rules),
    ]
    for rule in rules:
        body = _deeper_headings(documentation(rule))
        parts.append(
            f'<a id="{rule.code.lower()}"></a>\n\n## {rule.code} {rule.name}\n\n'
            f"{FIX_WORDS.get(rule.fix_availability, '')}\n\n{body}\n"
        )
    return "\n".join(parts)


def _deeper_headings(text: str) -> str:
    """`## What it does` -> `### What it does`, outside code blocks."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#+ ", line):
            line = "#" + line
        lines.append(line)
    return "\n".join(lines)


def links(rule) -> list[str]:
    return _URL.findall(section(rule, "References"))


def explain(rule) -> str:
    return f"# {rule.name} ({rule.code})\n\n{FIX_WORDS.get(rule.fix_availability, '')}\n\n{documentation(rule)}\n"


def rule_table(rules) -> str:
    rows = [("code", "name", "fix")] + [(r.code, r.name, r.fix_availability) for r in rules]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    return "".join(f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c}\n" for a, b, c in rows)


if __name__ == "__main__":
    from leaselint.rules import ALL_RULES

    PAGE.parent.mkdir(exist_ok=True)
    PAGE.write_text(rules_page(ALL_RULES), encoding="utf-8")
    print(f"wrote {PAGE}")
