"""One file end to end, as a pure function: its findings, its fixed text, its summary for the project
pass. Text becomes a tree in parsing.py; many files are the runner's."""

from __future__ import annotations

import os
import stat
from collections import Counter
from typing import Iterator

from leaselint.diagnostics import HANDED_KEY, Diagnostic, FileResult, Fix, Position
from leaselint.fix import apply_fixes, applicable, chained
from leaselint.parsing import (
    NO_ROUND_TRIP,
    TOO_DEEP,
    DEEP_RECURSION_LIMIT,
    ParseFailure,
    _last_tree,
    _python_compile,
    _python_parse,
    on_big_stack,
    parse,
    recursion_limit,
    worth_parsing,
)
from leaselint.settings import Settings
from leaselint.source import DecodeError, LineIndex, SourceText, decode
from leaselint.suppress import directives, split

MAX_FIX_PASSES = 10


UNPARSABLE = "LL000"


UNUSED_NOQA = "LL100"


def internal_error(what: str, exc: BaseException) -> str:
    """One line for the user: what failed, at which line of the linted file when that can be told, why,
    and where in leaselint."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at line {line}" if (line := _line_of(exc)) else ""
    origin = f" ({_short(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    reason = f"{type(exc).__name__}: {exc}".rstrip(": ").replace("\n", " ")
    return f"{what} failed{where}: {reason}{origin}"


def _short(filename: str) -> str:
    parts = filename.replace(os.sep, "/").split("/")
    # From the nearest package of these names: a checkout folder named `leaselint` is no package.
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] in ("leaselint", "rules", "libcst") and os.path.isfile(
            "/".join([*parts[: index + 1], "__init__.py"])
        ):
            return "/".join(parts[index:])
    return parts[-1]


def _once(diagnostics) -> Iterator[Diagnostic]:
    """A rule's findings, each place and message once (one helper's store call reached from several
    callers is one finding)."""
    reported: set = set()
    for diagnostic in diagnostics:
        # Made through the module's own helper: one finding at its store call, whatever key each
        # caller hands it (the message names the first caller's).
        inside = any(r.message == HANDED_KEY for r in diagnostic.related)
        where = (diagnostic.code, diagnostic.start, diagnostic.end) if inside else (diagnostic.start, diagnostic.end, diagnostic.message)
        if where not in reported:
            reported.add(where)
            yield diagnostic


def _line_of(exc: BaseException) -> int | None:
    """The linted line a failure was at: the innermost syntax node or lease event the failing code held."""
    import libcst as cst

    from leaselint.diagnostics import Position

    tb = exc.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    tables = [v for f in frames for v in f.f_locals.values() if isinstance(v, dict) and v and _is_positions(v)]
    for frame in reversed(frames):
        for value in frame.f_locals.values():
            start = getattr(value, "start", None)
            if isinstance(start, Position):
                return start.line
            if isinstance(value, cst.CSTNode):
                for table in tables:
                    where = table.get(value)
                    if where is not None:
                        return where.start.line
    return None


def _is_positions(table: dict) -> bool:
    import libcst as cst

    key, value = next(iter(table.items()))
    return isinstance(key, cst.CSTNode) and hasattr(value, "start") and hasattr(value.start, "line")


@on_big_stack
def check_text(
    text: str, settings: Settings, errors: list[str] | None = None, strict: bool = False, summary_out: dict | None = None
) -> list[Diagnostic]:
    """Every finding of the selected rules on one text, noqa applied. Raises ParseFailure.

    A rule that fails is reported in `errors` and the other rules still run; nesting too deep for
    the model or a rule to walk is a ParseFailure, like nesting too deep to parse.
    """
    module = parse(text, strict)
    try:
        with recursion_limit(DEEP_RECURSION_LIMIT):
            found, code = _check_module(module, text, settings, errors, summary_out)
            if any(d.fix is not None for d in found) and not _reproduces(code, text):
                # libcst drops a form feed that starts a statement line: its positions and the lines
                # a fix copies no longer match the text, so no fix is offered for such a file.
                found = [d.replace(fix=None, message=d.message + NO_ROUND_TRIP) if d.fix else d for d in found]
            return found
    except RecursionError:
        raise ParseFailure(TOO_DEEP) from None


def _reproduces(code: str, text: str) -> bool:
    # A file with `\r` newlines comes back without its last one: that moves no position.
    return code == text or (text.startswith(code) and not text[len(code) :].strip("\r"))


def _check_module(
    module, text: str, settings: Settings, errors: list[str] | None, summary_out: dict | None = None
) -> tuple[list[Diagnostic], str]:
    """The findings, and the module's code as libcst writes it back."""
    from leaselint.model import build_model
    from leaselint.rewrite import LeaseFixer
    from leaselint.rule import Context
    from leaselint.rules import ALL_RULES, RULES_BY_CODE

    project = settings.project
    if project is not None:
        project = (project[0], project[1], {name: (summary, where) for name, summary, where in project[2]}, *project[3:])
    model = build_model(module, project, settings.tests, text)
    if summary_out is not None:
        from leaselint.model.summary import exports, wants

        summary_out["exports"] = exports(model)
        summary_out["wants"] = wants(model)
        summary_out["keyed"] = model.keyed
    context = Context(model=model, fixer=LeaseFixer(model, settings.release, text, settings.line_length))
    index = LineIndex(text)
    noqa = directives(text)
    audit = settings.enabled(UNUSED_NOQA)
    # LL100 needs to know whether each code a directive names fires there, selected or not.
    named = {code for directive in noqa.values() for code in directive.codes} if audit else set()
    found: list[Diagnostic] = []
    failed: set[str] = set()
    for rule in ALL_RULES:
        if not (settings.enabled(rule.code) or rule.code in named):
            continue
        try:
            found.extend(_once(rule.check(context)))
        except RecursionError:
            raise
        except Exception as exc:
            failed.add(rule.code)
            if errors is not None:
                _add(errors, internal_error(f"rule {rule.code} ({rule.name})", exc))
    found, used = split(found, noqa)
    if audit:
        stale = RULES_BY_CODE[UNUSED_NOQA].stale(noqa, used, failed, set(RULES_BY_CODE), index)
        found += split(stale, noqa)[0]
    found = [d for d in found if settings.enabled(d.code)]
    found = [d if d.fix is None or settings.can_fix(d.code) else d.replace(fix=None) for d in found]
    return sorted(found, key=lambda d: (d.start, d.code)), model.positions.code


