"""Bytes to text and back: coding cookie, BOM, newlines, atomic writes."""

from __future__ import annotations

import codecs
import io
import os
import re
import tempfile
import tokenize
from dataclasses import dataclass

from leaselint.diagnostics import Position

_NEWLINE = re.compile(r"\r\n|\r|\n")


class DecodeError(Exception):
    """The bytes cannot be turned into text; the message says why."""


@dataclass(frozen=True)
class SourceText:
    text: str
    encoding: str = "utf-8"
    bom: bool = False

    @property
    def newline(self) -> str:
        match = _NEWLINE.search(self.text)
        return match.group(0) if match else "\n"

    def encode(self, text: str) -> bytes:
        data = text.encode(self.encoding)
        return codecs.BOM_UTF8 + data if self.bom else data


def decode(data: bytes) -> SourceText:
    """Decode Python source as the interpreter would (PEP 263 cookie, BOM)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise DecodeError(str(exc)) from None
    bom = encoding == "utf-8-sig"
    body = data[len(codecs.BOM_UTF8):] if bom else data
    codec = "utf-8" if bom else encoding
    try:
        text = body.decode(codec)
    except (UnicodeDecodeError, LookupError) as exc:
        raise DecodeError(f"cannot decode as {codec}: {exc}") from None
    return SourceText(text=text, encoding=codec, bom=bom)


class LineIndex:
    """Turns (line, column) positions into offsets of one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for match in _NEWLINE.finditer(text):
            self.starts.append(match.end())

    def offset(self, position: Position) -> int:
        index = min(max(position.line - 1, 0), len(self.starts) - 1)
        return min(self.starts[index] + position.column, len(self.text))

    def line_text(self, line: int) -> str:
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")


def atomic_write(path: str, data: bytes) -> None:
    """Write through a temporary file in the same folder, keeping the mode."""
    folder = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else None
    fd, tmp = tempfile.mkstemp(prefix=".leaselint-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
