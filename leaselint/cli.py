"""The `leaselint` command: options in, findings out, an exit code that CI can read."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NoReturn, TextIO

import click

from leaselint import __version__
from leaselint.config import RELEASES, ConfigError, Layer, check_codes, settings_for_run
from leaselint.report import REPORTERS

if TYPE_CHECKING:
    from leaselint.diagnostics import FileResult
    from leaselint.settings import Settings

# The rest of leaselint (runner, discover, reporters, rule docs) is imported where it is used, so that
# --version, --help, --explain and a configuration error do not pay for it.

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# Findings a noqa comment cannot or should not hide: a file that does not parse, a stale noqa.
NOT_NOQA = frozenset({"LL000", "LL100"})


def _fail(message: str) -> NoReturn:
    click.echo(f"leaselint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _split(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(item.strip() for item in value.split(",") if item.strip())


def _codes(value: str | None) -> tuple[str, ...] | None:
    items = _split(value)
    return None if items is None else check_codes(tuple(item.upper() for item in items))


def use_color(stream: TextIO, no_color: bool) -> bool:
    """Colour only on a terminal, and never with --no-color or a non-empty NO_COLOR (no-color.org)."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


SERVER_EPILOG = (
    "Editors: `leaselint server` (or the `leaselint-server` command) runs the language server over "
    "stdio; `--stdio` is accepted. A folder named `server` is linted as `./server` or `server/`. "
    "At run time: `leaselint trace -- COMMAND` (or `pytest --leases`) reports the lease bugs a run exercises."
)


