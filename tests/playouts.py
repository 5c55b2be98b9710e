"""Positions for tests: seeded random games stopped after a random number of moves."""
from __future__ import annotations

import random
from typing import Any


def playout_positions(game: Any, count: int, seed: int, longest: int = 60, shortest: int = 0) -> list:
    """``count`` positions, none finished: each the end of a random game of ``shortest``..``longest - 1`` moves
    (fewer when the game ends first, then it is not kept), played by the rules, so their histories and counters
    are what play leaves.  The same seed gives the same positions."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(shortest, longest)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found
