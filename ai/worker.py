"""The background search thread: any engine, run in a daemon thread, talking to the UI through a queue.

The UI thread builds a ``SearchWorker`` for an engine and a position, calls ``start()``, and drains ``poll()``
once a frame (in ``on_update``).  It never joins or waits on the thread::

    worker = SearchWorker(engine, state, Limits(time=1.0))
    worker.start()
    ...
    for message in worker.poll():          # every frame
        if isinstance(message, Progress): show(message.result.depth, message.result.move, message.nodes_per_second)
        elif isinstance(message, Finished): play(message.result.move)
        elif isinstance(message, Failed): report(message.error)
    ...
    worker.cancel()                         # returns at once, Finished posted; the thread stops at its next poll

How it stays responsive: the worker turns ``Limits.time`` into a ``CancelToken`` deadline, and the engine
calls ``token.check()`` every few hundred nodes, which yields the GIL (``time.sleep(0)``, so the window keeps
its frame rate; tests/game/test_gui_pacing.py) and aborts the search once cancelled or out of time.  The
engine then returns its last completed iteration.

The deadline is the move's: ``Limits.deadline`` when the caller stamped the request (``Limits.requested``,
before building the engine), else ``start()`` plus ``Limits.time``.  It does not depend on the engine
unwinding in time: a second thread, the *watchdog*, wakes shortly before the deadline (by the lateness the
process has measured of late, ``ai.base.lateness``, less ``GRACE``) and, if the engine has not finished by
then, posts ``Finished`` itself with the last completed iteration (``info["at_deadline"]``) and cancels the
token; whatever the engine returns later is dropped.  So a deadline is overrun only by more than the measured
lateness of the watchdog's own wake-up and its taking the GIL (the search yields it at every poll, about
every millisecond).  A ``cancel()`` posts ``Finished`` itself, on
the caller's side, at once.  Whatever happens, exactly one final message is posted: ``Finished`` (with a legal move whenever the position has one, even if the engine found none in
time, so a computer player never stalls) or ``Failed`` (an exception in the engine, reported, never raised
in the UI thread).  The worker never touches GUI objects, and the state it is given is never mutated
(states are frozen values; the worker only passes it on).
"""
from __future__ import annotations

import itertools
import queue
import threading
import time
import traceback
from dataclasses import dataclass, replace
from typing import Union

from ai.base import CancelToken, Engine, Limits, SearchAborted, SearchResult, lateness
from rules import Game, State


@dataclass(frozen=True)
class Progress:
    """A completed iteration (depth, best move so far, score, nodes) and the search speed so far."""

    result: SearchResult
    nodes_per_second: float


@dataclass(frozen=True)
class Finished:
    """The final result.  ``cancelled`` is True when ``cancel()`` stopped the search (a deadline is not a cancel)."""

    result: SearchResult
    cancelled: bool


@dataclass(frozen=True)
class Failed:
    """The engine raised an exception: its type and message (the traceback is in ``SearchWorker.traceback``)."""

    error: str


WorkerMessage = Union[Progress, Finished, Failed]

_numbers = itertools.count(1)

GRACE = 0.002
"""Seconds the watchdog lets the engine finish after the engine's own stop would have returned on time (the
deadline less the measured lateness, ``ai.base.lateness``): the engine's own result, with its partial
iteration, is better than the last completed one, but the deadline comes first."""


def fallback_result(game: Game, state: State, result: SearchResult | None, elapsed: float = 0.0) -> SearchResult:
    """``result`` if it carries a legal move; otherwise a result whose move is the first legal move.

    A search stopped before it completed anything has no move to offer; rather than let a computer player
    stall, the first legal move is played and ``info["fallback"]`` says so.  A finished game (no legal move)
    gives a result with move None.
    """
    moves = game.legal_moves(state)
    if result is not None and (result.move is not None or not moves):
        return result
    if not moves:
        return SearchResult(None, time=elapsed, info={"fallback": False})
    base = result if result is not None else SearchResult(None, time=elapsed)
    return replace(base, move=moves[0], pv=(moves[0],), info={**base.info, "fallback": True})


