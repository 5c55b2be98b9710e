"""Each game's one registration, and the main menu and list of playable games (``game/menus/main.yaml``).

``REGISTRATIONS`` holds one ``Registration`` per game: its rules class (``rules`` registry), the engine side
(``ai/games.py``: evaluators, kernels, time rule; presets in ``ai/data/presets.yaml``), the scene that draws it
and its console.  Screens and consoles ask ``registration(name)``; nothing else keys a table by a game's name.

Every listed game is ready to play.  If a game's rules cannot be loaded (not registered, or its module fails
to import), the menu still lists it, greyed out with the reason, instead of the window failing to start.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ai import games as engine_side
from guarded import files
from guarded.kinds import ProgramFileDamaged

import rules

SCENES = ("sowing", "cave", "puzzle")
"""The boards the window has: ``sowing`` (two rows of pits with stores, or Hus's four rows; game screen
``game/views/sowing_view.py``), ``cave`` (``game/views/cave_view.py``), ``puzzle`` (Solitaire Mancala's
screens, reached from Puzzles)."""
CONSOLES = ("play", "solitaire")
"""The text consoles: ``play`` (``game/console/play.py``, any two-player game, its board the rules' ``render``)
and ``solitaire`` (``game/console/solitaire.py``, the puzzle's own console)."""


@dataclass(frozen=True)
class Registration:
    """One game, registered once: the name its rules are registered under, its scene and console.  Its rules
    class, engine side and presets are looked up from that name in their own layers."""

    name: str
    scene: str
    console: str = "play"

    @property
    def rules(self) -> type[rules.Game]:
        """The rules class (``rules.game_class``)."""
        return rules.game_class(self.name)

    @property
    def engines(self) -> engine_side.GameSupport:
        """Evaluators, kernels and time rule (``ai/games.py``)."""
        return engine_side.support(self.name)

    @property
    def time_limit(self) -> float | None:
        """The game's hard limit on a computer's time per move, or None (``GameSupport.time_limit``)."""
        return self.engines.time_limit

    def presets(self) -> dict[str, str]:
        """Easy .. Strongest: preset name -> engine spec (``ai/data/presets.yaml`` under the game's name)."""
        from ai import registry

        return registry.presets(self.rules())


REGISTRATIONS: dict[str, Registration] = {
    record.name: record
    for record in (
        Registration("kalah", scene="sowing"),
        Registration("oware", scene="sowing"),
        Registration("hus", scene="sowing"),
        Registration("magnetic-cave", scene="cave"),
        Registration("solitaire", scene="puzzle", console="solitaire"),
    )
}


def registration(game: rules.Game | str) -> Registration:
    """The registration of ``game`` (a rules object, a name or an alias such as ``cave``).

    A game whose rules are registered but that has no record here gets the general two-player screen and
    console (a sowing board when its state has ``pits``); an unknown name raises ``rules.ParameterError``
    listing the valid ones.
    """
    name = game.name if isinstance(game, rules.Game) else rules.game_class(game).name
    record = REGISTRATIONS.get(name)
    if record is None:
        return Registration(name, scene="sowing")
    if record.scene not in SCENES or record.console not in CONSOLES:
        raise ValueError(f"{name}: scene {record.scene!r} / console {record.console!r} unknown "
                         f"(scenes: {', '.join(SCENES)}; consoles: {', '.join(CONSOLES)})")
    return record

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
    try:
        data = files.load_yaml(MENU_PATH)
    except ValueError as error:
        raise ProgramFileDamaged(MENU_PATH, error) from None
    if not isinstance(data, dict) or not isinstance(data.get("main"), list) or not isinstance(data.get("games"), list):
        raise ProgramFileDamaged(MENU_PATH, "expected 'main' and 'games' lists")
    return data


def title() -> tuple[str, str]:
    return str(_data().get("title", "StoneCave")), str(_data().get("tagline", ""))


def main_menu() -> list[MenuItem]:
    items = []
    for index, raw in enumerate(_data()["main"]):
        try:
            requires = raw.get("requires")
            problem = "" if requires is None else _load(str(requires))[1]
            items.append(MenuItem(str(raw["label"]), str(raw["action"]), not problem, str(raw.get("note", "")),
                                  problem))
        except (AttributeError, KeyError) as error:
            raise ProgramFileDamaged(MENU_PATH, f"main[{index}]: expected a mapping with label and action ({error})")
    return items


def games() -> list[GameEntry]:
    entries = []
    for index, raw in enumerate(_data()["games"]):
        try:
            name = str(raw["name"])
            blurb = str(raw.get("blurb", ""))
        except (AttributeError, KeyError, TypeError) as error:
            raise ProgramFileDamaged(MENU_PATH, f"games[{index}]: expected a mapping with a name ({error})")
        game_title, why = _load(name)
        scene = registration(name).scene if not why else "sowing"
        entries.append(GameEntry(name, game_title, scene, blurb, not why, why))
    return entries
