"""The time limit is one deadline, taken when the move is requested, and every engine keeps it.

Nothing here is timed (the machine is shared; ``bench/bench_time_limit.py`` measures overruns under load): a
delay before the search (building the engine, loading tables, starting the worker) is injected by requesting
the move in the past, and the tests check where the deadline lies and what the engines do with one that has
passed: they answer at once, with a legal move, having searched a handful of nodes at most.
"""
from __future__ import annotations

import threading
import time

import pytest

import ai.core
import rules
from ai import registry
from ai.base import CancelToken, Lateness, Limits, SearchAborted, lateness, seconds_to_stop
from ai.evaluators import get_evaluator
from ai.fast import kernel_for
from ai.game_play import GameTask, play_game
from ai.search import Budget
from ai.worker import Finished, SearchWorker, fallback_result
from tests.cores import compiled_only

WAIT = 30.0
"""Seconds: only a bound, so a broken engine fails the test instead of hanging the suite."""
LONG = 60.0
"""A time limit no test waits for: a search that ignored the request's instant would run this long."""


# -- one deadline, from the request ---------------------------------------------------------------------------
def test_a_delay_before_the_search_is_charged_to_the_move() -> None:
    """A move requested 0.75 s before its search starts (tables loading, say) has 0.25 s of its 1 s left."""
    requested = time.perf_counter() - 0.75
    budget = Budget(Limits.requested(1.0, requested), None)
    assert budget.due == pytest.approx(requested + 1.0)
    assert budget.deadline is not None and budget.deadline < requested + 1.0  # the margin comes off
    assert budget.seconds is not None and budget.seconds <= 0.25


def test_a_nested_search_keeps_the_move_deadline_and_the_margin_of_the_whole_move() -> None:
    """The Perfect level's fallback: the same deadline, and a margin capped by the move's time, not by what is
    left of it (a 60 ms lateness fits a 0.5 s move even when 0.1 s is left)."""
    lateness.forget()
    try:
        lateness.note(0.060)
        requested = time.perf_counter() - 0.4
        outer = Budget(Limits.requested(0.5, requested), None)
        inner = Budget(outer.limits_left(), None)
        assert inner.due == pytest.approx(outer.due)
        assert inner.deadline is not None and inner.deadline <= outer.due - 0.060
    finally:
        lateness.forget()


def test_without_a_request_instant_the_time_counts_from_the_search_as_before() -> None:
    budget = Budget(Limits(time=1.0), None)
    assert budget.due == pytest.approx(budget.started + 1.0)


def test_the_tightest_of_the_request_the_engine_and_the_token_wins() -> None:
    now = time.perf_counter()
    assert Budget(Limits.requested(5.0, now), None, time_limit=1.0).due <= time.perf_counter() + 1.0
    assert Budget(Limits.requested(5.0, now), CancelToken(now + 0.5)).due == pytest.approx(now + 0.5)
    assert Budget(Limits(deadline=now + 2.0), None).due == pytest.approx(now + 2.0)


def test_the_worker_keeps_the_request_instant_as_its_deadline() -> None:
    """The worker's start comes after the request: its token's deadline is still the request's."""
    game = rules.get_game("kalah")
    requested = time.perf_counter() - 0.5
    limits = Limits.requested(2.0, requested)
    worker = SearchWorker(registry.make_engine(game, "pvs:time=2"), game.initial_state(), limits)
    worker.start()
    assert worker.token.deadline == pytest.approx(requested + 2.0)
    worker.cancel()
    assert worker.wait(WAIT)


def test_a_worker_whose_move_was_requested_long_ago_answers_at_once_with_a_legal_move() -> None:
    game = rules.get_game("oware")
    state = game.initial_state()
    worker = SearchWorker(registry.make_engine(game, "pvs:time=60"), state,
                          Limits.requested(LONG, time.perf_counter() - LONG))
    worker.start()
    assert worker.wait(WAIT)
    final = worker.poll()[-1]
    assert isinstance(final, Finished)
    assert final.result.move in game.legal_moves(state)


def test_a_tournament_move_gets_its_deadline_from_the_moment_it_is_asked_for(monkeypatch) -> None:
    """``play_game`` hands the engine a deadline taken before the search, not a bare time."""
    seen: list[Limits] = []
    original = registry.engine_info("pvs").load()

    class Recording(original):  # type: ignore[misc, valid-type]
        def search(self, state, limits=None, cancel=None, progress=None):
            seen.append(limits)
            return super().search(state, limits, cancel, progress)

    import ai.game_play as game_play

    monkeypatch.setattr(game_play, "_build", lambda game, spec, seed: (Recording(game, depth=1), {}))
    task = GameTask(0, "kalah:pits=3,seeds=2", ("pvs", "pvs"), 0, 0, (), (None, None), 30.0, max_plies=4)
    record = play_game(task)
    assert record.forfeit is None and seen
    assert all(limits.deadline is not None and limits.time == 30.0 for limits in seen)


