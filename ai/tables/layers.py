"""The endgame tables' files: one per layer, named ``{stem}-s{seeds}.sctable``, verified on load.

A file is a 64-byte header (magic, format version, game, pits, rule, seeds, entries, CRC-32 of the entries) and
one signed byte per board.  Files are written atomically (a temporary file, fsync, rename) and verified on load:
a missing, truncated, padded or corrupt layer, or anything at its name that is not a regular file (a FIFO, a
device, a folder, a link loop), is reported and ignored with every layer above it (layers are used from 0 up
with no gap), never trusted.

Every layer is read through ``guarded.binary.read_binary``: its size is checked against the one the variant
expects before a byte is read, and it is *copied* into memory, never memory-mapped, so a file truncated or
replaced on disk while a search uses it changes nothing in the process (a mapped file that shrinks would kill
it with SIGBUS).  The copy costs about the time of the CRC check it replaces a page fault for, and the layers'
size in private memory per process instead of shared page cache (BENCHMARKS.md, "Kalah endgame tables").
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai.tables.games import Variant, as_variant, compiled, describe_header
from guarded import binary, files
from guarded.files import FileProblem

MAGIC = b"STONECAVE-TABLE\0"
FORMAT_VERSION = 1
HEADER = struct.Struct("<16sI16sIIIQI")   # magic, version, game, pits, rule, seeds, entries, crc32
HEADER_BYTES = 64


@dataclass
class LoadedTables:
    """The verified layers of one variant (``tables.top`` is the largest seed count; -1: none) and what was
    wrong with the files that were not used."""

    tables: Any
    problems: list[str] = field(default_factory=list)
    buffers: list[Any] = field(default_factory=list)
    """Each layer's entries in memory (layer 0 first; the file's header left out), which the compiled tables read:
    a set cut from these (``ai.tables.tables_up_to``) shares them."""

    @property
    def top(self) -> int:
        return int(self.tables.top)


def variant_layer_path(folder: Path | str, variant: Variant, seeds: int) -> Path:
    return Path(folder) / f"{variant.stem}-s{seeds}.sctable"


def layer_path(folder: Path, pits: int | Variant, empty_capture: bool | None, seeds: int) -> Path:
    return variant_layer_path(folder, as_variant(pits, empty_capture), seeds)


def layer_size(pits: int, seeds: int) -> int:
    """Entries (bytes) of the Kalah layer of ``seeds`` seeds: C(seeds + 2 pits - 1, 2 pits - 1)."""
    return int(compiled().kalah_layer_size(pits, seeds))


def header(variant: Variant, seeds: int, data: Any) -> bytes:
    raw = HEADER.pack(MAGIC, FORMAT_VERSION, variant.game.encode("ascii"), variant.pits, variant.rule, seeds,
                      len(data), zlib.crc32(data))
    return raw + bytes(HEADER_BYTES - len(raw))


def check_layer(path: Path, pits: int | Variant, empty_capture: bool | None,
                seeds: int) -> tuple[Any, str | None]:
    """The verified layer's bytes (header included, copied into memory), or (None, why it cannot be trusted);
    (None, None) when there is no file."""
    variant = as_variant(pits, empty_capture)
    expected = variant.layer_size(seeds)
    try:
        snapshot = binary.read_binary(path, HEADER_BYTES + expected)
    except FileNotFoundError:
        return None, None
    except FileProblem as problem:
        return None, f"{path.name}: {problem}; ignored"
    size, data = snapshot.size, snapshot.data
    if data is None:
        return None, (f"{path.name}: truncated or padded ({size - HEADER_BYTES:,} entries on disk, "
                      f"need {expected:,}); ignored")
    if size < HEADER_BYTES:
        return None, f"{path.name}: truncated ({size} bytes, shorter than its header); ignored"
    magic, version, game, f_pits, f_rule, f_seeds, entries, crc = HEADER.unpack_from(data, 0)
    why = None
    if magic != MAGIC:
        why = "not a StoneCave table (bad magic)"
    elif version != FORMAT_VERSION:
        why = f"format version {version}, this StoneCave reads {FORMAT_VERSION}"
    elif (game.rstrip(b"\0"), f_pits, f_rule, f_seeds) != (variant.game.encode(), variant.pits, variant.rule, seeds):
        why = (f"holds {describe_header(game, f_pits, f_rule)} seeds={f_seeds}, "
               f"not {variant.describe} seeds={seeds}")
    elif entries != expected or size != HEADER_BYTES + expected:
        why = f"truncated or padded ({size - HEADER_BYTES} entries on disk, header says {entries}, need {expected})"
    elif zlib.crc32(memoryview(data)[HEADER_BYTES:]) != crc:
        why = "checksum mismatch (the file is corrupt)"
    if why is not None:
        return None, f"{path.name}: {why}; ignored"
    return data, None


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot hold tables (it is a file, a FIFO, a device...), or None."""
    kind = binary.not_a_folder(folder)
    return None if kind is None else f"{folder} is {kind}, not a folder: no tables can be read or built there"


def load_kalah_tables(folder: Path | str, pits: int, empty_capture: bool, max_seeds: int | None = None) -> LoadedTables:
    """Every verified layer 0, 1, 2, ... up to the first missing or bad one (reported in ``problems``)."""
    return load_tables(folder, as_variant(pits, empty_capture), max_seeds)


def load_oware_tables(folder: Path | str, grand_slam: str = "no-capture", skip_start: bool = True,
                      max_seeds: int | None = None) -> LoadedTables:
    """``load_kalah_tables`` for an Oware variant (``tables.lookup(own, other)`` reads a board's value)."""
    from ai.tables.games import oware_variant

    return load_tables(folder, oware_variant(grand_slam, skip_start), max_seeds)


def load_tables(folder: Path | str, variant: Variant, max_seeds: int | None = None) -> LoadedTables:
    """Every verified layer of ``variant`` 0, 1, 2, ... up to the first missing or bad one (in ``problems``),
    and none above ``max_seeds``."""
    folder = Path(folder)
    loaded = LoadedTables(variant.new_tables())
    why_not = folder_problem(folder)
    if why_not is not None:
        loaded.problems.append(why_not)
        return loaded
    seeds = 0
    while max_seeds is None or seeds <= max_seeds:
        path = variant_layer_path(folder, variant, seeds)
        try:
            variant.layer_size(seeds)
        except ValueError:  # past the largest layer the core holds
            break
        data, why = check_layer(path, variant, None, seeds)
        if data is None:
            if why is not None:
                loaded.problems.append(why)
            elif files.exists(variant_layer_path(folder, variant, seeds + 1)):
                loaded.problems.append(f"{path.name} is missing, so the layers above it are not used")
            break
        entries = memoryview(data)[HEADER_BYTES:]
        loaded.buffers.append(entries)
        loaded.tables.add_layer(seeds, entries)
        seeds += 1
    return loaded


def write_layer(path: Path, pits: int | Variant, empty_capture: bool | None, seeds: int, data: Any) -> None:
    """Write a layer atomically (``guarded.binary.write_atomically``: a temporary file, fsync, rename)."""
    binary.write_atomically(path, header(as_variant(pits, empty_capture), seeds, data), data)
