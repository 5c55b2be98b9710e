"""The background search thread: progress, cancel, deadline, fallback move, failures, and an untouched state.

Timing is never asserted here (the machine is shared); the mechanism is: the token is set, the thread ends,
the final result is the last completed one.  ``bench/bench_worker.py`` measures the latencies.
"""
from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

import rules
from ai import registry
from ai.base import CancelToken, Engine, Limits, SearchAborted, SearchResult, lateness
from ai.worker import Failed, Finished, Progress, SearchWorker, fallback_result
from rules.kalah import KalahState

WAIT = 10.0  # seconds: only a bound so a broken worker fails instead of hanging the suite


class CountingEngine(Engine):
    """A fake search: counts nodes forever, checks the token every ``check_every`` nodes, and reports an
    "iteration" every ``nodes_per_iteration`` nodes whose move cycles through the legal moves."""

    name = "counting"
    kind = "any"

    def __init__(self, game, check_every: int = 300, nodes_per_iteration: int = 2000, max_iterations=None,
                 leak_abort: bool = False) -> None:
        super().__init__(game)
        self.check_every = check_every
        self.nodes_per_iteration = nodes_per_iteration
        self.max_iterations = max_iterations
        self.leak_abort = leak_abort
        self.seen_token: CancelToken | None = None
        self.iteration_started = threading.Event()
        self.stopped_by_token = False

    def search(self, state, limits=None, cancel=None, progress=None):
        self.seen_token = cancel
        moves = self.game.legal_moves(state)
        best = None
        nodes = 0
        iteration = 0
        try:
            while self.max_iterations is None or iteration < self.max_iterations:
                self.iteration_started.set()
                for _ in range(self.nodes_per_iteration):
                    nodes += 1
                    if cancel is not None and nodes % self.check_every == 0:
                        cancel.check()
                iteration += 1
                best = SearchResult(moves[iteration % len(moves)], float(iteration), iteration, nodes, time=0.0)
                if progress:
                    progress(best)
        except SearchAborted:
            self.stopped_by_token = True
            if self.leak_abort:
                raise
        return best


class BrokenEngine(Engine):
    name = "broken"
    kind = "any"

    def search(self, state, limits=None, cancel=None, progress=None):
        raise ZeroDivisionError("the evaluator divided by zero")


@pytest.fixture
def kalah():
    return rules.get_game("kalah")


def drain(worker: SearchWorker) -> list:
    assert worker.wait(WAIT), "the worker did not finish"
    return worker.poll()


def test_cancel_stops_the_search_and_returns_the_last_completed_iteration(kalah):
    state = kalah.initial_state()
    engine = CountingEngine(kalah)
    worker = SearchWorker(engine, state)
    assert worker.poll() == [] and not worker.done
    worker.start()
    # Wait for at least two completed iterations, then cancel mid-way through a later one.
    progress: list = []
    while len(progress) < 2:
        assert not worker.wait(0.001) or progress, "the search ended on its own"
        progress += worker.poll()
    worker.cancel()
    assert worker.token.is_cancelled
    messages = progress + drain(worker)
    assert worker.done and not worker.running  # answered by cancel() itself, not by the thread
    assert worker._thread is not None
    worker._thread.join(WAIT)
    assert not worker._thread.is_alive()
    assert engine.stopped_by_token  # the thread still stopped, by the token
    assert worker.search_ended_at is not None
    messages += worker.poll()  # nothing more: the thread's own answer was dropped
    *reports, final = messages
    assert all(isinstance(m, Progress) for m in reports)
    assert isinstance(final, Finished) and final.cancelled
    assert final.result == reports[-1].result == worker.result
    assert final.result.depth == len(reports)
    assert [m.result.depth for m in reports] == list(range(1, len(reports) + 1))
    assert all(m.nodes_per_second > 0 for m in reports)


def test_limits_time_becomes_the_token_deadline_and_ends_the_search(kalah):
    engine = CountingEngine(kalah)
    worker = SearchWorker(engine, kalah.initial_state(), Limits(time=0.05))
    worker.start()
    assert worker.token.deadline == pytest.approx(worker.started_at + 0.05)
    messages = drain(worker)
    worker._thread.join(WAIT)  # the watchdog may have answered first; the engine still stops by the token
    assert engine.seen_token is worker.token
    assert engine.stopped_by_token
    final = messages[-1]
    # A deadline is not a cancel: the final message says so.  (When the watchdog answered first it also
    # cancelled the token, so an engine that reads only the cancel flag stops too.)
    assert isinstance(final, Finished) and not final.cancelled
    # The search stopped because the deadline had passed, not earlier.
    assert worker.finished_at >= worker.token.deadline - lateness.margin(0.05)  # by the deadline, not long before


