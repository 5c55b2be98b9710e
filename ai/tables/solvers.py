"""Solving one table layer with the compiled core, in chunks: Kalah's retrograde pass and Oware's value
iteration.  Each game's description (``ai.tables.games``) names its solver.

The core solves a chunk of ``CHUNK`` entries without the GIL, ``threads`` chunks at a time; progress is reported
and Ctrl-C is seen between chunks, so a build stops within a fraction of a second (a chunk of the slowest layers
takes about half a second on one core): the chunks not started are dropped, the ones running finish, and the
layer being solved is not written.
"""
from __future__ import annotations

from typing import Any, Callable

CHUNK = 1 << 17
"""Entries solved per call into the core: progress is reported, and Ctrl-C seen, between chunks (131,072
entries: under 0.1 s for Kalah, about 0.5 s for the slowest Oware layers)."""

Progress = Callable[[int, int, int], None]
"""``progress(seeds, entries done in this layer, entries of the layer)``."""
LayerBuilder = Callable[[Any, int, bytearray, int, int, "Progress | None"], "tuple[int, int]"]
"""``build(tables, layer, out, size, threads, progress)`` -> (passes, entries evaluated)."""


def run_chunks(work: Callable[[int, int], Any], size: int, threads: int,
               on_done: Callable[[int, Any], None]) -> None:
    """``work(start, stop)`` over the layer's chunks, ``threads`` at a time (the core releases the GIL);
    ``on_done(entries, result)`` after each chunk, in the calling thread.  An exception there (Ctrl-C) drops
    the chunks not started and waits only for the ones running."""
    chunks = [(start, min(size, start + CHUNK)) for start in range(0, size, CHUNK)]
    if threads <= 1 or len(chunks) == 1:
        for start, stop in chunks:
            on_done(stop - start, work(start, stop))
        return
    from concurrent.futures import ThreadPoolExecutor, as_completed

    pool = ThreadPoolExecutor(max_workers=threads)
    try:
        futures = {pool.submit(work, start, stop): stop - start for start, stop in chunks}
        for future in as_completed(futures):
            on_done(futures[future], future.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def build_kalah_layer(tables: Any, layer: int, out: bytearray, size: int, threads: int,
                      progress: Progress | None) -> tuple[int, int]:
    """Solve a Kalah layer (``out`` filled with 0x80, "unknown") in one retrograde pass.  Threads may solve the
    same same-layer child twice; both write the same byte, so the race costs time, never correctness."""
    done = 0

    def finished(entries: int, _: Any) -> None:
        nonlocal done
        done += entries
        if progress is not None:
            progress(layer, done, size)

    run_chunks(lambda start, stop: tables.build(layer, out, start, stop), size, threads, finished)
    return 1, size


def build_oware_layer(tables: Any, layer: int, out: bytearray, size: int, threads: int,
                      progress: Progress | None) -> tuple[int, int]:
    """Value iteration from 0 over one Oware layer (``out`` filled with 0): passes over the entries marked
    dirty (all at first; an entry that changes marks the boards that move to it), then a full sweep; when that
    sweep changes something (a mark lost to a race between the threads), every entry is marked again.  Progress
    counts entries evaluated against what is known to be left (the marked entries and the closing sweep), so it
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
            run_chunks(lambda start, stop: tables.solve_pass(layer, out, dirty, start, stop), size, threads,
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

        run_chunks(lambda start, stop: tables.sweep(layer, out, start, stop), size, threads, swept)
        evaluated_total += size
        if changed[0] == 0:
            return sweeps, evaluated_total
        dirty[:] = b"\x01" * size
