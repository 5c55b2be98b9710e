"""The one guarded way StoneCave reads a file: settings, statistics, puzzle records, levels, saves, engine data.

Every file the program reads passes through ``read_bytes`` (and ``read_text`` / ``load_yaml`` on top of it):

- only a regular file is read: a folder, a FIFO, a device or a socket is refused without opening it for long
  (it is opened non-blocking, so a FIFO with no writer cannot hang the program);
- its size is checked before reading (``fstat``), and at most ``limit + 1`` bytes are ever read;
- text must be UTF-8; an error names the line of the first bad byte;
- YAML is parsed by a safe loader that refuses aliases (so an alias bomb is refused at once, never expanded or
  formatted), refuses nesting deeper than ``MAX_DEPTH``, integers longer than ``MAX_DIGITS`` digits and
  numbers that are not finite (``.nan``, ``.inf``);
- every problem is a ``FileProblem`` (a ValueError) whose message says what is wrong and what would be right,
  quoting at most a few dozen characters of the file (``quote``).

``set_aside`` moves a file that could not be used out of the way (``NAME.bad-STAMP``) so the next start does not
meet it again; when it cannot be moved (a read-only folder) it says so instead of raising, and the caller goes
on with defaults either way.  This module depends on nothing of StoneCave, so ``ai``, ``levels`` and ``game``
can all use it.
"""
from __future__ import annotations

import errno
import math
import os
import reprlib
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

CONFIG_LIMIT = 1024 * 1024
"""Largest settings, statistics, records, level or engine file read (1 MB; real ones are a few kB)."""
MAX_DEPTH = 32
"""Deepest nesting of YAML collections accepted (StoneCave's files nest three or four deep)."""
MAX_DIGITS = 30
"""Longest integer accepted in YAML (far beyond any count, seed or size StoneCave uses)."""
QUOTE_LIMIT = 60
"""Most characters of the file's own text quoted in a message."""


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
"""Opening for reading never blocks (a FIFO with no writer) nor takes a terminal."""


class FileProblem(ValueError):
    """A file that cannot be used; the message names the problem (and the line, when there is one)."""


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters: safe on huge strings, numbers and nested data."""
    shortener = reprlib.Repr()
    shortener.maxstring = shortener.maxother = shortener.maxlong = limit
    shortener.maxlist = shortener.maxdict = shortener.maxtuple = shortener.maxset = 6
    shortener.maxlevel = 3
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    text = shortener.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (with ``...``)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file of ``mode`` is, in words (``a regular file``, ``a folder``, ``a named pipe (FIFO)``...)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def open_regular(path: str | os.PathLike[str], flags: int = _READ_FLAGS, *, verb: str = "read"
                 ) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file ``path`` opened with ``flags``, and its ``fstat``.

    Only a regular file is opened: a folder, FIFO, device or socket is refused by a look before the open (so a FIFO
    never blocks it), and one swapped in between the look and the open by an ``fstat`` after it.  A missing file
    raises FileNotFoundError (unless ``flags`` create it); every other problem is a FileProblem saying the file
    cannot be ``verb`` and why.
    """
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
        mode = None
    except OSError as error:  # a symlink loop, a folder that is a file, no permission
        raise FileProblem(f"cannot be {verb}: {error.strerror or error}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise FileProblem(f"is {file_kind(mode)}, not a regular file")
    try:
        descriptor = os.open(path, flags, 0o644)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise FileProblem(f"cannot be {verb}: {error.strerror or error}") from None
    try:
        opened = os.fstat(descriptor)
    except OSError as error:
        os.close(descriptor)
        raise FileProblem(f"cannot be {verb}: {error.strerror or error}") from None
    if not stat.S_ISREG(opened.st_mode):  # replaced between the two looks
        os.close(descriptor)
        raise FileProblem(f"is {file_kind(opened.st_mode)}, not a regular file")
    return descriptor, opened


def read_bytes(path: str | os.PathLike[str], limit: int = CONFIG_LIMIT) -> bytes:
    """The contents of the regular file ``path``, at most ``limit`` bytes; FileProblem otherwise.

    A missing file raises FileNotFoundError (callers usually treat it as "use the defaults"); every other
    problem is a FileProblem saying why.
    """
    descriptor, opened = open_regular(path)
    try:
        if opened.st_size > limit:
            raise FileProblem(f"is {_size(opened.st_size)}, larger than the {_size(limit)} such a file may be")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise FileProblem(f"cannot be read: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileProblem(f"is larger than the {_size(limit)} such a file may be")
    return data


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):.0f} MB"
    if count >= 1024:
        return f"{count / 1024:.0f} kB"
    return f"{count} bytes"


