"""One file end to end, as a pure function; many files in order."""

from __future__ import annotations

import os
import traceback
from dataclasses import replace
from typing import Collection, Iterable, Iterator

from leaselint.diagnostics import Diagnostic, FileResult, Position
from leaselint.fix import apply_fixes, fixable
from leaselint.settings import Settings
from leaselint.source import DecodeError, LineIndex, SourceText, decode
from leaselint.suppress import directives, split

MAX_FIX_PASSES = 10
UNPARSABLE = "LL000"
UNUSED_NOQA = "LL100"


class ParseFailure(Exception):
    def __init__(self, message: str, line: int = 1, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def parse(text: str):
    import libcst as cst

    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise _syntax_error(text, exc) from None
    except RecursionError:
        raise ParseFailure("too deeply nested to parse") from None
    except Exception as exc:  # libcst raises a few other types on odd input
        raise ParseFailure(f"cannot parse: {exc}") from None


def _syntax_error(text: str, exc) -> ParseFailure:
    """Python's own message and position where it has one; libcst's otherwise."""
    import ast

    try:
        ast.parse(text)
    except SyntaxError as error:
        return ParseFailure(f"syntax error: {error.msg}", error.lineno or 1, max((error.offset or 1) - 1, 0))
    except (ValueError, RecursionError, MemoryError):
        pass
    message = exc.message.replace("parser error: ", "")
    return ParseFailure(f"syntax error: {message}", exc.raw_line, exc.raw_column)


def check_text(text: str, settings: Settings, errors: list[str] | None = None) -> list[Diagnostic]:
    """Every finding of the selected rules on one text, noqa applied. Raises ParseFailure."""
    from leaselint.model import build_model
    from leaselint.rewrite import LeaseFixer
    from leaselint.rule import Context
    from leaselint.rules import ALL_RULES, RULES_BY_CODE

    module = parse(text)
    model = build_model(module)
    context = Context(model=model, fixer=LeaseFixer(model, settings.release))
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
            found.extend(rule.check(context))
        except Exception:
            failed.add(rule.code)
            if errors is not None:
                errors.append(f"rule {rule.code} ({rule.name}) failed:\n{traceback.format_exc()}")
    found, used = split(found, noqa)
    if audit:
        stale = RULES_BY_CODE[UNUSED_NOQA].stale(noqa, used, failed, set(RULES_BY_CODE), index)
        found += split(stale, noqa)[0]
    found = [d for d in found if settings.enabled(d.code)]
    found = [d if d.fix is None or settings.can_fix(d.code) else replace(d, fix=None) for d in found]
    return sorted(found, key=lambda d: (d.start, d.code))


def unparsable(message: str, line: int = 1, column: int = 0) -> Diagnostic:
    where = Position(max(line, 1), max(column, 0))
    return Diagnostic(UNPARSABLE, message, where, where, None, "unparsable-file")


def lint_text(source: SourceText, path: str, settings: Settings) -> FileResult:
    result = FileResult(path=path, original_text=source.text)
    try:
        diagnostics = check_text(source.text, settings, result.internal_errors)
    except ParseFailure as exc:
        if settings.enabled(UNPARSABLE):
            result.diagnostics = [unparsable(str(exc), exc.line, exc.column)]
        return result
    except Exception:
        result.internal_errors.append(f"the lease model failed:\n{traceback.format_exc()}")
        return result
    if settings.fix:
        text, diagnostics = _fix_until_stable(source, diagnostics, settings, result)
        if text != source.text:
            result.fixed_text = text
    result.diagnostics = diagnostics
    return result


def _fix_until_stable(source: SourceText, diagnostics, settings: Settings, result: FileResult):
    """Apply fixes, re-parse and re-lint, until nothing is left to fix (with a bound).

    A fix whose result does not parse is dropped and reported; the others still apply.
    """
    text = source.text
    for _ in range(MAX_FIX_PASSES):
        fixes = fixable(diagnostics, settings.unsafe_fixes)
        if not fixes:
            break
        new_text, applied = apply_fixes(text, fixes, source.newline)
        try:
            new_diagnostics = check_text(new_text, settings, result.internal_errors)
        except ParseFailure:
            good = []
            for fix in applied:
                try:
                    parse(apply_fixes(text, [fix], source.newline)[0])
                    good.append(fix)
                except ParseFailure as exc:
                    result.internal_errors.append(f"dropped the fix '{fix.message}': its result does not parse ({exc})")
            if not good:
                break
            new_text, applied = apply_fixes(text, good, source.newline)
            try:
                new_diagnostics = check_text(new_text, settings, result.internal_errors)
            except ParseFailure:
                break
        except Exception:
            result.internal_errors.append(f"the lease model failed on fixed text:\n{traceback.format_exc()}")
            break
        text, diagnostics = new_text, new_diagnostics
        result.fixed_count += len(applied)
    return text, diagnostics


def lint_bytes(data: bytes, path: str, settings: Settings) -> tuple[FileResult, SourceText | None]:
    try:
        source = decode(data)
    except DecodeError as exc:
        result = FileResult(path=path)
        if settings.enabled(UNPARSABLE):
            result.diagnostics = [unparsable(f"cannot decode: {exc}")]
        return result, None
    return lint_text(source, path, settings), source


def lint_file(path: str, settings: Settings) -> tuple[FileResult, SourceText | None]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        result = FileResult(path=path)
        if settings.enabled(UNPARSABLE):
            result.diagnostics = [unparsable(f"cannot read: {exc.strerror or exc}")]
        return result, None
    return lint_bytes(data, path, settings)


def read(path: str, settings: Settings) -> tuple[bytes | None, FileResult | None]:
    """A file's bytes, or the LL000 result that says why they cannot be had."""
    try:
        with open(path, "rb") as handle:
            return handle.read(), None
    except OSError as exc:
        result = FileResult(path=path)
        if settings.enabled(UNPARSABLE):
            result.diagnostics = [unparsable(f"cannot read: {exc.strerror or exc}")]
        return None, result


# Below this much source to parse, starting worker processes costs more than it saves.
POOL_MIN_FILES = 2
POOL_MIN_BYTES = 200_000


def lint_paths(
    paths: Iterable[str],
    settings: Settings,
    explicit: Collection[str] = (),
    jobs: int | None = None,
    cache=None,
    prefilter: bool = True,
) -> Iterator[tuple[FileResult, SourceText | None]]:
    """Every file's result, in the order given.

    Files whose bytes cannot hold a finding are done without a decode or a parse (files named
    on the command line always get the full check); cached findings are reused; the rest are
    linted in worker processes when there are enough of them.
    """
    from leaselint.prefilter import may_hold_findings

    paths = list(paths)
    results: list[tuple[FileResult, SourceText | None] | None] = [None] * len(paths)
    todo: list[tuple[int, str, bytes, Settings, str | None]] = []
    for index, path in enumerate(paths):
        file_settings = settings.for_file(path)
        data, failed = read(path, file_settings)
        if data is None:
            results[index] = (failed, None)  # type: ignore[assignment]
            continue
        if prefilter and path not in explicit and not may_hold_findings(data, file_settings.enabled(UNUSED_NOQA)):
            results[index] = (FileResult(path=path), None)
            continue
        key = cache.key(data, file_settings) if cache is not None else None
        hit = cache.get(key) if cache is not None else None
        if hit is not None and not (settings.fix and fixable(hit, settings.unsafe_fixes)):
            results[index] = _cached(path, data, hit)
            continue
        todo.append((index, path, data, file_settings, key))

    for (index, path, data, file_settings, key), done in zip(todo, _lint_all(todo, jobs)):
        results[index] = done
        result, source = done
        if cache is not None and key is not None and not result.internal_errors:
            if result.fixed_text is None:
                cache.put(key, result.diagnostics)
            elif source is not None:
                # The file will hold the fixed text: remember its findings under that content.
                cache.put(cache.key(source.encode(result.fixed_text), file_settings), result.diagnostics)
    if cache is not None:
        cache.save()
    for done in results:
        yield done  # type: ignore[misc]


def _cached(path: str, data: bytes, diagnostics: list[Diagnostic]) -> tuple[FileResult, SourceText | None]:
    try:
        source = decode(data) if diagnostics else None
    except DecodeError:
        source = None
    text = source.text if source is not None else None
    return FileResult(path=path, diagnostics=list(diagnostics), original_text=text), source


def _lint_one(job: tuple[int, str, bytes, Settings, str | None]) -> tuple[FileResult, SourceText | None]:
    _, path, data, file_settings, _ = job
    return lint_bytes(data, path, file_settings)


def _lint_all(todo: list, jobs: int | None) -> list[tuple[FileResult, SourceText | None]]:
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(todo) < POOL_MIN_FILES or sum(len(job[2]) for job in todo) < POOL_MIN_BYTES:
        return [_lint_one(job) for job in todo]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    chunk = max(1, len(todo) // (workers * 8))
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            return list(pool.map(_lint_one, todo, chunksize=chunk))
    except (BrokenProcessPool, OSError):
        # A worker died (or none could start): do the work here instead.
        return [_lint_one(job) for job in todo]
