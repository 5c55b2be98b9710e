"""Kalah and Oware endgame tables on disk: built by the compiled core (``kalah_tables.pxi``,
``oware_tables.pxi``), one file per seed count.

A table layer of ``s`` seeds holds, for every board of ``s`` seeds in the pits (stores excluded), the exact best
margin of those seeds for the side to move.  Each layer is a file ``kalah-p{pits}-{rule}-s{seeds}.sctable``:
a 64-byte header (magic, format version, game, pits, capture rule, seeds, entries, CRC-32 of the entries) and
one signed byte per board.  Files are written atomically (a temporary file, fsync, rename) and verified on
load: a missing, truncated or corrupt layer is reported and ignored with every layer above it (layers are used
from 0 up with no gap), never trusted.  Loaded layers are memory-mapped, read-only.

The folder is the caller's (``stonecave`` puts it in the settings folder, ``<config_dir>/tables``); engines
find it through ``configure`` or ``$STONECAVE_TABLES``.  This module never imports ``game`` or arcade.

*First use*: an engine that asks for tables (``pvs:tables=true``, the Strongest presets) in a folder given
by ``configure`` starts ``build_in_background``: the layers up to ``auto_seeds`` (6 pits: 0..14 seeds, 9.7 MB,
a few seconds on one core) are built in a daemon thread on one core (the core releases the GIL), and the engine
plays without them until they are done, then with them from its next search (``tables_for``).  One build runs
per variant and folder, across processes: it holds ``kalah-p{pits}-{rule}.building``, which says how far it is
(``read_progress``; ``stonecave tables status``) and is refreshed at least every few seconds, so a build killed
midway leaves a stale file the next build takes over; completed layers are kept and reused.  A folder named
by ``$STONECAVE_TABLES`` (tests, benchmarks) is only read: nothing is built there on its own.

*Oware* (``oware-{variant}-s{seeds}.sctable``, the variant naming the grand slam and sowing rules, e.g.
``oware-abapa-s12.sctable``; the header holds game ``oware`` and the variant's code): every board of the 12
houses, the best margin of its seeds for the side to move, as if no earlier position repeats and with play
that never captures again worth 0 (``oware_tables.pxi``).  A layer is built by value iteration from 0 in
passes over the entries that may change, ended by one full sweep that changes nothing; ``LayerBuilt.sweeps``
counts the passes.  The first-use set is every layer up to about 10 MB (0..14 seeds, 9.7 M entries).
Everything else (files, verification, the build lock, first use) is Kalah's, through a ``Variant``.
"""
from __future__ import annotations

import json
import mmap
import os
import struct
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import ai.core as core
from guarded import files

MAGIC = b"STONECAVE-TABLE\0"
FORMAT_VERSION = 1
HEADER = struct.Struct("<16sI16sIIIQI")   # magic, version, game, pits, empty_capture, seeds, entries, crc32
HEADER_BYTES = 64
ENV = "STONECAVE_TABLES"
BUILD_RATE = 2_000_000
"""Entries solved per second on one core (measured: 6 pits, 4-5 M/s up to 16 seeds, 2 M/s at 20: the big layers miss the cache); for the estimate only."""
OWARE_BUILD_RATES = ((14, 800_000), (16, 500_000), (60, 250_000))
"""Oware boards solved per second on one core, passes included, for layers up to each seed count (measured on
the loaded 2-core VM: 0..14 in 11.9 s on one core; 16 seeds 0.49 M/s and 18..20 0.3-0.5 M/s on two); for the
estimate only."""
CHUNK = 1 << 21
"""Entries built per call into the core: progress is reported between chunks."""

AUTO_BYTES = 10_000_000
"""The table set built on first use, in the background, without asking: every layer up to the largest seed count
whose layers together take at most this many bytes (Kalah with 6 pits and Oware alike: 0..14 seeds, 9.7 MB; a
few seconds on one core).  Bigger sets are the player's choice: ``stonecave tables build``."""
FULL_BYTES = 100_000_000
"""The set ``stonecave tables build`` makes when no ``--seeds`` is given (6-pit Kalah and Oware: 0..18 seeds,
86.5 MB; Kalah about 30 s on one core, Oware about 4 minutes on two)."""
STALE_SECONDS = 30.0
"""A ``.building`` file not refreshed for this long was left by a build that died: the next build takes over."""
PROGRESS_SECONDS = 1.0
"""A build refreshes its ``.building`` file about this often."""

