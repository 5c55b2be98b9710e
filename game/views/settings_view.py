"""Settings, built at run time from ``game/menus/settings.yaml`` and the engine registry.

Each YAML group is a card.  Plain items become a toggle, a choice or a number stepper with the item's help
line.  The ``engines`` item becomes a card of its own: pick a game and a role (opponent, computer vs computer,
hints), then a preset or an engine; an engine shows each of its parameters with its range and its one-line
description from ``ai/data/*.yaml``.  Every change is saved at once (atomically), so nothing is lost if the
window is closed.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import arcade
import arcade.gui

import rules
from ai import registry
from game import catalogue, theme
from game.settings import PRESET_PREFIX, SettingItem, SettingsError, describe_engine
from game.context import AppContext
from game.views.base import MenuView
from game.views.widgets import SETTING_HELP, SETTING_NAME, Choice, Rows, Stepper, card, labelled

WIDE = 1100
"""Content at least this wide shows two columns: the general settings beside the engine's."""
CONTROL = 280


def _engine_params(choice: str) -> tuple[str, dict[str, Any]]:
    info, params = registry.parse_engine_spec(choice)
    return info.name, params


ENGINE_HELP = {
    "pvs": "The program's main search: it looks ahead as far as its time allows.",
    "alphabeta": "Looks ahead a fixed number of moves, every move weighed in turn.",
    "minimax": "Looks ahead a fixed number of moves, slowly: a reference for testing the others.",
    "mcts": "Plays many games out from each move and chooses the move that wins most often.",
    "greedy": "Takes the move that looks best right now, without looking ahead.",
    "random": "Plays any legal move at random.",
    "solver": "Plays out every line to the end of the game for the exact result (small boards only).",
    "perfect": "Kalah only: plays perfectly where the endgame tables or a proof in its time reach, else the main "
               "search.",
}
"""A player's description of the two-player engines (their own, in ``ai/data/engines.yaml``, speak to engine
developers and are shown with Details)."""

PARAMETER_HELP = {
    "depth": "How many moves ahead it looks (a move that earns another turn counts as one).",
    "max_depth": "The furthest it looks ahead, in moves.",
    "memory": "Memory it may use to remember positions it has already weighed, in megabytes.",
    "tables": "Plays endgames perfectly from the endgame tables (build them with 'stonecave tables build').",
    "iterations": "How many games it plays out for each move (off: as many as its time allows).",
    "time": "Seconds it may take for one move.",
}
"""A player's help line for the parameters shown without Details (the engines' own descriptions, in
``ai/data/*.yaml``, speak to engine developers: plies, nodes, kernels)."""


def shown_params(info: Any, item: SettingItem, details: bool) -> list[Any]:
    """An engine's parameters as Settings lists them: not the ones the one thinking time stands for (a two-player
    engine's own time), and the developer-only ones only with ``details``."""
    two_player = info.kind != "single-agent"
    return [param for param in info.params
            if not (two_player and param.name in item.thinking) and (details or param.name not in item.developer)]


def param_help(item: SettingItem, param: Any, details: bool) -> str:
    """A parameter's help line: the engine's own description with Details, else a player's words."""
    if details:
        return str(param.description)
    return PARAMETER_HELP.get(param.name, str(param.description))


def level_words(spec: str, think_time: float) -> str:
    """A preset's play in words, with the time that applies: ``thinks up to 0.5 s per move (its own pace, within
    the thinking time)``, ``looks a fixed short way ahead``, ``plays at once by a simple rule``."""
    try:
        info, params = registry.parse_engine_spec(spec)
    except Exception:  # noqa: BLE001 - a preset is checked at load; words never fail
        return describe_engine(spec)
    parts = []
    depth, own = params.get("depth"), params.get("time")
    if depth is not None:
        parts.append("looks a fixed short way ahead" if depth <= 4 else "looks a fixed long way ahead")
    if own is not None and own < think_time:
        parts.append(f"thinks up to {own:g} s per move (its own pace, within the thinking time)")
    elif own is not None or (depth is None and "time" in {param.name for param in info.params}):
        parts.append(f"thinks up to {think_time:g} s per move (the thinking time)")
    if params.get("tables") or info.name == "perfect":
        parts.append("plays endgames perfectly from the endgame tables")
    return " and ".join(parts) if parts else "plays at once, by a simple rule"


