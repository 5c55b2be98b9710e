"""Building a variant's table layers: what it costs (``estimate``, ``check_room``), the build itself
(``build_tables``) and the one build per variant and folder across processes (``BuildLock``, ``read_progress``,
``build_claimed``).

A build holds ``{stem}.building``, a small JSON file saying which process builds up to which layer and how far
it is, refreshed at least every ``PROGRESS_SECONDS``.  The file is created whole or not at all
(``guarded.binary.create_exclusively``) and rewritten atomically, so one that is empty, unreadable, not a
regular file (a FIFO, a link to ``/dev/zero``, a link loop), names no live process, or is older than
``STALE_SECONDS`` (or stamped in the future) was not left by a live build: the next build takes it over.  It is
only ever read through ``guarded.binary.read_small`` (4 kB at most, regular files only).

Ctrl-C stops a build between chunks (``ai.tables.solvers``): the layers written before it are whole and kept,
the one being solved is dropped, the lock is removed, and ``BuildInterrupted`` says how far it got.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai.tables.games import Variant, as_variant
from ai.tables.layers import HEADER_BYTES, LoadedTables, load_tables, variant_layer_path, write_layer
from ai.tables.solvers import Progress
from guarded import binary, files
from guarded.files import FileProblem

STALE_SECONDS = 30.0
"""A ``.building`` file not refreshed for this long was left by a build that died: the next build takes over."""
PROGRESS_SECONDS = 1.0
"""A build refreshes its ``.building`` file about this often."""
MAX_PID = 1 << 22
"""Process ids above this (Linux's largest) are not a live build's."""


@dataclass(frozen=True)
class Estimate:
    entries: int
    disk_bytes: int
    seconds: float
    memory_bytes: int = 0
    """Memory the build holds at its peak: every layer up to the target, and the one being solved."""
    new_disk_bytes: int = 0
    """Disk the layers still to build take (the ``disk_bytes`` of every layer less those already there)."""

    def describe(self) -> str:
        return (f"{self.entries:,} positions, {self.disk_bytes / 1e6:,.1f} MB on disk and in memory, "
                f"about {self.seconds:,.0f} s on one core")


def estimate(pits: int | Variant, seeds: int, have: int = -1) -> Estimate:
    """What building layers ``have + 1 .. seeds`` costs (disk is every layer 0..seeds)."""
    variant = as_variant(pits, True)
    sizes = [variant.layer_size(s) for s in range(seeds + 1)]
    entries = sum(sizes[have + 1:])
    disk = sum(size + HEADER_BYTES for size in sizes)
    new_disk = sum(size + HEADER_BYTES for size in sizes[have + 1:])
    seconds = sum(sizes[s] / variant.build_rate(s) for s in range(have + 1, seeds + 1))
    # every layer is in memory (a copy of each file, the one being solved); Oware marks its boards in another
    memory = sum(sizes) + (max(sizes[have + 1:], default=0) if variant.kind.fill == 0 else 0)
    return Estimate(entries, disk, seconds, memory, new_disk)


def available_memory() -> int:
    """Bytes of memory a new allocation can have now (``MemAvailable``), or the machine's total."""
    try:
        for line in files.read_text("/proc/meminfo", 1 << 16).splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError, AttributeError):
        return 1 << 62


def free_disk(folder: Path) -> int:
    """Bytes free on the disk that holds ``folder`` (or its nearest existing parent)."""
    place = Path(folder).absolute()
    while not files.exists(place) and place != place.parent:
        place = place.parent
    try:
        return shutil.disk_usage(place).free
    except OSError:
        return 1 << 62