_directory: Path | Callable[[], Path] | None = None
_auto_build = False
CacheKey = tuple[Path, Any, Any]
"""(folder, pits, empty_capture) for Kalah (as before), (folder, "oware", variant code) for Oware."""
_cache: dict[CacheKey, "LoadedTables"] = {}
_next_layer_seen: dict[CacheKey, int | None] = {}
_builds: dict[CacheKey, "BackgroundBuild"] = {}
_builds_lock = threading.Lock()


def configure(directory: Path | str | Callable[[], Path] | None, build: bool = True) -> None:
    """Where the engines look for tables: a folder, or a function giving it when first needed (the game
    passes its settings folder's ``tables`` this way, so nothing is imported until an engine asks); None:
    only ``$STONECAVE_TABLES``, which always wins.  ``build``: an engine asking for tables that are not
    there yet starts building them in the background (``ensure``)."""
    global _directory, _auto_build
    _directory = directory if directory is None or callable(directory) else Path(directory)
    _auto_build = build and directory is not None


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


OWARE_SLAM_NAMES = {"no-capture": "abapa", "capture": "slamcaptures", "forbidden": "slamforbidden"}
"""Oware's grand slam rule in a file name (the default rule, abapa's, names the variant)."""


@dataclass(frozen=True)
class Variant:
    """One game variant's tables: what names its files, fills its header and sizes its layers.

    Kalah: ``pits`` and ``rule`` (1: empty capture).  Oware: ``rule`` is the variant's code, the grand slam
    rule (0 no-capture, 1 capture, 2 forbidden) plus 4 when sowing does not skip the starting house."""

    game: str
    pits: int
    rule: int

    @property
    def stem(self) -> str:
        """The files' common name, e.g. ``kalah-p6-emptycapture`` or ``oware-abapa``."""
        if self.game == "kalah":
            return f"kalah-p{self.pits}-{rule_name(bool(self.rule))}"
        slam = tuple(OWARE_SLAM_NAMES.values())[self.rule & 3]
        return f"oware-{slam}" + ("" if self.rule < 4 else "-keepstart")

    @property
    def describe(self) -> str:
        if self.game == "kalah":
            return f"kalah pits={self.pits} empty_capture={str(bool(self.rule)).lower()}"
        slam = tuple(OWARE_SLAM_NAMES)[self.rule & 3]
        return f"oware grand_slam={slam} skip_start={str(self.rule < 4).lower()}"

    @property
    def cache_key(self) -> tuple[Any, Any]:
        return (self.pits, bool(self.rule)) if self.game == "kalah" else ("oware", self.rule)

    def layer_size(self, seeds: int) -> int:
        if self.game == "kalah":
            return int(_core().kalah_layer_size(self.pits, seeds))
        return int(_core().oware_layer_size(seeds))

    def new_tables(self) -> Any:
        if self.game == "kalah":
            return _core().KalahTables(self.pits, bool(self.rule))
        slam = self.rule & 3
        return _core().OwareTables(slam == 1, slam == 2, self.rule < 4)

    @property
    def auto_bytes(self) -> int:
        return AUTO_BYTES

    def build_rate(self, seeds: int) -> float:
        """Entries of the layer of ``seeds`` solved per second on one core (for the estimate)."""
        if self.game == "kalah":
            return BUILD_RATE
        return next(rate for top, rate in OWARE_BUILD_RATES if seeds <= top)


def kalah_variant(pits: int, empty_capture: bool) -> Variant:
    return Variant("kalah", pits, int(bool(empty_capture)))


def oware_variant(grand_slam: str = "no-capture", skip_start: bool = True) -> Variant:
    """The Oware tables of a grand slam rule and sowing rule (the parameters of ``rules.oware.Oware`` that
    change the board's play; the others, the repetition and no-capture rules, are applied by the search)."""
    if grand_slam not in OWARE_SLAM_NAMES:
        raise ValueError(f"Oware tables know the grand slam rules {', '.join(OWARE_SLAM_NAMES)}, not {grand_slam!r}")
    return Variant("oware", 6, tuple(OWARE_SLAM_NAMES).index(grand_slam) + (0 if skip_start else 4))


