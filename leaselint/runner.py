"""One file end to end, as a pure function; many files in order."""

from __future__ import annotations

import gc
import os
import stat
import threading
from typing import Collection, Iterable, Iterator

from leaselint.cache import signature
from leaselint.diagnostics import Diagnostic, FileResult, Fix, Position
from leaselint.fix import apply_fixes, applicable, fixable
from leaselint.settings import Settings
from leaselint.source import DecodeError, LineIndex, SourceText, decode
from leaselint.suppress import directives, split
from leaselint.parsing import (  # noqa: F401 (also read from here by the tests and scripts)
    _last_tree,
    BLOCK_RESERVE,
    DEEP_RECURSION_LIMIT,
    FLAT_SAFE_TEXT,
    GATE_RECURSION_LIMIT,
    GRAMMAR_CHECKS,
    HEAVY_WEIGHT,
    LIGHT_WEIGHT,
    MAX_BOOL_OPERANDS,
    MAX_CHECK_BYTES,
    NO_ROUND_TRIP,
    PARSER_DEPTH,
    PARSING_GC_THRESHOLD,
    ParseFailure,
    SMALL_TEXT,
    STACK_BYTES,
    TOO_DEEP,
    _BigStack,
    _LIGHT_CHARACTERS,
    _LIGHT_WORDS,
    _POST_INIT_NAMES,
    _big_stack_thread,
    _checked_again,
    _collect_less,
    _deep,
    _find_node_class,
    _libcst_version,
    _made_by_parser,
    _node_class,
    _parsing_thread,
    _python_compile,
    _python_parse,
    _python_tree,
    _run_trusts,
    _start_worker,
    _trusted_classes,
    collecting_less,
    fast_path_notes,
    node_checks_aside,
    on_big_stack,
    parse,
    recursion_limit,
    shallow,
    trusting_parser,
    trusting_run,
    worth_parsing,
)

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
    for anchor in ("leaselint", "rules", "libcst"):
        if anchor in parts[:-1]:
            return "/".join(parts[len(parts) - 1 - parts[::-1].index(anchor) :])
    return parts[-1]


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
        project = (project[0], project[1], {name: (summary, where) for name, summary, where in project[2]})
    model = build_model(module, project, settings.tests)
    if summary_out is not None:
        from leaselint.model.summary import exports, wants

        summary_out["exports"] = exports(model)
        summary_out["wants"] = wants(model)
    context = Context(model=model, fixer=LeaseFixer(model, settings.release, text))
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
            result.summary = (summary["exports"], summary["wants"])
    except ParseFailure as exc:
        if settings.enabled(UNPARSABLE):
            result.diagnostics = [unparsable(str(exc), exc.line, exc.column)]
        return result
    except Exception as exc:
        _add(result.internal_errors, internal_error("the lease model", exc))
        return result
    if settings.fix:
        text, diagnostics = _fix_until_stable(source, diagnostics, settings, result)
        if text != source.text:
            result.fixed_text = text
    result.diagnostics = diagnostics
    return result


def _fix_until_stable(source: SourceText, diagnostics: list[Diagnostic], settings: Settings, result: FileResult):
    """Apply the fixes, re-parse and re-lint, until nothing is left to fix (at most MAX_FIX_PASSES times).

    Fixes whose edits overlap go in different passes. Every pass's text parses and has been linted
    again: a fix whose result does not parse is dropped and reported, that part of the file keeps its
    text, and its finding is left without a fix. Returns the last good text and its findings.
    """
    text, newline = source.text, source.newline
    errors = result.internal_errors
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
        result.fixed_count += len(applied)
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
            result.diagnostics = [unparsable(f"cannot decode: {exc}")]
        return result, None
    if len(data) > MAX_CHECK_BYTES:
        return _lint_oversized(source, path, settings), source
    try:
        if look and not worth_parsing(source.text):
            return FileResult(path=path, passed_over=True), None
        return lint_text(source, path, settings), source
    finally:
        _last_tree[:] = [None, None]


