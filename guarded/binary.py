"""Guarded reads of binary files and small lock files (endgame table layers, ``.building`` locks).

The same rules as ``guarded.files.read_bytes``, for data the program keeps in memory or checks often:

- only a regular file is read: a folder, a FIFO, a device (``/dev/zero``, ``/dev/urandom``) or a socket is
  refused; the file is opened non-blocking, so a FIFO with no writer never hangs the program, and the kind is
  checked again on the open descriptor (``fstat``), so a file swapped for a FIFO between two looks is refused
  too;
- sizes are bounded before anything is allocated: a layer is read only when its size is the one expected, a lock
  only up to ``LOCK_LIMIT`` bytes;
- a binary file is *copied* into memory (``read_binary``), never memory-mapped: a layer truncated or rewritten
  on disk while a search reads it changes nothing in the process (a mapped file that shrinks kills the process
  with SIGBUS); a file that changes while it is being read is refused;
- ``read_head`` reads only the start of such a file (a checkpoint's header, before its multi-GB table);
- ``anonymous_buffer`` is zeroed memory that belongs to no file (a proof's transposition table), here so that
  every ``mmap`` of the program is in this package;
- ``stamp`` and ``not_a_folder`` look at a path without opening it and never raise;
- ``write_atomically`` writes big binary data given in parts (a layer's header and entries) atomically, with no
  joined copy in memory;
- ``create_exclusively`` makes a small file that appears whole or not at all, and only if nothing is there
  (written beside it, then hard-linked into place), so a full disk never leaves an empty lock behind.

Every problem is a ``guarded.files.FileProblem`` (a ValueError) saying what is wrong; a missing file is a
FileNotFoundError, as in ``guarded.files``.
"""
from __future__ import annotations

import errno
import io
import mmap
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from guarded import files
from guarded.files import FileProblem, file_kind, open_regular

LOCK_LIMIT = 4096
"""Largest lock file read (a real one is about 120 bytes)."""
READ_CHUNK = 1 << 24
"""Bytes read per system call when copying a binary file into memory."""
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class Snapshot:
    """A regular file's contents as read (``data``, None when the file's ``size`` was over the limit and it was
    not read) and its modification time (ns since the epoch) when opened."""

    data: bytearray | mmap.mmap | None
    size: int
    mtime_ns: int


def read_binary(path: str | os.PathLike[str], limit: int) -> Snapshot:
    """The regular file ``path`` copied into memory when it holds at most ``limit`` bytes (else ``data`` is None
    and nothing was read: the caller says what size it expected).  FileProblem for anything that is not a
    regular file, or one that changed size while it was read; FileNotFoundError when there is none."""
    descriptor, opened = open_regular(path, _FLAGS)
    try:
        size = opened.st_size
        if size > limit:
            return Snapshot(None, size, opened.st_mtime_ns)
        data = _read_into(descriptor, size, size)
        if os.read(descriptor, 1):
            raise FileProblem(f"grew beyond {size:,} bytes while it was read")
        return Snapshot(data, size, opened.st_mtime_ns)
    except OSError as error:
        raise FileProblem(f"cannot be read: {error.strerror or error}") from None
    finally:
        os.close(descriptor)


def read_head(path: str | os.PathLike[str], count: int) -> Snapshot:
    """The first ``count`` bytes of the regular file ``path`` (all of it when it is shorter) in ``data``, and
    the whole file's ``size``: a header read without the rest.  FileProblem for anything that is not a regular
    file; FileNotFoundError when there is none."""
    descriptor, opened = open_regular(path, _FLAGS)
    try:
        data = _read_into(descriptor, max(0, min(count, opened.st_size)), opened.st_size)
        return Snapshot(data, opened.st_size, opened.st_mtime_ns)
    except OSError as error:
        raise FileProblem(f"cannot be read: {error.strerror or error}") from None
    finally:
        os.close(descriptor)


BIG_READ = 1 << 20
"""Reads of at least this many bytes go into an anonymous mapping (``anonymous_buffer``), not a bytearray: the
interpreter zeroes a new bytearray holding the GIL (0.16 s for a 193 MB table layer on a quiet machine, half a
second and more on a busy one, while a search beside the load waits to return its move), where the system zeroes
a mapping's pages inside the reads, which let every other thread run."""