def variant_of(game: Any) -> Variant | None:
    """The tables' variant of a rules object (a Kalah or Oware game), or None for a game without tables."""
    name = getattr(game, "name", None)
    if name == "kalah":
        return kalah_variant(game.pits, bool(game.empty_capture))
    if name == "oware":
        return oware_variant(game.grand_slam, game.skip_start)
    return None


def _as_variant(pits: int | Variant, empty_capture: bool | None) -> Variant:
    """The Kalah API's (pits, empty_capture), or a Variant passed in their place."""
    return pits if isinstance(pits, Variant) else kalah_variant(pits, bool(empty_capture))


def variant_layer_path(folder: Path | str, variant: Variant, seeds: int) -> Path:
    return Path(folder) / f"{variant.stem}-s{seeds}.sctable"


def layer_path(folder: Path, pits: int | Variant, empty_capture: bool | None, seeds: int) -> Path:
    return variant_layer_path(folder, _as_variant(pits, empty_capture), seeds)


def layer_size(pits: int, seeds: int) -> int:
    """Entries (bytes) of the Kalah layer of ``seeds`` seeds: C(seeds + 2 pits - 1, 2 pits - 1)."""
    return _core().kalah_layer_size(pits, seeds)


@lru_cache(maxsize=None)
def auto_seeds(pits: int | Variant, total: int | None = None, budget: int | None = None) -> int:
    """The largest seed count whose layers 0..it fit ``budget`` bytes (default the first-use budget,
    ``AUTO_BYTES``; never above ``total``, the game's seeds): the set built on first use, or with
    ``FULL_BYTES`` the one ``stonecave tables build`` makes by default.  ``pits``: Kalah's pits, or a Variant."""
    variant = _as_variant(pits, True)
    limit = variant.auto_bytes if budget is None else budget
    size, seeds = 0, -1
    while total is None or seeds < total:
        try:
            size += variant.layer_size(seeds + 1)
        except ValueError:  # past the largest layer the core holds
            break
        if size > limit:
            break
        seeds += 1
    return seeds


def game_auto_seeds(game: Any, budget: int | None = None) -> int:
    """``auto_seeds`` of a Kalah or Oware game (its seeds on the board at the start cap it)."""
    variant = variant_of(game)
    if variant is None:
        return -1
    total = 2 * game.pits * game.seeds if variant.game == "kalah" else 12 * game.seeds
    return auto_seeds(variant if variant.game == "oware" else game.pits, total, budget)


def progress_path(folder: Path, pits: int | Variant, empty_capture: bool | None = None) -> Path:
    return Path(folder) / f"{_as_variant(pits, empty_capture).stem}.building"


@dataclass(frozen=True)
class Estimate:
    entries: int
    disk_bytes: int
    seconds: float

    def describe(self) -> str:
        return (f"{self.entries:,} positions, {self.disk_bytes / 1e6:,.1f} MB on disk and in memory, "
                f"about {self.seconds:,.0f} s on one core")


def estimate(pits: int | Variant, seeds: int, have: int = -1) -> Estimate:
    """What building layers ``have + 1 .. seeds`` costs (disk is every layer 0..seeds)."""
    variant = _as_variant(pits, True)
    entries = sum(variant.layer_size(s) for s in range(have + 1, seeds + 1))
    disk = sum(variant.layer_size(s) + HEADER_BYTES for s in range(seeds + 1))
    seconds = sum(variant.layer_size(s) / variant.build_rate(s) for s in range(have + 1, seeds + 1))
    return Estimate(entries, disk, seconds)


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


def _header(variant: Variant, seeds: int, data: Any) -> bytes:
    raw = HEADER.pack(MAGIC, FORMAT_VERSION, variant.game.encode("ascii"), variant.pits, variant.rule, seeds,
                      len(data), zlib.crc32(data))
    return raw + bytes(HEADER_BYTES - len(raw))