def _lint_oversized(source: SourceText, path: str, settings: Settings) -> FileResult:
    """A file past MAX_CHECK_BYTES: CPython's parser says whether it parses (in seconds), and the
    file is reported as too large only when its bytes could hold a finding."""
    from leaselint.prefilter import may_hold_findings

    result = FileResult(path=path, original_text=source.text)
    try:
        failure = on_big_stack(_python_parse)(source.text)
    except ParseFailure as exc:
        failure = exc
    data = source.raw if source.raw is not None else source.encode(source.text)
    if failure is None and may_hold_findings(data, settings.enabled(UNUSED_NOQA)):
        size, limit = len(data) / 1024 / 1024, MAX_CHECK_BYTES // 1024 // 1024
        failure = ParseFailure(f"too large to check: {size:.1f} MiB, past the {limit} MiB leaselint parses")
    if failure is not None and settings.enabled(UNPARSABLE):
        result.diagnostics = [unparsable(str(failure), failure.line, failure.column)]
    return result


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
            # Checked before opening a file object: Python refuses one on a folder.
            os.close(fd)
            return None, _unreadable(path, settings, f"not a regular file ({_kind(info.st_mode)})"), None
        with os.fdopen(fd, "rb") as handle:
            return handle.read(), None, info
    except OSError as exc:
        return None, _unreadable(path, settings, exc.strerror or str(exc)), None


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


# The cache's mark for bytes the prefilter passed over (kept apart: a file named on the command
# line gets the full check whatever the prefilter says).
SKIPPED = "/prefiltered"


_names_lock: list = []


def _skipped(path: str) -> str:
    """The cache's mark of bytes the prefilter passed over, as read under this file's name."""
    if not _names_lock:
        from leaselint.prefilter import names_lock

        _names_lock.append(names_lock)
    return SKIPPED + "/lock-named" if _names_lock[0](path) else SKIPPED
# Below this much work, starting worker processes costs more than it saves. A file's work is its
# bytes and a fixed part as large as FILE_WORK_BYTES of source (its model, rules and positions: a
# 400-byte helper module takes about 2 ms, a 4.6 KB lease module about 7 ms).
POOL_MIN_FILES = 2
CHUNKS_PER_WORKER = 32
POOL_MIN_BYTES = 200_000
FILE_WORK_BYTES = 1_500


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
    paths = list(paths)
    results: list[tuple[FileResult, SourceText | None] | None] = [None] * len(paths)
    todo: list[tuple[int, str, bytes, Settings, str | None, bool]] = []
    looks = _first_looks(paths, settings, explicit, cache, prefilter, jobs)
    for index, (path, (data, failed, key, skipped, asked, look, mark)) in enumerate(zip(paths, looks)):
        if failed is not None:
            results[index] = (failed, None)
            continue
        if mark is not None and cache is not None:
            cache.remember(path, mark, key, settings.for_file(path))
        if skipped:
            if asked and cache is not None:
                cache.put(key + _skipped(path), [])
            results[index] = (FileResult(path=path), None)
            continue
        hit = cache.get(key) if cache is not None else None
        if hit is not None and not (settings.fix and fixable(hit, settings.unsafe_fixes)):
            results[index] = _cached(path, data, hit)
            continue
        todo.append((index, path, data, settings.for_file(path), key, look))

    _run(todo, results, cache, jobs)
    _project_pass(paths, looks, results, settings, cache, jobs)
    if cache is not None:
        cache.save()
    for done in results:
        yield done  # type: ignore[misc]


def _run(todo: list, results: list, cache, jobs: int | None) -> None:
    """Lint `todo` into `results`, and remember what the cache should."""
    for (index, path, data, file_settings, key, _), done in zip(todo, _lint_all(todo, jobs)):
        results[index] = done
        result, source = done
        if cache is not None and key is not None and result.passed_over:
            cache.put(key + _skipped(path), [])
        elif cache is not None and key is not None and not result.internal_errors:
            cache.put(key + SUMMARY, result.summary or ((), ()))
            if result.fixed_text is None:
                cache.put(key, result.diagnostics)
            elif source is not None:
                # The file will hold the fixed text: remember its findings under that content.
                cache.put(cache.key(source.encode(result.fixed_text), file_settings), result.diagnostics)


# The cache's mark for a module's summary (exports, wants), and for bytes that call no summarised name.
SUMMARY = "/summary"
CALLS_NONE = "/calls-none:"


