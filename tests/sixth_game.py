"""A throwaway sixth game, Addax, to check that adding a game breaks no test and is covered everywhere.

Addax is a two-row sowing game played by Kalah's rules under another name, registered only the way
docs/architecture.md's "How to add a game" says (the rules registry, and an entry in ``game/menus/games.yaml``;
no record in ``game/catalogue.py``: a two-row sowing game needs none), so every generic test meets a game no
test names.  Loaded two ways:

- as a pytest plugin (``python -m pytest -p tests.sixth_game ...``), which registers Addax for the whole run:
  ``tests/game/test_sixth_game.py`` runs the generic suites that way in a subprocess;
- through ``install(monkeypatch)`` inside one test.
"""
from __future__ import annotations

from typing import Any, Callable

import rules
from rules.kalah import Kalah

NAME = "addax"
PAGE = {
    "name": NAME, "title": "Addax", "diagram": "sowing",
    "blurb": "A throwaway sixth game of the tests: Kalah's rules under another name.",
    "caption": "Sowing runs counter-clockwise through your own store.",
    "rules": ["Kalah's rules, registered under another name by the tests."],
}


class Addax(Kalah):
    """Kalah's rules under another name: a game that no table, test or screen knows by name."""

    name = NAME
    title = "Addax"


def _perft_tables(original: Callable[[], list[dict]]) -> Callable[[], list[dict]]:
    """The perft table with Addax's entries: Kalah's start counts under Addax's name (the same rules)."""
    def tables() -> list[dict]:
        found = original()
        kalah = [dict(item, game=NAME + item["game"][len("kalah"):]) for item in found
                 if item["game"].partition(":")[0] == "kalah" and item["name"] == "start"]
        return found + kalah
    return tables


def _pages(original: Callable[[], tuple[dict, ...]]) -> Callable[[], tuple[dict, ...]]:
    def game_pages() -> tuple[dict, ...]:
        return original() + (PAGE,)
    return game_pages


def _clear_caches() -> None:
    from game.views import rules_view

    rules_view.pages.cache_clear()


def install(setattr_: Callable[[Any, str, Any], None] | None = None) -> None:
    """Register Addax: in the rules registry, ``games.yaml``'s entries and the perft table.  ``setattr_``: a
    monkeypatch's ``setattr`` (undone after the test), else for good (the plugin)."""
    import tests.perft
    from game import catalogue

    put = setattr_ or setattr
    put(rules, "_GAMES", {**rules._GAMES, NAME: (__name__, "Addax")})
    put(catalogue, "game_pages", _pages(catalogue.game_pages))
    put(tests.perft, "tables", _perft_tables(tests.perft.tables))
    _clear_caches()


def pytest_configure(config: Any) -> None:
    install()
