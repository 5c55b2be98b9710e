"""Small controls for the menus: a choice you step through, a number stepper and a card.

Both controls are a single flat button, so every value is reachable by clicks alone (and by a test clicking
them), never by typing, and a screen full of them stays cheap to build: ``Choice`` shows ``<  value  >`` and
steps back when its left end is clicked, forward elsewhere; ``Stepper`` shows ``-  value (range)  +`` and
takes or adds a step when an end is clicked.  Left/right arrows on the keyboard are not needed: a click on the
middle of a Choice moves forward.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import arcade
import arcade.gui

from game import theme

END = 0.22
"""Fraction of a control's width, at each end, that acts as its back / forward (or minus / plus) button."""


def _control_style() -> dict[str, arcade.gui.UIFlatButton.UIStyle]:
    return theme.button_style(theme.BODY)  # values in the body face: they are data, not labels


class Choice(arcade.gui.UIFlatButton):
    """``<  value  >``: steps through ``options`` ((value, text) pairs) and calls ``on_change(value)``."""

    def __init__(self, options: Sequence[tuple[Any, str]], value: Any, on_change: Callable[[Any], None],
                 width: float = 300, name: str = "") -> None:
        super().__init__(text="", width=width, height=34, style=_control_style())
        if not options:
            raise ValueError("a Choice needs at least one option")
        self.options = list(options)
        values = [option for option, _ in self.options]
        self.index = values.index(value) if value in values else 0
        self.on_change_value = on_change
        self.name = name
        self._show()

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    def _show(self) -> None:
        arrows = len(self.options) > 1
        self.text = f"<     {self.options[self.index][1]}     >" if arrows else self.options[self.index][1]

    def on_click(self, event: arcade.gui.UIOnClickEvent) -> None:
        self.step(-1 if event.x < self.left + self.width * END else 1)

    def step(self, step: int) -> None:
        if len(self.options) < 2:
            return
        self.index = (self.index + step) % len(self.options)
        self._show()
        self.on_change_value(self.value)

    def point(self, step: int) -> tuple[float, float]:
        """Where to click to step back (-1) or forward (1)."""
        return (self.left + 8 if step < 0 else self.right - 8), self.center_y


class Stepper(arcade.gui.UIFlatButton):
    """``-  value (range)  +``: a number kept within [minimum, maximum] in steps of ``step``."""

    def __init__(self, value: float, minimum: float, maximum: float, step: float,
                 on_change: Callable[[float], None], whole: bool = False, width: float = 300, name: str = "") -> None:
        super().__init__(text="", width=width, height=34, style=_control_style())
        self.minimum, self.maximum, self.step_size, self.whole = minimum, maximum, step, whole
        self.number = value
        self.on_change_value = on_change
        self.name = name
        self._show()

    def _format(self, number: float) -> str:
        return str(int(number)) if self.whole else f"{number:g}"

    def _show(self) -> None:
        minus = "-" if self.number > self.minimum else " "
        plus = "+" if self.number < self.maximum else " "
        self.text = (f"{minus}      {self._format(self.number)}   "
                     f"({self._format(self.minimum)} to {self._format(self.maximum)})      {plus}")

    def on_click(self, event: arcade.gui.UIOnClickEvent) -> None:
        if event.x < self.left + self.width * END:
            self.step(-1)
        elif event.x > self.right - self.width * END:
            self.step(1)

    def point(self, step: int) -> tuple[float, float]:
        """Where to click to take a step off (-1) or add one (1)."""
        return (self.left + 8 if step < 0 else self.right - 8), self.center_y

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


def card(heading: str, width: float) -> arcade.gui.UIBoxLayout:
    """A panel with a heading, to be filled with rows."""
    box = arcade.gui.UIBoxLayout(space_between=6, align="left", size_hint_min=(width, 0))
    box.add(theme.label(heading, theme.LABEL, theme.ACCENTS[0]))
    box.with_padding(all=12).with_background(color=theme.PANEL).with_border(color=theme.PANEL_EDGE, width=2)
    return box


def labelled(label: str, help_line: str, control: arcade.gui.UIWidget, width: float) -> arcade.gui.UIWidget:
    """A row: the setting's name over its one-line help on the left, the control on the right."""
    height = 62 if help_line else 36
    row = arcade.gui.UIAnchorLayout(width=width, height=height, size_hint=None)
    text = label if not help_line else f"{label}\n{help_line}"
    row.add(theme.label(text, theme.BODY, theme.TEXT, width=width - control.width - 12, multiline=True),
            anchor_x="left", anchor_y="center")
    row.add(control, anchor_x="right", anchor_y="center")
    return row