def _project_pass(paths: list[str], looks: list, results: list, settings: Settings, cache, jobs: int | None) -> None:
    """Lint again, with the summaries they use, the files that call a summarised function of another
    module (leaselint/project.py); files the prefilter passed over are read for those names."""
    summaries: dict[int, tuple] = {}
    skipped: list[int] = []
    for index, (look, done) in enumerate(zip(looks, results)):
        data, failed, key, was_skipped = look[0], look[1], look[2], look[3]
        if failed is not None:
            continue
        if was_skipped:
            skipped.append(index)
            continue
        summary = done[0].summary if done is not None else None
        if summary is None and cache is not None and key is not None:
            summary = cache.get(key + SUMMARY)
        if summary is not None:
            summaries[index] = summary
    if not any(summary[0] or summary[1] for summary in summaries.values()):
        return
    import re

    from leaselint.project import Project, import_wants

    in_run = {os.path.abspath(path): index for index, path in enumerate(paths)}

    def summarise_file(path: str) -> tuple:
        index = in_run.get(os.path.abspath(path))
        if index is not None and index in summaries:
            return summaries[index][0]
        # Outside the run, or passed over by the prefilter (which asks for a claim's words).
        return _summarise_outside(path, cache)

    project = Project(settings.root, summarise_file)
    for index, (exports, _) in summaries.items():
        if exports:
            project.add(paths[index], exports)
    todo: list = []
    for index, (_, wants) in summaries.items():
        _project_job(index, paths[index], looks[index], wants, project, settings, cache, results, todo)
    # A passed-over file read for its summary on demand may call another module's function too.
    names = sorted(project.exported_names())
    if names and skipped:
        words = re.compile(rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in names) + rb")\b")
        import hashlib

        # Kept short: one such entry per passed-over file.
        mark = CALLS_NONE + hashlib.sha256("\0".join(names).encode()).hexdigest()[:16]
        exported = set(names)
        for index in skipped:
            key = looks[index][2]
            if cache is not None and key is not None and cache.get(key + mark) is not None:
                continue
            data, failed, _ = read(paths[index], settings)
            used = data is not None and words.search(data) is not None
            look = (data, None, key, False)
            if not used or not _project_job(index, paths[index], look, import_wants(data, exported), project, settings, cache, results, todo):
                if cache is not None and key is not None and data is not None:
                    cache.put(key + mark, [])
    _run(todo, results, cache, jobs)


def _project_job(index, path, look, wants, project, settings: Settings, cache, results, todo) -> bool:
    """Whether the file uses summaries: then its result with them is in `results` or queued in `todo`."""
    needed = project.settings_for(path, wants) if wants else None
    if needed is None:
        return False
    file_settings = settings.for_file(path).replace(project=needed)
    data, key = look[0], None
    if data is None:
        data = read(path, file_settings)[0]
        if data is None:
            return False
    if cache is not None:
        key = cache.key(data, file_settings)
        hit = cache.get(key)
        if hit is not None and not (settings.fix and fixable(hit, settings.unsafe_fixes)):
            results[index] = _cached(path, data, hit)
            return True
    todo.append((index, path, data, file_settings, key, False))
    return True


def _summarise_outside(path: str, cache) -> tuple:
    """The exports of a module outside the run (read for its summary, never reported on)."""
    from leaselint.prefilter import may_export

    data = read(path, Settings())[0]
    if data is None:
        return ()
    key = None
    if cache is not None:
        key = cache.key(data, Settings()) + SUMMARY
        known = cache.get(key)
        if known is not None:
            return known[0]
    exports: tuple = ()
    if may_export(data):
        summary: dict = {}
        try:
            check_text(decode(data).text, Settings(select=frozenset()), [], summary_out=summary)
            exports = summary.get("exports", ())
        except Exception:
            exports = ()
    if key is not None:
        cache.put(key, (exports, ()))
    return exports


# From this many files on, a forked process reads and prefilters the first half while this one does
# the rest (the byte scan is most of a run that parses little).
SPLIT_FILES = 400


