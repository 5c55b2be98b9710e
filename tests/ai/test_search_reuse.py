"""``pvs:reuse=true``: a timed search lets a table entry of a deeper search cut (``Budget.deeper_cutoffs``), so
what an earlier search of the game proved deeper is not searched again; a depth- or node-limited search never
does, and stays the plain minimax value.  Both cores (the compiled search and the Python ``_Run``)."""
from __future__ import annotations

import pytest

from ai.alphabeta import alphabeta_value
from ai.base import CancelToken, Limits
from ai.evaluators import get_evaluator
from ai.registry import make_engine
from rules import get_game
from tests.cores import CORES
from tests.playouts import playout_positions


def nodes_to(engine, state, depth, seconds=30.0):
    """The nodes a timed search of ``state`` has searched when its iteration ``depth`` is done (the search is
    cancelled then)."""
    seen = {}
    token = CancelToken()

    def progress(result):
        seen.setdefault(result.depth, result.nodes)
        if result.depth >= depth:
            token.cancel()

    engine.search(state, Limits(time=seconds), token, progress)
    return seen


@pytest.mark.parametrize("compiled", CORES)
@pytest.mark.parametrize("name", ["kalah", "oware", "magnetic-cave"])
def test_a_depth_limited_search_stays_exact_with_deeper_entries_in_the_table(name, compiled):
    game = get_game(name)
    fast = "true" if compiled else "false"
    for state in playout_positions(game, 2, seed=4, longest=20, shortest=4):
        engine = make_engine(game, f"pvs:time=0.3,reuse=true,fast={fast}")
        engine.search(state)                       # a timed search: deep entries in the table
        for child in (game.apply(state, move) for move in game.legal_moves(state)[:3]):
            if game.is_terminal(child):
                continue
            result = engine.search(child, Limits(depth=3))
            expected = alphabeta_value(game, get_evaluator(game, "default"), child, 3)
            assert result.score == expected, game.to_text(child)


@pytest.mark.parametrize("compiled", CORES)
@pytest.mark.parametrize("name", ["kalah", "oware"])
def test_a_timed_search_reuses_a_deeper_search_of_the_position_only_with_reuse(name, compiled):
    game = get_game(name)
    fast = "true" if compiled else "false"
    depth, deeper = (6, 9) if not compiled else (10, 14)
    for state in playout_positions(game, 2, seed=8, longest=20, shortest=4):
        fresh = nodes_to(make_engine(game, f"pvs:time=30,reuse=true,fast={fast}"), state, depth)
        for reuse in (True, False):
            engine = make_engine(game, f"pvs:time=30,reuse={str(reuse).lower()},fast={fast}")
            engine.search(state, Limits(depth=deeper))      # an earlier, deeper search of the same position
            again = nodes_to(engine, state, depth)
            if depth not in fresh or depth not in again:     # resolved early: nothing to compare
                continue
            if reuse:   # the deeper entries cut at once: a fraction of a fresh search's nodes
                assert again[depth] * 4 < fresh[depth], (game.to_text(state), again[depth], fresh[depth])
            else:       # only entries of exactly the depth asked: the iterations are searched again
                assert again[depth] * 4 >= fresh[depth], (game.to_text(state), again[depth], fresh[depth])
