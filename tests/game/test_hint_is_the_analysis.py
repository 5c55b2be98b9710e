"""One voice for advice (issue 30): the hint is the analysis of the position.

On hundreds of positions per registered two-player game (seeded random playouts, early to late, so the tables,
the prover, the cave's endgame solver and finished games all give values), the hint's question to the analysis
(``ai.analysis.Asking``, what ``MatchController.hint`` asks) names the analysis's best move with the same value as
an independent analysis of the same position, and its words name that move.  Deterministic: fixed depths, no
clock (a depth-limited analysis schedules its exact helpers by rounds, not by time).
"""
from __future__ import annotations

import math
import random
from typing import Any

import pytest

import ai.core
import rules
from ai.analysis import Asking, Shelf, Snapshot, advice, analyse
from ai.base import Limits
from game import explain
from game.controller import MatchController
from game.savegame import Seat
from game.session import Session
from tests import registered

POSITIONS = {"hus": 150, "magnetic-cave": 150}
"""Positions per game (200 unless named here: the cave's endgame solver and Hus's long sowings cost most)."""
DEPTHS = {"magnetic-cave": 2}
"""The analysis's depth per game (3 unless named here)."""
WAIT = 60.0
"""A guard against a hang only: every analysis here ends at its depth."""

needs_core = pytest.mark.skipif(ai.core.module() is None, reason="hundreds of analyses need the compiled core")


def positions(game: rules.Game, count: int, seed: int) -> list[Any]:
    """Positions of seeded random games, at every stage (up to 150 plies in), each with a legal move."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.random_walk(game.initial_state(), rng, rng.randrange(0, 150))
        if not game.is_terminal(state):
            found.append(state)
    return found


def forget_proofs() -> None:
    """Empty the process's shared memo of the cave's endgame proofs: whether a solver proves a position within
    its node budget depends on what it proved before (a proof is never wrong), so two analyses compare only from
    the same memo."""
    from ai.cave_endgame import SHARED_TABLE

    SHARED_TABLE.clear()
    ai.core.module().shared_endgame_table().clear()


def assert_equal_moves_are_equal(game: rules.Game, state: Any, snapshot: Snapshot) -> None:
    """Moves to the same position have the same value; equal values come in the rules' order (settled first)."""
    by_key: dict[Any, float] = {}
    for value in snapshot.moves:
        key = game.key(game.apply(state, value.move))
        assert by_key.setdefault(key, value.score) == value.score or math.isnan(value.score), value
    order = {move: index for index, move in enumerate(game.legal_moves(state))}
    for first, second in zip(snapshot.moves, snapshot.moves[1:]):
        if first.score == second.score and first.settled == second.settled and (first.source == "end") == (
                second.source == "end"):
            assert order[first.move] < order[second.move], (first, second)


@needs_core
@pytest.mark.parametrize("name", registered.two_player())
def test_the_hint_is_the_analysiss_best_move_with_the_same_value(name: str) -> None:
    game = rules.get_game(name)
    depth = DEPTHS.get(name, 3)
    shelf = Shelf(game)
    sources: set[str] = set()
    cave = name == "magnetic-cave"
    for state in positions(game, POSITIONS.get(name, 200), seed=30):
        if cave:
            forget_proofs()
        reference = analyse(game, state, Limits(depth=depth))
        best = reference.best
        assert best is not None and best.scored and best.expectation is not None
        assert_equal_moves_are_equal(game, state, reference)
        sources.add(best.source)
        if cave:
            forget_proofs()
        asking = Asking(shelf, state, None, depth=depth)
        hint = asking.wait(WAIT)
        assert hint is not None, asking.error
        assert hint.move == best.move and hint.score == best.score, (game.to_text(state), hint, best)
        assert hint.info["move_value"] == best  # the same value: score, proof, depth, source and expectation
        assert hint.info["alternatives"] == {value.move: value.score for value in reference.moves[1:]}
        words = explain.hint_text(game, state, hint, hint.info["alternatives"])
        name_of_best = explain.move_name(game, state, best.move)
        assert words.lower().startswith(name_of_best.lower()) or f"; {name_of_best} " in words, words
    assert "search" in sources and sources - {"search"}, sources  # exact values too: late positions were met


