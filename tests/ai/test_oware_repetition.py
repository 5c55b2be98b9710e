"""Oware's repetition and no-capture endings: what the rules score (docs/rules/oware.md, point 6), what the
search returns when every continuation repeats (both kernels: the compiled core and the Python reference), and
the ``banked`` evaluator term, which must be computed alike by the evaluator and both kernels."""
from __future__ import annotations

import random

import pytest

from ai.evaluators import WIN, final_score, get_evaluator
from ai.evaluators.oware import OwareEvaluator
from ai.fast import kernel_for
from ai.fast.oware import OwareKernel
from ai.search import PVSEngine, new_table
from rules import Reason, get_game
from rules.oware import OwareState
from tests.cores import CORES

GAME = get_game("oware")


def cycling_state() -> OwareState:
    """South to move, no move captures, and every move's board has been seen since the last capture, so each
    legal move ends the game by repetition; the moves leave different seeds on each side."""
    pits = (0, 0, 0, 1, 2, 5) + (0, 0, 0, 0, 4, 1)
    stores = (20, 15)
    state = OwareState(pits, stores, 0, 10, frozenset())
    seen = frozenset(GAME.apply(state, move).board_key for move in GAME.legal_moves(state))
    return OwareState(pits, stores, 0, 10, seen)


def test_the_rules_score_a_repetition_with_each_side_taking_its_own_seeds():
    state = cycling_state()
    margins = {}
    for move in GAME.legal_moves(state):
        after = GAME.apply(state, move)
        outcome = GAME.outcome(after)
        assert outcome is not None and outcome.reason is Reason.REPETITION
        south = after.stores[0] + sum(after.pits[:6])
        north = after.stores[1] + sum(after.pits[6:])
        assert outcome.scores == (south, north)
        margins[move] = south - north
    assert len(set(margins.values())) > 1, margins  # the moves really differ in what they leave on each side


def test_the_rules_score_the_no_capture_limit_by_the_score_houses_alone():
    game = get_game("oware", no_capture_limit=12)
    pits = (0, 0, 0, 1, 2, 5) + (0, 0, 0, 0, 4, 1)
    state = OwareState(pits, (20, 15), 0, 11, frozenset())
    move = 3  # one seed to house 4: no capture, so the twelfth move without one
    after = game.apply(state, move)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.reason is Reason.NO_CAPTURE_LIMIT
    assert outcome.scores == (20, 15)  # seeds left on the board count for nobody
    assert sum(after.pits) == 13


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("depth", [1, 4])
def test_a_position_whose_every_move_repeats_is_worth_the_rules_final_margin(core, depth):
    """The search's value is the best final score the repetition endings give (WIN plus the margin of own
    seeds and score house), not a draw or a heuristic."""
    state = cycling_state()
    expected = max(final_score(GAME, GAME.apply(state, move), 0) for move in GAME.legal_moves(state))
    assert abs(expected) > WIN  # a real win or loss by seeds, not a 0
    engine = PVSEngine(GAME, time=None, depth=depth)
    evaluator = get_evaluator(GAME)
    engine.evaluator, engine.kernel = evaluator, kernel_for(GAME, evaluator, compiled=core)
    engine.table = new_table(engine.kernel, 1)
    assert getattr(engine.kernel, "compiled", False) == core
    result = engine.search(state)
    assert result.score == expected
    best = max(GAME.legal_moves(state), key=lambda move: final_score(GAME, GAME.apply(state, move), 0))
    assert result.move == best


def test_the_compiled_and_python_kernels_score_repetitions_alike():
    """Random endgames with their real histories: every move's final score, by both kernels, is the rules'."""
    from ai.core.kernels import CompiledOwareKernel

    evaluator = get_evaluator(GAME)
    fast = OwareKernel(GAME, evaluator)
    compiled = CompiledOwareKernel(GAME, evaluator)
    rng = random.Random(32)
    repetitions = 0
    while repetitions < 20:
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            finals = {c[0]: c[3] for c in fast.children(fast.encode(state))}
            compiled_finals = {c[0]: c[3] for c in compiled.children(compiled.encode(state), compiled.history(state))}
            assert finals == compiled_finals, GAME.to_text(state)
            for move in GAME.legal_moves(state):
                after = GAME.apply(state, move)
                if GAME.is_terminal(after):
                    assert finals[move] == final_score(GAME, after, state.to_move), GAME.to_text(state)
                    repetitions += GAME.outcome(after).reason is Reason.REPETITION
            # play on in the late game mostly without captures, so that boards recur
            moves = GAME.legal_moves(state)
            state = GAME.apply(state, rng.choice(moves))


BANKED = OwareEvaluator("banked-test", mobility=0.5, banked=0.125, banked_seeds=20)
BANKED_INEXACT = OwareEvaluator("banked-inexact", side=0.1, mobility=0.3, vulnerable=0.7, banked=0.3, banked_seeds=30)