def _describe_header(game: bytes, pits: int, rule: int) -> str:
    name = game.rstrip(b"\0").decode("ascii", "replace")
    if name in ("kalah", "oware") and (name == "kalah" or (pits == 6 and rule in (0, 1, 2, 4, 5, 6))):
        return Variant(name, pits, rule).describe
    return f"{name} pits={pits} rule={rule}"


def check_layer(path: Path, pits: int | Variant, empty_capture: bool | None,
                seeds: int) -> tuple[mmap.mmap | None, str | None]:
    """The verified layer's memory map, or (None, why it cannot be trusted)."""
    variant = _as_variant(pits, empty_capture)
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
    expected = variant.layer_size(seeds)
    why = None
    if magic != MAGIC:
        why = "not a StoneCave table (bad magic)"
    elif version != FORMAT_VERSION:
        why = f"format version {version}, this StoneCave reads {FORMAT_VERSION}"
    elif (game.rstrip(b"\0"), f_pits, f_rule, f_seeds) != (variant.game.encode(), variant.pits, variant.rule, seeds):
        why = (f"holds {_describe_header(game, f_pits, f_rule)} seeds={f_seeds}, "
               f"not {variant.describe} seeds={seeds}")
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
    return load_tables(folder, kalah_variant(pits, empty_capture), max_seeds)


def load_oware_tables(folder: Path | str, grand_slam: str = "no-capture", skip_start: bool = True,
                      max_seeds: int | None = None) -> LoadedTables:
    """``load_kalah_tables`` for an Oware variant (``tables.lookup(own, other)`` reads a board's value)."""
    return load_tables(folder, oware_variant(grand_slam, skip_start), max_seeds)


def load_tables(folder: Path | str, variant: Variant, max_seeds: int | None = None) -> LoadedTables:
    """Every verified layer of ``variant`` 0, 1, 2, ... up to the first missing or bad one (in ``problems``)."""
    folder = Path(folder)
    loaded = LoadedTables(variant.new_tables())
    seeds = 0
    while max_seeds is None or seeds <= max_seeds:
        path = variant_layer_path(folder, variant, seeds)
        try:
            variant.layer_size(seeds)
        except ValueError:  # past the largest layer the core holds
            break
        mapped, why = check_layer(path, variant, None, seeds)
        if mapped is None:
            if why is not None:
                loaded.problems.append(why)
            higher = variant_layer_path(folder, variant, seeds + 1)
            if why is None and higher.exists():
                loaded.problems.append(f"{path.name} is missing, so the layers above it are not used")
            break
        loaded.maps.append(mapped)
        loaded.tables.add_layer(seeds, memoryview(mapped)[HEADER_BYTES:])
        seeds += 1
    return loaded


def write_layer(path: Path, pits: int | Variant, empty_capture: bool | None, seeds: int, data: Any) -> None:
    """Write a layer atomically: a temporary file in the same folder, fsync, rename, fsync the folder."""
    variant = _as_variant(pits, empty_capture)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), 0o644)  # mkstemp's 0600 would hide a shared folder's tables from others
            stream.write(_header(variant, seeds, data))
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
    sweeps: int = 1
    """Oware: the value-iteration passes the layer took, the closing full sweep included (Kalah: 1)."""
    evaluated: int = 0
    """Oware: the entries evaluated over all passes (Kalah: the layer's size)."""


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


def _run_chunks(work: Callable[[int, int], Any], size: int, threads: int,
                on_done: Callable[[int, Any], None]) -> None:
    """``work(start, stop)`` over the layer's chunks, ``threads`` at a time (the core releases the GIL);
    ``on_done(entries, result)`` after each chunk, in the calling thread."""
    chunks = [(start, min(size, start + CHUNK)) for start in range(0, size, CHUNK)]
    if threads <= 1 or len(chunks) == 1:
        for start, stop in chunks:
            on_done(stop - start, work(start, stop))
        return
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(max_workers=threads) as pool:
        futures = {pool.submit(work, start, stop): stop - start for start, stop in chunks}
        for future in as_completed(futures):
            on_done(futures[future], future.result())


