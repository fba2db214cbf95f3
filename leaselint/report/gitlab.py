"""GitLab Code Quality: a JSON array of issues, each with a fingerprint that survives moved lines."""

from __future__ import annotations

import hashlib
import json
import os
from typing import TextIO

from leaselint.diagnostics import FileResult


def project_path(path: str) -> str:
    """The path relative to the project folder GitLab names (CI_PROJECT_DIR), else to the current one."""
    root = os.environ.get("CI_PROJECT_DIR") or os.getcwd()
    relative = os.path.relpath(os.path.abspath(path), root) if path != "-" else path
    return relative.replace(os.sep, "/")


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    issues = []
    for result in results:
        path = project_path(result.path)
        # The fingerprint leaves out line numbers so an unrelated edit above a finding keeps it the same;
        # the count separates identical findings in one file.
        seen: dict[tuple[str, str], int] = {}
        for d in result.diagnostics:
            nth = seen[(d.code, d.message)] = seen.get((d.code, d.message), -1) + 1
            fingerprint = hashlib.sha256(f"{path}\0{d.code}\0{d.message}\0{nth}".encode()).hexdigest()
            issues.append(
                {
                    "type": "issue",
                    "check_name": d.code,
                    "description": f"{d.code} {d.message}",
                    "categories": ["Bug Risk"],
                    "severity": "major",
                    "fingerprint": fingerprint,
                    "location": {
                        "path": path,
                        "positions": {
                            "begin": {"line": d.start.line, "column": d.start.column + 1},
                            "end": {"line": d.end.line, "column": d.end.column + 1},
                        },
                    },
                }
            )
    json.dump(issues, out, indent=2)
    out.write("\n")
