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
from game.views.focus import BOARD, FocusRing
from game.views.panels import follow_window

WidgetT = TypeVar("WidgetT", bound=arcade.gui.UIWidget)
"""Any arcade.gui widget: ``on_click`` hands back the widget it was given, with its type."""

MESSAGE_BAND = 52
"""Pixels kept free at the bottom of every menu for the message strip (at 1280x720; ``message_band``)."""


def heading_size(height: float, scale: float = 1.0) -> int:
    """The heading's font size: smaller on a short window, so the content keeps its room; ``scale`` times larger
    in a window larger than 1280x720 (``theme.type_scale``)."""
    return round((34 if height >= 640 else 26) * scale)


def heading_band(height: float, scale: float = 1.0) -> float:
    """Pixels the heading takes at the top of a window ``height`` tall."""
    return 30 * scale + heading_size(height, scale) * 1.6


def message_band(scale: float = 1.0) -> float:
    """Pixels kept free at the bottom of a menu for the message strip, in a window of this type scale."""
    return MESSAGE_BAND * scale


class MenuView(FocusRing, arcade.gui.UIView):
    """Base of the menu screens.

    Type and rows grow with the window: ``build`` runs inside ``theme.scaled_ui(self.scale)``, so the theme's
    widgets draw their words ``scale`` times larger and ``theme.px`` turns a screen's design lengths (pixels at
    1280x720) into this window's; 1 up to 1280x720, 2 at 2560x1440 (``theme.type_scale``)."""

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

    @property
    def scale(self) -> float:
        """The window's type scale (``theme.type_scale``): how much larger than at 1280x720 this screen draws."""
        return theme.type_scale(self.window.width, self.window.height)

    def rebuild(self) -> None:
        focused = self.focus_key(self.focus) if self.focus is not None else None
        self.built_for = (self.window.width, self.window.height)
        self.ui.clear()
        with theme.scaled_ui(self.scale):
            self.build()
        # Keep the focus on the same control when the screen is built again (a resize, a step, a scroll).
        self.refocus(focused)

    def content_box(self) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) between the heading (when there is one) and the message strip."""
        width, height, scale = self.window.width, self.window.height, self.scale
        band = message_band(scale)
        top = height - (heading_band(height, scale) if self.heading else 20 * scale)
        return 20 * scale, band, width - 40 * scale, max(100, top - band)

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

    # -- events -----------------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key = arcade.key
        if symbol == key.ESCAPE:
            self.back()
            return True
        if symbol == key.TAB:
            self.move_focus(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        focus = self.focused_control
        if focus is BOARD:  # a screen with a board (the tutorial) says what Enter does there
            focus = None
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

    def on_show_view(self) -> None:
        # Shown again (Escape from the rules, Settings, a review over it) after the window changed size while it
        # was hidden: no resize event reached it, so its UI follows the window and it is built again for the
        # size now, before a click can land on a widget placed for the old one.
        super().on_show_view()
        follow_window(self)
        if (self.window.width, self.window.height) != self.built_for:
            self.on_resize(self.window.width, self.window.height)

    def on_draw(self) -> bool | None:
        # The screen follows the window's size even when no resize event reached it (a size set while another
        # screen was shown, or an event a handler above stopped): built again before it is drawn.
        window = self.window
        if (window.width, window.height) != self.built_for:
            follow_window(self)
            self.on_resize(window.width, window.height)
        return super().on_draw()

    def on_draw_before_ui(self) -> None:
        width, height = self.window.width, self.window.height
        if self.heading:
            self._heading.text = self.heading
            self._heading.font_size = heading_size(height, self.scale)
            self._heading.position = width / 2, height - 24
            self._heading.draw()

    def on_draw_after_ui(self) -> None:
        width, scale = self.window.width, self.scale
        self.draw_focus()
        if self._message.text:
            if self._message.font_size != theme.BODY.size * scale:
                self._message.font_size = round(theme.BODY.size * scale)
            self._message.width = max(200, width - 80 * scale)
            self._message.position = width / 2, 8 * scale
            self._message.draw()
