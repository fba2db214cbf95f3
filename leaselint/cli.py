"""The `leaselint` command: options in, findings out, an exit code that CI can read."""

from __future__ import annotations

import difflib
import sys

import click

from leaselint import __version__
from leaselint.diagnostics import FileResult
from leaselint.discover import MissingPath, discover
from leaselint.report import REPORTERS
from leaselint.runner import lint_paths
from leaselint.settings import Settings
from leaselint.source import atomic_write

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(value: str | None) -> frozenset[str] | None:
    if value is None:
        return None
    return frozenset(code.strip().upper() for code in value.split(",") if code.strip())


def _known_codes(codes: frozenset[str] | None) -> None:
    from leaselint.rules import RULES_BY_CODE

    for code in codes or ():
        if code not in RULES_BY_CODE:
            raise click.BadParameter(f"unknown rule code {code!r}; known: {', '.join(sorted(RULES_BY_CODE))}")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--fix", is_flag=True, help="Write safe fixes.")
@click.option("--unsafe-fixes", is_flag=True, help="Also write unsafe fixes (with --fix or --diff).")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option(
    "--output-format",
    type=click.Choice(sorted(REPORTERS)),
    default="full",
    show_default=True,
    help="How findings are printed.",
)
@click.option("--select", help="Comma-separated rule codes to run (default: all).")
@click.option("--ignore", help="Comma-separated rule codes to skip.")
@click.option(
    "--release",
    type=click.Choice(["lua", "delifeq", "delex"]),
    default="lua",
    show_default=True,
    help="The compare-and-delete fixes write: a Lua script, Valkey 9 DELIFEQ, or Redis 8.4 DELEX.",
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary when clean.")
@click.version_option(__version__, prog_name="leaselint")
def main(paths, fix, unsafe_fixes, diff, output_format, select, ignore, release, no_cache, quiet) -> None:
    """Find and fix unsafe lease releases in PATHS (default: the current folder)."""
    try:
        selected, ignored = _codes(select), _codes(ignore) or frozenset()
        _known_codes(selected)
        _known_codes(ignored)
    except click.BadParameter as exc:
        click.echo(f"leaselint: error: {exc.message}", err=True)
        sys.exit(EXIT_ERROR)
    settings = Settings(
        select=selected,
        ignore=ignored,
        fix=fix or diff,
        unsafe_fixes=unsafe_fixes,
        release=release,
    )
    try:
        files = list(discover(list(paths) or ["."]))
    except MissingPath as exc:
        click.echo(f"leaselint: error: {exc}: no such file or directory", err=True)
        sys.exit(EXIT_ERROR)

    results: list[FileResult] = []
    diffs: list[str] = []
    internal = False
    for result, source in lint_paths(files, settings):
        for error in result.internal_errors:
            internal = True
            click.echo(f"leaselint: internal error in {result.path}: {error}", err=True)
        if result.fixed_text is not None and source is not None:
            if diff:
                diffs.append(_unified(result))
                result.fixed_count = 0
            else:
                try:
                    atomic_write(result.path, source.encode(result.fixed_text))
                except (OSError, UnicodeEncodeError) as exc:
                    internal = True
                    click.echo(f"leaselint: error: cannot write {result.path}: {exc}", err=True)
        results.append(result)

    out = sys.stdout
    options = {"quiet": quiet, "unsafe_fixes": unsafe_fixes}
    if diff:
        out.write("".join(diffs))
        if internal:
            sys.exit(EXIT_ERROR)
        sys.exit(EXIT_FINDINGS if diffs else EXIT_CLEAN)
    REPORTERS[output_format](results, out, options)
    if internal:
        sys.exit(EXIT_ERROR)
    remaining = sum(len(r.diagnostics) for r in results)
    sys.exit(EXIT_FINDINGS if remaining else EXIT_CLEAN)


def _unified(result: FileResult) -> str:
    before = (result.original_text or "").splitlines(keepends=True)
    after = (result.fixed_text or "").splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, fromfile=f"a/{result.path}", tofile=f"b/{result.path}")
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
    return text