def _build_oware_layer(tables: Any, layer: int, out: bytearray, size: int, threads: int,
                       progress: Progress | None) -> tuple[int, int]:
    """Value iteration from 0 over one Oware layer: passes over the entries marked dirty (all at first; an
    entry that changes marks the boards that move to it), then a full sweep; when that sweep changes
    something (a mark lost to a race between the threads), every entry is marked again.  Progress counts
    entries evaluated against what is known to be left (the marked entries and the closing sweep), so it
    reaches the layer's end only once.  Returns (passes including the closing sweep, entries evaluated)."""
    dirty = bytearray(b"\x01") * size
    sweeps = evaluated_total = 0
    done, planned = 0, size

    def report(entries: int) -> None:
        nonlocal done
        done += entries
        if progress is not None:
            progress(layer, min(done, planned), planned)

    while True:
        sweeps += 1
        pass_evaluated = 0
        marked = size if sweeps == 1 else dirty.count(1)
        planned = done + marked + size      # this pass, and the closing full sweep still to come

        def counted(entries: int, result: tuple[int, int]) -> None:
            nonlocal pass_evaluated
            pass_evaluated += result[0]
            report(result[0])

        if marked:
            _run_chunks(lambda start, stop: tables.solve_pass(layer, out, dirty, start, stop), size, threads,
                        counted)
        evaluated_total += pass_evaluated
        if pass_evaluated:
            continue
        sweeps += 1
        planned = done + size
        changed = [0]

        def swept(entries: int, result: int) -> None:
            changed[0] += result
            report(entries)

        _run_chunks(lambda start, stop: tables.sweep(layer, out, start, stop), size, threads, swept)
        evaluated_total += size
        if changed[0] == 0:
            return sweeps, evaluated_total
        dirty[:] = b"\x01" * size


def build_kalah_tables(folder: Path | str, pits: int, empty_capture: bool, seeds: int,
                       progress: Progress | None = None,
                       threads: int | None = None) -> tuple[LoadedTables, list[LayerBuilt]]:
    """Build (or complete) the layers 0..``seeds`` in ``folder``: verified layers on disk are reused, the rest
    are solved smallest first and each written atomically as soon as it is complete.  ``threads``: how many
    cores solve a layer (default: all of them)."""
    return build_tables(folder, kalah_variant(pits, empty_capture), seeds, progress, threads)


def build_oware_tables(folder: Path | str, seeds: int, grand_slam: str = "no-capture", skip_start: bool = True,
                       progress: Progress | None = None,
                       threads: int | None = None) -> tuple[LoadedTables, list[LayerBuilt]]:
    """``build_kalah_tables`` for an Oware variant."""
    return build_tables(folder, oware_variant(grand_slam, skip_start), seeds, progress, threads)


def build_tables(folder: Path | str, variant: Variant, seeds: int, progress: Progress | None = None,
                 threads: int | None = None) -> tuple[LoadedTables, list[LayerBuilt]]:
    """Build (or complete) ``variant``'s layers 0..``seeds`` in ``folder`` (see ``build_kalah_tables``)."""
    threads = threads or os.cpu_count() or 1
    folder = Path(folder)
    loaded = load_tables(folder, variant, max_seeds=seeds)
    built: list[LayerBuilt] = []
    for layer in range(loaded.top + 1, seeds + 1):
        size = variant.layer_size(layer)
        started = time.perf_counter()
        if variant.game == "kalah":
            out = bytearray(b"\x80") * size
            _build_layer(loaded.tables, layer, out, size, threads, progress)
            sweeps, evaluated = 1, size
        else:
            out = bytearray(size)       # value iteration starts from 0, and only from 0
            sweeps, evaluated = _build_oware_layer(loaded.tables, layer, out, size, threads, progress)
        seconds = time.perf_counter() - started
        path = variant_layer_path(folder, variant, layer)
        write_layer(path, variant, None, layer, out)
        loaded.tables.add_layer(layer, out)
        built.append(LayerBuilt(layer, size, seconds, path, sweeps, evaluated))
    return loaded, built


