"""The GitHub Action's step (action.yml): leaselint in a venv of its own, run once. Its SARIF report
gives the workflow annotations, the job summary and, when asked, the SARIF file.

Inputs come as LEASELINT_* variables. `args` is split as a POSIX shell splits a command line, quotes
honoured, with no glob or variable expansion; `src` is paths and glob patterns, expanded here.
Runs on the runner's Python with the standard library only.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

ACTION = Path(__file__).resolve().parent.parent
# Options whose output is no report of findings (or a report the user places): printed as they are.
OWN_OUTPUT = {
    "--output-format", "--output-file", "--statistics", "--diff", "--add-noqa",
    "--explain", "--list-rules", "--version", "-h", "--help",
}
# A requirement on leaselint, as in requirements files and pyproject.toml's strings.
REQUIREMENT = re.compile(r"leaselint\s*(\[[^\]]*\])?\s*(?P<spec>(===?|[<>!~]=|[<>]).*)?$", re.I)
SUMMARY_ROWS = 100


def split_args(text: str) -> list[str]:
    return shlex.split(text)


def sources(text: str) -> tuple[list[str], bool]:
    """The paths of `src`, and whether a glob pattern was expanded. A pattern that matches nothing is
    passed on as it is, for leaselint to report."""
    paths: list[str] = []
    expanded = False
    for item in shlex.split(text):
        matches = sorted(glob.glob(item, recursive=True)) if re.search(r"[*?[]", item) else []
        if matches:
            paths.extend(matches)
            expanded = True
        else:
            paths.append(item)
    return paths, expanded


def version_from_file(path: str) -> str | None:
    """The version pinned in a pyproject.toml, uv.lock or requirements file, or None."""
    text = Path(path).read_text(encoding="utf-8")
    if Path(path).name == "uv.lock":
        found = re.search(r'^name = "leaselint"\r?\nversion = "([^"]+)"', text, re.M)
        return found.group(1) if found else None
    if path.endswith(".toml"):
        items = re.findall(r'"([^"\n]*)"', text) + re.findall(r"'([^'\n]*)'", text)
    else:
        items = text.splitlines()
    for item in items:
        found = REQUIREMENT.match(item.split("#")[0].split(";")[0].strip())
        if found and found.group("spec"):
            return found.group("spec").replace(" ", "")
    return None


def requirement(version: str) -> str:
    """What pip installs for the `version` input."""
    if not version or version == "local":
        return str(ACTION)
    if version == "latest":
        return "leaselint"
    if version[0].isdigit():
        return f"leaselint=={version}"
    return f"leaselint{version}"


def install(venv: Path, wanted: str) -> Path:
    """The venv's leaselint, installed unless the venv already holds what `wanted` names."""
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    suffix = ".exe" if os.name == "nt" else ""
    leaselint = scripts / f"leaselint{suffix}"
    marker = venv / "leaselint-action-requirement.txt"
    if leaselint.exists() and marker.exists() and marker.read_text() == wanted:
        return leaselint
    if not (scripts / f"python{suffix}").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(scripts / f"python{suffix}"), "-m", "pip", "install", "-q", wanted], check=True)
    marker.write_text(wanted)
    return leaselint


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def findings(report: dict) -> list[dict]:
    """Each SARIF result as path, positions, code, message and level."""
    found = []
    for run in report.get("runs", []):
        for result in run.get("results", []):
            location = result["locations"][0]["physicalLocation"]
            artifact, region = location["artifactLocation"], location["region"]
            if artifact["uri"].startswith("file:"):
                path = urllib.request.url2pathname(urllib.parse.urlparse(artifact["uri"]).path)
            else:
                path = urllib.parse.unquote(artifact["uri"])
            found.append({
                "path": path,
                "line": region["startLine"],
                "col": region.get("startColumn", 1),
                "endLine": region.get("endLine", region["startLine"]),
                "endColumn": region.get("endColumn", region.get("startColumn", 1)),
                "code": result["ruleId"],
                "message": result["message"]["text"],
                "level": result.get("level", "error"),
            })
    return found


def annotation(f: dict) -> str:
    """The workflow command `--output-format github` prints for the same finding."""
    command = {"error": "error", "warning": "warning"}.get(f["level"], "notice")
    properties = {
        "title": f"leaselint ({f['code']})",
        "file": f["path"],
        "line": f["line"],
        "col": f["col"],
        "endLine": f["endLine"],
        "endColumn": f["endColumn"],
    }
    fields = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    where = f"{f['path']}:{f['line']}:{f['col']}"
    return f"::{command} {fields}::{escape_data(where + ': ' + f['code'] + ' ' + f['message'])}"