class Mailbox:
    """The UI side that every worker shares: messages queued for ``poll``, exactly one final message, ``wait``.

    ``SearchWorker`` (a thread) and ``ai.search_process.ProcessWorker`` (a child process) post through
    ``_post`` and ``_finish``, from any thread: the first final message wins, and nothing is queued after it.
    """

    def __init__(self) -> None:
        self.result: SearchResult | None = None
        """The final result once done; while running, the last progress report (or None)."""
        self.started_at: float | None = None
        """``time.perf_counter()`` when ``start`` ran."""
        self.finished_at: float | None = None
        """``time.perf_counter()`` just before the final message was posted."""
        self._queue: queue.SimpleQueue[WorkerMessage] = queue.SimpleQueue()
        self._done = threading.Event()
        self._finish_lock = threading.Lock()

    def poll(self) -> list[WorkerMessage]:
        """Every message posted since the last poll, oldest first; never blocks."""
        messages: list[WorkerMessage] = []
        while True:
            try:
                messages.append(self._queue.get_nowait())
            except queue.Empty:
                return messages

    @property
    def done(self) -> bool:
        """True once the final message (``Finished`` or ``Failed``) has been posted."""
        return self._done.is_set()

    @property
    def running(self) -> bool:
        """Started and not yet done."""
        return self.started_at is not None and not self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until done or ``timeout`` seconds pass; True when done.  Not for the UI thread."""
        return self._done.wait(timeout)

    def _post(self, report: Progress) -> None:
        """Queue a progress report, unless the final message has gone already (its search is unwinding)."""
        with self._finish_lock:
            if self._done.is_set():
                return
            self.result = report.result
            self._queue.put(report)

    def _finish(self, message: WorkerMessage) -> bool:
        """Post the final message unless one was posted already (by another thread); True if posted."""
        with self._finish_lock:
            if self._done.is_set():
                return False
            if isinstance(message, Finished):
                self.result = message.result
            self.finished_at = time.perf_counter()
            self._queue.put(message)
            self._done.set()
            return True


class SearchWorker(Mailbox):
    """Runs ``engine.search(state, limits, token, progress)`` in a daemon thread and queues what it reports.

    Everything public may be called from the UI thread; nothing blocks except the optional ``wait`` (meant
    for tests and command-line tools, never for a window).
    """

    def __init__(self, engine: Engine, state: State, limits: Limits | None = None, watchdog: bool = True) -> None:
        super().__init__()
        self.engine = engine
        self.watchdog = watchdog
        """Answer at the deadline without waiting for the engine (a computer's move).  False for an engine that
        keeps its own promise past the deadline (the analysis completes its first iteration, so every move has a
        value): the answer is then the engine's own."""
        self.state = state
        self.limits = limits if limits is not None else Limits()
        self.token = CancelToken()
        """The cancel token handed to the engine; its ``deadline`` is set by ``start`` from ``limits.time``."""
        self.traceback: str | None = None
        """The formatted traceback when the engine failed."""
        self.search_ended_at: float | None = None
        """``time.perf_counter()`` when the engine's ``search`` returned (or raised), for benchmarks: after a
        cancel or a late deadline this can come after ``finished_at``."""
        self._thread: threading.Thread | None = None
        self._watchdog: threading.Thread | None = None

    # -- the UI side --------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the search thread (once).  The deadline, if any, counts from now."""
        if self._thread is not None:
            raise RuntimeError("this SearchWorker has already been started; build a new one for a new search")
        self.started_at = time.perf_counter()
        # One deadline for the move: the instant it was requested (``Limits.requested``, before the engine was
        # built) plus its time, or, when the caller did not say, now plus its time.
        self.token.deadline = self.limits.deadline_from(self.started_at)
        self._thread = threading.Thread(
            target=self._run, name=f"search-{self.engine.name}-{next(_numbers)}", daemon=True
        )
        self._thread.start()
        if self.token.deadline is not None and self.watchdog:
            self._watchdog = threading.Thread(target=self._watch, name=f"{self._thread.name}-deadline", daemon=True)
            self._watchdog.start()

    def cancel(self) -> None:
        """Stop the search; returns at once, having posted ``Finished`` with the last completed iteration.

        The final message does not wait for the search thread: it is posted here, on the caller's side, and
        the thread (told through the token) stops at its next poll, its own answer dropped.  Cancelled before
        ``start``, the search starts, sees the cancel at once and answers itself.
        """
        self.token.cancel()
        if self._thread is not None and not self._done.is_set():
            self._answer_now(cancelled=True)

    @property
    def searching(self) -> bool:
        """The engine's ``search`` has not returned yet: after a cancel or the watchdog's answer it unwinds on its
        own, and the engine must not start another search until it has."""
        return self._thread is not None and self.search_ended_at is None

    # -- the search thread -------------------------------------------------------------------------------------
    def _progress(self, result: SearchResult) -> None:
        elapsed = time.perf_counter() - (self.started_at or 0.0)
        speed = result.nodes_per_second or (result.nodes / elapsed if elapsed > 0 else 0.0)
        self._post(Progress(result, speed))  # dropped once the watchdog has answered

    def _watch(self) -> None:
        """The watchdog: shortly before the deadline (by the lateness measured of late, which this thread
        suffers as well), post the last completed iteration if the engine has not answered."""
        deadline = self.token.deadline
        if deadline is None:
            return
        seconds = deadline - (self.started_at or time.perf_counter())
        wake = deadline - max(0.0, lateness.margin(seconds) - GRACE)
        if self._done.wait(max(0.0, wake - time.perf_counter())):
            return
        self._answer_now(cancelled=self.token.is_cancelled, note="at_deadline")
        # The answer is given: tell the search to stop too, so an engine that reads only the cancel flag (a time
        # of ``none`` means "until cancelled") or unwinds late never keeps a thread busy after its answer.
        self.token.cancel()

    def _answer_now(self, cancelled: bool, note: str | None = None) -> None:
        """Post ``Finished`` with the last completed iteration without waiting for the search thread."""
        last = self.result
        elapsed = time.perf_counter() - (self.started_at or 0.0)
        if last is not None and note is not None:
            last = replace(last, info={**last.info, note: True})
        self._finish(Finished(fallback_result(self.engine.game, self.state, last, elapsed), cancelled))

    def _run(self) -> None:
        final: WorkerMessage
        try:
            try:
                found: SearchResult | None = self.engine.search(self.state, self.limits, self.token, self._progress)
            except SearchAborted:
                # An engine should catch this itself; if one lets it escape, its last progress report stands.
                found = self.result
            finally:
                self.search_ended_at = time.perf_counter()
            elapsed = time.perf_counter() - (self.started_at or 0.0)
            final = Finished(fallback_result(self.engine.game, self.state, found, elapsed), self.token.is_cancelled)
        except Exception as error:  # noqa: BLE001 - any engine failure is reported, never raised in the UI
            self.traceback = traceback.format_exc()
            final = Failed(f"{type(error).__name__}: {error}")
        self._finish(final)