def test_tables_still_loading_at_the_deadline_are_not_waited_for(tmp_path, monkeypatch) -> None:
    """A table load slower than the move (a busy disk or machine) goes on in the background; the move is played
    without the tables, at its deadline, with a legal move."""
    import ai.table_loading
    from ai import tables

    monkeypatch.setenv(tables.ENV, str(tmp_path))
    tables.forget()
    release, called = threading.Event(), threading.Event()
    asked: list = []

    def slow_load(game):
        asked.append(game)
        called.set()
        release.wait(WAIT)  # a load that would take as long as the test allows
        return None

    monkeypatch.setattr(tables, "ensure", slow_load)
    monkeypatch.setattr(tables, "tables_for", slow_load)
    try:
        game = rules.get_game("oware")
        state = game.initial_state()
        engine = registry.make_engine(game, "pvs:time=60,tables=true")
        result = engine.search(state, Limits.requested(LONG, time.perf_counter() - LONG))
        assert result.move in game.legal_moves(state)
        # the search answered while the load was still blocked (the load's thread may start after the answer)
        assert called.wait(WAIT) and not release.is_set()
        assert any(not future.done() for future in ai.table_loading._loads.values())
    finally:
        release.set()
        tables.forget()


# -- the margin is measured --------------------------------------------------------------------------------------
def test_the_margin_follows_the_lateness_measured() -> None:
    measured = Lateness()
    first = measured.margin(1.0)
    measured.note(0.030)  # a stop 30 ms late (a loaded machine)
    assert measured.margin(1.0) > 0.030 > first
    assert measured.margin(0.04) <= 0.25 * 0.04  # never more than a share of a short move's time
    for _ in range(100):  # the load went away: the margin comes down with the recent stops
        measured.note(0.0001)
    assert measured.margin(1.0) < 0.01


def test_a_search_stopped_by_the_clock_reports_how_late_it_was() -> None:
    lateness.forget()
    try:
        game = rules.get_game("kalah")
        engine = registry.make_engine(game, "pvs:time=60")
        now = time.perf_counter()
        engine.search(game.initial_state(), Limits(deadline=now - 0.001))
        assert lateness.worst() is not None  # the stop was measured: the next searches' margin follows it
    finally:
        lateness.forget()


def test_seconds_to_stop_keeps_the_request_deadline_for_the_single_agent_engines() -> None:
    now = time.perf_counter()
    assert seconds_to_stop(Limits.requested(10.0, now - 10.0), None) == 0.0
    left = seconds_to_stop(Limits.requested(10.0, now - 4.0), 60.0)
    assert left is not None and left <= 6.0
    assert seconds_to_stop(Limits(), None) is None


# -- every engine honours a passed deadline or a cancel ----------------------------------------------------------
def _games_for(info: registry.EngineInfo) -> list[str]:
    games = ["kalah", "oware", "hus", "magnetic-cave", "solitaire"]
    return [name for name in games if info.suits(rules.get_game(name))][:2]


def _cases() -> list:
    """Every registered engine (so a new one is covered) with the games it plays."""
    return [pytest.param(info.name, game, id=f"{info.name}-{game}")
            for info in registry.engines() for game in _games_for(info)]


def _position(game_name: str):
    game = rules.get_game(game_name)
    state = game.initial_state()
    for _ in range(4 if game.num_players == 2 else 0):  # a few plies in: not a book position
        moves = game.legal_moves(state)
        if game.is_terminal(state) or not moves:
            break
        state = game.apply(state, moves[len(moves) // 2])
    return game, state


def _legal(game, state, result) -> None:
    played = fallback_result(game, state, result).move
    assert played in game.legal_moves(state)
    assert result is None or result.move is None or result.move in game.legal_moves(state)


def _spec(name: str) -> str:
    """The engine with its own time long, so only the deadline in the limits can stop it."""
    info = registry.engine_info(name)
    params = {param.name for param in info.params}
    return f"{name}:time={LONG:g}" if "time" in params else name


@pytest.mark.parametrize(("name", "game_name"), _cases())
def test_every_engine_answers_a_passed_deadline_in_its_limits_with_a_legal_move(name: str, game_name: str) -> None:
    game, state = _position(game_name)
    engine = registry.make_engine(game, _spec(name))
    limits = Limits.requested(LONG, time.perf_counter() - LONG)  # requested a minute ago: nothing left
    try:
        result = engine.search(state, limits)
    except SearchAborted:
        result = None
    _legal(game, state, result)


@pytest.mark.parametrize(("name", "game_name"), _cases())
def test_every_engine_answers_a_cancelled_token_with_a_legal_move(name: str, game_name: str) -> None:
    game, state = _position(game_name)
    engine = registry.make_engine(game, _spec(name))
    token = CancelToken()
    token.cancel()
    try:
        result = engine.search(state, Limits(time=LONG), token)
    except SearchAborted:
        result = None
    _legal(game, state, result)


# -- the compiled core ---------------------------------------------------------------------------------------------
@compiled_only
@pytest.mark.parametrize("game_name", ["kalah", "oware", "hus", "magnetic-cave"])
def test_a_compiled_search_given_a_passed_deadline_returns_at_once_with_a_legal_move(game_name: str) -> None:
    game, state = _position(game_name)
    kernel = kernel_for(game, get_evaluator(game))
    assert getattr(kernel, "compiled", False)
    core = ai.core.require()
    run_class = core.CaveRun if game_name == "magnetic-cave" else core.Run
    run = run_class(kernel.core, kernel.new_table(4), deadline=time.perf_counter() - 1.0)
    with pytest.raises(SearchAborted):
        run.root(kernel.encode(state), 40)
    assert run.nodes <= 512  # stopped at its first clock check, not after a search
    assert run.max_poll_gap >= 0.0  # what the safety margin learns from (``Budget.stopped``)
    engine = registry.make_engine(game, "pvs:time=60")
    result = engine.search(state, Limits(deadline=time.perf_counter() - 1.0))
    assert result.move in game.legal_moves(state)
    assert result.nodes <= 512  # its first clock check stopped it (it may complete a few plies first)
