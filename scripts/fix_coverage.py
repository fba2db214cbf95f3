"""Fix coverage: the share of LL001/LL004 findings that get a safe, an unsafe or no fix, and why not.

Run over the rule cases and the fix corpus (tests/fix_corpus/), in process:

    .venv/bin/python scripts/fix_coverage.py

scripts/ecosystem.py prints the same table for the findings on its pinned packages.
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CODES = ("LL001", "LL004")
NO_FIX = "(no automatic fix: "


def reason(message: str) -> str | None:
    """Why a finding has no fix, with lines and names made general; None when the message says nothing."""
    start = message.find(NO_FIX)
    if start < 0:
        return None
    text = message[start + len(NO_FIX) :].removesuffix(")")
    text = re.sub(r"\bline \d+", "line N", text)
    return re.sub(r"`[^`]*`", "`…`", text)


def table(findings: list[tuple[str, str | None, str]], title: str) -> list[str]:
    """Lines of a Markdown report for (code, fix applicability or None, message) findings."""
    lines = [f"### Fix coverage: {title}", "", "| code | findings | safe | unsafe | no fix |", "|---|---|---|---|---|"]
    why: Counter = Counter()
    for code in CODES:
        mine = [f for f in findings if f[0] == code]
        kinds = Counter(applicability or "none" for _, applicability, _ in mine)
        total = len(mine)

        def share(kind: str) -> str:
            count = kinds.get(kind, 0)
            return f"{count} ({count / total:.0%})" if total else "0"

        lines.append(f"| {code} | {total} | {share('safe')} | {share('unsafe')} | {share('none')} |")
        why.update(reason(message) or "(the message names what to use instead)" for _, applicability, message in mine if applicability is None)
    if why:
        lines += ["", "Why no fix (LL001 and LL004):", ""]
        lines += [f"- {count} × {text}" for text, count in why.most_common()]
    return lines


def _local_findings() -> tuple[list, list]:
    sys.path.insert(0, str(REPO))
    from leaselint.rules import ALL_RULES
    from leaselint.check import lint_text
    from leaselint.settings import Settings
    from leaselint.source import SourceText

    def lint(text: str) -> list:
        result = lint_text(SourceText(text), "module.py", Settings())
        return [
            (d.code, d.fix.applicability.value if d.fix is not None else None, d.message)
            for d in result.diagnostics
            if d.code in CODES
        ]

    sys.path.insert(0, str(REPO / "tests"))
    import cases as rule_cases

    cases = [f for rule in ALL_RULES for case in rule_cases.invalid(rule) for f in lint(textwrap.dedent(case.code))]
    corpus = [f for path in sorted((REPO / "tests" / "fix_corpus").glob("*.py")) for f in lint(path.read_text())]
    return cases, corpus


def main() -> int:
    cases, corpus = _local_findings()
    print("\n".join(table(cases, "rule cases (every rule's INVALID cases, all rules on)")))
    print()
    print("\n".join(table(corpus, "tests/fix_corpus/")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
