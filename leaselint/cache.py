"""Findings per file, keyed by the file's content, leaselint's version and the effective settings.

One pickle in the cache folder, read once at the start of a run and written once at
the end (through a temporary file and `os.replace`). Beside the findings it keeps each
file's signature (size, times, inode) and the key its content had, as Ruff and Black
do: a warm run on an unchanged tree stats each file instead of reading it, and parses
nothing. A signature is only kept for a file whose times are some seconds older than
the run, so a file written again within the file system's time step is read again.
"""

from __future__ import annotations

import os
import time

from leaselint import __version__, discover
from leaselint.diagnostics import Diagnostic
from leaselint.settings import Settings

DEFAULT_FOLDER = ".leaselint_cache"
MAX_ENTRIES = 100_000
# How much older than the run a file's times must be for its signature to be kept.
RACY_NS = 3_000_000_000
_FORMAT = 3


def _code_stamp() -> str:
    """Changes when leaselint's own code changes, even without a new version number, and with the
    Python and the libcst it runs on (found, not imported)."""
    import importlib.util
    import sys
    import zlib

    # The rules are a package of their own folder in a checkout, inside leaselint when installed.
    rules = importlib.util.find_spec("leaselint.rules")
    libcst = importlib.util.find_spec("libcst")
    folders = [os.path.dirname(os.path.realpath(__file__))]
    if rules is not None:
        folders += [os.path.realpath(path) for path in rules.submodule_search_locations or ()]
    sources = set()
    for top in folders:
        for folder, dirs, names in os.walk(top):
            dirs[:] = [name for name in dirs if name != "__pycache__"]
            sources.update(os.path.join(folder, name) for name in names if name.endswith(".py"))
    marks = [__version__, sys.version]
    if libcst is not None and libcst.origin:
        sources.add(libcst.origin)
    for path in sorted(sources):
        try:
            info = os.stat(path)
        except OSError:
            continue
        marks.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
    return f"{zlib.crc32(chr(0).join(marks).encode()):08x}"


# Each settings object's part of the key, made once (the settings kept alive with it).
_SETTINGS_DIGESTS: dict[int, list] = {}


