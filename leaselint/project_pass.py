"""The project pass: files that call another module's lease helpers are linted again with those
helpers' summaries (leaselint/project.py holds the summaries; the runner lints the files)."""

from __future__ import annotations

import os
from typing import Callable

from leaselint.check import _cached, check_text, read
from leaselint.fix import fixable, needs_trial
from leaselint.settings import Settings
from leaselint.source import decode

# The cache's mark for a module's summary (exports, wants), and for bytes that call no summarised name.
SUMMARY = "/summary"


CALLS_NONE = "/calls-none:"

# The modules whose calls make the values a token is judged by (model/values.py: `uuid.uuid4()`,
# `socket.gethostname()`, `time.time()`, ...): a module that names one may make a value another module
# stores as a token (`SESSION = uuid.uuid4().hex`), and is read for its summary when a claim imports it.
PROCESS_VALUE_WORDS = (b"uuid", b"socket", b"os.", b"platform", b"random", b"secrets", b"time", b"thread", b"environ")

# How many times a module's summary may grow from its helpers' (a wrapper of a wrapper of the store).
ROUNDS = 4

# Up to this many summarised names, a passed-over file is searched for each as plain bytes first.
PLAIN_NAMES = 16


def project_pass(paths: list[str], looks: list, results: list, settings: Settings, cache, run: Callable[[list], None]) -> None:
    """Lint again, with the summaries they use, the files that call a summarised function of another
    module (leaselint/project.py); files the prefilter passed over are read for those names."""
    summaries: dict[int, tuple] = {}
    skipped: list[int] = []
    # Files the second look passed over: a store API of the project's own may be among them.
    wrappers: list[int] = []
    for index, (look, done) in enumerate(zip(looks, results)):
        data, failed, key, was_skipped = look[0], look[1], look[2], look[3]
        if failed is not None:
            continue
        if was_skipped or (done is not None and done[0].passed_over):
            # Passed over at the first look or at the second (a claim's words, no claim in the tree).
            skipped.append(index)
            if not was_skipped:
                wrappers.append(index)
            continue
        summary = done[0].summary if done is not None else None
        if summary is None and cache is not None and key is not None:
            summary = cache.get(key + SUMMARY)
        if summary is not None:
            summaries[index] = summary
    for index in _imported_wrappers(wrappers, paths, looks, settings):
        # A store API of the project's own (`add(key, v, ttl)` claiming its caller's key) that another
        # file of the run imports: what it hands its callers is read here.
        exports = _summarise_outside(paths[index], cache)
        if exports:
            summaries[index] = (exports, ())
    keyed_by = {index: summary[2] for index, summary in summaries.items() if len(summary) > 2 and summary[2]}
    if not keyed_by and not any(summary[0] or summary[1] for summary in summaries.values()):
        return
    from leaselint.project import Project

    in_run = {os.path.abspath(path): index for index, path in enumerate(paths)}

    def summarise_file(path: str) -> tuple:
        index = in_run.get(os.path.abspath(path))
        if index is not None and index in summaries:
            return summaries[index][0]
        # Outside the run, or passed over by the prefilter (which asks for a claim's words).
        return _summarise_outside(path, cache, project)

    project = Project(settings.root, summarise_file)
    for index, summary in summaries.items():
        if summary[0]:
            project.add(paths[index], summary[0])
    if keyed_by and skipped:
        # A release whose claim is in another module is often alone in its file, which the
        # prefilter passes over: the files that name a claimed key are read for their events.
        for index in _naming_claimed_keys(keyed_by, skipped, paths, looks, settings, cache, results, run):
            summary = results[index][0].summary if results[index] is not None else None
            if summary is not None and len(summary) > 2 and summary[2]:
                summaries[index] = summary
                keyed_by[index] = summary[2]
    foreign = _foreign(keyed_by, paths, project)
    # Index -> (the project settings it was linted with, its cache key): what each round did.
    linted: dict[int, tuple] = {}
    searched: set[str] = set()
    for _ in range(ROUNDS):
        todo: list = []
        done: dict[int, tuple] = {}
        for index, summary in summaries.items():
            _project_job(
                index, paths[index], looks[index], summary[1], project, settings, cache, results, todo, linted, done, foreign.get(index)
            )
        # A passed-over file read for its summary on demand may call another module's function too.
        names = sorted((project.exported_names() | project.exported_methods()) - searched)
        searched.update(names)
        if names and skipped:
            _passed_over(names, skipped, paths, looks, project, settings, cache, results, todo, linted, done)
        run(todo)
        # A module linted with its helpers' summaries may hand its own callers more (a wrapper of a
        # wrapper): their callers are linted again with it, up to ROUNDS deep.
        grown = False
        for index, key in done.items():
            result = results[index]
            summary = result[0].summary if result is not None else None
            if summary is None and cache is not None and key is not None:
                summary = cache.get(key + SUMMARY)
            if summary is None or not summary[0]:
                continue
            if summary[0] != summaries.get(index, ((), ()))[0]:
                summaries[index] = (summary[0], summaries.get(index, ((), summary[1]))[1], *summaries.get(index, ((), (), ()))[2:])
                project.add(paths[index], summary[0])
                grown = True
        if not grown:
            break


