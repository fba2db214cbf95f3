"""Reporters: one module per output format, each a function of the results.

A format's module is imported when it is used, so a run pays only for its own format.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TextIO

if TYPE_CHECKING:
    from leaselint.diagnostics import FileResult

Reporter = Callable[[list["FileResult"], TextIO, dict], None]

# The rules' page (made by rule_docs.rules_page), each rule's documentation under an anchor of its code.
PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
_page_uri: list[str] = []


def code_url(code: str) -> str:
    """Where a rule's documentation is: its section of the rules' page that ships inside the package
    (in a checkout, the repository's leaselint/docs/rules.md), `file:///.../rules.md#ll001`."""
    if not _page_uri:
        _page_uri.append(PAGE.as_uri())
    return f"{_page_uri[0]}#{code.lower()}"

_MODULES = {
    "full": "full",
    "concise": "concise",
    "json": "json_format",
    "sarif": "sarif",
    "github": "github",
    "gitlab": "gitlab",
    "junit": "junit",
}


class _Reporters(dict):
    """format name -> report function, importing the format's module on first use."""

    def __missing__(self, name: str) -> Reporter:
        report = import_module(f"{__name__}.{_MODULES[name]}").report
        self[name] = report
        return report

    def __iter__(self):
        return iter(_MODULES)

    def __len__(self) -> int:
        return len(_MODULES)

    def __contains__(self, name: object) -> bool:
        return name in _MODULES


REPORTERS: dict[str, Reporter] = _Reporters()