class SettingsView(MenuView):
    """All the settings on one screen, in one or two scrolling columns of rows."""

    heading = "Settings"

    def __init__(self, context: AppContext) -> None:
        names = [entry.name for entry in catalogue.games() if entry.available]
        self.game_name = names[0] if names else "kalah"
        self.role = context.settings.schema.engines_item.roles[0][0]
        self.scrolls = [Rows(self.rebuild), Rows(self.rebuild)]
        self._columns: list[tuple[arcade.gui.UIWidget, Rows]] = []
        super().__init__(context)

    @property
    def game(self) -> rules.Game:
        return rules.get_game(self.game_name)

    # -- building ---------------------------------------------------------------------------------------------
    def build(self) -> None:
        px = theme.px  # design lengths (pixels at 1280x720) in this window's pixels (``MenuView``)
        _, _, room_width, room_height = self.content_box()
        two = room_width >= px(WIDE)
        width = min(px(620), (room_width - px(20)) / 2) if two else min(px(760), room_width)
        inner = width - px(28)  # inside the card's padding and border
        self.control_width = min(px(CONTROL), inner * 0.45)
        general = self._general_rows(inner)
        engine = self._engine_rows(inner)
        columns = [general, engine] if two else [general + engine]
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(20), align="top")
        self._columns = []
        for rows, scroll in zip(columns, self.scrolls):
            box = card("", width)
            for widget in scroll.layout(rows, room_height - px(28), inner):
                box.add(widget)
            row.add(box)
            self._columns.append((box, scroll))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(row, anchor_x="center", anchor_y="top", align_y=-(self.window.height - room_height - px(52)))
        anchor.add(self.on_click(theme.button("Back", width=px(120), height=px(40), size=theme.sized(theme.LABEL, 14)),
                                 self.back), anchor_x="left", anchor_y="top", align_x=px(20), align_y=-px(16))
        self.ui.add(anchor)

    def scroll(self, steps: int, x: float, y: float) -> bool:
        for box, rows in self._columns:
            if box.rect.left <= x <= box.rect.right or len(self._columns) == 1:
                return rows.scroll(steps)
        return any(rows.scroll(steps) for _, rows in self._columns)

    def _heading_row(self, text: str) -> arcade.gui.UIWidget:
        return theme.label(text, theme.sized(theme.LABEL, 16), theme.ACCENTS[0])

    def _general_rows(self, width: float) -> list[arcade.gui.UIWidget]:
        schema = self.context.settings.schema
        rows: list[arcade.gui.UIWidget] = []
        for group in schema.groups:
            items = [item for item in group.items if item.type != "engines"]
            if any(item.type == "engines" for item in group.items):
                continue  # that group's other items head the engine's rows
            rows.append(self._heading_row(group.heading))
            rows += [labelled(item.label, item.help, self._control(item), width) for item in items]
        return rows

    def _control(self, item: SettingItem) -> arcade.gui.UIWidget:
        settings = self.context.settings
        value = settings.get(item.key)
        width = self.control_width
        if item.type == "bool":
            return Choice([(True, "On"), (False, "Off")], value, partial(self._set, item.key),
                          width=width, name=item.key)
        if item.type == "choice":
            return Choice([(c, c) for c in item.choices], value, partial(self._set, item.key),
                          width=width, name=item.key)
        return Stepper(value, item.minimum if item.minimum is not None else 0,
                       item.maximum if item.maximum is not None else 100, item.step or 1,
                       partial(self._set, item.key), whole=item.type == "int", width=width,
                       name=item.key)

    def _engine_rows(self, width: float) -> list[arcade.gui.UIWidget]:
        settings = self.context.settings
        item = settings.schema.engines_item
        group = next(group for group in settings.schema.groups if item in group.items)
        rows: list[arcade.gui.UIWidget] = [self._heading_row(group.heading)]
        for other in group.items:
            if other is not item:
                rows.append(labelled(other.label, other.help, self._control(other), width))
        rows.append(theme.label(item.help, SETTING_HELP, theme.TEXT_DIM, width=width, multiline=True))
        wide = min(width * 0.62, theme.px(420))
        games = [(entry.name, entry.title) for entry in catalogue.games() if entry.available]
        rows.append(labelled("Game", "", Choice(games, self.game_name, self._choose_game, width=wide,
                                                name="engine-game"), width))
        rows.append(labelled("Role", "", Choice(list(item.roles), self.role, self._choose_role, width=wide,
                                                name="engine-role"), width))
        game = self.game
        current = settings.engine_choice(game, self.role)
        options = [(PRESET_PREFIX + name, f"Preset: {name}") for name in registry.presets(game)]
        engine_name = None if current.startswith(PRESET_PREFIX) else _engine_params(current)[0]
        for info in registry.engines(game):
            options.append((current if info.name == engine_name else info.name, info.title))
        rows.append(labelled(item.label, "", Choice(options, current, self._choose_engine, width=wide,
                                                    name="engine-choice"), width))
        details = self.details
        if engine_name is None:
            preset = current[len(PRESET_PREFIX):]
            spec = registry.presets(game).get(preset, "")
            raw = f" ({spec})" if details else ""  # an engine spec is for engine developers
            rows.append(theme.label(f"{preset} {level_words(spec, settings.get('think_time'))}{raw}. Choose "
                                    "an engine to set its parameters yourself.", SETTING_HELP, theme.TEXT_DIM,
                                    width=width, multiline=True))
        else:
            info = registry.engine_info(engine_name)
            said = info.description if details else ENGINE_HELP.get(info.name, info.description)
            rows.append(theme.label(said, SETTING_HELP, theme.TEXT_DIM, width=width, multiline=True))
            _, params = _engine_params(current)
            for param in shown_params(info, item, details):
                rows.append(labelled(item.parameter_label(param.name), param_help(item, param, details),
                                     self._param_control(info.name, param, params), width,
                                     hint=param.name if details else ""))
        return rows

    @property
    def details(self) -> bool:
        """The Details setting: engine specs, raw parameter names and developer-only parameters shown."""
        return bool(self.context.settings.get("details"))

    def _param_control(self, engine: str, param: Any, params: dict[str, Any]) -> arcade.gui.UIWidget:
        value = params.get(param.name, param.default)
        change = lambda v, name=param.name: self._set_param(engine, name, v)  # noqa: E731
        width = self.control_width
        if param.type == "bool":
            return Choice([(True, "On"), (False, "Off")], value, change, width=width, name=param.name)
        if param.type == "choice":
            return Choice([(c, c) for c in param.choices or ()], value, change, width=width, name=param.name)
        if param.type in ("int", "float"):
            minimum = param.minimum if param.minimum is not None else 0
            maximum = param.maximum if param.maximum is not None else max(100, 10 * (value or 1))
            step = 1 if param.type == "int" else (0.1 if maximum - minimum <= 10 else 1.0)
            # An optional limit (depth, time, nodes) steps down past its minimum to "not used" and back.
            return Stepper(value, minimum, maximum, step, change, whole=param.type == "int", width=width,
                           name=param.name, optional=param.optional, resume=param.default)
        if param.name == "eval":
            from ai.evaluators import evaluator_names

            names = ["default"] + [name for name in evaluator_names(self.game) if name != "default"]
            return Choice([(name, name) for name in names], value, change, width=width, name=param.name)
        return theme.label(str(value), SETTING_NAME, theme.TEXT_DIM)

    # -- changes ----------------------------------------------------------------------------------------------
    def _set(self, key: str, value: Any) -> None:
        try:
            self.context.settings.set(key, value)
        except SettingsError as error:
            self.message(str(error), warning=True)
            return
        self.context.save_settings()
        self.message("Saved.")
        if key == "details":  # the engine's rows change with it
            self.rebuild()

    def _choose_game(self, name: str) -> None:
        self.game_name = name
        self.rebuild()

    def _choose_role(self, role: str) -> None:
        self.role = role
        self.rebuild()

    def _choose_engine(self, choice: str) -> None:
        self._store_engine(choice)
        self.rebuild()

    def _set_param(self, engine: str, name: str, value: Any) -> None:
        current = self.context.settings.engine_choice(self.game, self.role)
        _, params = _engine_params(current) if not current.startswith(PRESET_PREFIX) else (engine, {})
        params = {**registry.engine_info(engine).defaults(), **params, name: value}
        self._store_engine(registry.format_engine_spec(engine, params))

    def _store_engine(self, choice: str) -> None:
        try:
            self.context.settings.set_engine_choice(self.game, self.role, choice)
        except SettingsError as error:
            self.message(str(error), warning=True)
            return
        self.context.save_settings()
        role = dict(self.context.settings.schema.engines_item.roles)[self.role]
        raw = f" ({choice})" if self.details else ""
        if choice.startswith(PRESET_PREFIX):
            said = describe_engine(choice, self.game)
        else:  # an engine chosen by hand thinks for the one thinking time (``Settings.engine_spec``)
            info = registry.engine_info(_engine_params(choice)[0])
            timed = info.kind != "single-agent" and any(param.name == "time" for param in info.params)
            think = self.context.settings.get("think_time")
            said = info.title + (f", thinking {think:g} s per move" if timed else "")
        self.message(f"Saved: {self.game.title}, {role}: {said}{raw}")
