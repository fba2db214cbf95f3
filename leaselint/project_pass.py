"""The project pass: files that call another module's lease helpers are linted again with those
helpers' summaries (leaselint/project.py holds the summaries; the runner lints the files)."""

from __future__ import annotations

import os
from typing import Callable

from leaselint.check import _cached, check_text, read
from leaselint.fix import fixable
from leaselint.settings import Settings
from leaselint.source import decode

# The cache's mark for a module's summary (exports, wants), and for bytes that call no summarised name.
SUMMARY = "/summary"


CALLS_NONE = "/calls-none:"

# Up to this many summarised names, a passed-over file is searched for each as plain bytes first.
PLAIN_NAMES = 16


def project_pass(paths: list[str], looks: list, results: list, settings: Settings, cache, run: Callable[[list], None]) -> None:
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
        # A few names are looked for as plain bytes first (a search per name beats the regex's
        # try at every position); many names go to the regex alone.
        plain = [n.encode() for n in names] if len(names) <= PLAIN_NAMES else None
        import hashlib

        # Kept short: one such entry per passed-over file.
        mark = CALLS_NONE + hashlib.sha256("\0".join(names).encode()).hexdigest()[:16]
        exported = set(names)
        for index in skipped:
            key = looks[index][2]
            if cache is not None and key is not None and cache.get(key + mark) is not None:
                continue
            data = looks[index][0]
            if data is None:
                data = read(paths[index], settings)[0]
            used = (
                data is not None
                and (plain is None or any(name in data for name in plain))
                and words.search(data) is not None
            )
            look = (data, None, key, False)
            if not used or not _project_job(index, paths[index], look, import_wants(data, exported), project, settings, cache, results, todo):
                if cache is not None and key is not None and data is not None:
                    cache.put(key + mark, [])
    run(todo)


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
