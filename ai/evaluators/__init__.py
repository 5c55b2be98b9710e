"""Position evaluators: pluggable objects that score a position from the point of view of the side to move.

An evaluator has a ``name`` and ``evaluate(game, state) -> float``: positive is good for the player to move.
Scores are in the game's natural unit (seeds for the sowing games).  Finished games are never given to an
evaluator: the engines score them exactly with ``final_score``, which puts every win above every heuristic
score (``WIN`` plus the final margin) so a search plays endgames perfectly and prefers bigger wins.

Evaluators are selected by name per game (engine parameter ``eval``); ``evaluator_names(game)`` lists them,
``get_evaluator(game, name)`` builds one.  Each game's evaluators live in their own module and are named in the
game's one registration, ``ai/games.py``.

An evaluator may also have ``playing_for(player) -> Evaluator``: the evaluator of a search that plays for
``player`` (Magnetic Cave's ``DEEP_THREE`` setting, off by default).  Every search evaluates with
``evaluator_for(evaluator, game, root)``, which applies it for the side to move at the search's root.
"""
from __future__ import annotations

import importlib
from typing import Protocol, TypeVar, runtime_checkable

from ai.base import EngineError
from ai.games import support
from rules import Game, Player, State

WIN = 100_000.0
"""Every proven win scores at least this much (plus the final margin); every loss at most ``-WIN``."""

HEURISTIC_BOUND = WIN / 2
"""Heuristic scores stay well inside this bound, so ``abs(score) >= HEURISTIC_BOUND`` means a proven result."""


StateT_contra = TypeVar("StateT_contra", contravariant=True)


@runtime_checkable
class Evaluator(Protocol[StateT_contra]):
    """Scores a non-terminal position from the side to move (positive: good for that player).

    Typed by the states it reads: ``ThreatEvaluator`` is an ``Evaluator[CaveState]``; a bare ``Evaluator``
    is one of any game (the zero evaluator is one of every game)."""

    @property
    def name(self) -> str:
        """The evaluator's name, as the engine parameter ``eval`` gives it."""

    def evaluate(self, game: Game, state: StateT_contra) -> float:
        ...


def evaluator_for(evaluator: Evaluator, game: Game, root: State) -> Evaluator:
    """The evaluator of a search from ``root``: ``evaluator.playing_for`` the side to move there, when the
    evaluator has it; otherwise ``evaluator`` itself."""
    playing_for = getattr(evaluator, "playing_for", None)
    return evaluator if playing_for is None else playing_for(game.to_move(root))


def final_score(game: Game, state: State, player: Player) -> float:
    """The exact score of a finished game for ``player``: ``WIN + margin`` for a win, ``-(WIN + margin)`` for
    a loss (margin as a positive number of seeds), the margin itself for a draw (normally 0)."""
    outcome = game.outcome(state)
    if outcome is None:
        raise ValueError("final_score needs a finished game")
    margin = outcome.margin(player)
    if outcome.winner is None:
        return float(margin)
    if outcome.winner == player:
        return WIN + abs(margin)
    return -(WIN + abs(margin))


def final_margin(game: Game, state: State, player: Player) -> float:
    """The final-score margin of a finished game for ``player`` (what the exact solver maximises)."""
    outcome = game.outcome(state)
    if outcome is None:
        raise ValueError("final_margin needs a finished game")
    return float(outcome.margin(player))


def describe_score(score: float) -> str:
    """A score as a person reads it: ``+3.5`` for a heuristic score, ``win by 4`` / ``loss by 2`` when proven."""
    if score >= HEURISTIC_BOUND:
        return f"win by {score - WIN:g}"
    if score <= -HEURISTIC_BOUND:
        return f"loss by {-score - WIN:g}"
    return f"{score:+.2f}"


def proven_score(margin: float) -> float:
    """An exact final margin on the engines' scale (``final_score``'s): ``WIN + margin`` for a win,
    ``-(WIN - margin)`` for a loss, 0 for a draw (``as_margin`` turns it back)."""
    if margin > 0:
        return WIN + margin
    if margin < 0:
        return -(WIN - margin)
    return 0.0


def as_margin(score: float) -> float:
    """A proven win or loss score turned back into its final margin; any other score unchanged."""
    if score >= HEURISTIC_BOUND:
        return score - WIN
    if score <= -HEURISTIC_BOUND:
        return score + WIN
    return score


class ZeroEvaluator:
    """Scores every position 0: search then only sees proven results (a fallback for games with no evaluator)."""

    name = "zero"

    def evaluate(self, game: Game, state: State) -> float:
        return 0.0


def evaluator_names(game: Game) -> tuple[str, ...]:
    """The evaluators that can score ``game`` (``zero`` always can)."""
    return tuple(support(game).evaluators) + ("zero",)


def get_evaluator(game: Game, name: str = "default") -> Evaluator:
    """Build evaluator ``name`` for ``game``; EngineError naming the valid choices when it does not exist."""
    if name == "zero":
        return ZeroEvaluator()
    table = support(game).evaluators
    if name not in table:
        if name == "default" and not table:
            return ZeroEvaluator()
        valid = ", ".join(evaluator_names(game))
        raise EngineError(f"{game.title} has no evaluator {name!r} (valid: {valid})")
    module_name, _, factory_name = table[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # any failure: a broken evaluator must not quietly become the zero evaluator
        raise EngineError(f"evaluator {name!r} for {game.title}: its module {module_name} failed to import "
                          f"({type(error).__name__}: {error}); fix or reinstall it, or choose another "
                          f"evaluator ({', '.join(evaluator_names(game))})") from error
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise EngineError(f"evaluator {name!r} for {game.title}: {module_name} has no factory {factory_name!r} "
                          f"(expected a function taking the game, named in ai/evaluators/__init__.py)")
    evaluator: Evaluator = factory(game)
    return evaluator