def test_a_search_stopped_before_any_result_still_plays_a_legal_move(kalah):
    state = KalahState((0, 4, 4, 4, 4, 4, 0) + (4, 4, 4, 4, 4, 4, 4), 0)  # South's pit 0 is empty
    engine = CountingEngine(kalah, nodes_per_iteration=10**12)
    worker = SearchWorker(engine, state)
    worker.start()
    assert engine.iteration_started.wait(WAIT)
    worker.cancel()
    final = drain(worker)[-1]
    assert isinstance(final, Finished) and final.cancelled
    assert final.result.move == kalah.legal_moves(state)[0] == 1
    assert final.result.info["fallback"] is True


def test_a_cancel_before_start_finishes_at_once_with_a_legal_move(kalah):
    worker = SearchWorker(CountingEngine(kalah), kalah.initial_state())
    worker.cancel()
    worker.start()
    final = drain(worker)[-1]
    assert isinstance(final, Finished) and final.cancelled
    assert final.result.move in kalah.legal_moves(kalah.initial_state())


def test_an_escaping_search_aborted_falls_back_to_the_last_progress_report(kalah):
    worker = SearchWorker(CountingEngine(kalah, leak_abort=True), kalah.initial_state(), Limits(time=0.05))
    worker.start()
    messages = drain(worker)
    final = messages[-1]
    assert isinstance(final, Finished)
    reports = [m for m in messages if isinstance(m, Progress)]
    if reports:
        # On a loaded machine the watchdog may answer first, with the same result marked ``at_deadline``.
        info = {key: value for key, value in final.result.info.items() if key != "at_deadline"}
        assert replace(final.result, info=info) == reports[-1].result
    else:
        assert final.result.info["fallback"] is True


def test_an_engine_exception_becomes_a_failed_message(kalah):
    worker = SearchWorker(BrokenEngine(kalah), kalah.initial_state())
    worker.start()
    messages = drain(worker)
    assert len(messages) == 1 and isinstance(messages[0], Failed)
    assert messages[0].error == "ZeroDivisionError: the evaluator divided by zero"
    assert "ZeroDivisionError" in worker.traceback
    assert worker.done


def test_a_finished_search_runs_to_completion_without_a_token_firing(kalah):
    engine = CountingEngine(kalah, max_iterations=3, nodes_per_iteration=100)
    worker = SearchWorker(engine, kalah.initial_state())
    worker.start()
    messages = drain(worker)
    assert [type(m) for m in messages] == [Progress, Progress, Progress, Finished]
    assert not engine.stopped_by_token and not messages[-1].cancelled
    assert messages[-1].result.depth == 3 and "fallback" not in messages[-1].result.info


def test_a_worker_starts_only_once(kalah):
    worker = SearchWorker(CountingEngine(kalah, max_iterations=1), kalah.initial_state())
    worker.start()
    with pytest.raises(RuntimeError, match="already been started"):
        worker.start()
    drain(worker)


def test_a_finished_game_gives_no_move(kalah):
    game = rules.get_game("kalah", pits=1, seeds=1)
    state = game.apply(game.initial_state(), 0)
    assert game.is_terminal(state)
    worker = SearchWorker(CountingEngine(game), state)
    worker.cancel()
    worker.start()
    final = drain(worker)[-1]
    assert isinstance(final, Finished) and final.result.move is None


def test_fallback_result_keeps_a_result_that_has_a_move(kalah):
    state = kalah.initial_state()
    good = SearchResult(3, 1.5, 4, 100)
    assert fallback_result(kalah, state, good) is good
    assert fallback_result(kalah, state, None).move == 0
    assert fallback_result(kalah, state, SearchResult(None, 0.0, 2, 50)).nodes == 50


def _registered_engine_specs():
    game = rules.get_game("kalah")
    return [info.name for info in registry.engines(game)]


@pytest.mark.parametrize("name", _registered_engine_specs())
def test_every_registered_engine_answers_a_cancel_with_a_legal_move_and_leaves_the_state_alone(name):
    game = rules.get_game("kalah", pits=6, seeds=4)
    state = game.apply(game.apply(game.initial_state(), 2), 4)
    snapshot = (game.to_text(state), hash(state))
    engine = registry.make_engine(game, name)
    worker = SearchWorker(engine, state, Limits(time=0.2))
    worker.start()
    worker.wait(0.02)
    worker.cancel()
    final = drain(worker)[-1]
    assert isinstance(final, Finished), final
    assert final.result.move in game.legal_moves(state)
    assert worker.state is state
    assert (game.to_text(state), hash(state)) == snapshot