def check_room(folder: Path, variant: Variant, seeds: int, have: int = -1) -> str | None:
    """None when building layers ``have + 1 .. seeds`` fits this machine's free memory and the folder's free
    disk; else a one-line reason with the largest seed count that would fit."""
    cost = estimate(variant, seeds, have)
    memory, disk = available_memory(), free_disk(folder)
    if cost.memory_bytes <= memory and cost.new_disk_bytes <= disk:
        return None
    largest = seeds
    while largest > have:
        largest -= 1
        smaller = estimate(variant, largest, have)
        if smaller.memory_bytes <= memory and smaller.new_disk_bytes <= disk:
            break
    fits = (f"--seeds {largest} or fewer fits" if largest > have
            else "no further layer fits")
    if cost.memory_bytes > memory:
        return (f"layers 0..{seeds} need {cost.memory_bytes / 1e9:,.1f} GB of memory while they are built, and "
                f"this machine has {memory / 1e9:,.1f} GB available: {fits}")
    return (f"layers {have + 1}..{seeds} need {cost.new_disk_bytes / 1e9:,.1f} GB of disk, and {folder} has "
            f"{disk / 1e9:,.1f} GB free: {fits}")


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


class LayerBlocked(OSError):
    """A layer cannot be written because something that is not a regular file (a FIFO, a device, a folder, a
    link) holds its name: the build stops there rather than replace what it did not make.  ``loaded``: the layers
    below it; ``built``: what this build wrote."""

    def __init__(self, message: str, loaded: LoadedTables, built: list[LayerBuilt]) -> None:
        super().__init__(message)
        self.loaded = loaded
        self.built = built


class BuildInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a build: ``top`` is the largest layer whole on disk (-1: none), ``built`` what this build
    wrote before it stopped."""

    def __init__(self, top: int, built: list[LayerBuilt]) -> None:
        super().__init__(f"stopped with layers 0..{top} built")
        self.top = top
        self.built = built


def build_tables(folder: Path | str, variant: Variant, seeds: int, progress: Progress | None = None,
                 threads: int | None = None) -> tuple[LoadedTables, list[LayerBuilt]]:
    """Build (or complete) ``variant``'s layers 0..``seeds`` in ``folder``: verified layers on disk are reused,
    the rest are solved smallest first and each written atomically as soon as it is complete.  ``threads``:
    how many cores solve a layer (default: all of them).  BuildInterrupted on Ctrl-C."""
    threads = threads or os.cpu_count() or 1
    folder = Path(folder)
    loaded = load_tables(folder, variant, max_seeds=seeds)
    built: list[LayerBuilt] = []
    kind = variant.kind
    try:
        for layer in range(loaded.top + 1, seeds + 1):
            path = variant_layer_path(folder, variant, layer)
            found = files.status(path, follow=False)
            if found is not None and not stat.S_ISREG(found.st_mode):
                raise LayerBlocked(f"{path} is {files.file_kind(found.st_mode)}, not a table layer: the tables stop "
                                   f"below {layer} seeds (remove it, or choose another folder)", loaded, built)
            size = variant.layer_size(layer)
            started = time.perf_counter()
            out = bytearray([kind.fill]) * size
            sweeps, evaluated = kind.build_layer(loaded.tables, layer, out, size, threads, progress)
            seconds = time.perf_counter() - started
            write_layer(path, variant, None, layer, out)
            loaded.tables.add_layer(layer, out)
            loaded.buffers.append(out)
            built.append(LayerBuilt(layer, size, seconds, path, sweeps, evaluated))
    except KeyboardInterrupt:
        raise BuildInterrupted(loaded.top, built) from None
    return loaded, built


def progress_path(folder: Path, pits: int | Variant, empty_capture: bool | None = None) -> Path:
    return Path(folder) / f"{as_variant(pits, empty_capture).stem}.building"


def is_alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (one of another user's counts)."""
    if not 0 < pid < MAX_PID:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


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
    """Seconds since the file was last refreshed (negative: stamped in the future)."""
    problem: str | None = None
    """Why the file is not a live build's lock (unreadable, not a regular file, no process), or None."""

    @property
    def is_stale(self) -> bool:
        return self.problem is not None or not -STALE_SECONDS <= self.age <= STALE_SECONDS

    def describe(self) -> str:
        if self.problem is not None:
            return f"the build lock is not a live build's ({self.problem}); the next build replaces it"
        if self.age < -STALE_SECONDS:
            return (f"the build lock of process {self.pid} is stamped {-self.age:,.0f} s in the future, so it "
                    "cannot be a live build's; the next build replaces it")
        if self.is_stale:
            return (f"a build of layers up to {self.target} seeds stopped at the {self.layer}-seed layer "
                    f"(process {self.pid}, {self.age:,.0f} s ago); the next build continues it")
        share = self.done / self.size if self.size > 0 else 0.0
        running = max(0.0, time.time() - self.started)
        return (f"building layers up to {self.target} seeds: the {self.layer}-seed layer is {share:.0%} done "
                f"(process {self.pid}, {running:,.0f} s so far)")