@pytest.mark.parametrize("evaluator", [BANKED, BANKED_INEXACT], ids=lambda e: e.name)
def test_the_banked_term_is_computed_alike_by_the_evaluator_and_both_kernels(evaluator):
    from ai.core.kernels import CompiledOwareKernel

    fast = OwareKernel(GAME, evaluator)
    compiled = CompiledOwareKernel(GAME, evaluator)
    plain = OwareEvaluator("plain", side=evaluator.side, mobility=evaluator.mobility, vulnerable=evaluator.vulnerable)
    rng = random.Random(7)
    late = early = 0
    for _ in range(60):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            value = evaluator.evaluate(GAME, state)
            if evaluator is BANKED:  # the packed Python kernel sums in integers: exact for binary fractions only
                assert fast.evaluate(fast.encode(state)) == value, GAME.to_text(state)
            assert compiled.evaluate(compiled.encode(state)) == value, GAME.to_text(state)
            base = plain.evaluate(GAME, state)
            own = sum(state.pits[6 * state.to_move : 6 * state.to_move + 6])
            if sum(state.pits) <= evaluator.banked_seeds:
                assert value == pytest.approx(base + evaluator.banked * (own - (sum(state.pits) - own)))
                late += own * 2 != sum(state.pits)
            else:
                assert value == base
                early += 1
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert late > 50 and early > 50, (late, early)  # both sides of the threshold were exercised


def test_the_default_counts_own_side_seeds_over_the_whole_game_alike_in_both_kernels():
    """The shipped default (``BANKED``: 0.125 from 48 seeds down, the whole game) adds an eighth of the side
    difference from the first move on, and the evaluator and both kernels agree on it."""
    from ai.core.kernels import CompiledOwareKernel
    from ai.evaluators.oware import BANKED, OWARE_WEIGHTS

    default = get_evaluator(GAME, "default")
    assert (default.banked, default.banked_seeds) == BANKED
    assert (default.side, default.mobility, default.vulnerable) == OWARE_WEIGHTS
    assert default.banked_seeds >= 4 * 12  # every board of the game
    fast, compiled = OwareKernel(GAME, default), CompiledOwareKernel(GAME, default)
    unbanked = OwareEvaluator("plain", side=default.side, mobility=default.mobility, vulnerable=default.vulnerable)
    rng = random.Random(11)
    uneven = 0
    for _ in range(20):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            value = default.evaluate(GAME, state)
            assert fast.evaluate(fast.encode(state)) == value == compiled.evaluate(compiled.encode(state))
            own = sum(state.pits[6 * state.to_move : 6 * state.to_move + 6])
            side = own - (sum(state.pits) - own)
            assert value == pytest.approx(unbanked.evaluate(GAME, state) + 0.125 * side)
            uneven += side != 0 and sum(state.pits) > 36  # where the previous default (from 36 down) said nothing
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert uneven > 50


def test_table_leaves_search_on_through_the_boards_the_tables_hold(tmp_path):
    """``table_leaves``: a board the endgame tables hold is valued by them (score houses plus the table's margin)
    and searched on, instead of ending the line as a proven result; without it, it ends the line."""
    from ai import tables
    from ai.core.kernels import CompiledOwareKernel

    loaded = tables.build_oware_tables(tmp_path, 8, threads=1)[0].tables
    plain = CompiledOwareKernel(GAME, get_evaluator(GAME))
    leaves = CompiledOwareKernel(GAME, get_evaluator(GAME, "table-leaves"))
    for kernel in (plain, leaves):
        kernel.core.use_tables(loaded)
    rng = random.Random(5)
    checked = 0
    while checked < 30:
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and sum(state.pits) > 8:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        if GAME.is_terminal(state):
            continue
        base = 6 * state.to_move
        own, other = state.pits[base:base + 6], state.pits[6 - base:12 - base]
        store = state.stores[state.to_move] - state.stores[1 - state.to_move]
        position = leaves.encode(state)
        assert leaves.evaluate(position) == store + loaded.lookup(own, other), GAME.to_text(state)
        assert plain.evaluate(position) == get_evaluator(GAME).evaluate(GAME, state)
        by_plain = {c[0]: c for c in plain.children(position, plain.history(state))}
        for move, child, _, final in leaves.children(position, leaves.history(state)):
            after = GAME.apply(state, move)
            if GAME.is_terminal(after):  # the rules' endings still end the line, scored exactly
                assert final == final_score(GAME, after, state.to_move)
            else:  # searched on, where the plain kernel takes the table's value as proven
                assert child is not None and final is None
                assert by_plain[move][3] is not None and abs(by_plain[move][3]) >= WIN or by_plain[move][3] == 0
        checked += 1