@needs_core
def test_a_kalah_hint_late_in_the_game_is_proven_with_the_analysiss_exact_value() -> None:
    game = rules.get_game("kalah")
    late = [state for state in positions(game, 400, seed=7) if sum(state.pits) <= 12][:20]
    assert late
    for state in late:
        snapshot = analyse(game, state, Limits(depth=3))
        found = advice(game, state, snapshot)
        assert found is not None and snapshot.best is not None and snapshot.best.settled, game.to_text(state)
        assert found.info["proven"] and found.exhaustive and found.move == snapshot.best.move


class Settings:
    def __init__(self, helper: str) -> None:
        self.values = {"think_time": 30.0, "hint_helper": helper}

    def get(self, name: str) -> Any:
        return self.values[name]

    def engine_spec(self, game: Any, role: str) -> str:
        return "alphabeta:depth=2"


def test_the_hint_reuses_the_analysis_the_panel_runs_on_the_position() -> None:
    """The panel's analysis of the position (unlimited, on the screen's Shelf) is the one the hint reads: no
    second search starts, and the hint names its best move."""
    game = rules.get_game("kalah", pits=3, seeds=2)  # small: the analysis proves every move within moments
    controller = MatchController(Session.new(game, (Seat(), Seat())), Settings("best"), None, None)
    panel = controller.analyses.take(controller.session.state)  # what AnalysisFeed.follow does
    assert controller.hint()
    assert controller.hint_asking is not None and controller.hint_asking.analysis is panel
    assert panel.wait(WAIT)
    controller.poll()
    snapshot = panel.poll()
    assert snapshot is not None and snapshot.best is not None
    assert controller.hint_move == snapshot.best.move and controller.hint_asking is None
    assert not panel.worker.token.is_cancelled  # the hint let go of it; the panel still holds it
    controller.analyses.drop(panel)


def test_the_quick_helper_stays_a_settings_choice() -> None:
    game = rules.get_game("kalah", pits=3, seeds=2)
    controller = MatchController(Session.new(game, (Seat(), Seat())), Settings("quick"), None, None)
    assert controller.hint()
    assert controller.hint_worker is not None and controller.hint_asking is None
    assert controller.hint_worker.wait(WAIT)
    controller.poll()
    assert controller.hint_move in game.legal_moves(game.initial_state())


def test_the_computers_explanation_reads_the_analysis_of_the_position_it_moved_from() -> None:
    """When the screen's analyses hold the position the computer moved from, at least as deep as its own search,
    its explanation is the analysis's value of the move it played (the panel's); else its own search's."""
    from ai.base import SearchResult

    game = rules.get_game("kalah", pits=3, seeds=2)
    controller = MatchController(Session.new(game, (Seat(), Seat())), Settings("best"), None, None)
    state = controller.session.state
    own = SearchResult(game.legal_moves(state)[-1], 1.25, 1)
    assert controller.judged(state, own) is own  # nothing analysed yet
    analysis = controller.analyses.take(state)
    assert analysis.wait(WAIT)
    snapshot = analysis.poll()
    assert snapshot is not None
    judged = controller.judged(state, own)
    value = snapshot.of(own.move)
    assert judged.move == own.move and value is not None and judged.score == value.score
    assert judged.info["move_value"] == value
    deeper = SearchResult(own.move, 1.25, 99)
    assert controller.judged(state, deeper) is deeper or value.settled
    controller.analyses.drop(analysis)


def test_the_evaluation_graph_takes_the_hints_analysis_as_the_positions_value() -> None:
    from game.views.analysis_feed import AnalysisFeed

    game = rules.get_game("kalah", pits=3, seeds=2)
    controller = MatchController(Session.new(game, (Seat(), Seat())), Settings("best"), None, None)
    state = controller.session.state
    feed = AnalysisFeed(game, shelf=controller.analyses)
    assert feed.value(state) is None
    assert controller.hint()
    asking = controller.hint_asking
    assert asking is not None and asking.wait(WAIT) is not None
    feed.poll()
    best = asking.answer
    assert best is not None
    point = feed.value(state)
    assert point is not None and point.score == best.score  # South is to move: South's view is the mover's
