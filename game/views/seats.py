"""Seat setup before a two-player game: each side a human or a computer, then Start.

A computer seat is a preset (Easy, Medium, ...) or an engine from the registry; the first computer option is
whatever Settings names for this game (the opponent's engine when one seat is human, the watch engine when
both are computers).  Hot-seat, either side against the computer and computer against computer all come from
the same two choices; computer against computer opens with the pause and speed controls.
"""
from __future__ import annotations

from functools import partial

import arcade.gui

import rules
from ai import registry
from game import theme
from game.session import Session
from game.savegame import Seat
from game.settings import PRESET_PREFIX, SettingsError, describe_engine, resolve_engine_choice
from game.context import AppContext
from game.views.base import MenuView
from game.views.widgets import Choice

HUMAN = "human"
SETTINGS = "settings"


def seat_options(game: rules.Game) -> list[tuple[str, str]]:
    """(value, text) for a seat: human, the Settings engine, each preset, each engine with its defaults."""
    options = [(HUMAN, "Human"), (SETTINGS, "Computer (engine from Settings)")]
    for name in registry.presets(game):
        options.append((PRESET_PREFIX + name, f"Computer: {name}"))
    for info in registry.engines(game):
        options.append((info.name, f"Computer: {info.title}"))
    return options


class SeatSetupView(MenuView):
    """Two seat choices and Start."""

    def __init__(self, context: AppContext, game_name: str) -> None:
        self.game = rules.get_game(game_name)
        self.heading = f"{self.game.title}: who plays?"
        self.choices = [HUMAN, SETTINGS]
        super().__init__(context)

    def build(self) -> None:
        px = theme.px  # design lengths (pixels at 1280x720) in this window's pixels (``MenuView``)
        _, _, room_width, _ = self.content_box()
        choice_width = min(px(460), room_width - px(256))
        box = arcade.gui.UIBoxLayout(space_between=px(14))
        options = seat_options(self.game)
        for player, name in enumerate(self.game.player_names):
            row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(16))
            accent = theme.ACCENTS[player]
            order = "moves first" if player == 0 else "moves second"
            cell = arcade.gui.UIAnchorLayout(width=px(240), height=px(40), size_hint=None)  # same width in both rows
            cell.add(theme.label(f"{name} ({order})", theme.sized(theme.LABEL, 16), accent), anchor_x="right", anchor_y="center")
            row.add(cell)
            row.add(Choice(options, self.choices[player], partial(self._choose, player),
                           width=choice_width, name=f"seat{player}"))
            box.add(row)
        self._explain = theme.label(self._mode_text(), theme.BODY, theme.TEXT_DIM, width=choice_width + px(256),
                                    multiline=True, align="center")
        box.add(self._explain)
        buttons = arcade.gui.UIBoxLayout(vertical=False, space_between=px(20))
        buttons.add(self.on_click(theme.button("Start", width=px(220), height=px(52)), self.start_game))
        buttons.add(self.on_click(theme.button("Back", width=px(160), height=px(52)), self.back))
        box.add(buttons)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center")
        self.ui.add(anchor)

    def back(self) -> None:
        self.context.show_play()

    def default_action(self) -> None:
        """Enter: start the game with the seats as chosen."""
        self.start_game()

    def _choose(self, player: int, value: str) -> None:
        self.choices[player] = value
        self._explain.text = self._mode_text()

    def _mode_text(self) -> str:
        humans = sum(choice == HUMAN for choice in self.choices)
        if humans == 2:
            return "Hot-seat: two players share the board and take turns."
        if humans == 1:
            text = "You against the computer. Undo takes back your move and the computer's answer."
        else:
            text = "Computer against computer: watch, with pause and a speed control."
        return f"{text}\n{self._players_text()}"

    def _players_text(self) -> str:
        """Who each computer seat is, in words ("North: Computer (Medium)"), the Settings choice resolved."""
        try:
            seats = self.seats()
        except SettingsError as error:
            return str(error)
        return ",  ".join(f"{name}: {describe_engine(str(seat.engine), self.game)}"
                          for name, seat in zip(self.game.player_names, seats) if not seat.is_human)

    def seats(self) -> tuple[Seat, ...]:
        """The seats as the save format names them (engine specs resolved from presets and Settings)."""
        settings = self.context.settings
        time_per_move = float(settings.get("think_time"))
        humans = sum(choice == HUMAN for choice in self.choices)
        seats = []
        for choice in self.choices:
            if choice == HUMAN:
                seats.append(Seat())
                continue
            if choice == SETTINGS:
                spec = settings.engine_spec(self.game, "opponent" if humans else "watch")
            else:
                spec = resolve_engine_choice(choice, self.game)
            seats.append(Seat(spec, time_per_move))
        return tuple(seats)

    def start_game(self) -> None:
        try:
            seats = self.seats()
        except SettingsError as error:
            self.message(str(error), warning=True)
            return
        self.context.show_match(Session.new(self.game, seats))
