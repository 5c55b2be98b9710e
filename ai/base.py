"""The engine protocol: limits in, a result out, a cancel token polled along the way.

An engine is built for one rules object with its parameters (``Engine(game, **params)``) and checks in its
constructor that it suits the game.  ``search(state, limits, cancel, progress)`` returns a ``SearchResult``;
``progress`` (if given) is called with each completed iteration's result, which is how the background worker
reports depth, best move so far and nodes per second.
"""
from __future__ import annotations

import gc
import threading
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterator

from rules import Game, Move, State


_gc_lock = threading.Lock()
_gc_pauses = 0
_gc_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a search builds millions of short-lived objects.

    A best-first search's frontier holds millions of tuples; each generational collection walks them all while
    holding the GIL, so the window beside the search froze for 0.1 s, then seconds, as the frontier grew.  The
    search's objects hold no cycles, so reference counting frees them; the collector is off only while at least
    one search is inside this block (nested and concurrent searches count), and back on as it was after.
    """
    global _gc_pauses, _gc_was_enabled
    with _gc_lock:
        if _gc_pauses == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pauses -= 1
            if _gc_pauses == 0 and _gc_was_enabled:
                gc.enable()


class EngineError(ValueError):
    """An engine that does not suit a game, or an unknown engine or parameter."""


class SearchAborted(Exception):
    """Raised inside a search when its cancel token fires or its deadline passes; engines catch it."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What bounds a search: any of depth (plies), nodes and wall-clock seconds; None means no bound.

    ``deadline`` is the move's one deadline: the ``time.perf_counter()`` instant by which the caller must have
    its move, taken when the move was *requested* (``Limits.requested``), so that everything the player waits
    for (building the engine, loading tables, starting a worker, the search, the Python around it) is charged
    to the move.  Without it, ``time`` counts from the start of the search.  Engines stop early enough before
    it to return by it (``safety_margin``).
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    deadline: float | None = None

    @classmethod
    def requested(cls, time: float | None, at: float | None = None, depth: int | None = None,
                  nodes: int | None = None) -> "Limits":
        """The limits of a move requested now (or at the ``perf_counter`` instant ``at``): ``time`` seconds
        from that instant, whatever happens before the search starts."""
        if time is None:
            return cls(depth, nodes)
        start = _clock() if at is None else at
        return cls(depth, nodes, time, start + time)

    def deadline_from(self, start: float) -> float | None:
        """The instant the move is due: ``deadline`` if set, else ``time`` counted from ``start`` (or None)."""
        if self.deadline is not None:
            return self.deadline if self.time is None else min(self.deadline, start + self.time)
        return None if self.time is None else start + self.time


_clock = time.perf_counter

LATENESS_SAMPLES = 48
"""How many recent late stops the safety margin is measured from."""
FIRST_MARGIN = 0.010
"""The margin before any stop has been measured in this process (seconds)."""
MARGIN_FLOOR = 0.002
"""The smallest margin: an answer needs a little time to travel even on a quiet machine."""
MARGIN_PAD = 0.002
"""Added to the worst lateness measured."""
MARGIN_SHARE = 0.25
"""The margin never takes more than this share of a move's time."""


class Lateness:
    """How late searches have been in stopping: measured, so the safety margin follows the machine's load.

    A search told to stop at instant S notices it at its next clock check, unwinds, and its caller gets the
    move at instant R.  On a quiet machine R - S is a fraction of a millisecond; when other processes share
    the cores, a search is descheduled for whole time slices and R - S grows to 10-40 ms.  Every timed search
    that was stopped by its clock reports R - S here (``note``), and the next searches stop that much (the
    worst of the last ``LATENESS_SAMPLES``, plus ``MARGIN_PAD``) before their deadline (``margin``).  It is one
    record per process, shared by every engine and thread, because the load is the machine's.
    """

    def __init__(self) -> None:
        self._samples: list[float] = []
        self._lock = threading.Lock()

    def note(self, seconds: float) -> None:
        """Record one measured lateness (negative values, a stop noticed early, count as zero)."""
        with self._lock:
            self._samples.append(max(0.0, seconds))
            del self._samples[:-LATENESS_SAMPLES]

    def worst(self) -> float | None:
        """The worst recent lateness, or None before any was measured."""
        with self._lock:
            return max(self._samples) if self._samples else None

    def margin(self, seconds: float | None) -> float:
        """How long before a deadline a search of ``seconds`` should stop (within ``MARGIN_SHARE`` of them)."""
        worst = self.worst()
        margin = FIRST_MARGIN if worst is None else max(MARGIN_FLOOR, worst + MARGIN_PAD)
        return margin if seconds is None else min(margin, MARGIN_SHARE * max(0.0, seconds))

    def forget(self) -> None:
        with self._lock:
            self._samples.clear()


