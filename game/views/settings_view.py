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
        if engine_name is None:
            preset = current[len(PRESET_PREFIX):]
            spec = registry.presets(game).get(preset, "")
            rows.append(theme.label(f"{preset} plays {describe_engine(spec)} ({spec}). Choose an engine to set "
                                    "its parameters yourself.", SETTING_HELP, theme.TEXT_DIM, width=width,
                                    multiline=True))
        else:
            info = registry.engine_info(engine_name)
            rows.append(theme.label(info.description, SETTING_HELP, theme.TEXT_DIM, width=width, multiline=True))
            _, params = _engine_params(current)
            for param in info.params:
                rows.append(labelled(item.parameter_label(param.name), param.description,
                                     self._param_control(info.name, param, params), width, hint=param.name))
        return rows

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
        self.message(f"Saved: {self.game.title}, {role}: {describe_engine(choice, self.game)} ({choice})")
