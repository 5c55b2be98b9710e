"""Kalah and Oware endgame tables on disk, built by the compiled core (``kalah_tables.pxi``,
``oware_tables.pxi``): one file per seed count, and the first use of them by the engines.

A table layer of ``s`` seeds holds, for every board of ``s`` seeds in the pits (stores excluded), the exact best
margin of those seeds for the side to move.  The package is split by job:

- ``games``: what differs between the games with tables, one description per game (``TABLE_GAMES``: names,
  file labels, the compiled tables and layer solver, the build rate, the seeds a game holds); a ``Variant`` is
  one game variant's tables;
- ``layers``: the file format (``{stem}-s{seeds}.sctable``: a 64-byte header and one signed byte per board),
  verified on load and copied into memory through ``guarded.binary``, written atomically;
- ``solvers``: solving one layer in chunks with the compiled core (Ctrl-C is seen between chunks);
- ``builds``: what a build costs and whether it fits (``estimate``, ``check_room``), the build, and the one build
  per variant and folder across processes (``BuildLock``, ``read_progress``, ``build_claimed``);
- this module: where the tables are (``configure``, ``$STONECAVE_TABLES``), the loaded tables per variant
  (``tables_for``), the first-use build in the background (``ensure``) and a position's value from the tables
  (``table_value``).

The folder is the caller's (``stonecave`` puts it in the settings folder, ``<config_dir>/tables``); engines
find it through ``configure`` or ``$STONECAVE_TABLES``.  This package never imports ``game`` or arcade.

*First use*: an engine that asks for tables (``pvs:tables=true``, the Strongest presets) in a folder given
by ``configure`` starts ``build_in_background``: the layers up to ``auto_seeds`` (6 pits: 0..14 seeds, 9.7 MB,
a few seconds on one core) are built in a daemon thread on one core (the core releases the GIL), and the engine
plays without them until they are done, then with them from its next search (``tables_for``).  One build runs
per variant and folder, across processes (``builds``); completed layers are kept and reused.  A folder named by
``$STONECAVE_TABLES`` (tests, benchmarks) is only read: nothing is built there on its own.

*Oware* (``oware-{variant}-s{seeds}.sctable``, the variant naming the grand slam and sowing rules, e.g.
``oware-abapa-s12.sctable``): every board of the 12 houses, the best margin of its seeds for the side to move,
as if no earlier position repeats and with play that never captures again worth 0 (``oware_tables.pxi``).  A
layer is built by value iteration from 0 in passes over the entries that may change, ended by one full sweep that
changes nothing; ``LayerBuilt.sweeps`` counts the passes.  The first-use set is every layer up to about 10 MB
(0..14 seeds, 9.7 M entries).
"""
from __future__ import annotations

import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import ai.core as core
from ai.tables.builds import (
    PROGRESS_SECONDS, STALE_SECONDS, BuildInterrupted, BuildLock, BuildProgress, Estimate, LayerBlocked, LayerBuilt,
    available_memory, build_claimed, build_tables, check_room, estimate, free_disk, progress_path, read_progress,
)
from ai.tables.games import (
    KALAH_BUILD_RATE as BUILD_RATE, OWARE_BUILD_RATES, OWARE_SLAM_NAMES, TABLE_GAMES, TableGame, Variant,
    as_variant, kalah_variant, oware_variant, rule_name, two_row_value, variant_of,
)
from ai.tables.layers import (
    FORMAT_VERSION, HEADER, HEADER_BYTES, MAGIC, LoadedTables, check_layer, folder_problem, layer_path, layer_size,
    load_kalah_tables, load_oware_tables, load_tables, variant_layer_path, write_layer,
)
from ai.tables.solvers import CHUNK, Progress
from guarded import binary, files