@click.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=SERVER_EPILOG)
# Not `readable`: a file that cannot be read is an LL000 finding of its own, not the end of the run.
@click.argument("paths", nargs=-1, type=click.Path(readable=False))
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
@click.option("--output-file", metavar="PATH", help="Write the report to PATH instead of standard output.")
@click.option("--statistics", "show_statistics", is_flag=True, help="Print the number of findings per rule.")
@click.option("--show-fixes", is_flag=True, help="With --fix, list what was fixed per file and rule.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings are left.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when --fix changed a file, even if nothing is left.")
@click.option(
    "--exit-non-zero-on-unchecked", is_flag=True, help="Exit 1 when a file past --max-file-size was left unchecked."
)
@click.option("--select", metavar="CODES", help="Comma-separated rule codes or prefixes to run, replacing the configuration's (ALL: every rule).")
@click.option("--extend-select", metavar="CODES", help="Comma-separated rule codes to run in addition.")
@click.option("--ignore", metavar="CODES", help="Comma-separated rule codes to skip.")
@click.option("--exclude", metavar="GLOBS", help="Comma-separated globs of files and folders to skip, replacing the configuration's.")
@click.option("--force-exclude", is_flag=True, default=None, help="Apply the excludes to files named on the command line too.")
@click.option(
    "--release",
    type=click.Choice(RELEASES),
    help="The compare-and-delete fixes write: a Lua script (default), Valkey 9 DELIFEQ, or Redis 8.4 DELEX.",
)
@click.option(
    "--line-length",
    type=click.IntRange(1, 320),
    help="The longest line a fix writes (default: the configuration's, else Ruff's or Black's, else 88).",
)
@click.option(
    "--max-file-size",
    metavar="MIB",
    type=click.IntRange(min=0),
    help="Check files up to MIB mebibytes, warn about larger ones (default: the configuration's, else 4; 0: no limit).",
)
@click.option("--config", "config_path", metavar="PATH", help="Read [tool.leaselint] from PATH instead of looking for pyproject.toml.")
@click.option("--isolated", is_flag=True, help="Read no configuration file.")
@click.option("--stdin-filename", metavar="PATH", help="The name of the file read from `-` (standard input).")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: CODE` to every line with a finding; write nothing else.")
@click.option("--explain", metavar="CODE", help="Print a rule's documentation.")
@click.option("--list-rules", is_flag=True, help="List every rule: code, name, fix availability.")
@click.option("--no-color", is_flag=True, help="Never colour the output.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where the cache lives (default: .leaselint_cache).",
)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes (default: the cores).")
@click.option("--no-prefilter", is_flag=True, hidden=True, help="Parse every file (to compare findings).")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary when clean.")
@click.option("-v", "--verbose", is_flag=True, help="Also say what runs slower than usual with the installed libcst.")
@click.version_option(__version__, prog_name="leaselint")
def main(paths: tuple[str, ...], **flags) -> None:
    """Find and fix unsafe lease releases in PATHS (default: the current folder; `-`: standard input)."""
    if flags["explain"] is not None:
        _explain(flags["explain"])
    if flags["list_rules"]:
        from leaselint.report.rule_docs import rule_table
        from leaselint.rules import ALL_RULES

        click.echo(rule_table(ALL_RULES), nl=False)
        sys.exit(EXIT_CLEAN)

    stdin = paths == ("-",) or (not paths and flags["stdin_filename"] is not None)
    if "-" in paths and not stdin:
        _fail("`-` (standard input) cannot be combined with other paths")
    if flags["add_noqa"] and (flags["fix"] or flags["diff"] or stdin):
        _fail("--add-noqa cannot be combined with --fix, --diff or standard input")
    settings = _settings(flags)
    if flags["verbose"]:
        from leaselint.parsing import fast_path_notes

        for note in fast_path_notes():
            click.echo(f"leaselint: note: {note}", err=True)

    out: TextIO = sys.stdout
    if flags["output_file"]:
        try:
            out = open(flags["output_file"], "w", encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write {flags['output_file']}: {exc.strerror or exc}")
    try:
        if stdin:
            code = _run_stdin(settings, flags, out)
        else:
            from leaselint.discover import MissingPath, discover

            flags["cache"] = _cache(flags)
            try:
                files = list(discover(list(paths) or ["."], settings, flags["cache"]))
            except MissingPath as exc:
                _fail(f"{exc}: no such file or directory")
            flags["explicit"] = {path for path in paths if not os.path.isdir(path)}
            code = _run_add_noqa(files, settings, flags) if flags["add_noqa"] else _run(files, settings, flags, out)
    finally:
        if out is not sys.stdout:
            out.close()
    sys.exit(code)


def run() -> NoReturn:
    """The console script: `main`, then an exit that skips tearing the interpreter down.

    The output is flushed and the atexit functions run as in any exit; what is skipped is freeing
    every module and object one at a time, some 10 ms a run (a tenth of a warm run on a large tree).
    """
    if sys.argv[1:2] == ["server"]:
        # Always the language server, even beside a folder named `server` (lint that as `./server`).
        server_command.main(sys.argv[2:], prog_name="leaselint server")
    if sys.argv[1:2] == ["trace"]:
        # Like `server`: a folder named `trace` is linted as `./trace`.
        trace_command.main(sys.argv[2:], prog_name="leaselint trace")
    try:
        main()
        code = EXIT_CLEAN
    except SystemExit as exc:
        if exc.code is not None and not isinstance(exc.code, int):
            raise
        code = exc.code or EXIT_CLEAN
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        sys.exit(code)  # the interpreter reports it, as it would have
    os._exit(code)


@click.command("server", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the only transport; LSP clients pass it).")
def server_command(stdio: bool) -> None:
    """Run the language server for editors over standard input and output."""
    if sys.stdin.isatty():
        click.echo(
            "leaselint: the language server is waiting for an LSP client on standard input "
            "(to lint a folder named `server`, run `leaselint ./server`)",
            err=True,
        )
    from leaselint.server import serve

    serve()
    sys.exit(EXIT_CLEAN)


@click.command(
    "trace",
    context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.option("--root", metavar="DIR", default=".", show_default=True, help="The project's own code: files under DIR outside site-packages.")
@click.option("--output-format", type=click.Choice(["full", "concise", "json", "sarif", "github", "gitlab", "junit"]), default="full", show_default=True)
@click.option("--output-file", metavar="PATH", help="Write the report to PATH instead of standard output.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 when the command succeeded, even with findings.")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def trace_command(root: str, output_format: str, output_file: str | None, exit_zero: bool, command: tuple[str, ...]) -> None:
    """Run COMMAND (after `--`) and report the lease bugs its Python processes exercise.

    Exit code: the command's own when it failed, else 1 when a lease bug was seen, else 0;
    2 when the command could not be started.
    """
    from leaselint.runtime import output, trace

    try:
        code, findings = trace.run(list(command), root)
    except OSError as error:
        click.echo(f"leaselint trace: cannot run {command[0]!r}: {error}", err=True)
        sys.exit(EXIT_ERROR)
    out = open(output_file, "w", encoding="utf-8") if output_file else sys.stdout
    try:
        if output_format in ("full", "concise"):
            for line in output.lines(findings, root):
                out.write(line + "\n")
            out.write(f"{len(findings)} lease bug{'s' if len(findings) != 1 else ''} seen at run time\n")
        else:
            output.write(findings, out, output_format, root)
    finally:
        if out is not sys.stdout:
            out.close()
    if code:
        sys.exit(code)
    sys.exit(EXIT_CLEAN if exit_zero or not findings else EXIT_FINDINGS)


def run_server() -> NoReturn:
    """The `leaselint-server` console script: a name for editors that no path can shadow."""
    server_command.main(prog_name="leaselint-server")
    sys.exit(EXIT_CLEAN)


def _explain(code: str) -> NoReturn:
    from leaselint.report.rule_docs import explain
    from leaselint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE.get(code.strip().upper())
    if rule is None:
        # By name too, as Ruff takes `--explain` of a rule's name (`blind-release`).
        rule = next((r for r in RULES_BY_CODE.values() if r.name == code.strip().lower()), None)
    if rule is None:
        _fail(f"unknown rule code {code!r}; known: {', '.join(sorted(RULES_BY_CODE))}")
    click.echo(explain(rule), nl=False)
    sys.exit(EXIT_CLEAN)


def _settings(flags: dict) -> Settings:
    try:
        cli = Layer(
            select=_codes(flags["select"]),
            ignore=_codes(flags["ignore"]) or (),
            extend_select=_codes(flags["extend_select"]) or (),
            exclude=_split(flags["exclude"]),
            force_exclude=flags["force_exclude"],
            release=flags["release"],
            line_length=flags["line_length"],
            max_file_size=flags["max_file_size"],
        )
        settings = settings_for_run(
            cli,
            config=flags["config_path"],
            isolated=flags["isolated"],
            fix=flags["fix"] or flags["diff"],
            unsafe_fixes=flags["unsafe_fixes"],
        )
    except ConfigError as exc:
        _fail(str(exc))
    if _counts_fixes(flags):
        settings = settings.replace(count_fixes=True)
    return settings


def _counts_fixes(flags: dict) -> bool:
    """The report says how many findings --fix would fix: the closing lines of the human formats and
    --statistics (text and JSON)."""
    if flags["diff"] or flags["add_noqa"]:
        return False
    return flags["show_statistics"] or flags["output_format"] in ("full", "concise")


def _options(flags: dict, stream: TextIO) -> dict:
    return {
        "quiet": flags["quiet"],
        "unsafe_fixes": flags["unsafe_fixes"],
        "color": not flags["output_file"] and use_color(stream, flags["no_color"]),
    }


def _run(files: list[str], settings: Settings, flags: dict, out: TextIO) -> int:
    from leaselint.runner import lint_paths

    results: list[FileResult] = []
    diffs: list[str] = []
    internal = False
    for result, source in lint_paths(files, settings, **_run_options(flags)):
        internal |= _internal_errors(result)
        _warn_unchecked(result)
        if result.fixed_text is not None and source is not None:
            if flags["diff"]:
                diffs.append(_unified(result))
                result.fixed = {}
            else:
                try:
                    write_fixed(result.path, source, result.fixed_text)
                except (OSError, UnicodeEncodeError) as exc:
                    # As Ruff: the error is reported, the run goes on, and the file's findings are
                    # left (exit 1 as for any finding left).
                    reason = getattr(exc, "strerror", None) or exc
                    click.echo(f"leaselint: error: cannot write {result.path}, left unfixed: {reason}", err=True)
                    result.not_fixed()
        results.append(result)

    if flags["diff"]:
        out.write("".join(diffs))
    else:
        _report(results, flags, out)
    if internal:
        return EXIT_ERROR
    return _exit_code(results, flags, changed=bool(diffs) if flags["diff"] else None)


def _cache(flags: dict):
    """The cache of a run on files (it also remembers the folders walked)."""
    from leaselint.cache import DEFAULT_FOLDER, Cache

    return None if flags["no_cache"] else Cache(flags["cache_dir"] or DEFAULT_FOLDER)


def _run_options(flags: dict) -> dict:
    """How files are read and linted: prefilter, cache, worker processes."""
    return {
        "explicit": flags.get("explicit", ()),
        "jobs": flags["jobs"],
        "cache": flags["cache"],
        "prefilter": not flags["no_prefilter"],
    }


def _report(results: list[FileResult], flags: dict, out: TextIO) -> None:
    options = _options(flags, out)
    if flags["show_statistics"]:
        from leaselint.report import statistics

        statistics.report(results, out, {**options, "json": flags["output_format"] == "json"})
        return
    if flags["show_fixes"] and flags["fix"]:
        options["fixed_codes"] = {r.path: r.fixed for r in results if r.fixed}
    REPORTERS[flags["output_format"]](results, out, options)


def _exit_code(results: list[FileResult], flags: dict, changed: bool | None = None) -> int:
    """As in Ruff: --exit-zero wins; --exit-non-zero-on-fix also fails on fixed files; --diff fails on a diff."""
    if flags["exit_zero"]:
        return EXIT_CLEAN
    remaining = any(r.diagnostics for r in results)
    fixed = any(r.fixed_count for r in results)
    unchecked = flags["exit_non_zero_on_unchecked"] and any(r.unchecked for r in results)
    if changed is not None:
        return EXIT_FINDINGS if changed or unchecked else EXIT_CLEAN
    if remaining or unchecked or (flags["exit_non_zero_on_fix"] and fixed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _warn_unchecked(result: FileResult) -> None:
    """A file past max-file-size: a warning (as Ruff warns on stderr), not a finding."""
    if result.unchecked:
        click.echo(f"leaselint: warning: {result.path}: {result.unchecked}; raise max-file-size to check it", err=True)


def _internal_errors(result: FileResult) -> bool:
    for error in result.internal_errors:
        click.echo(f"leaselint: internal error in {result.path}: {error}", err=True)
    return bool(result.internal_errors)


def _run_stdin(settings: Settings, flags: dict, out: TextIO) -> int:
    """`-`: lint standard input. With --fix the fixed text goes to stdout and the findings to stderr."""
    from leaselint.discover import excluded, excludes
    from leaselint.check import lint_bytes

    name = flags["stdin_filename"] or "-"
    data = sys.stdin.buffer.read()
    fixing = flags["fix"] and not flags["diff"]
    stdout = sys.stdout.buffer
    named = flags["stdin_filename"] is not None
    if named and settings.force_exclude and excluded(name, excludes(settings), settings.root):
        if fixing:
            stdout.write(data)
            stdout.flush()
        return EXIT_CLEAN
    result, source = lint_bytes(data, name, settings.for_file(name))
    internal = _internal_errors(result)
    _warn_unchecked(result)
    if fixing:
        fixed = source.encode(result.fixed_text) if source is not None and result.fixed_text is not None else data
        stdout.write(fixed)
        stdout.flush()
        _report([result], flags, out if flags["output_file"] else sys.stderr)
    elif flags["diff"]:
        diff = _unified(result) if result.fixed_text is not None else ""
        out.write(diff)
        return EXIT_ERROR if internal else _exit_code([result], flags, changed=bool(diff))
    else:
        _report([result], flags, out)
    return EXIT_ERROR if internal else _exit_code([result], flags)


def _run_add_noqa(files: list[str], settings: Settings, flags: dict) -> int:
    """Mark every current finding with `# noqa: CODE`, so that only new findings are reported from now on."""
    from leaselint.parsing import ParseFailure, parse
    from leaselint.runner import lint_paths
    from leaselint.suppress import add_noqa

    added = 0
    internal = False
    for result, source in lint_paths(files, settings, **_run_options(flags)):
        internal |= _internal_errors(result)
        _warn_unchecked(result)
        findings = [d for d in result.diagnostics if d.code not in NOT_NOQA]
        if source is None or not findings:
            continue
        text, count, blocked = add_noqa(source.text, findings)
        for line in blocked:
            click.echo(
                f"leaselint: warning: {result.path}:{line}: no `# noqa` added: the line ends inside a string "
                "or continues with a backslash",
                err=True,
            )
        if not count:
            continue
        try:
            parse(text)
            write_fixed(result.path, source, text)
        except (ParseFailure, OSError, UnicodeEncodeError) as exc:
            internal = True
            click.echo(f"leaselint: error: cannot add noqa to {result.path}: {exc}", err=True)
            continue
        added += count
    click.echo(f"Added {added} noqa directive{'' if added == 1 else 's'}.", err=True)
    return EXIT_ERROR if internal else EXIT_CLEAN


def write_fixed(path: str, source, text: str) -> None:
    """source.write_fixed, imported when a fix is written (and named here, where tests can replace it)."""
    from leaselint.source import write_fixed as write

    write(path, source, text)


def _unified(result: FileResult) -> str:
    before = (result.original_text or "").splitlines(keepends=True)
    after = (result.fixed_text or "").splitlines(keepends=True)
    import difflib

    lines = difflib.unified_diff(before, after, fromfile=f"a/{result.path}", tofile=f"b/{result.path}")
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
    return text