def collector_back_on() -> bool:
    """Whether the cyclic collector is on, after waiting up to 2 s: a search an earlier test cancelled may still
    be unwinding on its thread (the worker answered at once; a fresh table's first pages can take a tenth of a
    second), and the collector is back on once it has."""
    import gc

    for _ in range(200):
        if gc.isenabled():
            return True
        time.sleep(0.01)
    return gc.isenabled()


def collector_states(engine, method: str) -> list[bool]:  # type: ignore[no-untyped-def]
    """Replace ``engine.method`` by a spy: the list it fills with whether the collector was on at each call."""
    import gc

    seen: list[bool] = []
    original = getattr(engine, method)

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    setattr(engine, method, spy)
    return seen


def test_gc_is_paused_during_a_single_agent_search_and_restored_after():
    import gc

    import rules
    from ai.base import gc_paused
    from ai.registry import make_engine

    assert collector_back_on()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested (two searches at once) keeps it off until the last ends
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    try:
        with gc_paused():
            raise RuntimeError("a failing search")
    except RuntimeError:
        pass
    assert gc.isenabled()

    game = rules.get_game("solitaire")
    engine = make_engine(game, "astar:time=0.05")
    seen = collector_states(engine, "solve")
    engine.search(game.initial_state(seed=3))
    assert seen == [False] and gc.isenabled()


class StubbornEngine(Engine):
    """A search that reports one iteration, then ignores its token for a while (a slow unwinding)."""

    name = "stubborn"
    kind = "any"

    def __init__(self, game, stall: float = 0.3) -> None:
        super().__init__(game)
        self.stall = stall
        self.returned = threading.Event()

    def search(self, state, limits=None, cancel=None, progress=None):
        import time

        first = SearchResult(self.game.legal_moves(state)[-1], 1.0, 1, 10)
        progress(first)
        time.sleep(self.stall)  # the deadline passes meanwhile
        late = SearchResult(self.game.legal_moves(state)[0], 2.0, 2, 20)
        progress(late)
        self.returned.set()
        return late


def test_the_watchdog_answers_at_the_deadline_when_the_engine_is_late(kalah):
    state = kalah.initial_state()
    engine = StubbornEngine(kalah)
    worker = SearchWorker(engine, state, Limits(time=0.02))
    worker.start()
    assert worker.wait(WAIT)
    assert not engine.returned.is_set()  # answered while the engine was still busy
    assert worker.finished_at >= worker.token.deadline - lateness.margin(0.02)  # by the deadline, not long before
    assert engine.returned.wait(WAIT)
    worker._thread.join(WAIT)
    messages = worker.poll()
    *reports, final = messages
    assert [type(m) for m in messages] == [Progress, Finished]  # the late report and result are dropped
    assert final.result.move == kalah.legal_moves(state)[-1] and final.result.depth == 1
    assert final.result.info["at_deadline"] is True and not final.cancelled
    assert worker.result == final.result


def test_no_watchdog_without_a_deadline(kalah):
    worker = SearchWorker(CountingEngine(kalah, max_iterations=2, nodes_per_iteration=100), kalah.initial_state())
    worker.start()
    drain(worker)
    assert worker._watchdog is None


def test_the_mailbox_posts_one_final_message_and_nothing_after_it():
    """Both workers (thread and process) post through ``Mailbox``: progress before the end is queued and
    remembered, the first final message wins, and a report from a search still unwinding is dropped."""
    from ai.worker import Mailbox

    box = Mailbox()
    assert not box.running and not box.done
    box.started_at = 0.0
    early, late = SearchResult(1, 0.5, 3, 10), SearchResult(2, 0.7, 4, 20)
    box._post(Progress(early, 100.0))
    assert box.running and box.result is early
    assert box._finish(Finished(early, True)) is True
    assert box._finish(Finished(late, False)) is False  # the second final message loses
    box._post(Progress(late, 100.0))  # the search unwinding after the cancel
    messages = box.poll()
    assert [type(message) for message in messages] == [Progress, Finished]
    assert messages[1] == Finished(early, True)
    assert box.result is early and box.done and not box.running and box.wait(0)
    assert box.poll() == []


def test_gc_is_paused_while_mcts_grows_its_tree_and_restored_after():
    """The collector's full passes over a 3 s tree took up to 60 ms, past a move's deadline when one came last."""
    import gc

    import rules
    from ai.registry import make_engine

    assert collector_back_on()
    game = rules.get_game("kalah")
    engine = make_engine(game, "mcts:iterations=50,seed=1")
    seen = collector_states(engine, "_iterate")
    result = engine.search(game.initial_state())
    assert result.move in game.legal_moves(game.initial_state())
    assert len(seen) == 50 and not any(seen) and gc.isenabled()