def summary(version: str, status: int, found: list[dict] | None) -> str:
    """The job summary: the version, the outcome, the findings per rule and the first findings."""
    lines = [f"## leaselint {version}", ""]
    if found is None:
        lines.append(f"Exit code {status}.")
        return "\n".join(lines) + "\n"
    if not found:
        lines.append("No findings." if status == 0 else f"No findings; exit code {status}.")
        return "\n".join(lines) + "\n"
    files = len({f["path"] for f in found})
    lines.append(f"{len(found)} finding{'s' * (len(found) != 1)} in {files} file{'s' * (files != 1)} (exit code {status}).")
    counts: dict[str, int] = {}
    for f in found:
        counts[f["code"]] = counts.get(f["code"], 0) + 1
    lines += ["", "| Rule | Findings |", "|---|---|"]
    lines += [f"| {code} | {count} |" for code, count in sorted(counts.items())]
    lines += ["", "| Location | Rule | Message |", "|---|---|---|"]
    for f in found[:SUMMARY_ROWS]:
        message = f["message"].replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{f['path']}:{f['line']}:{f['col']}` | {f['code']} | {message} |")
    if len(found) > SUMMARY_ROWS:
        lines += ["", f"And {len(found) - SUMMARY_ROWS} more."]
    return "\n".join(lines) + "\n"


def read_report(path: Path) -> dict | None:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return report if isinstance(report, dict) and "runs" in report else None


def append(variable: str, text: str) -> None:
    target = os.environ.get(variable)
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(text)


def main() -> int:
    env = os.environ
    temp = Path(env.get("RUNNER_TEMP") or env.get("TMPDIR") or "/tmp")
    version = env.get("LEASELINT_VERSION", "").strip()
    version_file = env.get("LEASELINT_VERSION_FILE", "").strip()
    sarif = env.get("LEASELINT_SARIF", "").strip()
    try:
        args = split_args(env.get("LEASELINT_ARGS", ""))
        paths, expanded = sources(env.get("LEASELINT_SRC", ""))
    except ValueError as error:  # an unclosed quote
        print(f"::error title=leaselint action::cannot split args or src: {error}")
        append("GITHUB_OUTPUT", "exit-code=2\n")
        return 2
    if not version and version_file:
        try:
            version = version_from_file(version_file) or ""
        except OSError as error:
            print(f"::warning title=leaselint action::cannot read {version_file}: {error.strerror or error}")
        if not version:
            print(f"::warning title=leaselint action::no leaselint version pinned in {version_file}; installing the action's own")

    try:
        leaselint = install(temp / "leaselint-action-venv", requirement(version))
        shown = subprocess.run([str(leaselint), "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"::error title=leaselint action::cannot install leaselint ({requirement(version)}): {error}")
        append("GITHUB_OUTPUT", "exit-code=2\n")
        return 2
    installed = (shown.stdout.split() or ["unknown"])[-1]  # "leaselint, version 0.1.0"
    append("GITHUB_OUTPUT", f"leaselint-version={installed}\n")
    append("GITHUB_PATH", f"{leaselint.parent}\n")

    found = None
    if any(arg.split("=", 1)[0] in OWN_OUTPUT for arg in args):
        if sarif:
            print("::warning title=leaselint action::args choose the output, so no SARIF report is written")
        status = subprocess.run([str(leaselint), *args, *paths]).returncode
    else:
        report = Path(sarif) if sarif else temp / "leaselint-action.sarif"
        report.unlink(missing_ok=True)
        # --force-exclude: the files a `src` pattern matched keep the configured excludes.
        command = [str(leaselint), "--output-format", "sarif", "--output-file", str(report)]
        command += (["--force-exclude"] if expanded else []) + args + paths
        status = subprocess.run(command).returncode
        loaded = read_report(report)
        if loaded is not None:
            found = findings(loaded)
            for f in found:
                print(annotation(f))
    sys.stdout.flush()
    append("GITHUB_OUTPUT", f"exit-code={status}\n")
    if env.get("LEASELINT_SUMMARY", "true").strip().lower() != "false":
        append("GITHUB_STEP_SUMMARY", summary(installed, status, found))
    return status


if __name__ == "__main__":
    sys.exit(main())
