"""StoneCave's game rules: pure, dependency-free, one module per game.

Use the registry to get a rules object::

    from rules import get_game
    kalah = get_game("kalah", pits=6, seeds=4, empty_capture=True)
    state = kalah.initial_state()
    state = kalah.apply(state, 2)

``list_games()`` tells which games exist and their parameters; ``parse_game_spec("kalah:pits=4")`` reads the
compact form used on the command line and in save files.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from rules.base import (
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Outcome,
    Param,
    ParameterError,
    Player,
    PositionError,
    Reason,
    RulesError,
    State,
)

__all__ = [
    "Game", "GameInfo", "IllegalMoveError", "Move", "NotationError", "Outcome", "Param", "ParameterError",
    "Player", "PositionError", "Reason", "RulesError", "State", "get_game", "list_games", "parse_game_spec", "game_class",
]

# name -> (module, class).  Modules are imported on first use so that importing ``rules`` stays cheap.
_GAMES: dict[str, tuple[str, str]] = {
    "kalah": ("rules.kalah", "Kalah"),
    "oware": ("rules.oware", "Oware"),
    "hus": ("rules.hus", "Hus"),
    "solitaire": ("rules.solitaire", "Solitaire"),
    "magnetic-cave": ("rules.magnetic_cave", "MagneticCave"),
}

_ALIASES = {"cave": "magnetic-cave", "magnetic_cave": "magnetic-cave", "mancala": "kalah"}


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows of a game: its name, title, number of players and parameters."""

    name: str
    title: str
    num_players: int
    params: tuple[Param, ...]


def game_class(name: str) -> type[Game]:
    """The rules class registered under ``name`` (aliases such as ``cave`` accepted)."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in _GAMES:
        valid = ", ".join(sorted(_GAMES))
        raise ParameterError(f"unknown game {name!r} (valid: {valid})")
    module_name, class_name = _GAMES[key]
    return getattr(importlib.import_module(module_name), class_name)


def get_game(name: str, **parameters: Any) -> Game:
    """A rules object for game ``name`` with the given variant parameters (others take their defaults)."""
    return game_class(name)(**parameters)


def list_games() -> list[GameInfo]:
    """Every registered game with its parameters, in registry order."""
    infos = []
    for name in _GAMES:
        cls = game_class(name)
        infos.append(GameInfo(cls.name, cls.title, cls.num_players, cls.params))
    return infos


def parse_game_spec(spec: str) -> Game:
    """Read ``name`` or ``name:key=value,key=value`` (as ``Game.spec`` writes it) into a rules object."""
    name, _, rest = spec.strip().partition(":")
    parameters: dict[str, Any] = {}
    if rest.strip():
        for item in rest.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise ParameterError(f"bad game parameter {item!r} in {spec!r}: expected key=value")
            if key.strip() in parameters:  # kalah:pits=4,pits=5 is a slip, not a choice of the last value
                raise ParameterError(f"{name.strip()} is given {key.strip()[:40]} twice in {spec[:80]!r}; give each "
                                     "parameter once")
            parameters[key.strip()] = value.strip()
    return get_game(name, **parameters)
