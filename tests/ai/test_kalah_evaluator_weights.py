"""Kalah's default evaluation weights are the ones the SPRTs chose (docs/engines.md, "Evaluators"): side 0.25,
mobility 1.0 (accepted over 0.5 at 0.05 s on both capture rules and at 0.3 s with the endgame tables), and the
compiled kernel scores exactly what the evaluator scores."""
from __future__ import annotations

import random

from ai.evaluators import get_evaluator
from ai.fast import kernel_for
from rules import get_game


def test_the_default_weighs_mobility_one_and_side_a_quarter():
    evaluator = get_evaluator(get_game("kalah"))
    assert (evaluator.side, evaluator.mobility, evaluator.extra_turns, evaluator.endgame) == (0.25, 1.0, 0.0, 0.0)
    game = get_game("kalah")
    # one more non-empty pit each side of equal seeds and stores: worth exactly the mobility weight
    spread = game.from_text("pits=1,1,1,1,1,1/2,2,2,0,0,0 stores=21,21 move=S")
    assert evaluator.evaluate(game, spread) == 3.0


def test_the_kernel_evaluates_with_the_same_weights():
    for empty_capture in (True, False):
        game = get_game("kalah", empty_capture=empty_capture)
        evaluator = get_evaluator(game)
        kernel = kernel_for(game, evaluator)
        rng = random.Random(3)
        state = game.initial_state()
        for _ in range(200):
            if game.is_terminal(state):
                state = game.initial_state()
            assert kernel.evaluate(kernel.encode(state)) == evaluator.evaluate(game, state), game.to_text(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