def unparsable(message: str, line: int = 1, column: int = 0) -> Diagnostic:
    where = Position(max(line, 1), max(column, 0))
    return Diagnostic(UNPARSABLE, message, where, where, None, "unparsable-file")


def lint_text(source: SourceText, path: str, settings: Settings) -> FileResult:
    result = FileResult(path=path, original_text=source.text)
    summary: dict = {}
    try:
        diagnostics = check_text(source.text, settings, result.internal_errors, summary_out=summary)
        if summary:
            result.summary = (summary["exports"], summary["wants"], summary["keyed"])
    except ParseFailure as exc:
        if settings.enabled(UNPARSABLE):
            result.diagnostics = [unparsable(str(exc), exc.line, exc.column)]
        result.diagnostics += _as_python2(source.text, exc, settings, result, summary)
        return result
    except Exception as exc:
        _add(result.internal_errors, internal_error("the lease model", exc))
        return result
    text = source.text
    if settings.fix:
        unfixed = diagnostics
        text, diagnostics = _fix_until_stable(text, source.newline, diagnostics, settings, result.internal_errors)
        if text != source.text:
            result.fixed_text, result.unfixed = text, unfixed
            result.fixed = _gone(unfixed, diagnostics)
    result.diagnostics = diagnostics
    if settings.count_fixes:
        _count_fixes(result, text, source.newline, settings)
    return result


PYTHON2 = "the file is written in an older Python (2, or 3 before 3.7)"


def _as_python2(text: str, failure: ParseFailure, settings: Settings, result: FileResult, summary: dict) -> list[Diagnostic]:
    """The findings of a Python 2 file, read as Python 3 on the same lines (leaselint/python2.py),
    with no fix: the text they would edit is not the file's. None for any other unparsable text."""
    from leaselint.python2 import as_python3

    if not str(failure).startswith("syntax error"):
        return []
    converted = as_python3(text)
    if converted is None:
        return []
    try:
        found = check_text(converted, settings.replace(fix=False), result.internal_errors, summary_out=summary)
    except ParseFailure:
        return []
    except Exception as exc:
        _add(result.internal_errors, internal_error("the lease model", exc))
        return []
    if summary:
        result.summary = (summary["exports"], summary["wants"], summary["keyed"])
    return [
        d.replace(fix=None, message=d.message if "(no automatic fix:" in d.message else f"{d.message} (no automatic fix: {PYTHON2})")
        for d in found
        if d.code != UNPARSABLE
    ]


