"""Reporters: one module per output format, each a function of the results."""

from __future__ import annotations

from typing import Callable, TextIO

from leaselint.diagnostics import FileResult
from leaselint.report import concise, full, github, gitlab, json_format, junit, sarif

Reporter = Callable[[list[FileResult], TextIO, dict], None]

REPORTERS: dict[str, Reporter] = {
    "full": full.report,
    "concise": concise.report,
    "json": json_format.report,
    "sarif": sarif.report,
    "github": github.report,
    "gitlab": gitlab.report,
    "junit": junit.report,
}
