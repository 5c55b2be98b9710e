"""What the menu screens share: the dark table background, a heading, a message strip, keys and focus.

A menu screen is an ``arcade.gui.UIView``; its widgets are built in ``build`` (called again when the window is
resized, so layouts always fit) inside ``content_box()``, the room between the heading and the message strip.
``message`` shows a line of feedback (a warning in the warning colour) in the strip at the bottom.

Keys are the same on every menu: Escape goes back, Tab and Shift+Tab move a visible focus ring between the
buttons (Up and Down too), Enter or Space presses the focused button (a choice or a number steps forward; Left and Right step
it either way), and Enter with nothing focused does the screen's ``default_action`` (Start on the seat screen,
Play on the title screen).  The mouse wheel or Page Up / Page Down scroll a screen whose rows do not all fit
(``scroll``).  F11 is the window's, on every screen (``game.context``).
"""
from __future__ import annotations

from typing import Callable, TypeVar

import arcade
import arcade.gui

from game import theme
from game.context import AppContext

WidgetT = TypeVar("WidgetT", bound=arcade.gui.UIWidget)
"""Any arcade.gui widget: ``on_click`` hands back the widget it was given, with its type."""

MESSAGE_BAND = 52
"""Pixels kept free at the bottom of every menu for the message strip."""
FOCUS_GAP = 4


def heading_size(height: float) -> int:
    """The heading's font size: smaller on a short window, so the content keeps its room."""
    return 34 if height >= 640 else 26


def heading_band(height: float) -> float:
    """Pixels the heading takes at the top of a window ``height`` tall."""
    return 30 + heading_size(height) * 1.6