def _gone(before: list[Diagnostic], after: list[Diagnostic]) -> dict[str, int]:
    """Per code, how many of the findings `before` are not in `after`."""
    return dict(Counter(d.code for d in before) - Counter(d.code for d in after))


def _count_fixes(result: FileResult, text: str, newline: str, settings: Settings) -> None:
    """What --fix would fix of the result's findings, per code, and how many more --unsafe-fixes would.

    When some findings have a fix to write and some have not, the fixes are tried on the text: one
    fix can settle another finding (chained fixes). Otherwise the findings' own fixes tell.
    """
    found = result.diagnostics
    counts = {}
    for unsafe in {settings.unsafe_fixes, True}:
        if chained(found, unsafe):
            trial = settings.replace(fix=True, unsafe_fixes=unsafe, count_fixes=False)
            counts[unsafe] = _gone(found, _fix_until_stable(text, newline, found, trial, [])[1])
        else:
            counts[unsafe] = dict(Counter(d.code for d in found if applicable(d.fix, unsafe)))
    result.fixable = counts[settings.unsafe_fixes]
    result.hidden = max(0, sum(counts[True].values()) - sum(result.fixable.values()))


def _fix_until_stable(text: str, newline: str, diagnostics: list[Diagnostic], settings: Settings, errors: list[str]):
    """Apply the fixes, re-parse and re-lint, until nothing is left to fix (at most MAX_FIX_PASSES times).

    Fixes whose edits overlap go in different passes. Every pass's text parses and has been linted
    again: a fix whose result does not parse is dropped and reported, that part of the file keeps its
    text, and its finding is left without a fix. Returns the last good text and its findings.
    """
    dropped: set[tuple] = set()
    # Fixed text must satisfy Python's compiler too, when the original did.
    try:
        strict = _python_parse(text) is None and _python_compile(text) is None
    except ParseFailure:  # too deep for CPython (libcst read it): the original did not
        strict = False
    for _ in range(MAX_FIX_PASSES):
        pending = _pending(diagnostics, settings, dropped)
        if not pending:
            break
        new_text, applied = apply_fixes(text, [fix for _, fix in pending], newline)
        try:
            new_diagnostics = check_text(new_text, settings, errors, strict)
        except ParseFailure:
            _drop_unparsable(text, newline, pending, applied, dropped, errors, strict)
            if not any(_identity(d) in dropped for d, fix in pending if fix in applied):
                # Each fix parses alone, not together: take them one at a time.
                new_text, applied = apply_fixes(text, applied[:1], newline)
                try:
                    new_diagnostics = check_text(new_text, settings, errors, strict)
                except ParseFailure:
                    break
            else:
                continue
        except Exception as exc:
            _add(errors, internal_error("the lease model, on the fixed text,", exc))
            break
        if new_text == text:
            break
        text, diagnostics = new_text, new_diagnostics
    else:
        if _pending(diagnostics, settings, dropped):
            _add(errors, f"the fixes did not settle after {MAX_FIX_PASSES} passes; the text of the last one is kept")
    return text, [d.replace(fix=None) if _identity(d) in dropped else d for d in diagnostics]


def _pending(diagnostics: list[Diagnostic], settings: Settings, dropped: set[tuple]) -> list[tuple[Diagnostic, Fix]]:
    return [
        (d, d.fix)
        for d in diagnostics
        if d.fix is not None and applicable(d.fix, settings.unsafe_fixes) and _identity(d) not in dropped
    ]


def _identity(diagnostic: Diagnostic) -> tuple:
    """A finding's fix as it stays from pass to pass, whatever lines the other fixes move."""
    fix = diagnostic.fix
    return (diagnostic.code, fix.message, tuple(edit.content for edit in fix.edits)) if fix else (diagnostic.code,)


