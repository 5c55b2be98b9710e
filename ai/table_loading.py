"""The endgame tables a search plays with, loaded beside it: a move's deadline never waits for a load.

``use_tables`` hands a compiled Kalah or Oware kernel the tables of ``ai.tables``' folder; ``tables_by`` gets them
without making the search wait longer than it may (``TABLE_WAIT`` of its time): a first load, or a reload after a
build in another process grew the set on disk, runs on one background thread, and the search plays meanwhile with
what is in memory.  Used by ``ai.search.PVSEngine``, ``ai.perfect`` and ``ai.analysis``.
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from rules import Game

TABLE_WAIT = 0.25
"""The share of a timed search's time it may wait for endgame tables still loading (the rest is for searching;
the load goes on, and the next move has them)."""


def use_tables(kernel: Any, build: bool = False, by: float | None = None, seeds: int | None = None) -> Any | None:
    """Make a compiled Kalah or Oware kernel answer from the endgame tables in ``ai.tables.directory()`` (the loaded
    tables, or None when there are none or the kernel cannot use them: the search then runs as without).
    ``build``: start building the first-use set in the background when it is not there (``ai.tables.ensure``).
    ``by``: a ``perf_counter`` instant; tables not loaded by then are left loading in the background and this
    search runs without them (``tables_by``); None waits for them.  ``seeds``: only the layers up to it
    (``ai.tables.tables_up_to``)."""
    core = getattr(kernel, "core", None)
    if core is None or not hasattr(core, "use_tables"):
        return None
    loaded = tables_by(kernel.game, build, by)
    if loaded is not None and seeds is not None and loaded.top > seeds:
        from ai import tables

        loaded = tables.tables_up_to(kernel.game, seeds)
    if loaded is not None:
        core.use_tables(loaded)
    return loaded


_loads: dict[tuple, Future] = {}
_loads_lock = threading.Lock()
_loader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tables-load")


def tables_by(game: Game, build: bool = False, by: float | None = None) -> Any | None:
    """``ai.tables.ensure(game)`` (``build``) or ``tables_for(game)``, loaded in a background thread and waited
    for until ``by`` at most (None: until loaded).  Loading verifies every layer from disk: about 10 ms on a
    quiet machine, ten or twenty times that on a busy one, so a move's deadline must not wait on it; a load
    that is not done in time goes on, and a later search (the next move) uses its tables.  Tables in memory are
    answered at once; when more layers have appeared on disk since (a build in another process ended), they are
    loaded again in the background and the search plays with those in memory meanwhile."""
    from ai import tables

    folder, variant = tables.directory(), tables.variant_of(game)
    if folder is None or variant is None:
        return tables.ensure(game) if build else tables.tables_for(game)  # none: at once
    key = (folder, *variant.cache_key)  # one load per variant (a search asking to build: the next, once cached)

    def in_memory() -> Any | None:  # what the search may use without waiting: the cached set as it is
        if key not in tables._cache:
            return None
        return tables.ensure(game, reload=False) if build else tables.tables_for(game, reload=False)

    if key in tables._cache and not tables.has_grown(game):
        return in_memory()  # at once
    # not loaded yet, or more layers on disk (a build elsewhere ended): loaded beside the search
    with _loads_lock:
        future = _loads.get(key)
        if future is None or future.done():
            future = _loads[key] = _loader.submit(tables.ensure if build else tables.tables_for, game)
    wait = None if by is None else by - time.perf_counter()
    if wait is not None and wait <= 0 and not future.done():
        return in_memory()
    try:
        loaded = future.result(timeout=wait)
        return tables.ensure(game) if build else loaded  # in memory now: at once, and a build starts if needed
    except FutureTimeout:
        return in_memory()
    finally:
        with _loads_lock:
            if future.done() and _loads.get(key) is future:
                del _loads[key]  # a failed load is tried again next time, as ``tables_for`` would
