"""Each game's one registration, the main menu (``game/menus/main.yaml``) and the games Play lists
(``game/menus/games.yaml``).

``REGISTRATIONS`` holds one ``Registration`` per game: its rules class (``rules`` registry), the engine side
(``ai/games.py``: evaluators, kernels, time rule; presets in ``ai/data/presets.yaml``), the scene that draws it
and its console.  Screens and consoles ask ``registration(name)``; nothing else keys a table by a game's name.

Every listed game is ready to play.  If a game's rules cannot be loaded (not registered, or its module fails
to import), the menu still lists it, greyed out with the reason, instead of the window failing to start.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ai import games as engine_side
from guarded import files
from guarded.kinds import ProgramFileDamaged

import rules

SCENES: dict[str, str] = {
    "sowing": "game.views.sowing_view:SowingView",
    "cave": "game.views.cave_view:CaveView",
    "puzzle": "",
}
"""The boards the window has, each with its game screen (``module:class``, opened by ``game/context.py``
``show_match``): ``sowing`` (two rows of pits with stores, or Hus's four rows), ``cave``, and ``puzzle``
(Solitaire Mancala's screens, reached from Puzzles, not from a match)."""
CONSOLES = ("play", "solitaire")
"""The text consoles: ``play`` (``game/console/play.py``, any two-player game, its board the rules' ``render``)
and ``solitaire`` (``game/console/solitaire.py``, the puzzle's own console)."""


@dataclass(frozen=True)
class Words:
    """How the screens and the console speak of a game's moves and scores (``game/explain.py``,
    ``game/analysis_words.py``, the evaluation graph, the tutorial).  The defaults are the sowing games'."""

    place: str = "pit"
    """What a move is played on (``Click the glowing pit``; the cave's ``cell``, Solitaire's ``hole``)."""
    move_prefix: str = "pit"
    """Put before a move's label to name it (``pit 3``); empty: the label alone names it (the cave's ``D4``)."""
    unit: str = "seed"
    """What the scores count (``about +2.5 seeds``, ``wins by 6``); empty when they count nothing a player
    counts (the cave: only win, loss or tie, and a heuristic outlook in grades, never a margin or a score)."""
    small: float = 0.5
    """A heuristic difference too small to matter (``an even game``, ``about as good as``)."""
    slight: float = 1.0
    """Without a unit: below this a position is ``slightly`` better or worse."""
    clear: float = 2.0
    """A clear heuristic difference (``best by a clear margin``; without a unit, ``clearly better``)."""
    graph_half: float = 4.0
    """The evaluation graph draws a heuristic score ``x`` at ``x / (|x| + graph_half)``."""
    played: str = "{who} sows {move} ({seeds})"
    """The top bar's line on a move (``who``, ``move``: its name, ``seeds``: ``4 seeds``)."""
    wins: str = "wins the game"
    """What a winning move does, said of the mover; ``you_win`` said to the player (hints)."""
    you_win: str = "wins the game"
    score_label: str = ""
    """Before the top bar's scores (the cave's ``Bricks:``)."""
    no_legal_move: str = "{mover} could not move: {other} took the seeds on their side."
    """Why the game ended when the player to move had no legal move (``mover``, ``other``: the sides' names)."""

    @property
    def has_margin(self) -> bool:
        """Whether a result has a margin and a score worth saying (``wins by 6``, ``You won 26 – 22``)."""
        return bool(self.unit)


SOWING_WORDS = Words()
CAVE_WORDS = Words(place="cell", move_prefix="", unit="", small=10.0, slight=50.0, clear=200.0, graph_half=200.0,
                   played="{who} places a brick on {move}", wins="makes five in a row",
                   you_win="makes five in a row: you win", score_label="Bricks:  ")


@dataclass(frozen=True)
class Registration:
    """One game, registered once: the name its rules are registered under, its scene, console and words.  Its
    rules class, engine side (with the exact helpers its analysis uses) and presets are looked up from that name
    in their own layers.  A two-player sowing game needs no record: ``registration`` gives it the
    defaults."""

    name: str
    scene: str = "sowing"
    console: str = "play"
    words: Words = SOWING_WORDS

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
        Registration("kalah"),
        Registration("oware"),
        Registration("hus", words=Words(no_legal_move="{mover} had no pit of two or more seeds to sow, and loses.")),
        Registration("magnetic-cave", scene="cave", words=CAVE_WORDS),
        Registration("solitaire", scene="puzzle", console="solitaire", words=Words(place="hole", move_prefix="hole")),
    )
}


def register(record: Registration) -> None:
    """Add or replace a game's registration (a new game, or a test's throwaway one)."""
    REGISTRATIONS[record.name] = record


def load(path: str) -> Any:
    """The object a registration names as ``module:name``."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def registration(game: rules.Game | str) -> Registration:
    """The registration of ``game`` (a rules object, a name or an alias such as ``cave``).

    A game whose rules are registered but that has no record here gets the general two-player screen and
    console (a sowing board when its state has ``pits``); an unknown name raises ``rules.ParameterError``
    listing the valid ones.
    """
    name = game.name if isinstance(game, rules.Game) else rules.game_class(game).name
    record = REGISTRATIONS.get(name)
    if record is None:
        return Registration(name)
    if record.scene not in SCENES or record.console not in CONSOLES:
        raise ValueError(f"{name}: scene {record.scene!r} / console {record.console!r} unknown "
                         f"(scenes: {', '.join(SCENES)}; consoles: {', '.join(CONSOLES)})")
    return record


MENU_PATH = Path(__file__).parent / "menus" / "main.yaml"
GAMES_PATH = Path(__file__).parent / "menus" / "games.yaml"
"""One entry per game: the Play menu's order and blurb, and the Rules screen's page (``game/views/rules_view.py``)."""


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
    if not isinstance(data, dict) or not isinstance(data.get("main"), list):
        raise ProgramFileDamaged(MENU_PATH, "expected a 'main' list")
    return data


@lru_cache(maxsize=1)
def game_pages() -> tuple[dict, ...]:
    """The entries of ``games.yaml``, in order (each a dict with at least a ``name`` text); a damaged file is a
    ProgramFileDamaged naming it."""
    try:
        data = files.load_yaml(GAMES_PATH)
    except ValueError as error:
        raise ProgramFileDamaged(GAMES_PATH, error) from None
    if not isinstance(data, dict) or not isinstance(data.get("games"), list):
        raise ProgramFileDamaged(GAMES_PATH, "expected a 'games' list")
    for index, raw in enumerate(data["games"]):
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise ProgramFileDamaged(GAMES_PATH, f"games[{index}]: expected a mapping with a 'name' text")
    return tuple(data["games"])


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
    """The games Play offers, in ``games.yaml``'s order: every entry whose game has a game screen (not a puzzle);
    one whose rules cannot be loaded is listed greyed out with the reason."""
    entries = []
    for raw in game_pages():
        name = str(raw["name"])
        game_title, why = _load(name)
        record = REGISTRATIONS.get(name) if why else registration(name)
        scene = record.scene if record is not None else "sowing"
        if scene == "puzzle":
            continue
        entries.append(GameEntry(name, game_title, scene, str(raw.get("blurb", "")), not why, why))
    return entries
