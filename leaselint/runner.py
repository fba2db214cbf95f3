"""Many files in order: the prefilter's first look, the cache, a pool of worker processes, and the
project pass (project_pass.py) for callers of other modules' helpers. One file is check.py's."""

from __future__ import annotations

import gc
import os
import threading
from typing import Collection, Iterable, Iterator

from leaselint.cache import signature
from leaselint.check import (  # noqa: F401 (the entry points, also read from here)
    MAX_FIX_PASSES,
    UNPARSABLE,
    UNUSED_NOQA,
    _cached,
    check_text,
    internal_error,
    lint_bytes,
    lint_file,
    lint_text,
    read,
    unparsable,
)
from leaselint.diagnostics import FileResult
from leaselint.fix import fixable, needs_trial
from leaselint.model.lock_names import names_lock
from leaselint.parsing import _start_worker, collecting_less, on_big_stack, trusting_run
from leaselint.project_pass import SUMMARY, project_pass
from leaselint.settings import Settings
from leaselint.source import SourceText

# The cache's mark for bytes the prefilter passed over (kept apart: a file named on the command
# line gets the full check whatever the prefilter says).
SKIPPED = "/prefiltered"


def _skipped(path: str) -> str:
    """The cache's mark of bytes the prefilter passed over, as read under this file's name."""
    return SKIPPED + "/lock-named" if names_lock(path) else SKIPPED


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
        if hit is not None and not (settings.fix and fixable(hit, settings.unsafe_fixes)) and not needs_trial(hit, settings):
            results[index] = _cached(path, data, hit)
            continue
        todo.append((index, path, data, settings.for_file(path), key, look))

    _run(todo, results, cache, jobs)
    project_pass(paths, looks, results, settings, cache, lambda todo: _run(todo, results, cache, jobs))
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
        elif cache is not None and key is not None and not result.internal_errors and result.unchecked is None:
            cache.put(key + SUMMARY, result.summary or ((), (), ()))
            if result.fixed_text is None:
                cache.put(key, result.diagnostics)
            elif source is not None:
                # The file will hold the fixed text: remember its findings under that content.
                cache.put(cache.key(source.encode(result.fixed_text), file_settings), result.diagnostics)


# From this many files on, a forked process reads and prefilters every other file while this one does
# the rest (the byte scan is most of a run that parses little).
SPLIT_FILES = 400


def _first_look(path: str, settings: Settings, explicit: Collection[str], cache, prefilter: bool, keep: bool = False) -> tuple:
    """One file read, keyed and prefiltered: (bytes, LL000 result, cache key, done, done by the
    prefilter just now, only a claim's words found, signature read with). A file the cache knows
    unchanged and without findings is not read. With `keep`, the bytes of a file the prefilter
    passed over are kept too (the project pass may read it for a helper's name)."""
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
        return data if keep else None, None, key, True, True, False, mark
    return data, None, key, False, False, found == CLAIM_WORDS, mark


# The bytes of passed-over files a run keeps for its project pass, at most (then they are read again).
KEPT_BYTES = 64 << 20


def _first_looks(paths: list[str], settings: Settings, explicit, cache, prefilter: bool, jobs: int | None) -> list:
    def look(part: list[str], keep: bool = True) -> list:
        looks, kept = [], 0
        for path in part:
            found = _first_look(path, settings, explicit, cache, prefilter, keep and kept < KEPT_BYTES)
            if found[3] and found[0] is not None:
                kept += len(found[0])
            looks.append(found)
        return looks

    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers < 2 or len(paths) < SPLIT_FILES or not hasattr(os, "fork") or threading.active_count() > 1:
        return look(paths)
    if cache is not None and cache.knows_most(paths):
        # Mostly a stat per file: a second process costs more than it saves.
        return look(paths)
    from leaselint.prefilter import verdict

    verdict(b"")  # the word table, made once for both processes
    # Every other file each: a tree's large modules sit together (Django's db/), and halves by
    # position left one process 72 % of the work on Django (96 ms against 38 ms).
    theirs_paths, mine_paths = paths[0::2], paths[1::2]
    theirs = _forked(lambda: look(theirs_paths, keep=False))  # not sent back: read again if asked
    mine = look(mine_paths)
    first = theirs()
    if first is None or len(first) != len(theirs_paths):
        first = look(theirs_paths)
    merged: list = [None] * len(paths)
    merged[0::2], merged[1::2] = first, mine
    return merged


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


def _lint_one(job: tuple[int, str, bytes, Settings, str | None, bool]) -> tuple[FileResult, SourceText | None]:
    _, path, data, file_settings, _, look = job
    try:
        return lint_bytes(data, path, file_settings, look)
    finally:
        # The file's tree is freed: a young-generation pass now walks only what outlives it, where
        # one that falls due during the next parse walks that file's half-built tree.
        gc.collect(0)


@on_big_stack
def _lint_jobs(todo: list) -> list[tuple[FileResult, SourceText | None]]:
    """The jobs linted one after another on the parsing thread, handed to it once: a hand-over per
    file (the thread woken, often on the other core, and the caller woken again) cost about a
    tenth of a run on tree (d)."""
    return [_lint_one(job) for job in todo]


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
            return _lint_jobs(todo)
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
            parts = pool.map(_lint_jobs, [todo[start : start + chunk] for start in range(0, len(todo), chunk)])
            return [done for part in parts for done in part]
    except (BrokenProcessPool, OSError):
        # A worker died (or none could start): do the work here instead.
        with collecting_less(), trusting_run():
            return _lint_jobs(todo)
