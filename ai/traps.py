"""One-move traps for a modelled opponent: a depth-limited player's move chosen with a guess at the reply.

An experiment of the Magnetic Cave player's seventh session (``python bench/bench_cave_player.py strength
--colour white --depth 6 --opponent-model SPEC``): a trap is a root move other than the search's best whose
reply by the modelled opponent leaves the player clearly more, while against perfect play it gives up at most
a set margin.  The default player does not use it; the benchmark measures what it would be worth.
"""
from __future__ import annotations

from typing import cast

from ai import registry
from ai.evaluators import final_score
from rules.magnetic_cave import MagneticCave


def _value(game: MagneticCave, state, depth: int) -> float:
    """``state``'s value for its side to move: exact when the game is over, else a depth-``depth`` search."""
    if game.is_terminal(state):
        return final_score(game, state, state.to_move)
    return registry.make_engine(game, f"pvs:depth={depth},time=none").search(state).score


DECIDED = 5_000
"""A search score beyond which ``trap_move`` sets no trap: a win or a loss is in sight (a threat cell that
will fall, a double threat), far above any quiet position's score."""


def trap_move(game: MagneticCave, state, depth: int, model: str, margin: float, gain: float) -> tuple:
    """The depth-``depth`` player's move with a one-reply opponent model at the root: (move, a trap or not).

    The search's best move and score first.  Then for every root move, the reply ``model`` (an engine spec)
    would play, and the search's value (depth - 2) after that reply.  The move whose modelled reply leaves us
    most, at least ``gain`` above the best score, is played if the search values it (depth - 1) within
    ``margin`` of the best: a move no worse against perfect play, by more than ``margin``, that a modelled
    opponent answers badly.  A proven result, or a win or loss in sight, is played as found.
    """
    best = registry.make_engine(game, f"pvs:depth={depth},time=none").search(state)
    if best.exhaustive or abs(best.score) > DECIDED:
        return best.move, False
    after = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            continue
        reply = registry.make_engine(game, model).search(child).move
        if reply is None:  # no move found (cannot happen in a position that is not over)
            continue
        grandchild = game.apply(child, cast(int, reply))  # an engine's move for the cave is a cell index
        value = _value(game, grandchild, depth - 2)
        after.append((value if grandchild.to_move == state.to_move else -value, move))
    after.sort(key=lambda pair: -pair[0])
    for value, move in after:
        if value < best.score + gain:
            break
        if move == best.move:
            return move, False
        if -_value(game, game.apply(state, move), depth - 1) >= best.score - margin:
            return move, True
    return best.move, False