def decode(data: bytes) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped); FileProblem naming the line otherwise."""
    nul = data.find(b"\0")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise FileProblem(f"line {line}: binary data (a NUL byte), not text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FileProblem(f"line {line}: byte 0x{data[error.start]:02x} is not UTF-8 text") from None
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: str | os.PathLike[str], limit: int = CONFIG_LIMIT) -> str:
    """``read_bytes`` decoded as UTF-8 text."""
    return decode(read_bytes(path, limit))


# -- YAML ------------------------------------------------------------------------------------------------------
class _GuardedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with no aliases, a nesting limit and bounded, finite numbers."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise FileProblem(f"line {event.start_mark.line + 1}: YAML aliases (*name) are not accepted here; "
                              "write the value out in full")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            mark = self.peek_event().start_mark
            raise FileProblem(f"line {mark.line + 1}: nested more than {MAX_DEPTH} levels deep")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        digits = sum(character.isalnum() for character in str(node.value))
        if digits > MAX_DIGITS + 2:  # room for a 0x or 0b prefix
            raise FileProblem(f"line {node.start_mark.line + 1}: a number of {digits} digits is too long "
                              f"(at most {MAX_DIGITS})")
        return super().construct_yaml_int(node)

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        if len(str(node.value)) > 4 * MAX_DIGITS:
            raise FileProblem(f"line {node.start_mark.line + 1}: a number written with "
                              f"{len(str(node.value))} characters is too long")
        value = super().construct_yaml_float(node)
        if not math.isfinite(value):
            raise FileProblem(f"line {node.start_mark.line + 1}: {clip(str(node.value), 20)} is not a finite "
                              "number; write an ordinary number such as 1.5")
        return value


_GuardedLoader.add_constructor("tag:yaml.org,2002:int", _GuardedLoader.construct_yaml_int)
_GuardedLoader.add_constructor("tag:yaml.org,2002:float", _GuardedLoader.construct_yaml_float)


def parse_yaml(text: str) -> Any:
    """``text`` parsed by the guarded loader; FileProblem (with the line) for anything it refuses."""
    try:
        return yaml.load(text, Loader=_GuardedLoader)  # noqa: S506 - a SafeLoader subclass
    except FileProblem:
        raise
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise FileProblem(f"{where}not valid YAML ({clip(str(error.problem or error.context or 'error'))})") from None
    except (yaml.YAMLError, ValueError, RecursionError, OverflowError) as error:
        raise FileProblem(f"not valid YAML ({clip(str(error) or type(error).__name__)})") from None


def load_yaml(path: str | os.PathLike[str], limit: int = CONFIG_LIMIT) -> Any:
    """The YAML data in ``path``, read through ``read_text`` and ``parse_yaml``."""
    return parse_yaml(read_text(path, limit))


# -- setting a bad file aside ------------------------------------------------------------------------------------
def set_aside(path: str | os.PathLike[str]) -> tuple[Path | None, str]:
    """Move ``path`` out of the way (to ``NAME.bad-STAMP``, never over an earlier one).

    Returns (the new path, a phrase for a message) on success, or (None, a phrase saying why it stayed) when it
    cannot be moved, for example in a read-only folder; never raises.
    """
    source = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = source.with_name(f"{source.name}.bad-{stamp}")
    counter = 1
    while os.path.lexists(target):
        target = source.with_name(f"{source.name}.bad-{stamp}-{counter}")
        counter += 1
    try:
        os.rename(source, target)
    except OSError as error:
        reason = error.strerror or str(error)
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            reason += " (the folder cannot be changed)"
        return None, f"it could not be set aside ({reason}), so it is left as it is and ignored"
    return target, f"it was set aside as {target.name}"


def write_atomically(path: str | os.PathLike[str], data: str | bytes, *, durable: bool = True,
                     hidden: bool = False, make_folder: bool = True) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` so that a crash leaves either the old file or the new one.

    The data goes to a temporary file beside ``path`` (``NAME.*.tmp``, or ``.NAME.*.tmp`` when ``hidden``),
    which then replaces ``path`` in one rename; an existing file's permissions are kept.  ``durable`` also
    fsyncs the data and the folder (about 10 ms on a disk), so the write survives a power cut, not only a
    crash of the program.  ``make_folder`` creates missing folders (a save the player names does not).  Raises OSError when the file cannot be written; ``path`` is then untouched and no
    temporary file is left.  Temporaries that writes killed midway left are removed (``remove_stale``).
    """
    target = Path(path)
    folder = target.parent
    if make_folder:
        folder.mkdir(parents=True, exist_ok=True)
    prefix = f".{target.name}." if hidden else f"{target.name}."
    remove_stale_matching(folder, prefix + "*.tmp")
    before = status(target)
    mode = stat.S_IMODE(before.st_mode) if before is not None and stat.S_ISREG(before.st_mode) else None
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            if durable:
                os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    if durable:
        _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make a rename durable where the platform allows it (POSIX); harmless to skip elsewhere."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


