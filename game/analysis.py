"""The analysis (``ai.analysis``) in the player's words: ``worded`` fills each move's ``name`` (``pit 4``, ``D4``)
and ``words`` (``game.analysis_words.value_words``) for the screens and the console to show.  Display only: the
values, the best move and the hint's advice are the analysis's, read from ``ai.analysis``, never computed here.
"""
from __future__ import annotations

from dataclasses import replace

from ai.analysis import MoveValue, Snapshot
from game.analysis_words import UNSCORED, value_words
from game.explain import move_name
from rules import Game, State


def worded(game: Game, state: State, snapshot: Snapshot) -> Snapshot:
    """``snapshot`` with every move's ``name`` and ``words`` filled in (analysed position ``state``)."""
    return replace(snapshot, moves=tuple(worded_value(game, state, value) for value in snapshot.moves))


def worded_value(game: Game, state: State, value: MoveValue) -> MoveValue:
    """One move's value with its ``name`` and ``words`` filled in."""
    words = (value_words(game, value.score, value.proven, value.depth, value.exact, state,
                         expectation=value.expectation) if value.scored else UNSCORED)
    return replace(value, name=move_name(game, state, value.move), words=words)
