"""Line-oriented record files, read and appended through the guarded path (see ``guarded.files``).

A record file (a tournament's checkpoint, say) holds one record per line and grows by appends; a run
killed mid-write leaves its last line torn.  This module reads such a file and appends to it safely:

- ``read_lines`` reads a regular file only (through ``guarded.files.read_bytes``: no FIFO, device or folder,
  bounded size) and splits it at any line ending (``\\n``, ``\\r\\n`` or a lone ``\\r``), keeping each line's
  byte offsets, so a caller that drops a torn tail cuts the file at a byte boundary it has seen, never at a
  count of decoded characters (``\\r\\n`` and non-ASCII text make the two differ);
- ``cut`` shortens a regular file to a byte offset (the torn tail removed), durably;
- ``RecordWriter`` appends whole lines to a regular file: a FIFO, a device (``/dev/full``) or a folder is
  refused before anything is written and without waiting for a reader, each line goes out in one ``write``
  and is flushed to the disk (``fsync``) before the next, and a file whose last line has no line ending
  gets one before the first append, so a new record is never glued onto an old one.

Every problem is a ``FileProblem`` (a ValueError) whose message says what is wrong.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from guarded.files import FileProblem, decode, open_regular, read_bytes

RECORDS_LIMIT = 256 * 1024 * 1024
"""Largest record file read (256 MB: a million short game records)."""
LINE_END = re.compile(rb"\r\n|\n|\r")
"""Any line ending: Unix, Windows or classic Mac."""

_WRITE_FLAGS = os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class Line:
    """One line of a record file: its number (from 1), its text without the line ending (None when it is not
    UTF-8 text), and where its bytes start and end in the file (``end`` is past the line ending, if any)."""

    number: int
    text: str | None
    start: int
    end: int


@dataclass(frozen=True)
class RecordLines:
    """The lines of a record file: those that end with a line ending, and the unterminated last one, if any
    (a line torn by an interrupted write, or a whole record written without its line ending)."""

    lines: tuple[Line, ...]
    tail: Line | None
    size: int


def split_lines(data: bytes) -> RecordLines:
    """``data`` split at every line ending, with byte offsets (a line that is not UTF-8 text has text None)."""
    lines: list[Line] = []
    start = 0
    for number, match in enumerate(LINE_END.finditer(data), start=1):
        lines.append(Line(number, _text(data[start:match.start()]), start, match.end()))
        start = match.end()
    tail = Line(len(lines) + 1, _text(data[start:]), start, len(data)) if start < len(data) else None
    return RecordLines(tuple(lines), tail, len(data))


def _text(raw: bytes) -> str | None:
    try:
        return decode(raw)
    except FileProblem:
        return None


def read_lines(path: str | os.PathLike[str], limit: int = RECORDS_LIMIT) -> RecordLines:
    """The lines of the regular file ``path`` (at most ``limit`` bytes); FileNotFoundError when it is missing,
    FileProblem for anything else that stops it being read."""
    return split_lines(read_bytes(path, limit))


def cut(path: str | os.PathLike[str], size: int) -> None:
    """Shorten the regular file ``path`` to ``size`` bytes (its torn tail removed) and flush it to the disk."""
    descriptor, _ = open_regular(path, _WRITE_FLAGS, verb="written")
    try:
        os.ftruncate(descriptor, size)
        os.fsync(descriptor)
    except OSError as error:
        raise FileProblem(f"cannot be shortened: {error.strerror or error}") from None
    finally:
        os.close(descriptor)


class RecordWriter:
    """Appends lines to a regular record file, each written whole and flushed to the disk."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = False) -> None:
        """Open ``path`` for appending; with ``create``, make it (empty) or empty it first.

        FileProblem when it is not a regular file or cannot be written; FileNotFoundError when it is missing
        and ``create`` is false."""
        self.path = Path(path)
        flags = _WRITE_FLAGS | os.O_APPEND | ((os.O_CREAT | os.O_TRUNC) if create else 0)
        self._descriptor: int | None = open_regular(self.path, flags, verb="written")[0]
        self._needs_line_end = False
        if not create:
            try:
                size = os.fstat(self._descriptor).st_size
                if size:
                    self._needs_line_end = os.pread(self._descriptor, 1, size - 1) not in (b"\n", b"\r")
            except OSError as error:
                self.close()
                raise FileProblem(f"cannot be read: {error.strerror or error}") from None

    def append(self, line: str) -> None:
        """Write ``line`` and a line ending in one write, then ``fsync``; OSError (ENOSPC...) when it fails."""
        if self._descriptor is None:
            raise ValueError(f"{self.path} is closed")
        if "\n" in line or "\r" in line:
            raise ValueError("a record must be one line")
        data = (b"\n" if self._needs_line_end else b"") + line.encode("utf-8") + b"\n"
        written = 0
        while written < len(data):
            written += os.write(self._descriptor, data[written:])
        os.fsync(self._descriptor)
        self._needs_line_end = False

    def close(self) -> None:
        if self._descriptor is not None:
            descriptor, self._descriptor = self._descriptor, None
            os.close(descriptor)

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
