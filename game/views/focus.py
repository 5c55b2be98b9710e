"""Keyboard focus, one mechanism for every screen: Tab and Shift+Tab move a visible ring over the screen's controls.

``FocusRing`` is mixed into a screen with a UIManager (``self.ui``): the menus (``game.views.base.MenuView``) and
the game screens (``MatchView``, ``SolitaireView``).  ``focus_stops`` lists what Tab visits in reading order (top to
bottom, left to right): every enabled button (and choice and stepper) on every layer, and on a game screen the
board as one stop (``BOARD``) before the bottom bar, where the arrows then work as they always do.  ``activate``
presses a control as a click would; ``draw_focus`` draws the ring.  The focused control is remembered by its
name or text, so a screen built again (a resize, a new label) keeps it.
"""
from __future__ import annotations

from typing import Any

import arcade
import arcade.gui

from game import theme

FOCUS_GAP = 4
"""Pixels between a control's edge and its ring."""


class _Board:
    """The board as one stop of the Tab order."""

    text = name = "the board"

    def __repr__(self) -> str:
        return "BOARD"


BOARD: Any = _Board()
"""The focus stop that stands for a game screen's board (arrows and Enter then play on it)."""


def board_bounds(scene: Any) -> tuple[float, float, float, float] | None:
    """(left, bottom, width, height) of the board a scene draws (a sowing or solitaire board, the cave between its
    walls), None for a scene not laid out yet."""
    found = getattr(scene, "layout", None)
    if found is None:
        return None
    board = getattr(found, "board", None)
    if board is not None:
        left, bottom, width, height = board
        return left, bottom, width, height
    if hasattr(found, "wall"):  # the cave: the grid between its two walls
        return found.left - found.wall, found.bottom, found.right - found.left + 2 * found.wall, 8 * found.cell
    return None


class FocusRing:
    """Tab focus over ``self.ui``'s buttons (and the board, where ``board_stop`` gives one)."""

    ui: arcade.gui.UIManager
    window: arcade.Window
    focus: Any = None
    """The focused control (a widget, or ``BOARD``), None before Tab is pressed."""

    def board_stop(self) -> tuple[float, float, float, float] | None:
        """(left, bottom, width, height) of the board when the screen has one to focus (game screens)."""
        return None

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

    def focus_stops(self) -> list[Any]:
        """What Tab visits: the board first (it lies above the bottom bar), then the buttons."""
        return ([BOARD] if self.board_stop() is not None else []) + list(self.focusable())

    @property
    def focused_control(self) -> Any:
        """The focus when it is still on the screen (a control gone or disabled since counts as none)."""
        if self.focus is None:
            return None
        if self.focus is BOARD:
            return BOARD if self.board_stop() is not None else None
        return self.focus if self.focus in self.focusable() else None

    @property
    def focus_on_control(self) -> bool:
        """A button (not the board) has the focus: Enter and the arrows are the focus's."""
        control = self.focused_control
        return control is not None and control is not BOARD

    def move_focus(self, step: int) -> None:
        stops = self.focus_stops()
        if not stops:
            self.focus = None
            return
        current = self.focused_control
        if current in stops:
            index = (stops.index(current) + step) % len(stops)
        else:
            index = 0 if step > 0 else len(stops) - 1
        self.focus = stops[index]

    @staticmethod
    def focus_key(widget: Any) -> str:
        """What identifies a control across rebuilds: its name (choices, numbers), else its text."""
        return str(getattr(widget, "name", "") or getattr(widget, "text", ""))

    def refocus(self, key: str | None) -> None:
        """After the widgets were built again: the focus on the control that had it (by ``focus_key``)."""
        if key is None:
            self.focus = None
        elif key == BOARD.name and self.board_stop() is not None:
            self.focus = BOARD
        else:
            self.focus = next((w for w in self.focusable() if self.focus_key(w) == key), None)

    def focus_keys(self, symbol: int, modifiers: int) -> bool:
        """The focus's keys on a game screen: Tab and Shift+Tab move it; while a button has it, Enter or Space
        presses it and the arrows move it on (on the board, or with nothing focused, the screen's own keys
        act).  True when the key was the focus's."""
        key = arcade.key
        if symbol == key.TAB:
            self.move_focus(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        if not self.focus_on_control:
            return False
        if symbol in (key.ENTER, key.RETURN, key.NUM_ENTER, key.SPACE):
            self.activate(self.focused_control)
            return True
        if symbol in (key.LEFT, key.UP, key.RIGHT, key.DOWN):
            self.move_focus(-1 if symbol in (key.LEFT, key.UP) else 1)
            return True
        return False

    def activate(self, widget: Any, step: int = 1) -> None:
        """Press ``widget`` as a click would: a button acts, a choice or number steps by ``step``."""
        stepping = getattr(widget, "step", None)
        if callable(stepping):
            stepping(step)
            return
        widget.dispatch_event("on_click", arcade.gui.UIOnClickEvent(
            source=widget, x=int(widget.center_x), y=int(widget.center_y), button=arcade.MOUSE_BUTTON_LEFT,
            modifiers=0))

    def focus_ring(self) -> tuple[float, float, float, float] | None:
        """(left, bottom, width, height) of the ring around the focused control, None when nothing is focused."""
        control = self.focused_control
        if control is None:
            return None
        gap = FOCUS_GAP * theme.type_scale(self.window.width, self.window.height)
        if control is BOARD:
            rect = self.board_stop()
            assert rect is not None
            left, bottom, width, height = rect
        else:
            rect = control.rect
            left, bottom, width, height = rect.left, rect.bottom, rect.width, rect.height
        return left - gap, bottom - gap, width + 2 * gap, height + 2 * gap

    def draw_focus(self) -> None:
        ring = self.focus_ring()
        if ring is not None:
            line = 3 * theme.type_scale(self.window.width, self.window.height)
            arcade.draw_lbwh_rectangle_outline(*ring, theme.ACCENTS[1], line)
