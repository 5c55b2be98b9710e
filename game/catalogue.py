"""The main menu and the list of playable games, read from ``game/menus/main.yaml``.

Every listed game is ready to play.  If a game's rules cannot be loaded (not registered, or its module fails
to import), the menu still lists it, greyed out with the reason, instead of the window failing to start.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from guarded import files

import rules

MENU_PATH = Path(__file__).parent / "menus" / "main.yaml"


@dataclass(frozen=True)
class MenuItem:
    """A main-menu button: its label, the action it starts, and whether it can be used (why not, if not)."""

    label: str
    action: str
    enabled: bool
    note: str = ""
    why_not: str = ""


@dataclass(frozen=True)
class GameEntry:
    """A game the Play menu lists."""

    name: str
    title: str
    scene: str
    blurb: str
    available: bool
    why_not: str = ""


def _load(name: str) -> tuple[str, str]:
    """(the game's title, why its rules cannot be loaded: empty when they can)."""
    try:
        return rules.game_class(name).title, ""
    except rules.ParameterError as error:
        return name.replace("-", " ").title(), f"not a registered game: {error}"
    except ImportError as error:
        return name.replace("-", " ").title(), f"its rules failed to load: {error}"


@lru_cache(maxsize=1)
def _data() -> dict:
    data = files.load_yaml(MENU_PATH)
    if not isinstance(data, dict) or not isinstance(data.get("main"), list) or not isinstance(data.get("games"), list):
        raise ValueError(f"{MENU_PATH.name}: expected 'main' and 'games' lists")
    return data


def title() -> tuple[str, str]:
    return str(_data().get("title", "StoneCave")), str(_data().get("tagline", ""))


def main_menu() -> list[MenuItem]:
    items = []
    for raw in _data()["main"]:
        requires = raw.get("requires")
        problem = "" if requires is None else _load(str(requires))[1]
        items.append(MenuItem(str(raw["label"]), str(raw["action"]), not problem, str(raw.get("note", "")), problem))
    return items


def games() -> list[GameEntry]:
    entries = []
    for raw in _data()["games"]:
        name = str(raw["name"])
        game_title, why = _load(name)
        entries.append(GameEntry(name, game_title, str(raw.get("scene", "sowing")), str(raw.get("blurb", "")),
                                 not why, why))
    return entries
