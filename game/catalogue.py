"""The main menu and the list of playable games, read from ``game/menus/main.yaml``.

A game is offered when its rules are registered in ``rules`` and the window has a scene that draws it; one
that is not ready yet is listed as coming, greyed out, so the menu shows what the suite will hold.
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
    """A main-menu button: its label, the action it starts, and whether it can be used yet."""

    label: str
    action: str
    enabled: bool
    note: str = ""


@dataclass(frozen=True)
class GameEntry:
    """A game the Play menu lists."""

    name: str
    title: str
    scene: str
    blurb: str
    available: bool
    why_not: str = ""


def _registered(name: str) -> tuple[bool, str]:
    try:
        return True, rules.game_class(name).title
    except rules.ParameterError:
        return False, name.replace("-", " ").title()


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
        enabled = requires is None or _registered(str(requires))[0]
        if raw.get("scene") is not None and str(raw["scene"]) not in set(_data().get("scenes") or ()):
            enabled = False
        items.append(MenuItem(str(raw["label"]), str(raw["action"]), enabled, str(raw.get("note", ""))))
    return items


def games() -> list[GameEntry]:
    scenes = set(_data().get("scenes") or ())
    entries = []
    for raw in _data()["games"]:
        name = str(raw["name"])
        registered, game_title = _registered(name)
        scene = str(raw.get("scene", "sowing"))
        why = "" if registered and scene in scenes else ("coming soon" if registered else "rules coming soon")
        if registered and scene not in scenes:
            why = "board coming soon"
        entries.append(GameEntry(name, game_title, scene, str(raw.get("blurb", "")), not why, why))
    return entries
