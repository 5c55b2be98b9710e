"""A position a packed kernel cannot hold (a hand-edited save with another seed total, a Hus pit over the
packing's limit) is searched on the rules protocol instead: same values as the general kernel, no crash."""
from __future__ import annotations

import pytest

from ai.fast import GameKernel, kernel_for, kernel_holding
from ai.evaluators import get_evaluator
from ai.registry import make_engine
from ai.base import Limits
from rules import get_game
from rules.hus import HusState
from tests.cores import compiled_only

KALAH = get_game("kalah")

ODD_TOTALS = [
    "pits=0,0,0,0,0,1/0,0,3,0,0,0 stores=30,30 move=S",  # 64 seeds, not 48: South's only move loses by 2
    "pits=60,0,0,0,0,1/0,0,3,0,0,0 stores=0,0 move=S",  # a pit over the packed field's width
    "pits=1,0,0,0,0,1/0,0,1,0,0,2 stores=3,2 move=N",  # 10 seeds
]


@pytest.mark.parametrize("text", ODD_TOTALS)
def test_pvs_on_a_kalah_position_with_another_seed_total_matches_the_rules_kernel(text: str) -> None:
    state = KALAH.from_text(text)
    fast = make_engine(KALAH, "pvs:depth=6").search(state, Limits())
    general = make_engine(KALAH, "pvs:depth=6,fast=false").search(state, Limits())
    assert (fast.move, fast.score) == (general.move, general.score)
    assert fast.move in KALAH.legal_moves(state)


def test_the_solver_gives_the_true_margin_of_a_position_with_another_seed_total() -> None:
    state = KALAH.from_text(ODD_TOTALS[0])
    (move,) = KALAH.legal_moves(state)
    after = KALAH.apply(state, move)
    # South sows its last seed into the store (31) and has no seeds left: North keeps its 3 (30 + 3 = 33).
    assert KALAH.is_terminal(after) and KALAH.outcome(after).scores == (31, 33)
    result = make_engine(KALAH, "solver").search(state, Limits())
    assert result.move == move and result.score == -2


def test_the_packed_kalah_kernel_says_which_positions_it_holds() -> None:
    kernel = kernel_for(KALAH, get_evaluator(KALAH, "default"), compiled=False)
    assert kernel.accepts(KALAH.initial_state())
    odd = KALAH.from_text(ODD_TOTALS[0])
    assert not kernel.accepts(odd)
    assert kernel_holding(kernel, KALAH.initial_state()) is kernel
    fallback = kernel_holding(kernel, odd)
    assert isinstance(fallback, GameKernel) and fallback.evaluator is kernel.evaluator


def test_a_hus_position_over_the_packed_limit_is_searched_on_the_rules_kernel() -> None:
    game = get_game("hus")
    state = HusState((200,) + (2,) * 31 + (2,) * 32, 0, 1)
    fast = make_engine(game, "pvs:depth=1").search(state, Limits())
    general = make_engine(game, "pvs:depth=1,fast=false").search(state, Limits())
    assert (fast.move, fast.score) == (general.move, general.score)


@compiled_only
def test_the_compiled_kalah_kernel_holds_any_seed_total() -> None:
    kernel = kernel_for(KALAH, get_evaluator(KALAH, "default"), compiled=True)
    assert kernel.compiled
    for text in ODD_TOTALS:
        state = KALAH.from_text(text)
        assert kernel.accepts(state) and kernel_holding(kernel, state) is kernel
        assert kernel.decode(kernel.encode(state), state.to_move) == state