def _whole(raw: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = raw.get(name, default)
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else default


def read_progress(folder: Path | str, pits: int | Variant, empty_capture: bool | None = None) -> BuildProgress | None:
    """The build under way (or stopped midway) in ``folder``, or None when there is none.  Never raises: a lock
    that cannot be read is described by ``BuildProgress.problem`` (and is stale)."""
    path = progress_path(Path(folder), pits, empty_capture)
    now = time.time()
    try:
        snapshot = binary.read_small(path)
    except FileNotFoundError:
        return None
    except FileProblem as unreadable:
        if not files.exists(path):
            return None  # the folder itself is missing or not a folder: there is no lock in it
        return BuildProgress(0, -1, -1, 0, 0, now, 0.0, f"{path.name} {unreadable}")
    age = now - (snapshot.mtime_ns / 1e9)
    try:
        raw = json.loads(bytes(snapshot.data or b"").decode("utf-8") or "null")
    except (ValueError, RecursionError):
        raw = None
    if not isinstance(raw, dict):
        return BuildProgress(0, -1, -1, 0, 0, now - age, age, f"{path.name} holds no build's progress")
    pid, target = _whole(raw, "pid", 0, 0, MAX_PID), _whole(raw, "target", -1, -1, 1000)
    started = raw.get("started")
    if not isinstance(started, (int, float)) or isinstance(started, bool) or not math.isfinite(started):
        started = now - age
    problem = None
    if target < 0:
        problem = f"{path.name} names no layer to build"
    elif not is_alive(pid):
        problem = f"{path.name} names no running process"
    return BuildProgress(pid, target, _whole(raw, "layer", -1, -1, 1000),
                         _whole(raw, "done", 0, 0, 1 << 62), _whole(raw, "size", 0, 0, 1 << 62),
                         float(started), age, problem)


class BuildLock:
    """The one build of a variant's layers in a folder, across processes: ``claim`` creates the
    ``.building`` file, whole, only if there is none (taking over a stale one), ``report`` refreshes it with
    the progress, ``release`` removes it."""

    def __init__(self, folder: Path | str, pits: int | Variant, empty_capture: bool | None, target: int) -> None:
        self.variant = as_variant(pits, empty_capture)
        self.path = progress_path(Path(folder), self.variant)
        self.target = target
        self.started = time.time()
        self._last = 0.0
        self.held = False

    def _content(self, layer: int, done: int, size: int) -> str:
        return json.dumps({"pid": os.getpid(), "target": self.target, "layer": layer, "done": done, "size": size,
                           "started": self.started})

    def claim(self) -> bool:
        """True when this process now holds the build; False when another live build holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(2):
            if binary.create_exclusively(self.path, self._content(-1, 0, 0).encode("utf-8")):
                self.held = True
                self._last = time.time()
                return True
            progress = read_progress(self.path.parent, self.variant)
            if progress is not None and not progress.is_stale:
                return False
            self.path.unlink(missing_ok=True)  # a build that died midway, or not a lock at all: take over
        return False

    def report(self, layer: int, done: int, size: int, force: bool = False) -> None:
        now = time.time()
        if not self.held or (not force and now - self._last < PROGRESS_SECONDS):
            return
        self._last = now
        files.write_atomically(self.path, self._content(layer, done, size))

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
    variant = as_variant(pits, empty_capture)
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
