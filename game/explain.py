"""What the match screen says in words: scores, moves, the computer's reasoning, hints and the result.

Window-free: it reads the rules (``report``, ``apply``, ``outcome``) and never re-implements them.
"""
from __future__ import annotations

from rules import Game, State


def is_cave(game: Game) -> bool:
    """Magnetic Cave: bricks on cells rather than seeds in pits."""
    return game.name == "magnetic-cave"


def scores(game: Game, state: State) -> tuple[int, int]:
    """(South's or Black's, North's or White's) score in ``state``: the stores, Hus's seeds on each side,
    or the cave's bricks on the board."""
    stores = getattr(state, "stores", None)
    if stores is not None:
        return stores[0], stores[1]
    if hasattr(state, "bricks"):
        return state.bricks  # type: ignore[attr-defined,no-any-return]
    pits = state.pits  # type: ignore[attr-defined]
    half = len(pits) // 2
    return sum(pits[:half]), sum(pits[half:])
