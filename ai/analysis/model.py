"""What an analysis says of a position: every legal move's value (``MoveValue``), best first, in a ``Snapshot``.

Scores are from the side to move's view in the engines' scale (``ai.evaluators``: a proven win is ``WIN +
margin``); each scored value also carries what it means to a player (``ai.calibration.expect``: the seed margin
to expect, or the chances of each outcome), so the words (``game/analysis_words.py``), the hint and the review
speak in the game's own units.  The words themselves are the screens' (``name`` and ``words`` are empty here:
``game.analysis.worded`` fills them), so nothing in ``ai`` says anything to a player.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from ai.calibration import Expectation
from rules import Move

SOURCES = ("end", "table", "proof", "solver", "prover", "search")
"""What can give a move's value: a finished game, the endgame tables, the opening proof, an endgame solver, the
prover, the search."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move's value from the side to move's view."""

    move: Move
    score: float
    """Engine scale (a proven win is ``WIN + margin``); nan when not scored yet."""
    proven: bool
    """Exact: tables, prover, the cave's endgame solver, a finished game, or a search's proven win or loss."""
    depth: int
    """Plies searched (0 when proven without a search horizon: a table, a solver, a finished game)."""
    exact: bool = True
    """False only for a proven win or loss whose margin is a bound (the search has not seen every line)."""
    source: str = ""
    """What gave the value: one of ``SOURCES``, or ``""`` (not scored)."""
    expectation: Expectation | None = None
    """What the value means to a player (``ai.calibration.expect`` of the position analysed); None when not
    scored yet."""
    name: str = ""
    """The move as the player sees it (``pit 4``, ``D4``): filled by the screen that shows it, empty here."""
    words: str = ""
    """The value as a player reads it: filled by the screen that shows it, empty here."""

    @property
    def scored(self) -> bool:
        return not math.isnan(self.score)

    @property
    def settled(self) -> bool:
        """Exactly known: nothing left to search."""
        return self.proven and self.exact


@dataclass(frozen=True)
class Snapshot:
    """The analysis so far."""

    moves: tuple[MoveValue, ...]
    """Every legal move, best first (moves not yet scored last, score nan); equal scores in a fixed order:
    the exactly proven first, then the rules' order of the moves."""
    depth: int
    """The deepest complete iteration of the search so far (plies from the position; 0 before the first)."""
    finished: bool
    """Nothing more will come: every move proven exactly, the time or the depth limit reached, or cancelled."""
    nodes: int = 0
    """Positions searched and solved so far."""
    seconds: float = 0.0
    """Seconds from the start of the analysis to this snapshot."""
    error: str | None = None
    """Why the analysis stopped early, when it failed."""
    working: tuple[int, int, int] | None = None
    """The iteration under way: (its depth, moves searched so far, moves to search); None between them."""

    @property
    def best(self) -> MoveValue | None:
        """The analysis's advice: the best move and its value (None: no legal move)."""
        return self.moves[0] if self.moves else None

    @property
    def value(self) -> Expectation | None:
        """The position's value for its side to move: the best move's (None: nothing scored yet)."""
        best = self.best
        return None if best is None else best.expectation

    def equals(self, move: Move) -> tuple[MoveValue, ...]:
        """The moves whose value equals ``move``'s (``move``'s own first), e.g. to say "as good as pit 3"."""
        found = [value for value in self.moves if value.move == move]
        if not found or not found[0].scored:
            return tuple(found)
        return tuple(found) + tuple(value for value in self.moves
                                    if value.move != move and value.score == found[0].score)

    def of(self, move: Move) -> MoveValue | None:
        """``move``'s value (None: not a legal move here)."""
        return next((value for value in self.moves if value.move == move), None)


def ranked(values: Iterable[tuple[MoveValue, int]]) -> tuple[MoveValue, ...]:
    """(value, index in the rules' order) pairs, best first; unscored last; among equal scores the exactly
    proven first, a move that ends the game first among those, then the rules' order (deterministic)."""
    def key(pair: tuple[MoveValue, int]) -> tuple:
        value, index = pair
        unscored = not value.scored
        return (unscored, 0.0 if unscored else -value.score, not value.settled, value.source != "end", index)

    return tuple(value for value, _index in sorted(values, key=key))
