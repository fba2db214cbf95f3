"""Events of leases at run time: what a client sent, on which store and key, and from which line.

A claim is always kept; a read, release or lifetime command only when its key was claimed in this
process (a cache's gets and deletes are not leases). Each event carries the frames of the user's own
code that led to it (files under the root, outside site-packages and leaselint), innermost first.
"""

from __future__ import annotations

import inspect
import itertools
import os
import sys
import threading
import time

from leaselint.paths import is_test_path

CLAIM = "claim"
READ = "read"
RELEASE = "release"
LIFETIME = "lifetime"  # EXPIRE and kin: a claim's late deadline or a renewal, by what came before
RENEW = "renew"  # a renewal by its nature (SET XX with a lifetime, touch, a script's expire)

# Functions of client libraries that use a claim command for something that is no lease.
_NOT_LEASES = frozenset({"get_or_set"})
_STACK_DEPTH = 16
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The wrapped clients' command layers, files and folders (install._apply adds them).
LIBRARY_PATHS: set[str] = set()


class Event:
    __slots__ = (
        "seq", "kind", "family", "store", "key", "field", "value", "lifetime", "checked",
        "in_tx", "command", "stack", "test", "thread", "pid", "at", "result", "handed",
    )

    def __init__(self, **fields) -> None:
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    @property
    def where(self) -> tuple[str, int, str, bool] | None:
        """(path, line, function, in a test module) of the innermost user frame, or None."""
        return self.stack[0] if self.stack else None

    @property
    def test_made(self) -> bool:
        """Made by a test itself (its innermost user frame is in a test module): a test's own key."""
        return bool(self.stack) and self.stack[0][3]

    def to_json(self) -> dict:
        data = {name: getattr(self, name) for name in self.__slots__}
        if isinstance(self.value, bytes):
            data["value"] = self.value.decode("latin-1")
        data["stack"] = [list(frame) for frame in self.stack or ()]
        data["result"] = None if self.result is None else bool(self.result)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Event:
        event = cls(**data)
        if isinstance(event.value, str):
            event.value = event.value.encode("latin-1")
        event.stack = tuple(tuple(frame) for frame in data.get("stack") or ())
        return event


class Recorder:
    """The events of one process, in the order the store received them."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self.events: list[Event] = []
        self.claimed: set[tuple[str, str]] = set()
        self.test = ""
        self._seq = itertools.count()
        self._files: dict[str, int] = {}  # 0: library, 1: user code, 2: a test module
        self._lock = threading.Lock()

    def wants(self, kind: str, store: str, key: str) -> bool:
        return kind == CLAIM or (store, key) in self.claimed

    def add(self, kind: str, family: str, store: str, key, stack: tuple | None = None, **fields) -> None:
        """One event; `stack`: the user's frames when the command was made, if not now (a queued one)."""
        key = text(key)
        if not self.wants(kind, store, key):
            return
        handed = False
        if stack is None:
            stack, handed = self._stack((key, text(fields.get("field") or "")))
        if stack is None:
            return  # a library's own use of a claim command that is no lease
        event = Event(
            kind=kind, family=family, store=store, key=key, stack=stack, test=self.test,
            thread=threading.get_ident(), pid=os.getpid(), at=time.time(), handed=handed, **fields,
        )
        with self._lock:
            event.seq = next(self._seq)
            self.events.append(event)
            if kind == CLAIM:
                self.claimed.add((store, key))

    def stack(self) -> tuple | None:
        """The user's frames from here out, innermost first; None inside a library's non-lease use."""
        return self._stack()[0]

    def _stack(self, names: tuple = ()) -> tuple[tuple | None, bool]:
        """The user's frames, and whether the key was handed down to them from a test: each frame
        from the innermost out got it (or the field) as an argument, up to a test's frame that made
        it, or past the last of them (a task of the event loop or a library made the call)."""
        frames = []
        frame = sys._getframe(1)
        handing = bool(names)
        handed = False
        while frame is not None and len(frames) < _STACK_DEPTH:
            code = frame.f_code
            if code.co_name in _NOT_LEASES and not self._file_kind(code.co_filename):
                return None, False
            kind = self._file_kind(code.co_filename)
            if kind:
                if handing:
                    if frames and kind == 2:
                        handed, handing = True, False  # a test made the key its callees were given
                    elif not _given(frame, names):
                        handing = False
                frames.append((code.co_filename, frame.f_lineno, code.co_name, kind == 2))
            frame = frame.f_back
        if handing and frames and len(frames) < _STACK_DEPTH:
            handed = True  # no frame of the project made the key
        return tuple(frames), handed

    def _file_kind(self, filename: str) -> int:
        kind = self._files.get(filename)
        if kind is None:
            kind = self._files[filename] = self._classify(filename)
        return kind

    def _classify(self, filename: str) -> int:
        path = os.path.abspath(filename)
        if not path.startswith(self.root + os.sep) or path.startswith(_HERE + os.sep):
            return 0
        if any(path == where or path.startswith(where + os.sep) for where in LIBRARY_PATHS):
            return 0
        parts = path.split(os.sep)
        if "site-packages" in parts or "dist-packages" in parts or not path.endswith(".py"):
            return 0
        return 2 if is_test_path(path, self.root) else 1


def _given(frame, names: tuple) -> bool:
    """The frame's function got a part of the key or field as an argument (`add(key, value)` that
    sends `prefix + key`), by name or inside its `*args` and `**kwargs` (a decorator's wrapper)."""
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    local = frame.f_locals
    for name in code.co_varnames[:count]:
        value = local.get(name)
        values = value.values() if isinstance(value, dict) else value if isinstance(value, tuple) else (value,)
        for value in values:
            if isinstance(value, bytes):
                value = value.decode("utf-8", "replace")
            if isinstance(value, str) and len(value) >= 2 and any(value in part for part in names if part):
                return True
    return False


_warned: list[str] = []


def quiet(function):
    """Recording never breaks the program it watches: an error is said once on stderr, and dropped."""

    def run(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except Exception as error:
            if not _warned:
                _warned.append(repr(error))
                print(f"leaselint: a lease event was not recorded ({type(error).__name__}: {error})", file=sys.stderr)
            return None

    run.__name__ = function.__name__
    run.__doc__ = function.__doc__
    return run


def text(value) -> str:
    """A key as text: bytes read as UTF-8 (undecodable bytes escaped)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    if isinstance(value, memoryview):
        return bytes(value).decode("utf-8", "backslashreplace")
    return value if isinstance(value, str) else str(value)


def data(value) -> bytes:
    """A stored value as the store keeps it: bytes (redis-py's encoding of str, int and float)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value).encode()
    return repr(value).encode("utf-8", "backslashreplace")


RECORDER: Recorder | None = None


def start(root: str) -> Recorder:
    global RECORDER
    RECORDER = Recorder(root)
    return RECORDER


def stop() -> None:
    global RECORDER
    RECORDER = None
