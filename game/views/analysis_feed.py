"""What the analysis panel shows, less the drawing: the analysis of the position on the board and the values of
the game's positions for the evaluation graph.  Nothing here imports arcade, and nothing here waits.

``AnalysisFeed.follow(state)`` keeps one ``ai.analysis.Analysis`` running on the position shown, taken from the
game screen's ``ai.analysis.Shelf`` (so the hint asked on the same position reads the same analysis): a new
position lets go of the old analysis and takes another; ``stop`` lets go of it (the panel closes, the screen is
left).  ``poll`` reads its latest snapshot (never blocks), worded for the panel (``game.analysis.worded``), and
the best move's value becomes that position's point on the graph.

The graph has one value per position of the game so far, from South's (Black's) side: the deeper of the panel's
analysis of the position and the computer's own search when it moved there (``EvaluationHistory.record_result``
says whether that search's score is on the engines' scale; a proof beats either), else ``position_value``
computed by ``EvaluationHistory``'s background thread, only while the panel is shown (``fill``).  ``short_words``
and ``point_words`` put a move's and a graph point's value in the panel's words.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from ai.analysis import POSITION_SECONDS, Analysis, EvaluationHistory, Point, Shelf, Snapshot
from ai.calibration import has_seeds
from ai.evaluators import final_score
from game.analysis import worded
from game.analysis_words import side_words
from rules import Game, State


class AnalysisFeed:
    """The analysis of the shown position and the graph's values for one game screen."""

    def __init__(self, game: Game, seconds: float | None = None, quick_seconds: float = POSITION_SECONDS,
                 shelf: Shelf | None = None) -> None:
        self.game = game
        self.shelf = shelf if shelf is not None else Shelf(game)
        """Where the analyses come from: the game screen's (``MatchController.analyses``), shared with the hint."""
        self.seconds = seconds
        """The analysis's time per position (None: until it finishes or is cancelled); tests shorten it."""
        self.quick_seconds = quick_seconds
        """The background value's time per position of the graph."""
        self.analysis: Analysis | None = None
        self.state: State | None = None
        """The position analysed (None: none)."""
        self.snapshot: Snapshot | None = None
        self.error = ""
        """Why the position cannot be analysed (the analysis could not start), or empty."""
        self.history = EvaluationHistory(game)
        self.analysed: dict[State, tuple[Point, int]] = {}
        """Positions the panel has analysed: their best move's value (South's side) and the depth it came from."""
        self.computed: dict[State, tuple[Point, int]] = {}
        """Positions the computer moved from: its search's value (South's side) and the depth it came from."""
        self._raw: Snapshot | None = None
        """The analysis's latest snapshot as it came (``snapshot`` is it worded)."""
        self._asked: tuple[State, ...] = ()
        self._computer_seen: Any = None

    # -- the shown position -----------------------------------------------------------------------------------
    def follow(self, state: State) -> None:
        """Analyse ``state`` (nothing new when it is already the one analysed; a finished game is not searched)."""
        if self.state is not None and state == self.state:
            return
        self.cancel()
        self.state = state
        if self.game.is_terminal(state):
            self.analysed[state] = Point(final_score(self.game, state, 0), True), 0
        else:
            try:
                self.analysis = self.shelf.take(state, self.seconds)
            except Exception as error:  # noqa: BLE001 - said in the panel; the game screen goes on
                self.error = f"{type(error).__name__}: {error}"

    def cancel(self) -> None:
        """Stop the analysis (its thread finishes on its own); the next ``follow`` starts afresh."""
        if self.analysis is not None:
            self.shelf.drop(self.analysis)
        self.analysis, self.state, self.snapshot, self.error = None, None, None, ""

    def stop(self) -> None:
        """Stop every background search: the analysis and the graph's values."""
        self.cancel()
        self.history.stop()
        self._asked = ()

    def poll(self) -> Snapshot | None:
        """The latest snapshot of the analysis (kept once seen), its best value recorded for the graph, as the
        best values of the shelf's other analyses (the hint's) are."""
        for state, other in self.shelf.snapshots():
            self._record(state, other)
        if self.analysis is None or self.state is None:
            return self.snapshot
        snapshot = self.analysis.poll()
        if snapshot is not None and snapshot is not self._raw:
            self._raw = snapshot
            self.snapshot = snapshot = worded(self.game, self.state, snapshot)
            self._record(self.state, snapshot)
        return self.snapshot

    def _record(self, state: State, snapshot: Snapshot) -> None:
        """An analysis's best value as ``state``'s point on the graph, unless a deeper one is known."""
        best = snapshot.best
        if best is None or not best.scored:
            return
        known = self.analysed.get(state)
        if known is not None and (known[0].proven, known[1]) > (best.proven, snapshot.depth):
            return
        self.analysed[state] = Point(self.south_view(state, best.score), best.proven), snapshot.depth

    # -- the graph --------------------------------------------------------------------------------------------
    def south_view(self, state: State, score: float) -> float:
        """A score from the side to move in ``state`` as South's (Black's)."""
        return score if self.game.to_move(state) == 0 else -score

    def note_computer(self, result: tuple[State, Any] | None) -> None:
        """The computer's last search (the position it moved in and its ``SearchResult``), read once."""
        if result is None or result is self._computer_seen:
            return
        self._computer_seen = result
        state, search = result
        if self.history.record_result(state, search):
            value = self.history.value(state)
            if value is not None:
                self.computed[state] = value, search.depth

    def fill(self, states: Sequence[State]) -> None:
        """Have the history value, in its background thread, the positions of ``states`` no one has valued
        (asked again only when that list changes, so a position that cannot be valued is not retried each frame)."""
        missing = tuple(state for state in self.history.missing(states)
                        if state not in self.analysed and state not in self.computed)
        if missing and missing != self._asked and not self.history.filling:
            self._asked = missing
            self.history.start(missing, self.quick_seconds)

    def points(self, states: Sequence[State]) -> list[Point | None]:
        """The graph's values of ``states`` in order (None: not known yet)."""
        return [self.value(state) for state in states]

    def value(self, state: State) -> Point | None:
        """One position's value: a proof, else the deeper of the analysis's and the computer's, else the history's."""
        known = [found for found in (self.analysed.get(state), self.computed.get(state)) if found is not None]
        if known:
            return max(known, key=lambda found: (found[0].proven, found[1]))[0]
        return self.history.value(state)


# -- words ------------------------------------------------------------------------------------------------------
def short_words(words: str) -> str:
    """A value's words without their trailing note: "wins by 6, proven" -> "wins by 6", "about 3 seeds ahead (18
    plies)" -> "about 3 seeds ahead"."""
    return re.sub(r"(,\s*proven|\s*\([^()]*\))$", "", words) or words


def point_words(game: Any, value: Point | None, state: State | None = None) -> str:
    """A graph point's value (South's side) in words, said of the side it favours: "North wins by 3, proven",
    "South is about 2 seeds ahead", "Black is slightly better", "White is winning", "even"."""
    if state is not None and game.is_terminal(state):
        return final_words(game, state)
    if value is None:
        return "not valued yet"
    return side_words(game, value.score, value.proven, True, state)  # ``state``: the position, for the calibration


def final_words(game: Any, state: State) -> str:
    """A finished game's result, said of the winner: "Black won", "North won by 3", "a draw" (a point at the
    game's end is not a forced win still to come)."""
    outcome = game.outcome(state)
    if outcome.winner is None:
        return "a draw"
    name = game.player_names[outcome.winner]
    margin = outcome.margin(outcome.winner)
    return f"{name} won by {margin}" if has_seeds(game) and margin else f"{name} won"
