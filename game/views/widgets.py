"""Small controls for the menus: a choice you step through, a number stepper and a card.

Both controls are a single flat button, so every value is reachable by clicks alone (and by a test clicking
them), never by typing, and a screen full of them stays cheap to build: ``Choice`` shows ``<  value  >`` and
steps back when its left end is clicked, forward elsewhere; ``Stepper`` shows ``-  value (range)  +`` and
takes or adds a step when an end is clicked.  The arrows are drawn at fixed places in those ends, whatever
the value's width, so they never move under the pointer.  Left/right arrows on the keyboard are not needed: a click on the
middle of a Choice moves forward.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import arcade
import arcade.gui
from arcade.types import Color

from game import theme

END = 0.22
"""Fraction of a control's width, at each end, that acts as its back / forward (or minus / plus) button."""


def _control_style(size: int = theme.BODY.size) -> dict[str, arcade.gui.UIFlatButton.UIStyle]:
    return theme.button_style(theme.sized(theme.BODY, size))  # values in the body face: they are data, not labels


def text_button(text: str, width: float, height: float = 40, font_size: int = 13) -> arcade.gui.UIFlatButton:
    """A button for a line of ordinary words (a save, a marker), in the body face rather than the display one."""
    return arcade.gui.UIFlatButton(text=text, width=width, height=height, style=_control_style(font_size))


def fit_font(button: arcade.gui.UIFlatButton, smallest: int = 9, room: float | None = None) -> None:
    """Make the button's font smaller until its text fits inside it (or in ``room`` pixels; never below
    ``smallest`` points)."""
    style = button.style.get("normal")
    if style is None or not button.text:
        return
    size = int(style.font_size)
    names = style.font_name
    if room is None:
        room = button.width - 2 * (style.border_width or 0) - 8
    while size > smallest and arcade.Text(button.text, 0, 0, font_size=size, font_name=names).content_width > room:
        size -= 1
    if size != style.font_size:
        button.style = {state: type(value)(**{**vars(value), "font_size": size})
                        for state, value in button.style.items()}


class _FixedArrows(arcade.gui.UIFlatButton):
    """A value between two arrows drawn at fixed places, the middle of each end's click zone (``END``), so an
    arrow never moves as the value's words grow or shrink: two clicks in one place make two steps."""

    def _init_arrows(self) -> None:
        self._base_style = self.style
        self._arrow_texts = [arcade.Text("", 0, 0, font_name=theme.BODY_FONT, anchor_x="center",
                                         anchor_y="center", bold=True) for _ in range(2)]
        self.glyphs = ("", "")
        """The two arrows shown (an empty one where no step can be made)."""

    def _set_value(self, text: str, glyphs: tuple[str, str]) -> None:
        if self.style is not self._base_style:
            self.style = self._base_style
        self.glyphs = glyphs
        if self.text != text:
            self.text = text
        else:
            self.trigger_full_render()
        # The words fit between the arrows' zones, never under an arrow.
        fit_font(self, room=self.width * (1 - 2 * END) - 4 if any(glyphs) else None)

    def arrow_x(self, step: int) -> float:
        """Where the back (-1) or forward (1) arrow is drawn, in window coordinates (its centre)."""
        zone = self.width * END
        return self.left + zone / 2 if step < 0 else self.right - zone / 2

    def point(self, step: int) -> tuple[float, float]:
        """Where to click to step back (-1) or forward (1): on the arrow itself."""
        return self.arrow_x(step), self.center_y

    def do_render(self, surface: arcade.gui.Surface) -> None:
        super().do_render(surface)
        style = self.get_current_style() or self.style["normal"]
        size = int(self._base_style["normal"].font_size) + 2
        colour = style.get("font_color", theme.TEXT)
        zone = self.content_width * END
        for text, glyph, x in zip(self._arrow_texts, self.glyphs, (zone / 2, self.content_width - zone / 2)):
            if not glyph:
                continue
            text.text, text.font_size, text.color = glyph, size, colour
            text.position = x, self.content_height / 2
            text.draw()


class Choice(_FixedArrows):
    """``<  value  >``: steps through ``options`` ((value, text) pairs) and calls ``on_change(value)``."""

    def __init__(self, options: Sequence[tuple[Any, str]], value: Any, on_change: Callable[[Any], None],
                 width: float | None = None, name: str = "") -> None:
        super().__init__(text="", width=theme.px(300) if width is None else width, height=theme.px(34),
                         style=_control_style())
        self._init_arrows()
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
        arrows = ("<", ">") if len(self.options) > 1 else ("", "")
        self._set_value(self.options[self.index][1], arrows)  # a long option: smaller words, never cut off

    def on_click(self, event: arcade.gui.UIOnClickEvent) -> None:
        self.step(-1 if event.x < self.left + self.width * END else 1)

    def step(self, step: int) -> None:
        if len(self.options) < 2:
            return
        self.index = (self.index + step) % len(self.options)
        self._show()
        self.on_change_value(self.value)


