"""Kalah endgame tables on disk: built by the compiled core (``kalah_tables.pxi``), one file per seed count.

A table layer of ``s`` seeds holds, for every board of ``s`` seeds in the pits (stores excluded), the exact best
margin of those seeds for the side to move.  Each layer is a file ``kalah-p{pits}-{rule}-s{seeds}.sctable``:
a 64-byte header (magic, format version, game, pits, capture rule, seeds, entries, CRC-32 of the entries) and
one signed byte per board.  Files are written atomically (a temporary file, fsync, rename) and verified on
load: a missing, truncated or corrupt layer is reported and ignored with every layer above it (layers are used
from 0 up with no gap), never trusted.  Loaded layers are memory-mapped, read-only.

The folder is the caller's (``stonecave`` puts it in the settings folder, ``<config_dir>/tables``); engines
find it through ``configure`` or ``$STONECAVE_TABLES``.  This module never imports ``game`` or arcade.
"""
from __future__ import annotations

import mmap
import os
import struct
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import ai.core as core

MAGIC = b"STONECAVE-TABLE\0"
FORMAT_VERSION = 1
HEADER = struct.Struct("<16sI16sIIIQI")   # magic, version, game, pits, empty_capture, seeds, entries, crc32
HEADER_BYTES = 64
ENV = "STONECAVE_TABLES"
BUILD_RATE = 2_000_000
"""Entries solved per second on one core (measured: 6 pits, 4-5 M/s up to 16 seeds, 2 M/s at 20: the big layers miss the cache); for the estimate only."""
CHUNK = 1 << 21
"""Entries built per call into the core: progress is reported between chunks."""

_directory: Path | Callable[[], Path] | None = None
_cache: dict[tuple[Path, int, bool], "LoadedTables"] = {}


def configure(directory: Path | str | Callable[[], Path] | None) -> None:
    """Where the engines look for tables: a folder, or a function giving it when first needed (the game
    passes its settings folder's ``tables`` this way, so nothing is imported until an engine asks); None:
    only ``$STONECAVE_TABLES``, which always wins."""
    global _directory
    _directory = directory if directory is None or callable(directory) else Path(directory)


def directory() -> Path | None:
    """The folder the engines read tables from, if any."""
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    if callable(_directory):
        return Path(_directory())
    return _directory


def rule_name(empty_capture: bool) -> str:
    return "emptycapture" if empty_capture else "standard"


def layer_path(folder: Path, pits: int, empty_capture: bool, seeds: int) -> Path:
    return Path(folder) / f"kalah-p{pits}-{rule_name(empty_capture)}-s{seeds}.sctable"


def layer_size(pits: int, seeds: int) -> int:
    """Entries (bytes) of the layer of ``seeds`` seeds: C(seeds + 2 pits - 1, 2 pits - 1)."""
    return _core().kalah_layer_size(pits, seeds)


@dataclass(frozen=True)
class Estimate:
    entries: int
    disk_bytes: int
    seconds: float

    def describe(self) -> str:
        return (f"{self.entries:,} positions, {self.disk_bytes / 1e6:,.1f} MB on disk and in memory, "
                f"about {self.seconds:,.0f} s on one core")


def estimate(pits: int, seeds: int, have: int = -1) -> Estimate:
    """What building layers ``have + 1 .. seeds`` costs (disk is every layer 0..seeds)."""
    entries = sum(layer_size(pits, s) for s in range(have + 1, seeds + 1))
    disk = sum(layer_size(pits, s) + HEADER_BYTES for s in range(seeds + 1))
    return Estimate(entries, disk, entries / BUILD_RATE)


@dataclass
class LoadedTables:
    """The verified layers of one variant (``tables.top`` is the largest seed count; -1: none) and what was
    wrong with the files that were not used."""

    tables: Any
    problems: list[str] = field(default_factory=list)
    maps: list[mmap.mmap] = field(default_factory=list)

    @property
    def top(self) -> int:
        return self.tables.top


def _core() -> Any:
    module = core.module()
    if module is None:
        raise RuntimeError(f"endgame tables need the compiled core: {core.status().why}")
    return module


def _header(pits: int, empty_capture: bool, seeds: int, data: Any) -> bytes:
    raw = HEADER.pack(MAGIC, FORMAT_VERSION, b"kalah", pits, int(empty_capture), seeds, len(data),
                      zlib.crc32(data))
    return raw + bytes(HEADER_BYTES - len(raw))


