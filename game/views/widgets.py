"""Small composite widgets for the menus: a choice you step through, a number stepper and a card.

Both controls are rows of flat buttons, so every value is reachable by clicks alone (and by a test clicking
them), never by typing: ``Choice`` steps through a list of options (click the value or the arrows), ``Stepper``
adds or takes a step within a range and shows it.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import arcade
import arcade.gui

from game import theme


class Choice(arcade.gui.UIBoxLayout):
    """``<  value  >``: steps through ``options`` ((value, text) pairs) and calls ``on_change(value)``."""

    def __init__(self, options: Sequence[tuple[Any, str]], value: Any, on_change: Callable[[Any], None],
                 width: float = 300, name: str = "") -> None:
        super().__init__(vertical=False, space_between=4)
        if not options:
            raise ValueError("a Choice needs at least one option")
        self.options = list(options)
        values = [option for option, _ in self.options]
        self.index = values.index(value) if value in values else 0
        self.on_change_value = on_change
        self.name = name
        self.back_button = self.add(theme.button("<", width=36, height=36, font_size=14))
        self.value_button = self.add(theme.button("", width=width - 80, height=36, font_size=12))
        self.next_button = self.add(theme.button(">", width=36, height=36, font_size=14))
        self._show()
        for widget, step in ((self.back_button, -1), (self.value_button, 1), (self.next_button, 1)):
            widget.event("on_click")(lambda event, step=step: self.step(step))

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    def _show(self) -> None:
        self.value_button.text = self.options[self.index][1]

    def step(self, step: int) -> None:
        if len(self.options) < 2:
            return
        self.index = (self.index + step) % len(self.options)
        self._show()
        self.on_change_value(self.value)


class Stepper(arcade.gui.UIBoxLayout):
    """``-  value  +``: a number kept within [minimum, maximum] in steps of ``step``."""

    def __init__(self, value: float, minimum: float, maximum: float, step: float,
                 on_change: Callable[[float], None], whole: bool = False, width: float = 300, name: str = "") -> None:
        super().__init__(vertical=False, space_between=4)
        self.minimum, self.maximum, self.step_size, self.whole = minimum, maximum, step, whole
        self.number = value
        self.on_change_value = on_change
        self.name = name
        self.minus = self.add(theme.button("-", width=36, height=36, font_size=14))
        self.value_button = self.add(theme.button("", width=width - 80, height=36, font_size=12))
        self.plus = self.add(theme.button("+", width=36, height=36, font_size=14))
        self.minus.event("on_click")(lambda event: self.step(-1))
        self.plus.event("on_click")(lambda event: self.step(1))
        self._show()

    def _format(self, number: float) -> str:
        return str(int(number)) if self.whole else f"{number:g}"

    def _show(self) -> None:
        self.value_button.text = f"{self._format(self.number)}   ({self._format(self.minimum)}-{self._format(self.maximum)})"
        self.minus.disabled = self.number <= self.minimum
        self.plus.disabled = self.number >= self.maximum

    def step(self, direction: int) -> None:
        size = self.step_size
        # Big ranges (a seed, a node budget) move faster: the step grows with the value.
        if self.whole and abs(self.number) >= 20 * size:
            size = max(size, 10 ** (len(str(int(abs(self.number)))) - 2))
        number = min(self.maximum, max(self.minimum, self.number + direction * size))
        number = int(round(number)) if self.whole else round(number, 6)
        if number != self.number:
            self.number = number
            self._show()
            self.on_change_value(number)


def card(heading: str, width: float) -> tuple[arcade.gui.UIWidget, arcade.gui.UIBoxLayout]:
    """A panel with a heading; returns (the card to place, the box to fill)."""
    box = arcade.gui.UIBoxLayout(space_between=6, align="left")
    box.add(theme.label(heading, 16, theme.ACCENTS[0], title=True))
    frame = arcade.gui.UIBoxLayout(size_hint=None)
    frame.add(box.with_padding(all=14))
    frame.with_background(color=theme.PANEL).with_border(color=theme.PANEL_EDGE, width=2)
    return frame, box


def help_text(text: str, width: float) -> arcade.gui.UILabel:
    return theme.label(text, 11, theme.TEXT_DIM, width=width, multiline=True)
