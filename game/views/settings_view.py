"""Settings, built at run time from ``game/menus/settings.yaml`` and the engine registry.

Each YAML group is a card.  Plain items become a toggle, a choice or a number stepper with the item's help
line.  The ``engines`` item becomes a card of its own: pick a game and a role (opponent, computer vs computer,
hints), then a preset or an engine; an engine shows each of its parameters with its range and its one-line
description from ``ai/data/*.yaml``.  Every change is saved at once (atomically), so nothing is lost if the
window is closed.
"""
from __future__ import annotations

from typing import Any

import arcade.gui

import rules
from ai import registry
from game import catalogue, theme
from game.settings import PRESET_PREFIX, SettingItem, SettingsError
from game.views.base import MenuView
from game.views.widgets import Choice, Stepper, card, labelled

COLUMN = 560
CONTROL = 280


def _engine_params(choice: str) -> tuple[str, dict[str, Any]]:
    info, params = registry.parse_engine_spec(choice)
    return info.name, params


class SettingsView(MenuView):
    """All the settings on one screen, in two columns of cards."""

    heading = "Settings"

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        names = [entry.name for entry in catalogue.games() if entry.available]
        self.game_name = names[0] if names else "kalah"
        self.role = context.settings.schema.engines_item.roles[0][0]
        super().__init__(context)

    @property
    def game(self) -> rules.Game:
        return rules.get_game(self.game_name)

    # -- building ---------------------------------------------------------------------------------------------
    def build(self) -> None:
        schema = self.context.settings.schema
        columns = arcade.gui.UIBoxLayout(vertical=False, space_between=20, align="top")
        left = arcade.gui.UIBoxLayout(space_between=12)
        for group in schema.groups:
            if any(item.type == "engines" for item in group.items):
                continue  # the group with the engines item is the right-hand column
            box = card(group.heading, COLUMN)
            for item in group.items:
                box.add(labelled(item.label, item.help, self._control(item), COLUMN - 24))
            left.add(box)
        columns.add(left)
        columns.add(self._engine_card())
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(columns, anchor_x="center", anchor_y="top", align_y=-80)
        anchor.add(self.on_click(theme.button("Back", width=140, height=40, size=theme.BODY), self.back),
                   anchor_x="left", anchor_y="top", align_x=20, align_y=-20)
        self.ui.add(anchor)

    def _control(self, item: SettingItem) -> arcade.gui.UIWidget:
        settings = self.context.settings
        value = settings.get(item.key)
        if item.type == "bool":
            return Choice([(True, "On"), (False, "Off")], value, lambda v, k=item.key: self._set(k, v),
                          width=CONTROL, name=item.key)
        if item.type == "choice":
            return Choice([(c, c) for c in item.choices], value, lambda v, k=item.key: self._set(k, v),
                          width=CONTROL, name=item.key)
        return Stepper(value, item.minimum if item.minimum is not None else 0,
                       item.maximum if item.maximum is not None else 100, item.step or 1,
                       lambda v, k=item.key: self._set(k, v), whole=item.type == "int", width=CONTROL,
                       name=item.key)

    def _engine_card(self) -> arcade.gui.UIWidget:
        settings = self.context.settings
        item = settings.schema.engines_item
        group = next(group for group in settings.schema.groups if item in group.items)
        box = card(group.heading, COLUMN)
        for other in group.items:
            if other is not item:
                box.add(labelled(other.label, other.help, self._control(other), COLUMN - 24))
        box.add(theme.label(item.help, theme.BODY, theme.TEXT_DIM, width=COLUMN - 24, multiline=True))
        games = [(entry.name, entry.title) for entry in catalogue.games() if entry.available]
        box.add(labelled("Game", "", Choice(games, self.game_name, self._choose_game, width=CONTROL,
                                            name="engine-game"), COLUMN - 24))
        box.add(labelled("Role", "", Choice(list(item.roles), self.role, self._choose_role, width=CONTROL,
                                            name="engine-role"), COLUMN - 24))
        game = self.game
        current = settings.engine_choice(game, self.role)
        options = [(PRESET_PREFIX + name, f"Preset: {name}") for name in registry.presets(game)]
        engine_name = None if current.startswith(PRESET_PREFIX) else _engine_params(current)[0]
        for info in registry.engines(game):
            options.append((current if info.name == engine_name else info.name, f"Engine: {info.title}"))
        box.add(labelled(item.label, "", Choice(options, current, self._choose_engine, width=CONTROL,
                                                name="engine-choice"), COLUMN - 24))
        if engine_name is None:
            spec = registry.presets(game).get(current[len(PRESET_PREFIX):], "")
            box.add(theme.label(f"{current[len(PRESET_PREFIX):]} plays {spec}. Choose an engine to set its "
                                "parameters yourself.", theme.BODY, theme.TEXT_DIM, width=COLUMN - 24, multiline=True))
        else:
            info = registry.engine_info(engine_name)
            box.add(theme.label(info.description, theme.BODY, theme.TEXT_DIM, width=COLUMN - 24, multiline=True))
            _, params = _engine_params(current)
            for param in info.params:
                box.add(labelled(param.name, param.description, self._param_control(info.name, param, params),
                                 COLUMN - 24))
        return box

    def _param_control(self, engine: str, param: Any, params: dict[str, Any]) -> arcade.gui.UIWidget:
        value = params.get(param.name, param.default)
        change = lambda v, name=param.name: self._set_param(engine, name, v)  # noqa: E731
        if param.type == "bool":
            return Choice([(True, "On"), (False, "Off")], value, change, width=CONTROL, name=param.name)
        if param.type == "choice":
            return Choice([(c, c) for c in param.choices or ()], value, change, width=CONTROL, name=param.name)
        if param.type in ("int", "float"):
            options_none = [(None, "not used")] if param.optional else []
            if value is None and param.optional:
                first = param.minimum if param.minimum is not None else 1
                return Choice(options_none + [(first, f"{first:g}")], None, change, width=CONTROL,
                              name=param.name)
            minimum = param.minimum if param.minimum is not None else 0
            maximum = param.maximum if param.maximum is not None else max(100, 10 * (value or 1))
            step = 1 if param.type == "int" else (0.1 if maximum - minimum <= 10 else 1.0)
            return Stepper(value, minimum, maximum, step, change, whole=param.type == "int", width=CONTROL,
                           name=param.name)
        return theme.label(str(value), theme.BODY, theme.TEXT_DIM)

    # -- changes ----------------------------------------------------------------------------------------------
    def _set(self, key: str, value: Any) -> None:
        try:
            self.context.settings.set(key, value)
        except SettingsError as error:
            self.message(str(error), warning=True)
            return
        self.context.save_settings()
        self.message(f"Saved to {self.context.store.path}")

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
        self.message(f"{self.game.title}, {dict(self.context.settings.schema.engines_item.roles)[self.role]}: "
                     f"{choice}  (saved)")
