"""The packed Kalah kernel computes exactly what the rules and the evaluator compute."""
from __future__ import annotations

import random

import pytest

from ai.evaluators import get_evaluator
from ai.fast import GameKernel, kernel_for
from ai.fast.kalah import KalahKernel
from rules import get_game

VARIANTS = [dict(), dict(pits=3, seeds=3), dict(pits=4, seeds=3, empty_capture=False), dict(pits=6, seeds=6),
            dict(pits=4, seeds=12), dict(pits=2, seeds=3)]


def playout_positions(game, count, seed):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 60)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("margins", [False, True])
def test_children_scores_and_evaluation_match_the_rules(variant, margins):
    game = get_game("kalah", **variant)
    evaluator = get_evaluator(game)
    fast = kernel_for(game, evaluator, margins=margins)
    assert isinstance(fast, KalahKernel)
    slow = GameKernel(game, evaluator, margins=margins)
    extra = ended = captures = 0
    for state in playout_positions(game, 400, seed=len(variant)):
        position = fast.encode(state)
        assert fast.decode(position, state.to_move) == state
        assert fast.evaluate(position) == slow.evaluate(state)
        expected = {child[0]: child for child in slow.children(state)}
        got = {child[0]: child for child in fast.children(position)}
        assert got.keys() == expected.keys(), game.to_text(state)
        for move, (_, child, same, final) in got.items():
            _, rules_child, rules_same, rules_final = expected[move]
            assert (same, final) == (rules_same, rules_final), (game.to_text(state), move)
            if child is None:
                ended += 1
            else:
                assert child == fast.encode(rules_child), (game.to_text(state), move)
                assert fast.decode(child, rules_child.to_move) == rules_child
                extra += same
            captures += game.report(state, move).captured > 0
    assert extra and ended and captures  # the edge cases really were exercised


def test_search_order_puts_extra_turns_first_and_losing_endings_last():
    game = get_game("kalah")
    kernel = kernel_for(game, get_evaluator(game))
    children = kernel.children(kernel.encode(game.initial_state()))
    assert children[0][0] == 2 and children[0][2]  # pit 2's four seeds end in the store
    assert sorted(child[0] for child in children) == list(range(6))


def test_other_evaluators_fall_back_to_the_rules_kernel():
    game = get_game("kalah")

    class Custom:
        name = "custom"

        def evaluate(self, game, state):
            return 0.0

    assert isinstance(kernel_for(game, Custom()), GameKernel)
    assert isinstance(kernel_for(game, get_evaluator(game), fast=False), GameKernel)


@pytest.mark.parametrize("variant", VARIANTS[:3])
def test_best_leaf_is_the_best_child_score(variant):
    game = get_game("kalah", **variant)
    evaluator = get_evaluator(game)
    fast = kernel_for(game, evaluator)
    slow = GameKernel(game, evaluator)
    for state in playout_positions(game, 300, seed=9):
        best, move, _ = fast.best_leaf(fast.encode(state), float("inf"))
        expected, expected_move, _ = slow.best_leaf(state, float("inf"))
        assert best == expected, game.to_text(state)
        # With a bound, the search stops at a child reaching it: the answer says which side of it the value is.
        bounded, _, _ = fast.best_leaf(fast.encode(state), expected - 0.5)
        assert bounded >= expected - 0.5
        bounded, _, _ = fast.best_leaf(fast.encode(state), expected + 0.5)
        assert bounded == expected