__all__ = [
    "AUTO_BYTES", "BUILD_RATE", "CHUNK", "ENV", "FORMAT_VERSION", "FULL_BYTES", "GROWN_DISK_LEFT", "HEADER",
    "HEADER_BYTES", "MAGIC", "OWARE_BUILD_RATES", "OWARE_SLAM_NAMES", "PROGRESS_SECONDS", "STALE_SECONDS",
    "TABLE_GAMES", "BackgroundBuild", "BuildInterrupted", "BuildLock", "BuildProgress", "Estimate", "LayerBlocked",
    "LayerBuilt", "LoadedTables", "Progress", "TableGame", "Variant", "as_variant", "auto_seeds", "available_memory",
    "build_claimed", "build_in_background", "build_kalah_tables", "build_oware_tables", "build_tables", "check_layer",
    "check_room", "configure", "directory", "ensure", "estimate", "folder_problem", "forget", "free_disk",
    "first_use_stages", "game_auto_seeds", "grown_seeds", "has_grown", "kalah_variant", "layer_path", "layer_size",
    "load_kalah_tables", "load_oware_tables", "load_tables", "oware_variant", "progress_path", "read_progress",
    "rule_name", "table_value", "tables_for", "tables_up_to", "two_row_value", "variant_layer_path", "variant_of",
    "write_layer",
]

ENV = "STONECAVE_TABLES"
AUTO_BYTES = 10_000_000
"""The table set built on first use, in the background, without asking: every layer up to the largest seed count
whose layers together take at most this many bytes (Kalah with 6 pits and Oware alike: 0..14 seeds, 9.7 MB; a
few seconds on one core).  Bigger sets are the player's choice: ``stonecave tables build``."""
GROWN_DISK_LEFT = 2_000_000_000
"""The free disk a first use's second stage (``TableGame.grown_bytes``) leaves at least, or it is not built."""
FULL_BYTES = 100_000_000
"""The least set ``stonecave tables build`` makes when no ``--seeds`` is given: every layer up to this many bytes,
or the set the first use grows to where that is bigger (``game.tables_command.build_seeds``; 6-pit Kalah and Oware:
0..20 seeds, 225.8 MB, rather than this budget's 0..18, 86.5 MB)."""

_directory: Path | Callable[[], Path] | None = None
_auto_build = False
CacheKey = tuple[Path, Any, Any]
"""(folder, pits, empty_capture) for Kalah, (folder, "oware", variant code) for Oware: ``Variant.cache_key``."""
_cache: dict[CacheKey, LoadedTables] = {}
_next_layer_seen: dict[CacheKey, int | None] = {}
_cut: dict[tuple[Any, ...], tuple[Any, Any]] = {}
"""``tables_up_to``'s sets: (folder, variant key, seeds) -> (the whole set they were cut from, the cut set)."""
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


@lru_cache(maxsize=None)
def auto_seeds(pits: int | Variant, total: int | None = None, budget: int | None = None) -> int:
    """The largest seed count whose layers 0..it fit ``budget`` bytes (default the first-use budget,
    ``AUTO_BYTES``; never above ``total``, the game's seeds): the set built on first use, or with
    ``FULL_BYTES`` the one ``stonecave tables build`` makes by default.  ``pits``: Kalah's pits, or a Variant."""
    variant = as_variant(pits, True)
    limit = AUTO_BYTES if budget is None else budget
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
    """``auto_seeds`` of a game with tables (the seeds on its board cap it); -1 for a game without them."""
    variant = variant_of(game)
    if variant is None:
        return -1
    return auto_seeds(variant, variant.kind.board_seeds(game), budget)


def grown_seeds(variant: Variant, total: int | None = None) -> int:
    """The largest seed count of the set the first use grows to (``TableGame.grown_bytes``: Oware 0..22), or the
    first-use set's when the game has no second stage; ``total`` (the game's seeds) caps it."""
    first = auto_seeds(variant, total)
    grown = variant.kind.grown_bytes
    return max(first, auto_seeds(variant, total, grown)) if grown else first