def _imported_wrappers(wrappers: list[int], paths: list, looks: list, settings: Settings) -> list[int]:
    """The files of `wrappers` whose module name another file of the run imports, by its bytes
    (`from app.store import store`, `import app.store`, `from . import store`)."""
    import re

    if not wrappers:
        return []
    stems = {index: os.path.splitext(os.path.basename(paths[index]))[0] for index in wrappers}
    stems = {index: stem for index, stem in stems.items() if stem.isidentifier() and stem != "__init__"}
    if not stems:
        return []
    words = re.compile(
        rb"^[ \t]*(?:from|import)[ \t][^\n]*\b(" + b"|".join(re.escape(s.encode()) for s in set(stems.values())) + rb")\b",
        re.MULTILINE,
    )
    named: set[bytes] = set()
    for index, look in enumerate(looks):
        data = look[0]
        if data is None:
            data = read(paths[index], settings)[0]
        if data is None or b"import" not in data:
            continue
        for match in words.finditer(data):
            if stems.get(index, "").encode() != match.group(1):
                named.add(match.group(1))
    return [index for index, stem in stems.items() if stem.encode() in named]


def _passed_over(names, skipped, paths, looks, project, settings, cache, results, todo, linted, done) -> None:
    """Files the prefilter passed over that call one of `names`: their project jobs."""
    import re

    from leaselint.project import import_wants

    words = re.compile(rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in names) + rb")\b")
    # A few names are looked for as plain bytes first (a search per name beats the regex's
    # try at every position); many names go to the regex alone.
    plain = [n.encode() for n in names] if len(names) <= PLAIN_NAMES else None
    import hashlib

    # Kept short: one such entry per passed-over file.
    mark = CALLS_NONE + hashlib.sha256("\0".join(names).encode()).hexdigest()[:16]
    exported = set(project.exported_names())
    methods = [m for m in project.exported_methods() if m in names]
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
        wants = import_wants(data, exported) if used else ()
        if used and methods:
            # `storage.put_if_empty(...)`: the project's one method of that name, on an object of no known class.
            wants = (*wants, *(("method", m) for m in methods if b"." + m.encode() + b"(" in data))
        if not used or not _project_job(
            index, paths[index], look, wants, project, settings, cache, results, todo, linted, done
        ):
            if cache is not None and key is not None and data is not None:
                cache.put(key + mark, [])


def _project_job(index, path, look, wants, project, settings: Settings, cache, results, todo, linted=None, done=None, foreign=None) -> bool:
    """Whether the file uses summaries (or other modules' halves of its leases, `foreign`): then its
    result with them is in `results` or queued in `todo` (not again when an earlier round linted it
    with the same summaries)."""
    needed = project.settings_for(path, wants) if wants else None
    if foreign:
        needed = (*(needed or (*project.name_of(path)[:2], ())), foreign)
    if needed is None:
        return False
    if linted is not None and linted.get(index, (None,))[0] == needed:
        return True
    file_settings = settings.for_file(path).replace(project=needed)
    data, key = look[0], None
    if data is None:
        data = read(path, file_settings)[0]
        if data is None:
            return False
    if cache is not None:
        key = cache.key(data, file_settings)
    if linted is not None and done is not None:
        linted[index] = (needed, key)
        done[index] = key
    if cache is not None:
        hit = cache.get(key)
        if hit is not None and not (settings.fix and fixable(hit, settings.unsafe_fixes)) and not needs_trial(hit, settings):
            results[index] = _cached(path, data, hit)
            return True
    todo.append((index, path, data, file_settings, key, False))
    return True


