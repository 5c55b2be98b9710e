"""The games the generic tests run over, read from the registrations (``rules`` registry, ``game/catalogue.py``),
so that a game added there is covered by every generic test with no test edit (``tests/sixth_game.py`` checks
exactly that with a throwaway sixth game)."""
from __future__ import annotations

import rules


def names() -> list[str]:
    """Every registered game, in the registry's order."""
    return [info.name for info in rules.list_games()]


def two_player() -> list[str]:
    """Every registered two-player game."""
    return [info.name for info in rules.list_games() if info.num_players == 2]


def with_scene(scene: str) -> list[str]:
    """Every registered game the window draws with ``scene`` (``sowing``, ``cave``, ``puzzle``)."""
    from game import catalogue

    return [name for name in names() if catalogue.registration(name).scene == scene]


def sowing() -> list[str]:
    """Every two-player sowing game: a state with ``pits``, drawn by the sowing scene (Kalah, Oware, Hus...)."""
    return [name for name in two_player() if hasattr(rules.get_game(name).initial_state(), "pits")]