def first_use_stages(game: Any) -> tuple[int, ...]:
    """The seed counts the first use builds up to, in order: the first-use set, the sets of the game's
    ``grown_steps`` between, then the biggest it grows to (Kalah: (14, 20); Oware: (14, 20, 22)); () for a game
    without tables."""
    variant = variant_of(game)
    if variant is None:
        return ()
    total = variant.kind.board_seeds(game)
    first, grown = auto_seeds(variant, total), grown_seeds(variant, total)
    if grown <= first:
        return (first,)
    steps = {auto_seeds(variant, total, budget) for budget in variant.kind.grown_steps}
    return (first, *sorted(seeds for seeds in steps if first < seeds < grown), grown)


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


class BackgroundBuild:
    """The first-use table set of one variant, built in a daemon thread on one core (``start``), then the bigger
    set it grows to where the game has one (``stages``: the seed counts, in order).  The core solves without the
    GIL, so a window or a search beside it keeps running; the second stage runs at the lowest priority.  When a
    stage is done its tables are what ``tables_for`` answers; ``error`` says why a build failed (it is not retried
    in this process; the stages done are kept), and a later stage that does not fit the machine's free memory or
    the folder's free disk is skipped (``skipped`` says why).  ``first``: the first-use set's seeds; every stage
    above it is a later one, also when the first-use set was on disk already and is not among ``stages``."""

    def __init__(self, folder: Path, variant: Variant, stages: int | tuple[int, ...], first: int | None = None) -> None:
        self.folder, self.variant = folder, variant
        self.stages = (stages,) if isinstance(stages, int) else tuple(stages)
        self.first = self.stages[0] if first is None else first
        self.seeds = self.stages[-1]
        self.thread = threading.Thread(target=self._run, name=f"{variant.stem} tables", daemon=True)
        self.done = threading.Event()
        self.built_here = False
        self.error: BaseException | None = None
        self.skipped: str | None = None

    def start(self) -> "BackgroundBuild":
        self.thread.start()
        return self

    def _no_room(self, seeds: int, have: int) -> str | None:
        """Why the layers ``have + 1 .. seeds`` are not built unasked: they do not fit, or would leave the folder's
        disk with less than ``GROWN_DISK_LEFT`` free."""
        reason = check_room(self.folder, self.variant, seeds, have)
        if reason is not None:
            return reason
        left = free_disk(self.folder) - estimate(self.variant, seeds, have).new_disk_bytes
        if left < GROWN_DISK_LEFT:
            return (f"layers {have + 1}..{seeds} would leave {max(0, left) / 1e9:.1f} GB free on the disk of "
                    f"{self.folder} (at least {GROWN_DISK_LEFT / 1e9:.0f} GB must stay free)")
        return None

    def _run(self) -> None:
        key = (self.folder, *self.variant.cache_key)
        try:
            for seeds in self.stages:
                have = _cache[key].top if key in _cache else -1
                if have >= seeds:
                    continue
                if seeds > self.first:  # a bigger set only where it fits, on top of the first-use one
                    self.skipped = self._no_room(seeds, have)
                    if self.skipped is not None:
                        return
                    _lowest_priority()  # minutes of a core: the window and the searches come first
                result = build_claimed(self.folder, self.variant, None, seeds, threads=1)
                if result is None:  # another process is building them: it will write them
                    return
                self.built_here = True
                _cache[key] = result[0]
        except BaseException as error:  # a full disk, a folder that cannot be written: play without tables
            self.error = error
        finally:
            self.done.set()