class MenuView(arcade.gui.UIView):
    """Base of the menu screens."""

    heading = ""

    def __init__(self, context: AppContext) -> None:
        super().__init__()
        self.context = context
        self.background_color = theme.TABLE
        self.focus: arcade.gui.UIWidget | None = None
        self._message = theme.text("", theme.BODY, theme.TEXT_DIM, anchor_x="center", anchor_y="bottom",
                                   multiline=True, width=1000, align="center")
        self._heading = theme.text(self.heading, theme.HEADING, theme.TEXT, anchor_x="center", anchor_y="top")
        self.built_for: tuple[int, int] | None = None
        """The window size the widgets were last built for (a frame at another size builds them again)."""
        self.rebuild()

    # -- building ---------------------------------------------------------------------------------------------
    def build(self) -> None:
        """Add the screen's widgets to ``self.ui`` (subclasses)."""

    def rebuild(self) -> None:
        focused = self._focus_key(self.focus) if self.focus is not None else None
        self.built_for = (self.window.width, self.window.height)
        self.ui.clear()
        self.build()
        # Keep the focus on the same control when the screen is built again (a resize, a step, a scroll).
        self.focus = next((w for w in self.focusable() if focused is not None and self._focus_key(w) == focused),
                          None)

    @staticmethod
    def _focus_key(widget: arcade.gui.UIWidget) -> str:
        """What identifies a control across rebuilds: its name (choices, numbers), else its text."""
        return str(getattr(widget, "name", "") or getattr(widget, "text", ""))

    def content_box(self) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) between the heading (when there is one) and the message strip."""
        width, height = self.window.width, self.window.height
        top = height - (heading_band(height) if self.heading else 20)
        return 20, MESSAGE_BAND, width - 40, max(100, top - MESSAGE_BAND)

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self.rebuild()

    def message(self, text: str, warning: bool = False) -> None:
        self._message.text = text
        self._message.color = theme.WARNING if warning else theme.TEXT_DIM

    @staticmethod
    def on_click(widget: WidgetT, action: Callable[[], None]) -> WidgetT:
        """Call ``action`` when the widget is clicked (and it is enabled)."""

        @widget.event("on_click")
        def _clicked(event: arcade.gui.UIOnClickEvent) -> None:
            if not getattr(widget, "disabled", False):
                action()

        return widget

    def back(self) -> None:
        """Escape: back to the title screen (screens override)."""
        self.context.show_title()

    def default_action(self) -> None:
        """Enter with nothing focused: the screen's obvious next step (screens override; Back by default)."""
        self.back()

    def scroll(self, steps: int, x: float, y: float) -> bool:
        """Scroll ``steps`` rows down (up when negative) at the point (x, y); True when anything moved."""
        return False

    # -- focus ------------------------------------------------------------------------------------------------
    def focusable(self) -> list[arcade.gui.UIFlatButton]:
        """The enabled buttons (and choices and steppers) in reading order: top to bottom, left to right."""
        found: list[arcade.gui.UIFlatButton] = []

        def walk(widget: arcade.gui.UIWidget) -> None:
            if not widget.visible:
                return
            if isinstance(widget, arcade.gui.UIFlatButton):
                if not getattr(widget, "disabled", False):
                    found.append(widget)
                return
            for child in widget.children:
                walk(child)

        self.ui.execute_layout()
        for layer in sorted(self.ui.children):
            for root in self.ui.children[layer]:
                walk(root)
        return sorted(found, key=lambda w: (-round(w.rect.top), w.rect.left))

    def move_focus(self, step: int) -> None:
        buttons = self.focusable()
        if not buttons:
            self.focus = None
            return
        if self.focus in buttons:
            index = (buttons.index(self.focus) + step) % len(buttons)
        else:
            index = 0 if step > 0 else len(buttons) - 1
        self.focus = buttons[index]

    def activate(self, widget: arcade.gui.UIWidget, step: int = 1) -> None:
        """Press ``widget`` as a click would: a button acts, a choice or number steps by ``step``."""
        stepping = getattr(widget, "step", None)
        if callable(stepping):
            stepping(step)
            return
        widget.dispatch_event("on_click", arcade.gui.UIOnClickEvent(
            source=widget, x=int(widget.center_x), y=int(widget.center_y), button=arcade.MOUSE_BUTTON_LEFT,
            modifiers=0))

    # -- events -----------------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key = arcade.key
        if symbol == key.ESCAPE:
            self.back()
            return True
        if symbol == key.TAB:
            self.move_focus(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        focus = self.focus if self.focus in self.focusable() else None
        if symbol in (key.ENTER, key.RETURN, key.NUM_ENTER, key.SPACE):
            if focus is not None:
                self.activate(focus)
            elif symbol != key.SPACE:
                self.default_action()
            return True
        if symbol in (key.LEFT, key.RIGHT) and focus is not None and callable(getattr(focus, "step", None)):
            self.activate(focus, -1 if symbol == key.LEFT else 1)
            return True
        if symbol in (key.DOWN, key.UP):
            self.move_focus(1 if symbol == key.DOWN else -1)
            return True
        if symbol in (key.PAGEDOWN, key.PAGEUP):
            x, y = focus.center if focus is not None else (self.window.width / 2, self.window.height / 2)
            return self.scroll(4 if symbol == key.PAGEDOWN else -4, x, y)
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if scroll_y and self.scroll(-1 if scroll_y > 0 else 1, x, y):
            return True
        return None

    def on_draw(self) -> bool | None:
        # The screen follows the window's size even when no resize event reached it (a size set while another
        # screen was shown, or an event a handler above stopped): built again before it is drawn.
        window = self.window
        if (window.width, window.height) != self.built_for:
            window.viewport = (0, 0, window.width, window.height)
            self.ui.on_resize(window.width, window.height)
            self.on_resize(window.width, window.height)
        return super().on_draw()

    def on_draw_before_ui(self) -> None:
        width, height = self.window.width, self.window.height
        if self.heading:
            self._heading.text = self.heading
            self._heading.font_size = heading_size(height)
            self._heading.position = width / 2, height - 24
            self._heading.draw()

    def on_draw_after_ui(self) -> None:
        width = self.window.width
        if self.focus is not None and self.focus in self.focusable():
            rect = self.focus.rect
            arcade.draw_lbwh_rectangle_outline(rect.left - FOCUS_GAP, rect.bottom - FOCUS_GAP,
                                               rect.width + 2 * FOCUS_GAP, rect.height + 2 * FOCUS_GAP,
                                               theme.ACCENTS[1], 3)
        if self._message.text:
            self._message.width = max(200, width - 80)
            self._message.position = width / 2, 8
            self._message.draw()