def _first_look(path: str, settings: Settings, explicit: Collection[str], cache, prefilter: bool) -> tuple:
    """One file read, keyed and prefiltered: (bytes, LL000 result, cache key, done, done by the
    prefilter just now, only a claim's words found, signature read with). A file the cache knows
    unchanged and without findings is not read."""
    file_settings = settings.for_file(path)
    walked = prefilter and path not in explicit
    if cache is not None:
        key = cache.known_key(path, file_settings)
        if key is not None:
            if walked and cache.get(key + _skipped(path)) is not None:
                return None, None, key, True, False, False, None
            if cache.get(key) == []:
                return None, None, key, False, False, False, None
    data, failed, info = read(path, file_settings)
    if data is None:
        return None, failed, None, False, False, False, None
    key = mark = None
    if cache is not None:
        key, mark = cache.key(data, file_settings), signature(info)
    if walked and cache is not None and cache.get(key + _skipped(path)) is not None:
        # The prefilter passed over these bytes before: hashing them is cheaper than asking again.
        return None, None, key, True, False, False, mark
    if not walked:
        return data, None, key, False, False, False, mark
    from leaselint.prefilter import CLAIM_WORDS, NOTHING, verdict

    found = verdict(data, file_settings.enabled(UNUSED_NOQA), path)
    if found == NOTHING:
        return None, None, key, True, True, False, mark
    return data, None, key, False, False, found == CLAIM_WORDS, mark


def _first_looks(paths: list[str], settings: Settings, explicit, cache, prefilter: bool, jobs: int | None) -> list:
    def look(part: list[str]) -> list:
        return [_first_look(path, settings, explicit, cache, prefilter) for path in part]

    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers < 2 or len(paths) < SPLIT_FILES or not hasattr(os, "fork") or threading.active_count() > 1:
        return look(paths)
    if cache is not None and cache.knows_most(paths):
        # Mostly a stat per file: a second process costs more than it saves.
        return look(paths)
    from leaselint.prefilter import verdict

    verdict(b"")  # the word table, made once for both processes
    half = len(paths) // 2
    theirs = _forked(lambda: look(paths[:half]))
    mine = look(paths[half:])
    first = theirs()
    if first is None or len(first) != half:
        first = look(paths[:half])
    return first + mine


def _forked(work):
    """Start `work()` in a forked process; returns a function that waits for its result (None if the
    process could not start or failed: the caller then does the work itself)."""
    import pickle

    try:
        read_end, write_end = os.pipe()
        pid = os.fork()
    except OSError:
        return lambda: None
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        try:
            os.close(read_end)
            payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as out:
                out.write(payload)
        finally:
            os._exit(0)
    os.close(write_end)

    def result():
        try:
            with os.fdopen(read_end, "rb") as handle:
                payload = handle.read()
            os.waitpid(pid, 0)
            return pickle.loads(payload) if payload else None
        except Exception:
            return None

    return result


def _cached(path: str, data: bytes, diagnostics: list[Diagnostic]) -> tuple[FileResult, SourceText | None]:
    try:
        source = decode(data) if diagnostics else None
    except DecodeError:
        source = None
    text = source.text if source is not None else None
    return FileResult(path=path, diagnostics=list(diagnostics), original_text=text), source


def _lint_one(job: tuple[int, str, bytes, Settings, str | None, bool]) -> tuple[FileResult, SourceText | None]:
    _, path, data, file_settings, _, look = job
    try:
        return lint_bytes(data, path, file_settings, look)
    finally:
        # The file's tree is freed: a young-generation pass now walks only what outlives it, where
        # one that falls due during the next parse walks that file's half-built tree.
        gc.collect(0)


def _import_checking() -> None:
    import libcst  # noqa: F401

    from leaselint import rewrite, rule, rules  # noqa: F401
    from leaselint.model import build  # noqa: F401


def _work(todo: list) -> int:
    return sum(len(job[2]) for job in todo) + FILE_WORK_BYTES * len(todo)


def _lint_all(todo: list, jobs: int | None) -> list[tuple[FileResult, SourceText | None]]:
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(todo) < POOL_MIN_FILES or _work(todo) < POOL_MIN_BYTES:
        with collecting_less(), trusting_run():
            return [_lint_one(job) for job in todo]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    if "fork" in methods:
        # Forked workers start with what checking imports, and a later pool of the run (the project
        # pass) does not import it again in each worker.
        _import_checking()
    # Small chunks: when one worker runs out of work, the other's last chunk is short. (A chunk of
    # 1/16 of the files left a core idle for about 4% of a two-process run on tree (c).)
    chunk = max(1, len(todo) // (workers * CHUNKS_PER_WORKER))
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker) as pool:
            return list(pool.map(_lint_one, todo, chunksize=chunk))
    except (BrokenProcessPool, OSError):
        # A worker died (or none could start): do the work here instead.
        with collecting_less(), trusting_run():
            return [_lint_one(job) for job in todo]
