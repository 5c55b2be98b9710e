"""The packed Solitaire search: its round table against the rules' own sowing, exactness against plain
enumeration (histories included), and the same search as heuristic depth-first on full deals."""
from __future__ import annotations

import random

import pytest

from ai.single_agent import Budget, heuristic_depth_first
from ai.solitaire_packed import pack, packed_depth_first, round_table, unpack
from ai.solitaire_problem import DEAD, SolitaireProblem
from rules.solitaire import HOLES, Solitaire, SolitaireState
from tests.ai.test_solitaire_search import SMALL, assert_proven_best, brute_best

DOSE = Solitaire()
LEWIS = Solitaire(variant="lewis")


@pytest.mark.parametrize("game", [DOSE, LEWIS], ids=["dose", "lewis"])
def test_every_precomputed_round_matches_the_rules(game):
    rng = random.Random(7)
    table = round_table(game.is_lewis)
    for start in range(HOLES):
        for stones in range(1, 37):
            board = [rng.randrange(0, 3) for _ in range(HOLES)]
            board[start] = stones
            state = SolitaireState(tuple(board), (0, 0), start)
            problem = SolitaireProblem(game, state)
            legal = game.legal_moves(state)
            entries = table[start][stones]
            assert tuple(entry[3] for entry in entries) == legal
            for change, last, stores, move, _ in entries:
                holes, selected, stored, _ = problem.result(problem.initial, move)
                packed_board = (pack(tuple(board), start) >> 4) + change
                assert unpack(packed_board << 4 | start)[0] == holes
                assert stores == (stored == 1)
                lost = not stores and holes[last] == 1
                assert (selected == DEAD) == lost
                if not lost:
                    assert selected == (last if holes[last] else None)


@pytest.mark.parametrize("game", [DOSE, LEWIS], ids=["dose", "lewis"])
@pytest.mark.parametrize("holes, selected", SMALL)
def test_packed_search_agrees_with_enumeration_and_proves_it(game, holes, selected):
    state = SolitaireState(holes, (0, 0), selected)
    problem = SolitaireProblem(game, state)
    assert_proven_best(game, state, problem, packed_depth_first(problem, Budget(nodes=200_000)))


@pytest.mark.parametrize("game", [DOSE, LEWIS], ids=["dose", "lewis"])
def test_the_history_of_the_real_game_is_respected(game):
    # Play a few rounds that store nothing, then search: the positions already seen must not be used again.
    rng = random.Random(3)
    for holes, selected in SMALL:
        state = SolitaireState(holes, (0, 0), selected)
        for _ in range(3):
            quiet = [m for m in game.legal_moves(state)
                     if not game.is_terminal(after := game.apply(state, m)) and after.stored == state.stored]
            if not quiet:
                break
            state = game.apply(state, rng.choice(quiet))
        solution = packed_depth_first(SolitaireProblem(game, state), Budget(nodes=200_000))
        assert solution.exhaustive and solution.value == brute_best(game, state)


@pytest.mark.parametrize("game", [DOSE, LEWIS], ids=["dose", "lewis"])
def test_same_search_as_heuristic_depth_first_on_deals(game):
    for seed in (1, 3):
        state = game.initial_state(seed=seed)
        slow = heuristic_depth_first(SolitaireProblem(game, state), Budget(seconds=30))
        fast = packed_depth_first(SolitaireProblem(game, state), Budget(seconds=30))
        assert fast.solved and fast.value == game.ceiling
        assert fast.path == slow.path and fast.stats.expanded == slow.stats.expanded


def test_a_node_budget_stops_it_with_the_best_line_so_far():
    state = DOSE.initial_state(seed=232)
    solution = packed_depth_first(SolitaireProblem(DOSE, state), Budget(nodes=3000))
    assert not solution.solved and not solution.exhaustive and solution.reason == "budget spent"
    assert solution.stats.visited < 3000 + 2 * 512 and solution.value == solution.final[2] > 0
    assert pack(*unpack(pack(state.board, None))) == pack(state.board, None)
