"""The adversary searches agree with plain minimax, the solver knows the solved values, and the engine
contract holds (determinism, no mutation, cancellation, unsuitable games refused)."""
from __future__ import annotations

import random
import threading
import time

import pytest

from ai.alphabeta import _AlphaBeta, alphabeta_value
from ai.base import CancelToken, EngineError, Limits, SearchAborted
from ai.evaluators import as_margin, get_evaluator
from ai.minimax import minimax_value
from ai.registry import engine_info, make_engine
from ai.search import MIN_POLL, Budget, PVSEngine
from ai.solver import SolverEngine
from rules import get_game
from tests.playouts import playout_positions


def random_positions(game, count, seed, max_plies=14):
    """Non-terminal positions reached by random play, with at least a few extra-turn positions."""
    return playout_positions(game, count, seed, longest=max_plies)


def has_extra_turn(game, state):
    return any(game.to_move(game.apply(state, move)) == game.to_move(state) for move in game.legal_moves(state))


@pytest.mark.parametrize("variant", [dict(pits=3, seeds=3), dict(pits=4, seeds=2), dict(pits=4, seeds=3, empty_capture=False)])
@pytest.mark.parametrize("evaluator", ["default", "store"])
def test_alphabeta_and_pvs_return_the_minimax_value(variant, evaluator):
    game = get_game("kalah", **variant)
    rules_eval = get_evaluator(game, evaluator)
    rng = random.Random(7)
    positions = random_positions(game, 120, seed=len(str(variant)) + len(evaluator))
    assert sum(has_extra_turn(game, state) for state in positions) >= 20
    for state in positions:
        depth = rng.randrange(1, 6)
        expected = minimax_value(game, rules_eval, state, depth)
        assert alphabeta_value(game, rules_eval, state, depth) == expected, game.to_text(state)
        for fast in (True, False):
            result = PVSEngine(game, time=None, depth=depth, eval=evaluator, fast=fast).search(state)
            assert result.score == expected, (game.to_text(state), depth, fast)
            assert result.move in game.legal_moves(state)


def test_pvs_matches_alphabeta_deeper_on_the_full_board():
    game = get_game("kalah")
    rules_eval = get_evaluator(game)
    for state in random_positions(game, 25, seed=3, max_plies=30):
        expected = alphabeta_value(game, rules_eval, state, 5)
        assert PVSEngine(game, time=None, depth=5).search(state).score == expected, game.to_text(state)


def test_the_engines_agree_with_minimax_on_oware_and_hus():
    for name, depth in (("oware", 3), ("hus", 1)):
        game = get_game(name)
        rules_eval = get_evaluator(game)
        for state in random_positions(game, 6, seed=11, max_plies=20):
            expected = minimax_value(game, rules_eval, state, depth)
            assert alphabeta_value(game, rules_eval, state, depth) == expected
            assert PVSEngine(game, time=None, depth=depth).search(state).score == expected


@pytest.mark.parametrize("variant", [dict(), dict(no_capture_limit=12), dict(seeds=2, grand_slam="capture")])
def test_pvs_on_packed_oware_returns_the_alphabeta_value(variant):
    """The packed Oware search, with repetitions and the move limit inside the tree, against the rules."""
    game = get_game("oware", **variant)
    rng = random.Random(13)
    positions = random_positions(game, 30, seed=len(variant), max_plies=150)
    for state in positions:
        depth = rng.randrange(1, 5)
        for evaluator in ("default", "store"):
            expected = alphabeta_value(game, get_evaluator(game, evaluator), state, depth)
            result = PVSEngine(game, time=None, depth=depth, eval=evaluator).search(state)
            assert result.score == expected, (game.to_text(state), depth, evaluator)
            assert result.move in game.legal_moves(state)


@pytest.mark.parametrize(
    "variant, value",
    [(dict(pits=3, seeds=3), 2), (dict(pits=4, seeds=3), 8), (dict(pits=3, seeds=3, empty_capture=False), 2)],
)
def test_the_solver_finds_the_solved_values(variant, value):
    game = get_game("kalah", **variant)
    result = SolverEngine(game).search(game.initial_state())
    assert result.exhaustive
    assert result.score == value
    # The principal variation is a real line of play that ends the game with exactly that margin for South.
    state = game.initial_state()
    for move in result.pv:
        state = game.apply(state, move)
    assert game.is_terminal(state)
    assert game.outcome(state).margin(0) == value


def test_the_solver_agrees_with_a_deep_pvs_on_small_endgames():
    game = get_game("kalah", pits=4, seeds=2)
    for state in random_positions(game, 20, seed=5, max_plies=10):
        solved = SolverEngine(game).search(state)
        searched = PVSEngine(game, time=None, depth=60).search(state)
        assert searched.exhaustive
        assert as_margin(searched.score) == solved.score, game.to_text(state)  # PVS scores a win WIN + margin


SPECS = ["greedy", "minimax:depth=2", "alphabeta:depth=4", "pvs:depth=6,time=none", "mcts:iterations=300,time=none",
         "solver"]


