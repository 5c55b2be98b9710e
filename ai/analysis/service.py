"""The analysis as a service: ``Analysis`` runs one in the background, ``Shelf`` shares it between everyone who
asks about the same position, and ``analyse`` runs one to the end in the caller's thread.

One analysis of a position serves every reader: the analysis panel, the hint (``advice`` of its snapshot), the
evaluation graph (the best move's value is the position's point) and the review.  A reader that asks a
``Shelf`` for a position already being analysed gets that analysis, not a second search.
"""
from __future__ import annotations

import math
import time
from dataclasses import replace

from ai.analysis.engine import MAX_PLIES, SEARCH_MEMORY, AnalysisEngine
from ai.analysis.model import MoveValue, Snapshot
from ai.base import CancelToken, Limits, SearchResult
from ai.evaluators import as_margin
from ai.worker import Failed, Finished, Progress, SearchWorker
from rules import Game, Move, State


class Analysis:
    """Analyses one position in the background (an ``ai.worker.SearchWorker``, cancellable).

    ``seconds``: how long (None: until every move is proven, the depth limit, or ``cancel``); ``depth``: the
    deepest iteration (None: ``max_depth``).  ``poll`` never blocks; ``wait`` does (for the console and tests,
    never a window's thread).
    """

    def __init__(self, game: Game, state: State, seconds: float | None = None, memory: float = SEARCH_MEMORY,
                 max_depth: int = MAX_PLIES, depth: int | None = None) -> None:
        if seconds is not None and not seconds > 0:
            raise ValueError(f"an analysis needs a positive number of seconds or None (no limit), not {seconds!r}")
        self.game = game
        self.state = state
        self.seconds = seconds
        self.depth = depth
        # No watchdog: on a busy machine the first snapshot (the engine and its tables built, the exact values,
        # the first iteration) can come after a short deadline, and the analysis promises a value for every move.
        self.worker = SearchWorker(AnalysisEngine(game, memory, max_depth), state, Limits(depth=depth, time=seconds),
                                   watchdog=False)
        self._snapshot: Snapshot | None = None
        self.error: str | None = None
        self.started = time.monotonic()
        self.worker.start()

    def poll(self) -> Snapshot | None:
        """The latest snapshot (None before the first); never blocks."""
        for message in self.worker.poll():
            if isinstance(message, Progress):
                self._take(message.result, finished=False)
            elif isinstance(message, Finished):
                self._take(message.result, finished=True)
            elif isinstance(message, Failed):
                self.error = message.error
                self._snapshot = replace(self._snapshot or self._unscored(), finished=True, error=message.error)
        return self._snapshot

    def cancel(self) -> None:
        """Stop the analysis; returns at once (the next ``poll`` gives the last snapshot, finished)."""
        self.worker.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the analysis is over or ``timeout`` seconds pass; True when over.  Not for a window."""
        return self.worker.wait(timeout)

    @property
    def done(self) -> bool:
        return self.worker.done

    @property
    def elapsed(self) -> float:
        """Seconds since the analysis started."""
        return time.monotonic() - self.started

    def covers(self, seconds: float | None) -> bool:
        """Whether this analysis, left to run, goes at least as far as one of ``seconds`` (None: no limit)."""
        if self.error or self.depth is not None or self.worker.token.is_cancelled:
            return False
        return self.seconds is None or (seconds is not None and self.seconds >= seconds)

    def _take(self, result: SearchResult, finished: bool) -> None:
        snapshot = result.info.get("snapshot")
        if not isinstance(snapshot, Snapshot):
            snapshot = self._snapshot or self._unscored()
        if finished and (not snapshot.finished or snapshot.working is not None):
            snapshot = replace(snapshot, finished=True, working=None)
        self._snapshot = snapshot

    def _unscored(self) -> Snapshot:
        return Snapshot(tuple(MoveValue(move, math.nan, False, 0) for move in self.game.legal_moves(self.state)),
                        0, False)


class Shelf:
    """The analyses of one game's positions, shared: the panel and the hint that ask about the same position get
    the same ``Analysis``.  ``take`` counts a reader in, ``drop`` counts it out; the last reader out cancels the
    analysis and the shelf keeps only its last snapshot (the ``keep`` latest ones: an analysis's search table is
    large, a snapshot small), so the graph can still show what it found."""

    def __init__(self, game: Game, keep: int = 8) -> None:
        self.game = game
        self.keep = keep
        self._held: dict[int, int] = {}
        self._analyses: list[Analysis] = []
        """The analyses someone reads."""
        self._said: list[tuple[State, Snapshot]] = []
        """The last snapshots of the analyses no one reads any more, oldest first."""

    def snapshots(self) -> list[tuple[State, Snapshot]]:
        """What the analyses have said: (position, latest snapshot), the ones done with first."""
        found = [(analysis.state, analysis.poll()) for analysis in self._analyses]
        return self._said + [(state, snapshot) for state, snapshot in found if snapshot is not None]

    def latest(self, state: State) -> Snapshot | None:
        """The deepest snapshot of ``state`` the shelf has (None: none)."""
        snapshots = [snapshot for position, snapshot in self.snapshots() if position == state]
        return max(snapshots, key=lambda snapshot: snapshot.depth, default=None)

    def find(self, state: State, seconds: float | None) -> Analysis | None:
        """An analysis of ``state`` being read that, left to run, goes at least as far as one of ``seconds``
        (None: unlimited)."""
        for analysis in reversed(self._analyses):
            if analysis.state == state and analysis.covers(seconds):
                return analysis
        return None

    def take(self, state: State, seconds: float | None = None, depth: int | None = None) -> Analysis:
        """The analysis of ``state`` already under way when it goes at least as far, else a new one (``depth``:
        a new one to that depth, deterministic, never shared)."""
        analysis = self.find(state, seconds) if depth is None else None
        if analysis is None:
            analysis = Analysis(self.game, state, seconds, depth=depth)
            self._analyses.append(analysis)
        self._held[id(analysis)] = self._held.get(id(analysis), 0) + 1
        return analysis

    def drop(self, analysis: Analysis) -> None:
        """One reader is done with ``analysis``; the last one out cancels it (its last snapshot stays)."""
        count = self._held.get(id(analysis), 0) - 1
        if count > 0:
            self._held[id(analysis)] = count
            return
        self._held.pop(id(analysis), None)
        analysis.cancel()
        if analysis in self._analyses:
            self._analyses.remove(analysis)
            snapshot = analysis.poll()
            if snapshot is not None:
                self._said = self._said[-(self.keep - 1):] + [(analysis.state, snapshot)] if self.keep > 1 else []

    def clear(self) -> None:
        """Cancel every analysis on the shelf and forget what they said."""
        for analysis in self._analyses:
            analysis.cancel()
        self._analyses, self._held, self._said = [], {}, []


class Analyst:
    """Analyses positions of one game one after another in the caller's thread, its search table kept from one
    to the next (the review goes through every position of a game; the positions share most of their lines)."""

    def __init__(self, game: Game, memory: float = SEARCH_MEMORY) -> None:
        self.game = game
        self._engine = AnalysisEngine(game, memory)

    def analyse(self, state: State, limits: Limits, cancel: CancelToken | None = None) -> Snapshot:
        """The analysis of ``state`` within ``limits`` (blocking); ``Limits(depth=d)`` alone is deterministic."""
        if self.game.is_terminal(state):
            return Snapshot((), 0, True)
        snapshot = self._engine.search(state, limits, cancel).info["snapshot"]
        assert isinstance(snapshot, Snapshot)
        return snapshot


def analyse(game: Game, state: State, limits: Limits, cancel: CancelToken | None = None,
            memory: float = SEARCH_MEMORY) -> Snapshot:
    """The analysis of ``state`` within ``limits``, in the caller's thread (blocking): the console, the tests.
    ``Limits(depth=d)`` alone is deterministic."""
    return Analyst(game, memory).analyse(state, limits, cancel)


def advice(game: Game, state: State, snapshot: Snapshot, move: Move | None = None) -> SearchResult | None:
    """The hint read from an analysis: its best move (or ``move``) and that move's value, as a ``SearchResult``
    (its ``info``: ``snapshot``, ``move_value`` (the ``MoveValue``), ``alternatives`` (the other moves' scores),
    ``expectation``, ``source``, and when the value is exact, ``proven`` and ``value`` the margin).  None when
    that move is not scored yet."""
    best = snapshot.best if move is None else snapshot.of(move)
    if best is None or not best.scored:
        return None
    alternatives: dict[Move, float] = {value.move: value.score for value in snapshot.moves
                                       if value.scored and value.move != best.move}
    info: dict = {"snapshot": snapshot, "move_value": best, "alternatives": alternatives, "source": best.source,
                  "expectation": best.expectation}
    if best.settled:
        info.update(proven=True, value=int(round(as_margin(best.score))))
    depth = best.depth if best.depth else snapshot.depth
    return SearchResult(best.move, best.score, depth, snapshot.nodes, (best.move,), snapshot.seconds,
                        best.settled, info)


class Asking:
    """One reader's question to a shared analysis: "what is best here, after ``seconds`` of thought?" (the hint).

    It takes the analysis of ``state`` from ``shelf`` (the panel's, when it already analyses the position for
    at least as long; else a new one of ``seconds``) and is answered once that analysis has run ``seconds`` (or
    finished): ``poll`` then gives the ``advice``, whose move and value are the snapshot's best, the same objects
    the panel shows.  ``cancel`` lets go of the analysis.  With ``depth`` (and ``seconds`` None) the question is
    deterministic: the advice of a new analysis to that depth (the tests')."""

    def __init__(self, shelf: Shelf, state: State, seconds: float | None, depth: int | None = None) -> None:
        self.shelf, self.state, self.seconds = shelf, state, seconds
        self.analysis: Analysis | None = shelf.take(state, seconds, depth)
        self.snapshot: Snapshot | None = None
        self.answer: SearchResult | None = None
        self.error: str | None = None

    @property
    def done(self) -> bool:
        return self.analysis is None

    def wait(self, timeout: float) -> SearchResult | None:
        """Block until answered (not for a window's thread): the advice, or None (``error`` says why)."""
        deadline = time.monotonic() + timeout
        while not self.done and time.monotonic() < deadline:
            if self.analysis is not None:
                self.analysis.wait(min(0.05, max(0.0, deadline - time.monotonic())))
            self.poll()
        return self.answer

    def poll(self) -> Snapshot | None:
        """The analysis so far (never blocks); once it has run long enough, ``answer`` is set (or ``error``)."""
        analysis = self.analysis
        if analysis is None:
            return self.snapshot
        snapshot = analysis.poll()
        if snapshot is not None:
            self.snapshot = snapshot
        searched = snapshot is not None and (snapshot.depth > 0 or all(value.scored for value in snapshot.moves))
        long_enough = self.seconds is not None and searched and analysis.elapsed >= self.seconds
        if snapshot is None or not (snapshot.finished or long_enough):
            return snapshot
        self.answer = advice(self.shelf.game, self.state, snapshot)
        if self.answer is None:
            self.error = snapshot.error or "the analysis found nothing to advise"
        self.cancel()
        return snapshot

    def cancel(self) -> None:
        if self.analysis is not None:
            self.shelf.drop(self.analysis)
            self.analysis = None


def judged(game: Game, state: State, result: SearchResult, snapshot: Snapshot | None) -> SearchResult:
    """An engine's own search of ``state`` (the computer's move) as the analysis ``snapshot`` values its move,
    when the analysis is at least as deep (or exact), so the computer's explanation and the panel say the same;
    else ``result`` itself."""
    if snapshot is None or result.move is None:
        return result
    found = advice(game, state, snapshot, result.move)
    if found is None or not (found.exhaustive or found.depth >= result.depth):
        return result
    return found
