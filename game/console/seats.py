"""The seats of a text game, apart from any input or output: who sits in each seat and how long a computer may
think.  The game in progress with its undo history is ``game.session.Session``, shared with the screens.

A seat is typed as ``human``, ``computer``, a level of the game's presets (Easy, Medium, Hard, Strongest; Kalah
also Perfect) or an engine spec such as ``alphabeta:depth=6``; :func:`resolve_seat` turns the text into a
``Seat`` or says what is valid.
"""
from __future__ import annotations

from ai import games, registry
from ai.base import EngineError
from game import savegame
from game.savegame import SaveError, Seat
from rules import Game
from rules.base import clip

COMPUTER_LEVEL = "Medium"


# -- seats and their time ------------------------------------------------------------------------------------
def default_engine(game: Game) -> str:
    """The engine spec a plain ``computer`` seat gets: the Medium preset, else the first non-random engine."""
    levels = registry.presets(game)
    if COMPUTER_LEVEL in levels:
        return levels[COMPUTER_LEVEL]
    if levels:
        return next(iter(levels.values()))
    return _best_registered(game)


def _best_registered(game: Game) -> str:
    names = [info.name for info in registry.engines(game)]
    for name in names:
        if name != "random":
            return name
    return names[0] if names else "random"


def resolve_seat(game: Game, text: str, seconds: float | None = None) -> Seat:
    """``human``, ``computer``, a level name or an engine spec, as a Seat; ValueError says what is valid."""
    choice = text.strip()
    lowered = choice.lower()
    if lowered in ("human", "h"):
        return Seat()
    if lowered in ("computer", "c"):
        spec = default_engine(game)
    else:
        levels = {name.lower(): spec for name, spec in registry.presets(game).items()}
        spec = levels.get(lowered, choice)
    if not spec or any(ch.isspace() for ch in spec):
        raise ValueError(f"{clip(choice)!r} is not a player")
    name = spec.partition(":")[0].strip()
    if name not in {info.name for info in registry.engines(game)}:
        raise ValueError(f"{clip(choice)!r} is neither a player, a level nor an engine of {game.title}")
    try:
        savegame.check_engine(game, spec)
        registry.make_engine(game, spec)
    except (SaveError, EngineError) as error:
        raise ValueError(str(error)) from None
    return Seat(spec, seconds)


def seat_choices(game: Game) -> str:
    """What a seat prompt accepts, for the question and for ``Invalid input`` answers."""
    levels = ", ".join(registry.presets(game))
    engines = ", ".join(info.name for info in registry.engines(game))
    level_text = f", a level ({levels})" if levels else ""
    return f"human, computer{level_text} or an engine spec NAME[:key=value,...] (engines: {engines})"


def seat_label(game: Game, seat: Seat) -> str:
    """``human`` or ``computer SPEC`` with its level name when the spec is a preset's."""
    if seat.is_human:
        return "human"
    level = next((name for name, spec in registry.presets(game).items() if spec == seat.engine), None)
    return f"computer {seat.engine}" + (f" ({level})" if level else "")


def seconds_per_move(game: Game, seat: Seat, first_move: bool) -> float:
    """The time a computer seat gets for this move: its own setting, else the game's time rule (its
    registration in ``ai/games.py``: Hus 30 s for a first move, then 2 s; Magnetic Cave 3 s; 1 s otherwise)."""
    if seat.time is not None:
        return seat.time
    return games.support(game).seconds(first_move)