class Cache:
    def __init__(self, folder: str | os.PathLike = DEFAULT_FOLDER) -> None:
        self.folder = os.fspath(folder)
        self.path = os.path.join(self.folder, f"findings-{_code_stamp()}.pickle")
        self.entries: dict[str, list[Diagnostic]] = {}
        # Absolute path -> (signature, key of the content read with it, settings digest).
        self.signatures: dict[str, tuple[tuple, str, str]] = {}
        # Absolute folder path -> (the folder's own signature, what discover.scan found in it).
        self.listings: dict[str, tuple[tuple, tuple]] = {}
        self.changed = False
        # Whether an earlier run left this cache (folder listings are remembered from the second
        # run on: a first run, as in CI with a new cache, pays nothing for them).
        self.reused = False
        self.cwd = os.getcwd()
        self.started = time.time_ns()
        try:
            handle = open(self.path, "rb")
        except OSError:
            return
        with handle:
            try:
                loaded = _pickle().load(handle)
            except Exception:  # a damaged or foreign file (pickle raises a dozen kinds): start afresh
                return
        if isinstance(loaded, tuple) and len(loaded) == 4 and loaded[0] == _FORMAT:
            _, self.entries, self.signatures, self.listings = loaded
            self.reused = True

    @staticmethod
    def settings_digest(settings: Settings) -> str:
        """What findings depend on in `settings`, as text (compared, never hashed)."""
        return _settings_part(settings)[1]

    @staticmethod
    def key(data: bytes, settings: Settings) -> str:
        """The file's content and the settings its findings depend on (per-file ignores folded in)."""
        part = _settings_part(settings)
        if part[2] is None:
            import hashlib

            part[2] = hashlib.sha256(part[1].encode())
        digest = part[2].copy()
        digest.update(data)
        return digest.hexdigest()

    def full(self, path: str) -> str:
        """`path` from the folder the run started in (as os.path.join, cheaper for absolute paths)."""
        return path if path.startswith(os.sep) else os.path.join(self.cwd, path)

    def get(self, key: str) -> list[Diagnostic] | None:
        return self.entries.get(key)

    def known_key(self, path: str, settings: Settings) -> str | None:
        """The key of `path`'s content when the file's signature is unchanged since it was read
        under these settings (None: read it)."""
        known = self.signatures.get(self.full(path))
        if known is None or known[2] != self.settings_digest(settings):
            return None
        try:
            info = os.stat(path)
        except OSError:
            return None
        return known[1] if signature(info) == known[0] else None

    def listing(self, folder: str) -> tuple:
        """`discover.scan(folder)`, or what it gave when the folder's own signature was the same
        (a folder's times change when a name in it is added, removed or renamed, as git's untracked
        cache relies on)."""
        scan = discover.scan
        if not self.reused:
            return scan(folder)
        full = self.full(folder)
        known = self.listings.get(full)
        if known is not None:
            try:
                if _folder_signature(os.stat(folder)) == known[0]:
                    return known[1]
            except OSError:
                pass
        # The status before the listing: a change between the two is seen by the next run.
        info = os.stat(folder)
        found = scan(folder)
        if max(info.st_mtime_ns, info.st_ctime_ns) <= self.started - RACY_NS:
            self.listings[full] = (_folder_signature(info), found)
            self.changed = True
        return found

    def knows_most(self, paths: list[str]) -> bool:
        """Whether most of `paths` have a signature (a warm run: few will be read)."""
        full, signatures = self.full, self.signatures
        return sum(full(path) in signatures for path in paths) * 10 >= len(paths) * 9

    def remember(self, path: str, mark: tuple, key: str, settings: Settings) -> None:
        """Keep the signature `path` had when read (unless its times are too recent to tell a later
        write in the same time step apart)."""
        if max(mark[1], mark[2]) > self.started - RACY_NS:
            return
        full = self.full(path)
        entry = (mark, key, self.settings_digest(settings))
        if self.signatures.get(full) != entry:
            self.signatures[full] = entry
            self.changed = True

    def put(self, key: str, diagnostics: list[Diagnostic]) -> None:
        if self.entries.get(key) != diagnostics:
            self.entries[key] = list(diagnostics)
            self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        try:
            os.makedirs(self.folder, exist_ok=True)
            ignore = os.path.join(self.folder, ".gitignore")
            if not os.path.exists(ignore):
                with open(ignore, "w", encoding="utf-8") as handle:
                    handle.write("# Made by leaselint.\n*\n")
            for name in os.listdir(self.folder):
                old = os.path.join(self.folder, name)
                if name.startswith("findings-") and name.endswith(".pickle") and old != self.path:
                    try:
                        os.unlink(old)
                    except FileNotFoundError:
                        pass
            entries, signatures = self.entries, self.signatures
            if len(entries) > MAX_ENTRIES:
                entries = dict(list(entries.items())[-MAX_ENTRIES:])
            if len(signatures) > MAX_ENTRIES:
                signatures = dict(list(signatures.items())[-MAX_ENTRIES:])
            listings = self.listings
            if len(listings) > MAX_ENTRIES:
                listings = dict(list(listings.items())[-MAX_ENTRIES:])
            import tempfile

            fd, tmp = tempfile.mkstemp(prefix=".findings-", dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as handle:
                    _pickle().dump((_FORMAT, entries, signatures, listings), handle, protocol=5)
                os.replace(tmp, self.path)
            finally:
                if os.path.exists(tmp):  # not moved into place: interrupted or failed
                    os.unlink(tmp)
        except OSError:
            # A cache that cannot be written only costs time.
            pass


def signature(info: os.stat_result) -> tuple:
    """What changes when a file is written, replaced or touched (ctime cannot be set back):
    (size, mtime, ctime, inode, device)."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def _settings_part(settings: Settings) -> list:
    """[settings, the text of what findings depend on in them, a sha256 begun with that text or
    None until a key is asked for], once per settings object."""
    known = _SETTINGS_DIGESTS.get(id(settings))
    if known is None or known[0] is not settings:
        relevant = (
            sorted(settings.select) if settings.select is not None else None,
            sorted(settings.ignore),
            settings.release,
            settings.line_length,
            settings.max_file_size,
            sorted(settings.fixable) if settings.fixable is not None else None,
            sorted(settings.unfixable),
            settings.project,
            settings.tests,
        )
        if len(_SETTINGS_DIGESTS) > 64:
            _SETTINGS_DIGESTS.clear()
        known = _SETTINGS_DIGESTS[id(settings)] = [settings, repr(relevant), None]
    return known


def _folder_signature(info: os.stat_result) -> tuple:
    return (info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def _pickle():
    """The C part of pickle alone where there is one: the whole module costs some 2 ms to import."""
    try:
        import _pickle as pickle
    except ImportError:  # pragma: no cover - an interpreter without it
        import pickle
    return pickle
