"""The compiled Magnetic Cave endgame solver (``ai/core/cave_endgame.pxi``) against the Python one
(``ai.cave_endgame.EndgameSolver``) on every position of ``tests/ai/test_cave_endgame.py``, and the engine with
it in front of the compiled search: the same values, limits and a cancel that stop it, no GIL held."""
from __future__ import annotations

import os
import threading
import time

import pytest

import ai.core as core
from ai import registry
from ai.base import CancelToken, Limits, SearchAborted
from ai.cave_endgame import LOSS, TIE, WIN, EndgameSolver
from rules.magnetic_cave import FULL, MagneticCave
from test_cave_endgame import late_positions, minimax, sides

if core.module() is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"the compiled core is missing under CI: {core.status().why}")
    pytest.skip(f"the compiled core is not built: {core.status().why}", allow_module_level=True)

from ai.core.kernels import CompiledCaveKernel, CompiledEndgameSolver  # noqa: E402

HANG_SECONDS = 5.0
"""What these tests allow an answer that must come 'at once': a hang (what they guard against) never
answers, and a shared, loaded machine can take a second where a quiet one takes milliseconds."""

GAME = MagneticCave()

# (count, empty cells, seed) of every late_positions call in tests/ai/test_cave_endgame.py; the solver-only
# ones first (the 24-cell one is the node-limit test's, too long for the Python solver here)
ENDGAME_POSITIONS = [(50, 9, 31), (160, 11, 34), (300, 6, 37), (40, 14, 35), (40, 8, 36), (30, 10, 32),
                     (1, 24, 33), (16, 10, 34), (48, 10, 35), (3, 20, 36)]


def fresh_solver() -> CompiledEndgameSolver:
    return CompiledEndgameSolver(table=core.module().EndgameTable(4))


@pytest.mark.parametrize("count, empty, seed", ENDGAME_POSITIONS[:6], ids=lambda x: str(x))
def test_values_equal_the_python_solver_and_the_moves_keep_them(count, empty, seed):
    # Every question the engine asks: the full value, "a win?" and "a tie held?" (a bound's side).  The moves
    # may differ (the compiled solver orders quiet moves by its history of cut-offs), so each is checked to
    # keep the value by the Python solver.
    python = EndgameSolver(max_nodes=3_000_000)
    for state in late_positions(count, empty, seed):
        mine, theirs = sides(state)
        exact, _ = python.solve(mine, theirs)
        compiled = fresh_solver()
        value, move = compiled.solve(mine, theirs)
        assert value == exact, GAME.to_text(state)
        assert kept(python, state, move) == exact, (GAME.to_text(state), move)
        value, move = compiled.solve(mine, theirs, TIE, WIN)
        assert (value >= WIN) == (exact == WIN)
        if value >= WIN:
            assert kept(python, state, move) == WIN
        assert (compiled.solve(mine, theirs, LOSS, TIE)[0] >= TIE) == (exact >= TIE)


def kept(python: EndgameSolver, state, move: int) -> int:
    """The value of ``move`` for the side to move, by the rules and the Python solver."""
    after = GAME.apply(state, move)
    if after.winner is not None:
        return WIN
    if after.black | after.white == FULL:
        return TIE
    return -python.solve(*sides(after))[0]


def test_the_full_value_is_minimax_and_the_move_keeps_it():
    solver = fresh_solver()
    values = {WIN: 0, TIE: 0, LOSS: 0}
    for state in late_positions(50, empty=9, seed=31):
        value, move = solver.solve(*sides(state))
        assert value == minimax(state.black, state.white, state.to_move)
        values[value] += 1
        after = GAME.apply(state, move)
        if after.winner is not None:
            assert value == WIN
        elif after.black | after.white != FULL:
            assert -minimax(after.black, after.white, after.to_move) == value
    assert min(values.values()) >= 3, values


def test_the_node_limit_the_deadline_and_a_cancel_stop_the_solver():
    state = late_positions(1, empty=24, seed=33)[0]
    mine, theirs = sides(state)
    solver = CompiledEndgameSolver(max_nodes=50, table=core.module().EndgameTable(4))
    with pytest.raises(SearchAborted):
        solver.solve(mine, theirs)
    assert solver.nodes == 50  # exactly the limit, as the Python solver's

    def stop() -> None:
        raise SearchAborted

    with pytest.raises(SearchAborted):
        CompiledEndgameSolver(poll=stop).solve(mine, theirs)
    mine, theirs = sides(late_positions(1, empty=36, seed=33)[0])  # far from solved in seconds
    timed = fresh_solver()
    timed.deadline = time.perf_counter() + 0.05
    started = time.perf_counter()
    with pytest.raises(SearchAborted):
        timed.solve(mine, theirs)
    assert time.perf_counter() - started < HANG_SECONDS  # 50 ms and a poll (tens of microseconds) on a quiet machine

    flag = bytearray(1)
    cancelled = fresh_solver()
    cancelled.cancel_flag = flag
    outcome = {}

    def solve() -> None:
        try:
            cancelled.solve(mine, theirs)
            outcome["result"] = "solved"
        except SearchAborted:
            outcome["result"] = "aborted"
        outcome["at"] = time.perf_counter()

    worker = threading.Thread(target=solve)
    worker.start()
    time.sleep(0.1)
    assert worker.is_alive() and cancelled.nodes > 10_000  # solving, without the GIL
    flag[0] = 1
    at = time.perf_counter()
    worker.join(2)
    assert outcome["result"] == "aborted" and outcome["at"] - at < 0.5  # well under a millisecond, unloaded (bench/bench_core.py cancel)


def test_the_engine_plays_proven_wins_and_keeps_proven_ties_with_the_compiled_solver():
    engine_spec = registry.presets(GAME)["Strongest"]
    checked = {"win": 0, "tie": 0}
    for state in late_positions(16, empty=10, seed=34):
        exact = minimax(state.black, state.white, state.to_move)
        if exact == LOSS:
            continue
        engine = registry.make_engine(GAME, engine_spec)
        assert isinstance(engine.kernel, CompiledCaveKernel)
        result = engine.search(state, Limits(time=1.0))
        after = GAME.apply(state, result.move)
        kept = WIN if after.winner is not None else TIE if after.black | after.white == FULL else -minimax(
            after.black, after.white, after.to_move)
        assert kept == exact
        checked["win" if exact == WIN else "tie"] += 1
    assert min(checked.values()) >= 3, checked


def test_a_cancelled_engine_in_the_solver_range_still_returns_a_legal_move():
    for state in late_positions(3, empty=20, seed=36):
        token = CancelToken()
        token.cancel()
        result = registry.make_engine(GAME, "pvs:time=1").search(state, Limits(time=1.0), token)
        assert result.move in GAME.legal_moves(state)