def _read_into(descriptor: int, want: int, size: int) -> bytearray | mmap.mmap:
    """The next ``want`` bytes of the open file ``descriptor`` (``size`` long when looked at), read in chunks,
    in a writable buffer (``BIG_READ``); FileProblem when it ends sooner (it shrank while it was read)."""
    data: bytearray | mmap.mmap = anonymous_buffer(want) if want >= BIG_READ else bytearray(want)
    view = memoryview(data)
    stream = io.FileIO(descriptor, "rb", closefd=False)
    done = 0
    while done < want:
        count = stream.readinto(view[done:done + READ_CHUNK])
        if not count:
            raise FileProblem(f"shrank from {size:,} to {done:,} bytes while it was read")
        done += count
    return data


def anonymous_buffer(size: int) -> mmap.mmap:
    """``size`` zeroed, writable bytes backed by no file (an anonymous mapping): the system zeroes each page
    when it is first touched, so a multi-GB transposition table costs only the part a search uses (a
    ``bytearray`` would write every byte at once).  No file is opened, so nothing on disk can change it.

    The mapping is private and asks for huge pages where the system has them (``MADV_HUGEPAGE``): a table
    probed at random then costs one TLB entry per 2 MB instead of one per 4 KB, and the board prover runs
    twice as fast on two searchers (BENCHMARKS.md, "Kalah proofs from nothing").  A shared anonymous mapping,
    ``mmap``'s default, is shared memory, which Linux gives huge pages only when told to for all of it."""
    if size <= 0:
        raise ValueError(f"an anonymous buffer holds at least one byte, not {size}")
    private = getattr(mmap, "MAP_PRIVATE", None)
    if private is None:  # Windows: no flags; the mapping is the process's own already
        return mmap.mmap(-1, size)
    buffer = mmap.mmap(-1, size, flags=private | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            buffer.madvise(mmap.MADV_HUGEPAGE)
        except OSError:  # a kernel without transparent huge pages: small pages, as before
            pass
    return buffer


def read_small(path: str | os.PathLike[str], limit: int = LOCK_LIMIT) -> Snapshot:
    """A small regular file (a lock) and its modification time; FileProblem when it is not a regular file or
    holds more than ``limit`` bytes (a lock linked to ``/dev/zero`` is refused before a byte is read)."""
    snapshot = read_binary(path, limit)
    if snapshot.data is None:
        raise FileProblem(f"is {snapshot.size:,} bytes, more than the {limit:,} such a file may hold")
    return snapshot


def stamp(path: str | os.PathLike[str]) -> int | None:
    """The modification time (ns) of whatever is at ``path``, without opening or following it; None when there
    is nothing there or it cannot be looked at.  Never raises."""
    found = files.status(path, follow=False)
    return None if found is None else found.st_mtime_ns


def not_a_folder(path: str | os.PathLike[str]) -> str | None:
    """None when ``path`` is a folder (or does not exist yet); else what it is, in words ("a regular file",
    "a named pipe (FIFO)", "unreadable: ..."), so a caller can say why it cannot hold files."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        return f"unreadable ({getattr(error, 'strerror', None) or error})"
    return None if stat.S_ISDIR(mode) else file_kind(mode)


def write_atomically(path: str | os.PathLike[str], *parts: bytes | bytearray | memoryview) -> None:
    """``guarded.files.write_atomically`` for big binary data given in parts (a layer's header and its
    entries), so the parts are never joined into one more copy in memory: a temporary file beside ``path``,
    fsync, rename, fsync the folder.  The file is readable by all (0644: a shared folder's tables)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    files.remove_stale(target)
    handle, temporary = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), 0o644)  # mkstemp's 0600 would hide a shared folder's tables from others
            for part in parts:
                stream.write(part)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    try:
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


def create_exclusively(path: str | os.PathLike[str], data: bytes) -> bool:
    """Create ``path`` holding ``data``, whole, only if nothing is there: True when created, False when
    something already was.  The data is written and synced beside it, then hard-linked into place (atomic, and
    refused when the name exists), so a write that fails (a full disk) leaves nothing behind.  Where hard links
    are not supported it falls back to an exclusive create, removing the file again if the write fails."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), 0o644)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.link(temporary, target)
            return True
        except FileExistsError:
            return False
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
        return _create_without_links(target, data)
    finally:
        Path(temporary).unlink(missing_ok=True)


def _create_without_links(target: Path, data: bytes) -> bool:
    try:
        descriptor = os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    try:
        os.write(descriptor, data)
        os.fsync(descriptor)
    except BaseException:
        os.close(descriptor)
        target.unlink(missing_ok=True)
        raise
    os.close(descriptor)
    return True
