"""What the menu screens share: the dark table background, a heading, a message strip and a Back key.

A menu screen is an ``arcade.gui.UIView``; its widgets are built in ``build`` (called again when the window is
resized, so layouts always fit).  ``message`` shows a line of feedback (a warning in the warning colour) at the
bottom of the screen until replaced.
"""
from __future__ import annotations

from typing import Callable

import arcade
import arcade.gui

from game import theme
from game.context import AppContext


class MenuView(arcade.gui.UIView):
    """Base of the menu screens."""

    heading = ""

    def __init__(self, context: AppContext) -> None:
        super().__init__()
        self.context = context
        self.background_color = theme.TABLE
        self._message = theme.text("", theme.BODY, theme.TEXT_DIM, anchor_x="center",
                                    multiline=True, width=1000, align="center")
        self._heading = theme.text(self.heading, theme.HEADING, theme.TEXT,
                                    anchor_x="center", anchor_y="top")
        self.rebuild()

    # -- building ---------------------------------------------------------------------------------------------
    def build(self) -> None:
        """Add the screen's widgets to ``self.ui`` (subclasses)."""

    def rebuild(self) -> None:
        self.ui.clear()
        self.build()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self.rebuild()

    def message(self, text: str, warning: bool = False) -> None:
        self._message.text = text
        self._message.color = theme.WARNING if warning else theme.TEXT_DIM

    @staticmethod
    def on_click(widget: arcade.gui.UIWidget, action: Callable[[], None]) -> arcade.gui.UIWidget:
        """Call ``action`` when the widget is clicked (and it is enabled)."""

        @widget.event("on_click")
        def _clicked(event: arcade.gui.UIOnClickEvent) -> None:
            if not getattr(widget, "disabled", False):
                action()

        return widget

    def back(self) -> None:
        """Escape: back to the title screen (screens override)."""
        self.context.show_title()

    # -- events -----------------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == arcade.key.ESCAPE:
            self.back()
            return True
        if symbol == arcade.key.F11:
            self.context.settings.set("fullscreen", not self.context.settings.get("fullscreen"))
            self.context.save_settings()
            return True
        return None

    def on_draw_before_ui(self) -> None:
        width, height = self.window.width, self.window.height
        if self.heading:
            self._heading.text = self.heading
            self._heading.position = width / 2, height - 30
            self._heading.draw()

    def on_draw_after_ui(self) -> None:
        width = self.window.width
        self._message.width = max(200, width - 80)
        self._message.position = width / 2, 40
        if self._message.text:
            self._message.draw()