# -- looking at a file without opening it ------------------------------------------------------------------------
def status(path: str | os.PathLike[str], follow: bool = True) -> os.stat_result | None:
    """What is at ``path`` (a symbolic link followed, unless ``follow`` is false), or None when nothing is
    there or it cannot be looked at (a link loop, no permission, a name too long).  Never opens it (so a FIFO
    or a device cannot block), never raises."""
    try:
        return os.stat(path) if follow else os.lstat(path)
    except (OSError, ValueError):
        return None


def exists(path: str | os.PathLike[str]) -> bool:
    """Something is at ``path``, even a link to nothing (which a write must not silently replace)."""
    return status(path, follow=False) is not None


def is_regular(path: str | os.PathLike[str]) -> bool:
    """``path`` is (or links to) a regular file: one ``read_bytes`` may read."""
    found = status(path)
    return found is not None and stat.S_ISREG(found.st_mode)


def is_folder(path: str | os.PathLike[str]) -> bool:
    """``path`` is (or links to) a folder."""
    found = status(path)
    return found is not None and stat.S_ISDIR(found.st_mode)


def modified(path: str | os.PathLike[str]) -> float:
    """When ``path`` was last written (seconds since the epoch); FileNotFoundError when it has gone."""
    found = status(path)
    if found is None:
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    return found.st_mtime


def writable_problem(path: str | os.PathLike[str]) -> str | None:
    """Why a file cannot be written at ``path`` (not a regular file, no folder, a full disk, read-only), or
    None when a 4 kB probe written, flushed and fsynced beside it worked.  Asked before a long run, so it does
    not end in a write that fails."""
    target = Path(path)
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as error:
        return getattr(error, "strerror", None) or str(error)
    if mode is not None and not stat.S_ISREG(mode):
        return f"it is {file_kind(mode)}, not a regular file"
    folder = target.parent if str(target.parent) else Path(".")
    if not is_folder(folder):
        return f"the folder {folder} does not exist"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".stonecave-check-", suffix=".tmp") as probe:
            probe.write(b"x" * 4096)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as error:
        return error.strerror or str(error)
    if mode is not None and not os.access(target, os.W_OK):
        return "the file is read-only"
    return None


STALE_TEMPORARY = 60.0
"""Seconds after which a ``NAME.*.tmp`` that a killed write left beside ``NAME`` is removed."""


def remove_stale(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files (``NAME.*.tmp``) that writes of ``path`` killed midway left behind."""
    target = Path(path)
    return remove_stale_matching(target.parent, target.name + ".*.tmp")


def remove_stale_matching(folder: str | os.PathLike[str], pattern: str) -> list[Path]:
    """Remove the regular files matching ``pattern`` in ``folder`` older than ``STALE_TEMPORARY`` (so a write
    in progress elsewhere is never touched); never follows a link, never raises.  Returns what it removed."""
    removed: list[Path] = []
    now = time.time()
    try:
        candidates = list(Path(folder).glob(pattern))
    except OSError:
        return removed
    for candidate in candidates:
        found = status(candidate, follow=False)
        if found is None or not stat.S_ISREG(found.st_mode) or now - found.st_mtime <= STALE_TEMPORARY:
            continue
        try:
            candidate.unlink()
        except OSError:
            continue
        removed.append(candidate)
    return removed