@dataclass(frozen=True)
class BuildProgress:
    """What a ``.building`` file says: which process builds layers up to ``target``, how far it is."""

    pid: int
    target: int
    layer: int
    done: int
    size: int
    started: float
    age: float
    """Seconds since the file was last refreshed."""

    @property
    def is_stale(self) -> bool:
        return self.age > STALE_SECONDS

    def describe(self) -> str:
        if self.is_stale:
            return (f"a build of layers up to {self.target} seeds stopped at the {self.layer}-seed layer "
                    f"(process {self.pid}, {self.age:,.0f} s ago); the next build continues it")
        share = self.done / self.size if self.size else 0.0
        return (f"building layers up to {self.target} seeds: the {self.layer}-seed layer is {share:.0%} done "
                f"(process {self.pid}, {time.time() - self.started:,.0f} s so far)")


def read_progress(folder: Path | str, pits: int | Variant, empty_capture: bool | None = None) -> BuildProgress | None:
    """The build under way (or stopped midway) in ``folder``, or None when there is none."""
    path = progress_path(Path(folder), pits, empty_capture)
    try:
        age = time.time() - path.stat().st_mtime
        raw = json.loads(path.read_text(encoding="utf-8") or "{}")
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        raw = {}
    if not isinstance(raw, dict):
        raw = {}

    def number(name: str, default: float = 0) -> Any:
        value = raw.get(name, default)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else default

    return BuildProgress(int(number("pid")), int(number("target", -1)), int(number("layer", -1)),
                         int(number("done")), int(number("size")), float(number("started", time.time() - age)), age)


class BuildLock:
    """The one build of a variant's layers in a folder, across processes: ``claim`` creates the
    ``.building`` file exclusively (taking over a stale one), ``report`` refreshes it with the progress,
    ``release`` removes it."""

    def __init__(self, folder: Path | str, pits: int | Variant, empty_capture: bool | None, target: int) -> None:
        self.variant = _as_variant(pits, empty_capture)
        self.path = progress_path(Path(folder), self.variant)
        self.target = target
        self.started = time.time()
        self._last = 0.0
        self.held = False

    def claim(self) -> bool:
        """True when this process now holds the build; False when another live build holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(2):
            try:
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            except FileExistsError:
                progress = read_progress(self.path.parent, self.variant)
                if progress is not None and not progress.is_stale:
                    return False
                self.path.unlink(missing_ok=True)  # a build that died midway: take over
                continue
            self.held = True
            self.report(-1, 0, 0, force=True)
            return True
        return False

    def report(self, layer: int, done: int, size: int, force: bool = False) -> None:
        now = time.time()
        if not self.held or (not force and now - self._last < PROGRESS_SECONDS):
            return
        self._last = now
        files.write_atomically(self.path, json.dumps({
            "pid": os.getpid(), "target": self.target, "layer": layer, "done": done, "size": size,
            "started": self.started}))

    def release(self) -> None:
        if self.held:
            self.path.unlink(missing_ok=True)
            self.held = False


def build_claimed(folder: Path | str, pits: int | Variant, empty_capture: bool | None, seeds: int,
                  progress: Progress | None = None, threads: int | None = None
                  ) -> tuple[LoadedTables, list[LayerBuilt]] | None:
    """``build_tables`` holding the variant's ``BuildLock`` (its progress in the ``.building`` file, the
    temporary files of builds killed midway removed); None when another process is building them now.
    ``pits``: Kalah's pits (with ``empty_capture``), or a Variant."""
    folder = Path(folder)
    variant = _as_variant(pits, empty_capture)
    lock = BuildLock(folder, variant, None, seeds)
    if not lock.claim():
        return None
    try:
        for layer in range(seeds + 1):
            files.remove_stale(variant_layer_path(folder, variant, layer))

        def report(layer: int, done: int, size: int) -> None:
            lock.report(layer, done, size)
            if progress is not None:
                progress(layer, done, size)

        return build_tables(folder, variant, seeds, report, threads)
    finally:
        lock.release()