def check_layer(path: Path, pits: int, empty_capture: bool, seeds: int) -> tuple[mmap.mmap | None, str | None]:
    """The verified layer's memory map, or (None, why it cannot be trusted)."""
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size < HEADER_BYTES:
                return None, f"{path.name}: truncated ({size} bytes, shorter than its header)"
            mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"{path.name}: cannot be read ({error.strerror or error})"
    magic, version, game, f_pits, f_rule, f_seeds, entries, crc = HEADER.unpack_from(mapped, 0)
    expected = layer_size(pits, seeds)
    why = None
    if magic != MAGIC:
        why = "not a StoneCave table (bad magic)"
    elif version != FORMAT_VERSION:
        why = f"format version {version}, this StoneCave reads {FORMAT_VERSION}"
    elif (game.rstrip(b"\0"), f_pits, f_rule, f_seeds) != (b"kalah", pits, int(empty_capture), seeds):
        why = (f"holds {game.rstrip(bytes(1)).decode('ascii', 'replace')} pits={f_pits} empty_capture={f_rule} "
               f"seeds={f_seeds}, not kalah pits={pits} empty_capture={int(empty_capture)} seeds={seeds}")
    elif entries != expected or size != HEADER_BYTES + expected:
        why = f"truncated or padded ({size - HEADER_BYTES} entries on disk, header says {entries}, need {expected})"
    elif zlib.crc32(memoryview(mapped)[HEADER_BYTES:]) != crc:
        why = "checksum mismatch (the file is corrupt)"
    if why is not None:
        mapped.close()
        return None, f"{path.name}: {why}; ignored"
    return mapped, None


def load_kalah_tables(folder: Path | str, pits: int, empty_capture: bool, max_seeds: int | None = None) -> LoadedTables:
    """Every verified layer 0, 1, 2, ... up to the first missing or bad one (reported in ``problems``)."""
    folder = Path(folder)
    loaded = LoadedTables(_core().KalahTables(pits, empty_capture))
    seeds = 0
    while max_seeds is None or seeds <= max_seeds:
        path = layer_path(folder, pits, empty_capture, seeds)
        mapped, why = check_layer(path, pits, empty_capture, seeds)
        if mapped is None:
            if why is not None:
                loaded.problems.append(why)
            higher = layer_path(folder, pits, empty_capture, seeds + 1)
            if why is None and higher.exists():
                loaded.problems.append(f"{path.name} is missing, so the layers above it are not used")
            break
        loaded.maps.append(mapped)
        loaded.tables.add_layer(seeds, memoryview(mapped)[HEADER_BYTES:])
        seeds += 1
    return loaded


def write_layer(path: Path, pits: int, empty_capture: bool, seeds: int, data: Any) -> None:
    """Write a layer atomically: a temporary file in the same folder, fsync, rename, fsync the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(_header(pits, empty_capture, seeds, data))
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    try:
        folder = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


@dataclass(frozen=True)
class LayerBuilt:
    seeds: int
    entries: int
    seconds: float
    path: Path


Progress = Callable[[int, int, int], None]
"""``progress(seeds, entries done in this layer, entries of the layer)``."""


def _build_layer(tables: Any, layer: int, out: bytearray, size: int, threads: int,
                 progress: Progress | None) -> None:
    """Solve a layer in chunks, ``threads`` at a time (the core releases the GIL).  Threads may solve the
    same same-layer child twice; both write the same byte, so the race costs time, never correctness."""
    chunks = [(start, min(size, start + CHUNK)) for start in range(0, size, CHUNK)]
    done = 0
    if threads <= 1 or len(chunks) == 1:
        for start, stop in chunks:
            tables.build(layer, out, start, stop)
            done += stop - start
            if progress is not None:
                progress(layer, done, size)
        return
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(max_workers=threads) as pool:
        futures = {pool.submit(tables.build, layer, out, start, stop): stop - start for start, stop in chunks}
        for future in as_completed(futures):
            future.result()
            done += futures[future]
            if progress is not None:
                progress(layer, done, size)


def build_kalah_tables(folder: Path | str, pits: int, empty_capture: bool, seeds: int,
                       progress: Progress | None = None,
                       threads: int | None = None) -> tuple[LoadedTables, list[LayerBuilt]]:
    """Build (or complete) the layers 0..``seeds`` in ``folder``: verified layers on disk are reused, the rest
    are solved smallest first and each written atomically as soon as it is complete.  ``threads``: how many
    cores solve a layer (default: all of them)."""
    threads = threads or os.cpu_count() or 1
    folder = Path(folder)
    loaded = load_kalah_tables(folder, pits, empty_capture, max_seeds=seeds)
    built: list[LayerBuilt] = []
    for layer in range(loaded.top + 1, seeds + 1):
        size = layer_size(pits, layer)
        out = bytearray(b"\x80") * size
        started = time.perf_counter()
        _build_layer(loaded.tables, layer, out, size, threads, progress)
        seconds = time.perf_counter() - started
        path = layer_path(folder, pits, empty_capture, layer)
        write_layer(path, pits, empty_capture, layer, out)
        loaded.tables.add_layer(layer, out)
        built.append(LayerBuilt(layer, size, seconds, path))
    return loaded, built


def tables_for(game: Any) -> Any | None:
    """The loaded tables of a Kalah variant from the configured folder (cached), or None when there are none."""
    folder = directory()
    if folder is None or getattr(game, "name", None) != "kalah" or core.module() is None:
        return None
    key = (folder, game.pits, bool(game.empty_capture))
    if key not in _cache:
        _cache[key] = load_kalah_tables(folder, game.pits, bool(game.empty_capture))
    loaded = _cache[key]
    return loaded.tables if loaded.top >= 0 else None


def forget() -> None:
    """Drop the cached tables (after a build, or in tests that change the folder)."""
    _cache.clear()
