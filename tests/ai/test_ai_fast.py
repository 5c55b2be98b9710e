"""The packed Kalah and Oware kernels compute exactly what the rules and the evaluators compute."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from ai.evaluators import get_evaluator
from ai.fast import GameKernel, kernel_for
from ai.fast.kalah import KalahKernel
from ai.fast.oware import OwareKernel
from rules import Reason, get_game
from tests.cores import CORES
from tests.playouts import playout_positions


VARIANTS = [dict(), dict(pits=3, seeds=3), dict(pits=4, seeds=3, empty_capture=False), dict(pits=6, seeds=6),
            dict(pits=4, seeds=12), dict(pits=2, seeds=3)]


@pytest.mark.parametrize("compiled", CORES)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("margins", [False, True])
def test_children_scores_and_evaluation_match_the_rules(variant, margins, compiled):
    game = get_game("kalah", **variant)
    evaluator = get_evaluator(game)
    fast = kernel_for(game, evaluator, margins=margins, compiled=compiled)
    assert getattr(fast, "compiled", False) == compiled
    assert compiled or isinstance(fast, KalahKernel)
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


@pytest.mark.parametrize("compiled", CORES)
def test_search_order_puts_extra_turns_first_and_losing_endings_last(compiled):
    game = get_game("kalah")
    kernel = kernel_for(game, get_evaluator(game), compiled=compiled)
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


@pytest.mark.parametrize("compiled", CORES)
@pytest.mark.parametrize("variant", VARIANTS[:3])
def test_best_leaf_is_the_best_child_score(variant, compiled):
    game = get_game("kalah", **variant)
    evaluator = get_evaluator(game)
    fast = kernel_for(game, evaluator, compiled=compiled)
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


# -- Oware -----------------------------------------------------------------------------------------------------
OWARE_VARIANTS = [dict(), dict(seeds=3, grand_slam="capture", no_capture_limit=40),
                  dict(skip_start=False, repetition=False), dict(no_capture_limit=6), dict(seeds=6)]


@pytest.mark.parametrize("compiled", CORES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_extra_turns_term_counts_the_moves_that_earn_another_turn(variant, compiled):
    """The term is each side's moves that the rules answer with another turn (own minus the opponent's), and
    both kernels' evaluations with every term weighted equal the evaluator's."""
    from ai.evaluators.sowing import SowingEvaluator
    from rules.kalah import KalahState

    game = get_game("kalah", **variant)
    weighted = SowingEvaluator("weighted", side=0.1, mobility=0.3, extra_turns=0.7, endgame=0.9)  # inexact
    alone = SowingEvaluator("alone", extra_turns=1.0)
    fast = kernel_for(game, weighted, compiled=compiled)
    fast_alone = kernel_for(game, alone, compiled=compiled)
    assert getattr(fast, "compiled", False) == compiled

    def extra_turns(state):  # None when a move ends the game (the rules then say nothing of a next turn)
        count = 0
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child):
                return None
            count += child.to_move == state.to_move
        return count

    checked = 0
    for state in playout_positions(game, 150, seed=5 + len(variant)):
        assert fast.evaluate(fast.encode(state)) == weighted.evaluate(game, state), game.to_text(state)
        own, theirs = extra_turns(state), extra_turns(KalahState(state.ring, 1 - state.to_move))
        if own is None or theirs is None:
            continue
        south, north = state.stores
        store = south - north if state.to_move == 0 else north - south
        assert alone.evaluate(game, state) == store + own - theirs, game.to_text(state)
        assert fast_alone.evaluate(fast_alone.encode(state)) == store + own - theirs, game.to_text(state)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("compiled", CORES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_endgame_term_weighs_the_side_difference_by_the_seeds_in_the_stores(variant, compiled):
    """From the rules' state: (own side - other side) * (seeds in both stores) / (all seeds), in both kernels,
    and exactly antisymmetric (the leaf scorer's assumption): the opponent's view is its negation."""
    from ai.evaluators.sowing import SowingEvaluator
    from rules.kalah import KalahState

    game = get_game("kalah", **variant)
    alone = SowingEvaluator("alone", endgame=0.9)  # inexact on purpose
    fast = kernel_for(game, alone, compiled=compiled)
    n = game.pits
    for state in playout_positions(game, 150, seed=9 + len(variant)):
        own = state.pits[:n] if state.to_move == 0 else state.pits[n:]
        other = state.pits[n:] if state.to_move == 0 else state.pits[:n]
        south, north = state.stores
        store = south - north if state.to_move == 0 else north - south
        expected = store + 0.0 * 0 + 0.0 * 0 + 0.9 * ((sum(own) - sum(other)) * (south + north)) / sum(state.ring)
        assert alone.evaluate(game, state) == expected, game.to_text(state)
        assert fast.evaluate(fast.encode(state)) == expected, game.to_text(state)
        mirror = KalahState(state.ring, 1 - state.to_move)
        assert fast.evaluate(fast.encode(mirror)) == -(expected - store) - store, game.to_text(state)


def oware_positions(game, count, seed):
    """Positions from random games, mid-game and endgame ones included (history and counter set)."""
    return playout_positions(game, count, seed, longest=240)


@pytest.mark.parametrize("variant", OWARE_VARIANTS)
@pytest.mark.parametrize("evaluator", ["default", "store"])
def test_oware_children_scores_and_evaluation_match_the_rules(variant, evaluator):
    game = get_game("oware", **variant)
    fast = kernel_for(game, get_evaluator(game, evaluator), compiled=False)
    assert isinstance(fast, OwareKernel)
    slow = GameKernel(game, get_evaluator(game, evaluator))
    repeated = 0
    for state in oware_positions(game, 100, seed=len(variant)):
        position = fast.encode(state)
        assert fast.decode(position, state.to_move) == state
        assert fast.evaluate(position) == slow.evaluate(state), game.to_text(state)
        got, expected = fast.children(position), slow.children(state)
        assert [c[0] for c in got] == [c[0] for c in expected], game.to_text(state)  # same moves, same order
        for (move, child, same, final), (_, rules_child, _, rules_final) in zip(got, expected):
            assert not same and final == rules_final, (game.to_text(state), move)
            if child is not None:
                assert fast.decode(child, rules_child.to_move) == rules_child, (game.to_text(state), move)
                assert fast.key(child) == fast.pack(rules_child.pits, rules_child.stores, rules_child.to_move)
        repeated += bool(state.seen)
    assert repeated or not game.repetition  # histories really were exercised (endings: the next test)


def test_oware_repetition_and_the_move_limit_end_the_game_in_the_kernel():
    """Endings that depend on the history: found in random endgames, scored as the rules score them."""
    game = get_game("oware", no_capture_limit=30)
    kernel = kernel_for(game, get_evaluator(game), compiled=False)
    rules_kernel = GameKernel(game, get_evaluator(game))
    rng = random.Random(4)
    found = Counter()
    while min(found[Reason.REPETITION], found[Reason.NO_CAPTURE_LIMIT], found[Reason.MAJORITY]) < 3:
        state = game.initial_state()
        while not game.is_terminal(state):
            moves = game.legal_moves(state)
            children = kernel.children(kernel.encode(state))
            expected = rules_kernel.children(state)
            assert [(c[0], c[3]) for c in children] == [(c[0], c[3]) for c in expected], game.to_text(state)
            for move, child, _, final in expected:
                if child is None:
                    found[game.outcome(game.apply(state, move)).reason] += 1
            state = game.apply(state, rng.choice(moves))


def test_oware_falls_back_to_the_rules_kernel_where_it_must():
    forbidden = get_game("oware", grand_slam="forbidden")  # the packed Python kernel has no forbidden grand slam
    assert isinstance(kernel_for(forbidden, get_evaluator(forbidden), compiled=False), GameKernel)
    game = get_game("oware")
    assert isinstance(kernel_for(game, get_evaluator(game), margins=True), GameKernel)  # the exact solver


@pytest.mark.parametrize("game_name, weights", [
    ("oware", dict(side=0.25, mobility=0.5, vulnerable=0.25)),
    ("oware", dict(side=0.0, mobility=0.5, vulnerable=0.0)),
    ("kalah", dict(side=0.5, mobility=0.25)),
    ("kalah", dict(side=0.1, mobility=0.3, extra_turns=0.7, endgame=0.9)),  # inexact doubles on purpose
])
def test_packed_searches_with_every_evaluator_term_weighted_return_the_alphabeta_value(game_name, weights):
    """The packed loops skip zero-weight terms and fold constants: every term still counts when weighted."""
    from ai.alphabeta import alphabeta_value
    from ai.evaluators.oware import OwareEvaluator
    from ai.evaluators.sowing import SowingEvaluator
    from ai.search import PVSEngine

    game = get_game(game_name)
    evaluator = (OwareEvaluator if game_name == "oware" else SowingEvaluator)(name="weighted", **weights)
    rng = random.Random(21)
    checked = 0
    while checked < 12:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 40)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.is_terminal(state):
            continue
        depth = rng.randrange(1, 4)
        engine = PVSEngine(game, time=None, depth=depth)
        engine.evaluator, engine.kernel = evaluator, kernel_for(game, evaluator)
        if getattr(engine.kernel, "compiled", False):  # the compiled loop is the one tested
            assert engine.kernel.make_run(engine.table, None, 256) is not None
        assert engine.search(state).score == alphabeta_value(game, evaluator, state, depth), game.to_text(state)
        checked += 1