lateness = Lateness()
"""The process's record of how late stops have been (``Lateness``)."""


def seconds_to_stop(limits: Limits | None, own_time: float | None) -> float | None:
    """Seconds from now until a search should stop: ``limits.time`` (else the engine's ``own_time``), within
    the move's deadline (``Limits.deadline``), less the measured safety margin; None: no clock."""
    limits = limits or Limits()
    now = _clock()
    base = limits.time if limits.time is not None else own_time
    due = None if base is None else now + base
    if limits.deadline is not None:
        due = limits.deadline if due is None else min(due, limits.deadline)
    if due is None:
        return None
    seconds = due - now
    return max(0.0, seconds - lateness.margin(seconds))


class CancelToken:
    """Cooperative cancellation shared between the UI thread and a search.

    The UI calls ``cancel()``.  A Python search calls ``check()`` every few hundred nodes, which also yields
    the GIL (``time.sleep(0)``) so the window keeps its frame rate, and raises SearchAborted when cancelled or
    past the deadline; the compiled search (``ai.core``) runs without the GIL and reads ``flag`` in C.
    """

    __slots__ = ("_event", "flag", "deadline")

    def __init__(self, deadline: float | None = None) -> None:
        self._event = threading.Event()
        self.flag = bytearray(1)
        """One byte set to 1 by ``cancel``: what the compiled search polls, in C, with no Python call."""
        self.deadline = deadline
        """A ``time.perf_counter()`` instant after which ``check`` aborts, or None."""

    def cancel(self) -> None:
        self.flag[0] = 1
        self._event.set()

    @property
    def is_cancelled(self) -> bool:
        return self._event.is_set()

    def expired(self) -> bool:
        """True when cancelled or past the deadline (does not raise)."""
        return self._event.is_set() or (self.deadline is not None and time.perf_counter() >= self.deadline)

    def check(self) -> None:
        """Yield the GIL; raise SearchAborted if cancelled or out of time."""
        time.sleep(0)
        if self._event.is_set() or (self.deadline is not None and time.perf_counter() >= self.deadline):
            raise SearchAborted


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found.

    ``score`` is from the point of view of the player to move in the searched state (for a puzzle: the
    engine's own measure, e.g. stones stored).  ``depth`` is the last fully completed depth; ``pv`` the
    principal variation starting with ``move``; ``exhaustive`` is True when the score is proven exact.
    """

    move: Move | None
    score: float = 0.0
    depth: int = 0
    nodes: int = 0
    pv: tuple = ()
    time: float = 0.0
    exhaustive: bool = False
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0


ProgressCallback = Callable[[SearchResult], None]


class Engine(ABC):
    """Base class of every engine.  Subclasses set ``name`` and implement ``search``."""

    name: ClassVar[str]
    kind: ClassVar[str] = "adversary"
    """``adversary`` (two-player zero-sum games), ``single-agent`` (puzzles) or ``any``."""

    def __init__(self, game: Game, **params: Any) -> None:
        self.game = game
        self.params = params
        if self.kind == "adversary" and game.num_players != 2:
            raise EngineError(f"{self.name} plays two-player games; {game.title} is a one-player puzzle")
        if self.kind == "single-agent" and game.num_players != 1:
            raise EngineError(f"{self.name} solves one-player puzzles; {game.title} is a two-player game")

    @abstractmethod
    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        """Search ``state`` (never mutated) and return the best move found within the limits."""

    def __repr__(self) -> str:
        args = ",".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.name}:{args}" if args else self.name
