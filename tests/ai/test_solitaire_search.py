"""Single-agent search on Solitaire Mancala: every engine against exhaustive enumeration on small positions,
budgets and cancellation, hints and the lines engines return replayed through the rules."""
from __future__ import annotations

import threading

import pytest

from ai import registry
from ai.base import CancelToken, EngineError, Limits
from ai.single_agent import Budget, astar, breadth_first, depth_first, ida_star, iterative_deepening
from ai.solitaire_problem import SolitaireProblem
from rules import get_game
from rules.solitaire import Solitaire, SolitaireState

DOSE = Solitaire()
LEWIS = Solitaire(variant="lewis")
ENGINES = [info.name for info in registry.engines(DOSE) if info.kind == "single-agent"]
SMALL = [  # (holes, selected index or None): small positions whose whole game tree is cheap to enumerate
    ((1, 0, 2, 0, 0, 1, 0, 1, 0, 0, 2, 0), None),
    ((0, 0, 0, 1, 2, 1, 0, 0, 0, 2, 0, 1), 4),
    ((2, 1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1), None),
    ((0, 3, 0, 0, 0, 1, 1, 0, 0, 0, 0, 2), 1),
]


def brute_best(game: Solitaire, state: SolitaireState) -> int:
    """The most stones any legal line stores, by plain enumeration of the game tree (repetition included)."""
    if game.is_terminal(state):
        return state.stored
    return max([state.stored] + [brute_best(game, game.apply(state, move)) for move in game.legal_moves(state)])


def assert_proven_best(game: Solitaire, state: SolitaireState, problem: SolitaireProblem, solution) -> None:
    """``solution`` proves the most any line stores from ``state`` and its line, played by the rules, stores it."""
    best = brute_best(game, state)
    assert solution.exhaustive and solution.value == best
    assert solution.solved == (best == problem.target)
    replay = state
    for move in solution.path:
        replay = game.apply(replay, move)
    assert replay.stored == best


@pytest.mark.parametrize("game", [DOSE, LEWIS], ids=["dose", "lewis"])
@pytest.mark.parametrize("holes, selected", SMALL)
def test_complete_searches_agree_with_enumeration_and_prove_it(game, holes, selected):
    state = SolitaireState(holes, (0, 0), selected)
    for search in (lambda p, b: breadth_first(p, None, b), lambda p, b: depth_first(p, None, b),
                   lambda p, b: depth_first(p, None, b, cycle_check=True), lambda p, b: astar(p, b),
                   lambda p, b: ida_star(p, b), lambda p, b: iterative_deepening(p, 2, None, b)):
        problem = SolitaireProblem(game, state)
        assert_proven_best(game, state, problem, search(problem, Budget(nodes=200_000)))


@pytest.mark.parametrize("variant", ["dose", "lewis"])
@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_returns_a_legal_line_with_statistics(variant, name):
    game = get_game("solitaire", variant=variant)
    state = game.initial_state(seed=5)
    result = registry.make_engine(game, name).search(state, Limits(time=0.3))
    assert result.move in game.legal_moves(state) and result.pv[:1] == (result.move,)
    replay = state
    for move in result.pv:
        replay = game.apply(replay, move)
    assert replay.stored == result.score
    assert result.info["visited"] >= result.info["expanded"] > 0 and result.info["reason"]


@pytest.mark.parametrize("variant, target", [("dose", 46), ("lewis", 48)])
def test_the_strongest_engine_solves_fresh_deals_and_says_so(variant, target):
    game = get_game("solitaire", variant=variant)
    engine = registry.make_engine(game, "heuristic-dfs:time=20")
    for seed in range(3):
        result = engine.search(game.initial_state(seed=seed))
        assert result.score == target and result.exhaustive and result.info["solved"]
        assert ("keeps a win possible" if variant == "lewis" else "46 still reachable") in result.info["reason"]


def test_a_lost_cause_is_proven_with_the_most_still_storable():
    # One stone in hole01, one in hole03: under lewis no line clears both, and the search proves it.
    state = LEWIS.from_text("holes=1,0,1,0,0,0/0,0,0,0,0,0 stores=20,26 select=free")
    result = registry.make_engine(LEWIS, "astar").search(state)
    assert result.exhaustive and not result.info["solved"] and result.score == brute_best(LEWIS, state) < 48
    assert "no win is possible" in result.info["reason"]


def test_node_budget_and_cancellation_stop_a_search_that_cannot_finish():
    state = DOSE.initial_state(seed=1)
    result = registry.make_engine(DOSE, "lowest-cost").search(state, Limits(nodes=2000, time=None))
    assert not result.exhaustive and result.nodes <= 2000 + 100 and "not proven" in result.info["reason"]
    token = CancelToken()
    threading.Timer(0.1, token.cancel).start()
    result = registry.make_engine(DOSE, "bfs:max_depth=none,time=none").search(state, None, token)
    assert token.is_cancelled and not result.exhaustive and result.move in DOSE.legal_moves(state)


def test_registry_declares_the_parameters_and_refuses_two_player_games():
    assert {"bfs", "dfs", "cycle-dfs", "iddfs", "lowest-cost", "greedy-best-first", "heuristic-dfs", "astar",
            "weighted-astar", "idastar", "hill-climbing", "steepest-ascent", "beam"} <= set(ENGINES)
    assert registry.engine_info("beam").param("width").default == 50
    with pytest.raises(EngineError, match="width must be"):
        registry.parse_engine_spec("beam:width=0")
    with pytest.raises(EngineError):
        registry.make_engine(get_game("kalah"), "astar")


def test_hill_climbing_is_reproducible_from_its_seed():
    state = LEWIS.initial_state(seed=9)
    first = registry.make_engine(LEWIS, "steepest-ascent:seed=3").search(state, Limits(nodes=3000, time=None))
    again = registry.make_engine(LEWIS, "steepest-ascent:seed=3").search(state, Limits(nodes=3000, time=None))
    assert first.pv == again.pv