class BackgroundBuild:
    """The first-use table set of one variant, built in a daemon thread on one core (``start``).  The core
    solves without the GIL, so a window or a search beside it keeps running.  When it is done the tables are
    what ``tables_for`` answers; ``error`` says why a build failed (it is not retried in this process)."""

    def __init__(self, folder: Path, variant: Variant, seeds: int) -> None:
        self.folder, self.variant, self.seeds = folder, variant, seeds
        self.thread = threading.Thread(target=self._run, name=f"{variant.stem} tables", daemon=True)
        self.done = threading.Event()
        self.built_here = False
        self.error: BaseException | None = None

    def start(self) -> "BackgroundBuild":
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            result = build_claimed(self.folder, self.variant, None, self.seeds, threads=1)
            if result is not None:
                self.built_here = True
                _cache[(self.folder, *self.variant.cache_key)] = result[0]
        except BaseException as error:  # a full disk, a folder that cannot be written: play without tables
            self.error = error
        finally:
            self.done.set()


def build_in_background(game: Any) -> BackgroundBuild | None:
    """Start building ``game``'s first-use table set in the configured folder unless it is there, being built
    or was tried by this process already; the build (or None when there is nothing to do)."""
    folder = directory()
    variant = variant_of(game)
    if folder is None or core.module() is None or variant is None:
        return None
    key = (folder, *variant.cache_key)
    with _builds_lock:
        if key in _builds:
            return _builds[key]
        seeds = game_auto_seeds(game)
        loaded = _cache.get(key)
        if seeds < 0 or (loaded is not None and loaded.top >= seeds):
            return None
        _builds[key] = build = BackgroundBuild(folder, variant, seeds)
    return build.start()


def tables_for(game: Any) -> Any | None:
    """The loaded tables of a Kalah or Oware variant from the configured folder (cached), or None when there
    are none.
    A cached set that stops below the first-use set is loaded again once a layer above it has appeared
    (a build in another process finished one): two file checks a call until then."""
    folder = directory()
    variant = variant_of(game)
    if folder is None or variant is None or core.module() is None:
        return None
    key = (folder, *variant.cache_key)
    loaded = _cache.get(key)
    if loaded is None or _has_grown(folder, variant, key, loaded):
        loaded = _cache[key] = load_tables(folder, variant)
        _next_layer_seen[key] = _stamp(variant_layer_path(folder, variant, loaded.top + 1))
    return loaded.tables if loaded.top >= 0 else None


def table_value(game: Any, tables: Any, state: Any) -> int | None:
    """The exact final margin of ``state`` for its side to move from endgame tables that hold its board (the
    stores' difference plus the table's margin of the seeds still in play), or None.  Works with any tables
    object offering ``lookup(own pits, other pits)`` and ``top`` (the most seeds a table holds)."""
    lookup = getattr(tables, "lookup", None)
    pits = getattr(state, "pits", None)
    stores = getattr(state, "stores", None)
    if lookup is None or pits is None or stores is None or game.is_terminal(state):
        return None
    top = getattr(tables, "top", None)
    if isinstance(top, int) and sum(pits) > top:
        return None
    half = len(pits) // 2
    mover = game.to_move(state)
    own, other = (pits[:half], pits[half:]) if mover == 0 else (pits[half:], pits[:half])
    try:
        rest = lookup(tuple(own), tuple(other))
    except (ValueError, IndexError, TypeError, KeyError):  # tables that do not hold this board after all
        return None
    if rest is None:
        return None
    return int(stores[mover] - stores[1 - mover] + rest)


def _stamp(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def _has_grown(folder: Path, variant: Variant, key: CacheKey, loaded: LoadedTables) -> bool:
    if loaded.top >= auto_seeds(variant if variant.game == "oware" else variant.pits) or progress_path(
            folder, variant).exists():
        return False
    stamp = _stamp(variant_layer_path(folder, variant, loaded.top + 1))
    return stamp is not None and stamp != _next_layer_seen.get(key)


def ensure(game: Any) -> Any | None:
    """``tables_for``, and, when the folder was given by ``configure(..., build=True)`` and the first-use set
    is not complete there, ``build_in_background`` (the engine plays on without them meanwhile)."""
    loaded = tables_for(game)
    if _auto_build and not os.environ.get(ENV):
        build_in_background(game)
    return loaded


def forget() -> None:
    """Drop the cached tables and the record of builds tried (in tests that change the folder)."""
    _cache.clear()
    _next_layer_seen.clear()
    with _builds_lock:
        _builds.clear()