def _foreign(keyed_by: dict, paths: list, project) -> dict:
    """Index -> the other modules' events that pair with the file's unpaired claims and releases
    (model/keyed.py): (kind, store, key, receiver, "path:line"), keys named from the project's root."""
    from leaselint.project import absolute_key

    found: dict[tuple, list] = {}
    mine: dict[int, list] = {}
    for index, events in keyed_by.items():
        module, is_package, _ = project.name_of(paths[index])
        where = os.path.relpath(os.path.abspath(paths[index]), project.root).replace(os.sep, "/")
        for kind, store, key, receiver, line in events:
            event = (kind, store, absolute_key(key, module, is_package), absolute_key(receiver, module, is_package), f"{where}:{line}")
            found.setdefault((kind, store, event[2]), []).append((index, event))
            mine.setdefault(index, []).append(event)
    out: dict[int, tuple] = {}
    for index, events in mine.items():
        matched = set()
        for kind, store, key, receiver, _ in events:
            if kind == "held":
                continue  # (its module has its lease: the releases elsewhere are told of it)
            for other in {"claim": ("release", "compared"), "compared": ("claim", "held")}.get(kind, ("claim",)):
                for there, event in found.get((other, store, key), ()):
                    if there != index and (receiver is None or event[3] is None or receiver == event[3]):
                        matched.add(event)
        if matched:
            out[index] = tuple(sorted(matched, key=repr))
    return out


def _naming_claimed_keys(keyed_by, skipped, paths, looks, settings: Settings, cache, results, run) -> list[int]:
    """Files the prefilter passed over that name a key another module claims (its literal text, the
    `self` attribute, the imported name) and delete something: linted here for their events."""
    needles, held = set(), set()
    for events in keyed_by.values():
        for kind, _, key, _, _ in events:
            if kind == "claim":
                needles.update(_needles(key))
            elif kind == "held":
                held.update(_needles(key))
    needles = {n for n in needles if len(n) >= 4}
    # A lease its own module holds pairs only with a release that reads the key first.
    held = {n for n in held if len(n) >= 4} - needles
    if not needles and not held:
        return []
    todo: list = []
    for index in skipped:
        data = looks[index][0]
        if data is None:
            data = read(paths[index], settings)[0]
        if data is None or b".delete(" not in data:
            continue
        if not any(n in data for n in needles) and not (b".get(" in data and any(n in data for n in held)):
            continue
        file_settings = settings.for_file(paths[index])
        key = cache.key(data, file_settings) if cache is not None else None
        if cache is not None:
            hit, summary = cache.get(key), cache.get(key + SUMMARY)
            if hit is not None and summary is not None and not needs_trial(hit, settings):
                results[index] = _cached(paths[index], data, hit)
                results[index][0].summary = tuple(summary)
                continue
        todo.append((index, paths[index], data, file_settings, key, False))
    run(todo)
    return [index for index in skipped if results[index] is not None and results[index][0].summary is not None]


def _needles(key) -> set[bytes]:
    """Words a file naming the portable key holds: its literal text, attribute and imported names."""
    found: set[bytes] = set()
    if type(key) is str:
        found.add(key.encode("utf-8", "replace"))
    elif type(key) is tuple and key:
        if key[0] == "self":
            found.add(key[1].encode())
        elif key[0] == "import":
            found.add(key[2].rsplit(".", 1)[-1].encode())
        elif key[0] == "str" and len(key) == 2 and type(key[1]) is tuple:
            # `("str", ("lock:", part, ...))`: each literal piece, and what the other parts name.
            for part in key[1]:
                found.update(_needles(part))
        else:
            for part in key[1:]:
                if type(part) in (tuple, str):
                    found.update(_needles(part))
    return found


def _summarise_outside(path: str, cache, project=None) -> tuple:
    """The exports of a module outside the run (read for its summary, never reported on); with
    `project`, composed with the summaries of the helpers it calls in turn."""
    from leaselint.prefilter import may_export

    data = read(path, Settings())[0]
    if data is None:
        return ()
    worth = may_export(data) or any(word in data for word in PROCESS_VALUE_WORDS)
    exports, wants = _summary_outside(data, Settings(select=frozenset()), cache, worth)
    # Looked up before this module's own summary is known: a circle of imports ends there.
    needed = project.settings_for(path, wants) if project is not None and wants else None
    if needed is not None:
        exports = _summary_outside(data, Settings(select=frozenset(), project=needed), cache, True)[0]
    return exports


def _summary_outside(data: bytes, settings: Settings, cache, worth: bool) -> tuple:
    """(exports, wants) of a module's bytes linted with `settings` (cached); nothing unless `worth`."""
    key = None
    if cache is not None:
        key = cache.key(data, settings) + SUMMARY
        known = cache.get(key)
        if known is not None and len(known) == 2:
            return tuple(known[0]), tuple(known[1])
    found: tuple = ((), ())
    if not worth:
        from leaselint.project import import_wants

        # Neither a store's words nor a project import: it can hand its callers nothing.
        if not import_wants(data, set()):
            return found
    summary: dict = {}
    try:
        check_text(decode(data).text, settings, [], summary_out=summary)
        found = (summary.get("exports", ()), summary.get("wants", ()))
    except Exception:
        pass
    if key is not None:
        cache.put(key, found)
    return found
