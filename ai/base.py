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
    """What bounds a search: any of depth (plies), nodes and wall-clock seconds; None means no bound."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None


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