def _drop_unparsable(text, newline, pending, applied, dropped, errors, strict: bool = False) -> None:
    for diagnostic, fix in pending:
        if fix not in applied:
            continue
        try:
            parse(apply_fixes(text, [fix], newline)[0], strict)
        except ParseFailure as exc:
            dropped.add(_identity(diagnostic))
            _add(
                errors,
                f"dropped the fix of {diagnostic.code} at line {diagnostic.start.line} ({fix.message}): "
                f"its result does not parse ({exc}); that code keeps its text",
            )


def _add(errors: list[str], message: str) -> None:
    if message not in errors:
        errors.append(message)


def lint_bytes(
    data: bytes, path: str, settings: Settings, look: bool = False
) -> tuple[FileResult, SourceText | None]:
    """One file's result. `look`: the prefilter found only a claim's words in a walked file, so ask
    CPython's tree before paying for libcst."""
    try:
        source = decode(data)
    except DecodeError as exc:
        result = FileResult(path=path)
        if settings.enabled(UNPARSABLE):
            result.diagnostics = [unparsable(str(exc))]
        return result, None
    if settings.max_file_size and len(data) > settings.max_file_size:
        return _lint_oversized(source, path, settings), source
    try:
        if look and not worth_parsing(source.text):
            return FileResult(path=path, passed_over=True), None
        return lint_text(source, path, settings), source
    finally:
        _last_tree[:] = [None, None]


def _lint_oversized(source: SourceText, path: str, settings: Settings) -> FileResult:
    """A file past `max-file-size`: CPython's parser says whether it parses (in seconds; a syntax
    error is LL000), and a file whose bytes could hold a finding is left unchecked, said in
    `result.unchecked` (a warning, not a finding)."""
    from leaselint.prefilter import may_hold_findings

    result = FileResult(path=path, original_text=source.text)
    try:
        failure = on_big_stack(_python_parse)(source.text)
    except ParseFailure as exc:
        failure = exc
    data = source.raw if source.raw is not None else source.encode(source.text)
    if failure is None and may_hold_findings(data, settings.enabled(UNUSED_NOQA)):
        result.unchecked = unchecked(len(data), settings.max_file_size)
    if failure is not None and settings.enabled(UNPARSABLE):
        result.diagnostics = [unparsable(str(failure), failure.line, failure.column)]
    return result


def unchecked(size: int, limit: int) -> str:
    """Why a file of `size` bytes was not checked."""
    mib = 1024 * 1024
    return f"not checked: {size / mib:.1f} MiB, past max-file-size ({limit / mib:g} MiB)"


def lint_file(path: str, settings: Settings) -> tuple[FileResult, SourceText | None]:
    data, failed, _ = read(path, settings)
    if data is None:
        return failed, None  # type: ignore[return-value]
    return lint_bytes(data, path, settings)


def read(path: str, settings: Settings) -> tuple[bytes | None, FileResult | None, os.stat_result | None]:
    """A file's bytes and the status they were read with, or the LL000 result that says why they
    cannot be had.

    Only a regular file is read: a folder, a pipe or a device named `x.py` is reported, not waited
    on or read forever.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return None, _unreadable(path, settings, exc.strerror or str(exc)), None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, _unreadable(path, settings, f"not a regular file ({_kind(info.st_mode)})"), None
        return _read_all(fd, info.st_size), None, info
    except OSError as exc:
        return None, _unreadable(path, settings, exc.strerror or str(exc)), None
    finally:
        os.close(fd)


def _read_all(fd: int, size: int) -> bytes:
    """The rest of an open file: its size as the status gave it in one read (no file object), then
    reads until the end (a file that grew meanwhile)."""
    parts = []
    want = size + 1 if size > 0 else 1 << 16
    while True:
        part = os.read(fd, want)
        if not part:
            break
        parts.append(part)
        want = 1 << 16
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _unreadable(path: str, settings: Settings, reason: str) -> FileResult:
    result = FileResult(path=path)
    if settings.enabled(UNPARSABLE):
        result.diagnostics = [unparsable(f"cannot read: {reason}")]
    return result


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file"


def _cached(path: str, data: bytes, diagnostics: list[Diagnostic]) -> tuple[FileResult, SourceText | None]:
    try:
        source = decode(data) if diagnostics else None
    except DecodeError:
        source = None
    text = source.text if source is not None else None
    return FileResult(path=path, diagnostics=list(diagnostics), original_text=text), source