class Stepper(_FixedArrows):
    """``-  value (range)  +``: a number kept within [minimum, maximum] in steps of ``step``.

    An ``optional`` number can also be unset: a step down from the minimum shows "not used" (the value None),
    and a step up from there comes back to ``resume`` (the minimum unless given).
    """

    def __init__(self, value: float | None, minimum: float, maximum: float, step: float,
                 on_change: Callable[[float | None], None], whole: bool = False, width: float | None = None,
                 name: str = "", optional: bool = False, resume: float | None = None) -> None:
        super().__init__(text="", width=theme.px(300) if width is None else width, height=theme.px(34),
                         style=_control_style())
        self._init_arrows()
        self.minimum, self.maximum, self.step_size, self.whole = minimum, maximum, step, whole
        self.optional = optional
        self.resume = minimum if resume is None else min(maximum, max(minimum, resume))
        self.number = value if value is not None or optional else minimum
        self.on_change_value = on_change
        self.name = name
        self._show()

    def _format(self, number: float) -> str:
        return str(int(number)) if self.whole else f"{number:g}"

    def _show(self) -> None:
        if self.number is None:
            self._set_value("not used", ("", "+"))
            return
        minus = "-" if self.number > self.minimum or self.optional else ""
        plus = "+" if self.number < self.maximum else ""
        span = f"({self._format(self.minimum)} to {self._format(self.maximum)})"
        self._set_value(f"{self._format(self.number)}   {span}", (minus, plus))

    def on_click(self, event: arcade.gui.UIOnClickEvent) -> None:
        if event.x < self.left + self.width * END:
            self.step(-1)
        elif event.x > self.right - self.width * END:
            self.step(1)

    def step(self, direction: int) -> None:
        if self.number is None:
            number: float | None = self.resume if direction > 0 else None
        elif direction < 0 and self.optional and self.number <= self.minimum:
            number = None
        else:
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


SETTING_NAME = theme.sized(theme.BODY, 14)
"""A setting's name: the body face a step above body text."""
SETTING_HELP = theme.SMALL
"""A setting's description and raw parameter name: smaller, and dimmer than its name."""


def card(heading: str, width: float) -> arcade.gui.UIBoxLayout:
    """A panel with a heading, to be filled with rows."""
    box = arcade.gui.UIBoxLayout(space_between=theme.px(6), align="left", size_hint_min=(width, 0))
    if heading:
        box.add(theme.label(heading, theme.sized(theme.LABEL, 16), theme.ACCENTS[0]))
    # arcade.gui wants its Color class here; theme keeps plain RGBA tuples.
    box.with_padding(all=round(theme.px(12))).with_background(color=Color.from_iterable(theme.PANEL))
    box.with_border(color=Color.from_iterable(theme.PANEL_EDGE), width=2)
    return box


def labelled(label: str, help_line: str, control: arcade.gui.UIWidget, width: float,
             hint: str = "") -> arcade.gui.UIWidget:
    """A row: the setting's name (with a small ``hint``, such as the raw parameter name, beside it) over its
    description on the left, the control on the right; as tall as its words need."""
    text_width = max(theme.px(120), width - control.width - theme.px(12))
    words = arcade.gui.UIBoxLayout(space_between=theme.px(2), align="left")
    name = arcade.gui.UIBoxLayout(vertical=False, space_between=theme.px(8), align="bottom")
    parts = [theme.label(label, SETTING_NAME, theme.TEXT)]
    if hint:
        parts.append(theme.label(hint, SETTING_HELP, theme.TEXT_DIM))
    for part in parts:
        name.add(part)
    words.add(name)
    height = max(part.height for part in parts)  # a layout's own size is known only once it is laid out
    if help_line:
        description = theme.label(help_line, SETTING_HELP, theme.TEXT_DIM, width=text_width, multiline=True)
        words.add(description)
        height += theme.px(2) + description.height
    row = arcade.gui.UIAnchorLayout(width=width, height=max(control.height, height) + theme.px(6), size_hint=None)
    row.add(words, anchor_x="left", anchor_y="center")
    row.add(control, anchor_x="right", anchor_y="center")
    return row


class Rows:
    """A column of rows too long for its room, shown a window at a time from ``first`` on.

    ``layout(rows, room)`` returns the rows to show (with "more above" / "more below" buttons where rows are
    left out) that fit in ``room`` pixels; ``scroll`` moves the window.  The screen rebuilds after a scroll.
    """

    MARKER = 26
    GAP = 6

    def __init__(self, on_scroll: Callable[[], None]) -> None:
        self.first = 0
        self.on_scroll = on_scroll
        self.hidden_below = 0

    def scroll(self, steps: int) -> bool:
        """Move the first row shown by ``steps`` rows (no further than the last rows fit); True when it moved."""
        first = self.first + min(steps, self.hidden_below) if steps > 0 else max(0, self.first + steps)
        if first == self.first:
            return False
        self.first = first
        self.on_scroll()
        return True

    def layout(self, rows: Sequence[arcade.gui.UIWidget], room: float, width: float) -> list[arcade.gui.UIWidget]:
        """The widgets to stack: a marker, the rows that fit, a marker."""
        total = sum(row.height for row in rows) + theme.px(self.GAP) * max(0, len(rows) - 1)
        if total <= room:
            self.first, self.hidden_below = 0, 0
            return list(rows)
        self.first = min(self.first, len(rows) - 1)
        shown: list[arcade.gui.UIWidget] = []
        used: float = theme.px(self.MARKER) + theme.px(self.GAP) if self.first else 0
        for row in rows[self.first:]:
            need = row.height + (theme.px(self.GAP) if shown else 0)
            if used + need + theme.px(self.MARKER) + theme.px(self.GAP) > room and shown:
                break
            shown.append(row)
            used += need
        self.hidden_below = len(rows) - self.first - len(shown)
        result: list[arcade.gui.UIWidget] = []
        if self.first:
            result.append(self._marker(f"{self.first} more above (wheel or Page Up)", -3, width))
        result += shown
        if self.hidden_below:
            result.append(self._marker(f"{self.hidden_below} more below (wheel or Page Down)", 3, width))
        return result

    def _marker(self, text: str, steps: int, width: float) -> arcade.gui.UIFlatButton:
        marker = text_button(text, width, theme.px(self.MARKER))

        @marker.event("on_click")
        def _clicked(event: arcade.gui.UIOnClickEvent) -> None:
            self.scroll(steps)

        return marker