def _lowest_priority() -> None:
    """Give the calling thread the lowest scheduling priority where the system lets a thread have its own (Linux:
    a thread is scheduled by its own id); elsewhere nothing changes."""
    if hasattr(os, "setpriority") and hasattr(threading, "get_native_id"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except OSError:
            pass


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
        loaded = _cache.get(key)
        every = first_use_stages(game)
        stages = tuple(seeds for seeds in every if loaded is None or loaded.top < seeds)
        if not stages:
            return None
        _builds[key] = build = BackgroundBuild(folder, variant, stages, first=every[0])
    return build.start()


def tables_for(game: Any, reload: bool = True) -> Any | None:
    """The loaded tables of a Kalah or Oware variant from the configured folder (cached), or None when there
    are none.
    A cached set that stops below the set the first use grows to is loaded again once a layer above it has
    appeared (a build in another process finished one): two file checks a call until then (``has_grown``).
    ``reload=False``: the cached set as it is (a search that must not wait for a load; see
    ``ai.table_loading.tables_by``)."""
    folder = directory()
    variant = variant_of(game)
    if folder is None or variant is None or core.module() is None:
        return None
    key = (folder, *variant.cache_key)
    loaded = _cache.get(key)
    if loaded is None or (reload and _has_grown(folder, variant, key, loaded)):
        loaded = _cache[key] = load_tables(folder, variant)
        _next_layer_seen[key] = binary.stamp(variant_layer_path(folder, variant, loaded.top + 1))
    return loaded.tables if loaded.top >= 0 else None


def tables_up_to(game: Any, seeds: int) -> Any | None:
    """``tables_for(game)`` cut to the layers 0..``seeds`` (``pvs:table_seeds=N``: what a bigger set is worth,
    measured against a smaller one in the same folder).  A cut shares the cached set's layers in memory (nothing
    is read again, so the search that asks does not wait) and is kept while the cached set stays the same."""
    loaded = tables_for(game, reload=False)  # as the search got it: a grown set reloads in the background
    folder, variant = directory(), variant_of(game)
    if loaded is None or loaded.top <= seeds or folder is None or variant is None:
        return loaded
    key = (folder, *variant.cache_key, seeds)
    held = _cut.get(key)
    if held is None or held[0] is not loaded:
        whole = _cache.get(key[:-1])                 # the set tables_for answered from (its layers' bytes)
        if whole is None or whole.tables is not loaded:   # forgotten or reloaded meanwhile: read the cut
            cut = load_tables(folder, variant, max_seeds=seeds).tables
        else:
            cut = variant.new_tables()
            for layer, entries in enumerate(whole.buffers[:seeds + 1]):
                cut.add_layer(layer, entries)
        held = _cut[key] = (loaded, cut)
    return held[1] if held[1].top >= 0 else None


def table_value(game: Any, tables: Any, state: Any) -> int | None:
    """The exact final margin of ``state`` for its side to move from endgame tables that hold its board, or None:
    the game's own value rule (``TableGame.value``; for a game without an entry, the two-row rule Kalah and
    Oware share, ``two_row_value``).  Works with any tables object offering ``lookup(own pits, other pits)``
    and ``top`` (the most seeds a table holds)."""
    kind = TABLE_GAMES.get(getattr(game, "name", None))  # type: ignore[arg-type]
    return (two_row_value if kind is None else kind.value)(game, tables, state)


def has_grown(game: Any) -> bool:
    """Whether the cached tables of ``game``'s variant are out of date: a layer above them has appeared on disk."""
    folder, variant = directory(), variant_of(game)
    if folder is None or variant is None:
        return False
    key = (folder, *variant.cache_key)
    loaded = _cache.get(key)
    return loaded is not None and _has_grown(folder, variant, key, loaded)


def _has_grown(folder: Path, variant: Variant, key: CacheKey, loaded: LoadedTables) -> bool:
    if loaded.top >= grown_seeds(variant) or files.exists(progress_path(folder, variant)):
        return False
    stamp = binary.stamp(variant_layer_path(folder, variant, loaded.top + 1))
    return stamp is not None and stamp != _next_layer_seen.get(key)


def ensure(game: Any, reload: bool = True) -> Any | None:
    """``tables_for``, and, when the folder was given by ``configure(..., build=True)`` and the first-use set
    (or the set it grows to) is not complete there, ``build_in_background`` (the engine plays on with what there
    is meanwhile)."""
    loaded = tables_for(game, reload)
    if _auto_build and not os.environ.get(ENV):
        build_in_background(game)
    return loaded


def forget() -> None:
    """Drop the cached tables and the record of builds tried (in tests that change the folder)."""
    _cache.clear()
    _next_layer_seen.clear()
    _cut.clear()
    with _builds_lock:
        _builds.clear()
