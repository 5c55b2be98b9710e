"""The analysis of a position: every legal move's value, best first, by the strongest means the game has in the
time given (finished games, the endgame tables, the game's exact helpers: the Kalah prover, the cave's endgame
solver; the compiled search otherwise), each value with what it means to a player (``ai.calibration``).

One analysis serves every reader: the analysis panel, the hint, the evaluation graph, the console's
``analyse`` and ``hint``, and the review of a finished game.  Window-free; ``game/`` only shows it.

The public API:

* ``analyse(game, state, limits, cancel=None) -> Snapshot``: one analysis in the caller's thread (blocking);
  ``Limits(depth=d)`` alone is deterministic (the review's and the tests' mode), ``Limits(time=s)`` the
  strongest in ``s`` seconds.
* ``Analyst(game)``: ``analyse`` for one position after another of the same game, its search table kept
  between them (the review).
* ``Analysis(game, state, seconds=None)``: the same in a background thread (``poll``, ``cancel``, ``wait``);
  ``Shelf(game)`` shares the analyses of one game between their readers (``take``, ``drop``), and
  ``Asking(shelf, state, seconds)`` is the hint's question to it.
* ``advice(game, state, snapshot, move=None) -> SearchResult | None``: the hint read from a snapshot (its best
  move, or ``move``, and that value); ``judged(game, state, result, snapshot)``: an engine's move as the
  analysis values it (the computer's explanation).
* ``Snapshot`` (``moves`` best first, ``best``, ``value``, ``of(move)``, ``depth``, ``finished``) and
  ``MoveValue`` (``move``, ``score``, ``proven``, ``exact``, ``depth``, ``source``, ``expectation``: an
  ``ai.calibration.Expectation``).
* ``position_value(game, state, seconds, cancel)`` and ``EvaluationHistory(game)``: one value per position of
  a game, from South's / Black's view (the evaluation graph's).
* ``AnalysisEngine(game)``: the analysis as an ``ai.base.Engine`` (its results' ``info["snapshot"]``).
"""
from __future__ import annotations

from ai.analysis.engine import FIXED_PROVER_SEEDS, MAX_PLIES, SEARCH_MEMORY, AnalysisEngine
from ai.analysis.exact import PROVER_SEEDS, SOLVER_EMPTIES, SOLVER_NODES, prover_for, solver_for, usable_tables
from ai.analysis.model import SOURCES, MoveValue, Snapshot
from ai.analysis.position import POSITION_SECONDS, SCALED_ENGINES, EvaluationHistory, Point, position_value
from ai.analysis.service import Analysis, Analyst, Asking, Shelf, advice, analyse, judged

__all__ = [
    "Analysis", "AnalysisEngine", "Analyst", "Asking", "EvaluationHistory", "MoveValue", "Point", "Shelf", "Snapshot",
    "advice", "analyse", "judged", "position_value", "prover_for", "solver_for", "usable_tables",
    "FIXED_PROVER_SEEDS", "MAX_PLIES", "POSITION_SECONDS", "PROVER_SEEDS", "SCALED_ENGINES", "SEARCH_MEMORY",
    "SOLVER_EMPTIES", "SOLVER_NODES", "SOURCES",
]