@pytest.mark.parametrize("spec", SPECS)
def test_engines_are_deterministic_and_never_mutate(spec):
    game = get_game("kalah", pits=4, seeds=3)
    for state in random_positions(game, 4, seed=2):
        text = game.to_text(state)
        first = make_engine(game, spec).search(state)
        second = make_engine(game, spec).search(state)
        assert first.move == second.move and first.move in game.legal_moves(state)
        assert game.to_text(state) == text


def test_progress_reports_each_completed_depth():
    game = get_game("kalah")
    reports = []
    result = PVSEngine(game, time=None, depth=7).search(game.initial_state(), progress=reports.append)
    assert [report.depth for report in reports] == list(range(1, 8))
    assert reports[-1].move == result.move and result.pv[0] == result.move
    assert all(later.nodes >= earlier.nodes for earlier, later in zip(reports, reports[1:]))


def test_a_cancelled_search_returns_the_last_completed_depth():
    game = get_game("kalah")
    token = CancelToken()
    reports = []

    def cancel_after_depth_five(result):
        reports.append(result)
        if result.depth == 5:
            token.cancel()

    result = PVSEngine(game, time=None, depth=40).search(game.initial_state(), None, token, cancel_after_depth_five)
    assert result.depth == 5
    assert result.move == reports[-1].move


def test_a_cancel_from_another_thread_stops_the_search():
    game = get_game("kalah")
    token = CancelToken()
    timer = threading.Timer(0.05, token.cancel)
    timer.start()
    result = PVSEngine(game, time=None, depth=60).search(game.initial_state(), cancel=token)
    timer.join()
    assert token.is_cancelled
    assert 1 <= result.depth < 60 and result.move in game.legal_moves(game.initial_state())


def test_node_and_depth_limits_are_respected():
    game = get_game("kalah")
    result = PVSEngine(game, time=None).search(game.initial_state(), Limits(nodes=5000))
    assert result.nodes <= 5000 + 256 + 16
    assert PVSEngine(game, time=None).search(game.initial_state(), Limits(depth=3)).depth == 3


def test_an_endgame_is_solved_exactly():
    game = get_game("kalah")
    state = game.from_text("pits=0,0,0,0,1,1/0,0,0,2,0,0 stores=20,24 move=S")
    result = PVSEngine(game, time=None, depth=30).search(state)
    assert result.exhaustive
    assert as_margin(result.score) == SolverEngine(game).search(state).score


@pytest.mark.parametrize("spec", ["greedy", "minimax", "alphabeta", "pvs", "mcts", "solver"])
def test_engines_refuse_one_player_games(spec):
    class Puzzle:
        name = "puzzle"
        title = "A puzzle"
        num_players = 1

    with pytest.raises(EngineError, match="two-player"):
        engine_info(spec).load()(Puzzle())


def test_an_unknown_evaluator_is_named_with_the_choices():
    game = get_game("kalah")
    with pytest.raises(EngineError, match="valid: default, store"):
        make_engine(game, "pvs:eval=nonsense")


def test_the_poll_interval_stays_within_its_bounds_and_the_node_limit():
    budget = Budget(Limits(nodes=1000), None, poll=256)
    interval = budget.poll(10)
    assert MIN_POLL <= interval <= 256
    assert budget.poll(990) <= 10  # never past the node limit
    with pytest.raises(SearchAborted):
        budget.poll(1000)


def test_a_cut_short_iteration_plays_a_move_proven_at_least_as_good():
    """When the budget stops an iteration after its first root move, the move played is the best proven so
    far in that deeper iteration: never worse, at that depth, than the last completed iteration's move."""
    game = get_game("kalah")
    evaluator = get_evaluator(game)
    searcher = _AlphaBeta(game, evaluator, Budget(None, None))
    cut_short = changed = 0
    for state in [game.initial_state()] + random_positions(game, 2, seed=11, max_plies=20):
        mover = game.to_move(state)
        for nodes in range(200, 2600, 200):
            reports = []
            result = PVSEngine(game, time=None, poll=16).search(state, Limits(nodes=nodes), progress=reports.append)
            depth = result.info.get("partial_depth")
            if depth is None or not reports:
                continue
            cut_short += 1
            completed = reports[-1].move
            changed += result.move != completed
            value = searcher.child_value(state, result.move, mover, depth, float("-inf"), float("inf"))
            assert value >= result.score, (game.to_text(state), nodes)  # the score is exact or a lower bound
            before = searcher.child_value(state, completed, mover, depth, float("-inf"), float("inf"))
            assert value >= before, (game.to_text(state), nodes)
            assert result.depth == depth - 1 == reports[-1].depth
    assert cut_short >= 10 and changed >= 1




def test_the_collector_is_paused_while_pvs_searches():
    import gc

    game = get_game("kalah")
    seen = []
    PVSEngine(game, time=None, depth=3).search(game.initial_state(), progress=lambda r: seen.append(gc.isenabled()))
    assert seen == [False, False, False] and gc.isenabled()
