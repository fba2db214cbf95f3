"""Bytes to text and back: coding cookie, BOM, newlines, atomic writes."""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import tokenize

from leaselint.diagnostics import Frozen, Position

_NEWLINE = re.compile(r"\r\n|\r|\n")
_LINE_FEED = re.compile(r"\n")
_set = object.__setattr__


class DecodeError(Exception):
    """The bytes cannot be turned into text; the message says why."""


class WriteRefused(OSError):
    """A fixed text was not written, to keep the file as it was; the message says why."""


class SourceText(Frozen):
    text: str
    encoding: str
    bom: bool
    # The bytes the text was decoded from: a write checks the file still holds them (not compared or shown).
    raw: bytes | None
    _fields = ("text", "encoding", "bom")
    __match_args__ = ("text", "encoding", "bom", "raw")

    def __init__(self, text: str, encoding: str = "utf-8", bom: bool = False, raw: bytes | None = None) -> None:
        _set(self, "text", text)
        _set(self, "encoding", encoding)
        _set(self, "bom", bom)
        _set(self, "raw", raw)

    @property
    def newline(self) -> str:
        match = _NEWLINE.search(self.text)
        return match.group(0) if match else "\n"

    def encode(self, text: str) -> bytes:
        data = text.encode(self.encoding)
        return codecs.BOM_UTF8 + data if self.bom else data


def decode(data: bytes) -> SourceText:
    """Decode Python source as the interpreter would (PEP 263 cookie, BOM). DecodeError's message
    says what failed and why, once: "cannot decode as utf-8: invalid start byte at line 1, column 5 (0xff)"."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise DecodeError(_cookie_problem(str(exc), data)) from None
    bom = encoding == "utf-8-sig"
    body = data[len(codecs.BOM_UTF8):] if bom else data
    codec = "utf-8" if bom else encoding
    try:
        if "x = 1\n".encode(codec) != b"x = 1\n":
            # As the interpreter: a cookie can only name an encoding that ASCII source reads the same in.
            raise DecodeError(f"cannot decode: the coding cookie names {codec}, which is not ASCII-compatible")
        text = body.decode(codec)
    except UnicodeDecodeError as exc:
        default = "" if bom or _cookie(data) else ", the default without a coding cookie"
        raise DecodeError(f"cannot decode as {codec}{default}: {_bad_bytes(exc, body)}") from None
    except (UnicodeError, LookupError) as exc:
        raise DecodeError(f"cannot decode as {codec}: {exc}") from None
    return SourceText(text=text, encoding=codec, bom=bom, raw=data)


def _bad_bytes(exc: UnicodeDecodeError, data: bytes) -> str:
    """`invalid start byte at line 3, column 7 (0xff)` (1-based, the column in bytes)."""
    line = data.count(b"\n", 0, exc.start) + 1
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    return f"{exc.reason} at line {line}, column {column} (0x{data[exc.start:exc.end].hex()})"


def _cookie_problem(message: str, data: bytes) -> str:
    """tokenize's complaint about a file's encoding, as one sentence of what failed and why."""
    if message.startswith("invalid or missing encoding declaration"):
        # No usable cookie, and the bytes are not UTF-8 (the default).
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return f"cannot decode as utf-8, the default without a coding cookie: {_bad_bytes(exc, data)}"
        return "cannot decode: the coding cookie is not valid"
    if message.startswith("unknown encoding"):
        return f"cannot decode: the coding cookie names an unknown encoding, {message.rsplit(': ', 1)[-1]}"
    if message.startswith("encoding problem"):
        return f"cannot decode: the file starts with a UTF-8 BOM, but its coding cookie names {_cookie(data) or 'another encoding'}"
    return f"cannot decode: {message}"


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _cookie(data: bytes) -> str | None:
    """The encoding a PEP 263 cookie in the first two lines names, or None."""
    for line in data.removeprefix(codecs.BOM_UTF8).splitlines()[:2]:
        match = _COOKIE.match(line)
        if match:
            return match.group(1).decode("ascii", "replace")
    return None


class LineIndex:
    """Turns (line, column) positions into offsets of one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        # A line feed alone is found faster than any of three line ends.
        ends = _NEWLINE if "\r" in text else _LINE_FEED
        self.starts = [0, *(match.end() for match in ends.finditer(text))]

    def offset(self, position: Position) -> int:
        index = min(max(position.line - 1, 0), len(self.starts) - 1)
        return min(self.starts[index] + position.column, len(self.text))

    def line_text(self, line: int) -> str:
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")


def write_fixed(path: str, source: SourceText, text: str) -> None:
    """Write `text` over the file `source` was read from, in its encoding, BOM and newlines.

    Refused (WriteRefused) when the file changed since it was read, or when its encoding does not
    give back the same bytes for the unchanged text: either would change bytes the fix never touched.
    """
    if source.raw is not None and source.encode(source.text) != source.raw:
        raise WriteRefused(f"{source.encoding} does not give back the bytes it was read from; nothing written")
    data = source.encode(text)
    if decode(data).text != text:
        raise WriteRefused(f"the fixed text does not read back the same in {source.encoding}; nothing written")
    atomic_write(path, data, expected=source.raw)


def atomic_write(path: str, data: bytes, expected: bytes | None = None) -> None:
    """Replace the file's bytes in one step: a temporary file in the same folder, then `os.replace`.

    A reader (or a run killed at any moment) sees the old bytes or the new ones, never a mix. The
    mode and, where allowed, the owner are kept; a symbolic link is followed, not replaced. With
    `expected`, the file must still hold those bytes, so that an edit made since it was read is not
    lost. A file this process may not write is refused (WriteRefused), as Ruff and Black leave it.
    """
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    try:
        before = os.stat(target)
    except FileNotFoundError:
        before = None
    if before is not None and not stat.S_ISREG(before.st_mode):
        raise WriteRefused("not a regular file; nothing written")
    if before is not None:
        _check_writable(target, before)
    if expected is not None:
        current = _read_or_none(target)
        if current != expected:
            raise WriteRefused("the file changed since it was read; nothing written")
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".leaselint.tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if before is not None:
            os.chmod(tmp, stat.S_IMODE(before.st_mode))
            if (before.st_uid, before.st_gid) != (os.getuid(), os.getgid()):
                try:
                    os.chown(tmp, before.st_uid, before.st_gid)
                except OSError:
                    pass  # Only root may give a file away; the content matters more than the owner.
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(folder)


def _check_writable(path: str, info: os.stat_result) -> None:
    """Refuse a file the replace would overwrite although the file itself may not be written.

    The replace needs only the folder's write permission, so the file's own is asked here: no write
    bit for anyone (0444: read-only even to root, who may write anything), or no write access for
    this process (a file of another user in one's own folder).
    """
    if not stat.S_IMODE(info.st_mode) & 0o222:
        raise WriteRefused(f"read-only (mode {stat.S_IMODE(info.st_mode):04o}); nothing written")
    if not os.access(path, os.W_OK):
        raise WriteRefused("permission denied; nothing written")


def _read_or_none(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable; not every system can open a folder for that."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
