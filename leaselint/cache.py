"""Findings per file, keyed by the file's content, leaselint's version and the effective settings.

One pickle in the cache folder, read once at the start of a run and written once at
the end (through a temporary file and `os.replace`). A warm run on an unchanged tree
reads each file once, hashes it, and parses nothing.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from leaselint import __version__
from leaselint.diagnostics import Diagnostic
from leaselint.settings import Settings

DEFAULT_FOLDER = ".leaselint_cache"
MAX_ENTRIES = 100_000
_PACKAGE = Path(__file__).resolve().parent


def _code_stamp() -> str:
    """Changes when leaselint's own code changes, even without a new version number."""
    stamp = hashlib.sha256(__version__.encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        try:
            info = path.stat()
        except OSError:
            continue
        stamp.update(f"{path.name}:{info.st_size}:{info.st_mtime_ns}".encode())
    return stamp.hexdigest()[:16]


# The digest of each settings object's part of the key, begun once (settings kept alive with it).
_SETTINGS_DIGESTS: dict[int, tuple] = {}


class Cache:
    def __init__(self, folder: str | os.PathLike = DEFAULT_FOLDER) -> None:
        self.folder = Path(folder)
        self.path = self.folder / f"findings-{_code_stamp()}.pickle"
        self.entries: dict[str, list[Diagnostic]] = {}
        self.changed = False
        try:
            with open(self.path, "rb") as handle:
                loaded = pickle.load(handle)
            if isinstance(loaded, dict):
                self.entries = loaded
        except (OSError, pickle.PickleError, EOFError, AttributeError, ValueError, TypeError):
            self.entries = {}

    @staticmethod
    def key(data: bytes, settings: Settings) -> str:
        """The file's content and the settings its findings depend on (per-file ignores folded in)."""
        known = _SETTINGS_DIGESTS.get(id(settings))
        if known is None or known[0] is not settings:
            relevant = (
                sorted(settings.select) if settings.select is not None else None,
                sorted(settings.ignore),
                settings.release,
                sorted(settings.fixable) if settings.fixable is not None else None,
                sorted(settings.unfixable),
            )
            if len(_SETTINGS_DIGESTS) > 64:
                _SETTINGS_DIGESTS.clear()
            known = _SETTINGS_DIGESTS[id(settings)] = (settings, hashlib.sha256(repr(relevant).encode()))
        digest = known[1].copy()
        digest.update(data)
        return digest.hexdigest()

    def get(self, key: str) -> list[Diagnostic] | None:
        return self.entries.get(key)

    def put(self, key: str, diagnostics: list[Diagnostic]) -> None:
        if self.entries.get(key) != diagnostics:
            self.entries[key] = list(diagnostics)
            self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            ignore = self.folder / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Made by leaselint.\n*\n", encoding="utf-8")
            for old in self.folder.glob("findings-*.pickle"):
                if old != self.path:
                    old.unlink(missing_ok=True)
            entries = self.entries
            if len(entries) > MAX_ENTRIES:
                entries = dict(list(entries.items())[-MAX_ENTRIES:])
            import tempfile

            fd, tmp = tempfile.mkstemp(prefix=".findings-", dir=self.folder)
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(entries, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except OSError:
            # A cache that cannot be written only costs time.
            pass
