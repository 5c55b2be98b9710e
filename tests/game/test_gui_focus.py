"""Tab shows focus on every game screen (issue 29): the menus' focus ring, over the board and the buttons.

On Kalah, Oware, Hus, Magnetic Cave, the solitaire puzzle and the tutorial, Tab puts a visible ring (pixels of
the ring's colour appear round the control) first on the board, where the arrows then work as always (the sowing cursor,
the cave's cell cursor), then on each button in reading order; Shift+Tab goes back; Enter presses the focused
button; the ring stays on its control when the window is resized; Escape leaves.  M shows and hides the move
list (Tab did, before it moved the focus).
"""
from __future__ import annotations

from typing import Any

import arcade
import pytest

from game import theme
from game.views import tour
from game.views.focus import BOARD
from game.views.rules_view import RulesView
from game.views.title import TitleView
from game.views.tutorial_view import LearnMenuView


def _ring_pixels(gui: Any, rect: tuple[float, float, float, float]) -> int:
    """Pixels of the ring's colour in a band round ``rect`` (left, bottom, width, height), as drawn now."""
    image = gui.screenshot().convert("RGB")
    height = gui.window.height
    ring = tuple(theme.ACCENTS[1][:3])
    left, bottom, width, tall = (int(v) for v in rect)
    count = 0
    for x in range(max(0, left - 10), min(image.width, left + width + 10)):
        for y in list(range(bottom - 10, bottom + 2)) + list(range(bottom + tall - 2, bottom + tall + 10)):
            if 0 <= height - y - 1 < image.height and image.getpixel((x, height - y - 1)) == ring:
                count += 1
    return count


def _rect(view: Any, control: Any) -> tuple[float, float, float, float]:
    if control is BOARD:
        return view.board_stop()
    return control.rect.left, control.rect.bottom, control.rect.width, control.rect.height


def _tab_to(gui: Any, view: Any, text: str) -> Any:
    """Press Tab until the button labelled ``text`` has the focus (each stop visited once at most)."""
    for _ in range(len(view.focus_stops()) + 1):
        gui.key(arcade.key.TAB)
        if view.focus is not BOARD and view.focus is not None and view.focus.text.startswith(text):
            return view.focus
    raise AssertionError(f"Tab never reached {text!r}: {[getattr(s, 'text', s) for s in view.focus_stops()]}")


GAMES = {"kalah": "Analysis", "oware": "Analysis", "hus": "Analysis", "magnetic-cave": "Analysis", "puzzle": "Rules",
         "learn-kalah": "Leave"}
"""Each game screen and the button the test presses with Enter."""


@pytest.mark.parametrize("name", list(GAMES))
def test_tab_shows_a_ring_on_the_board_then_the_buttons_and_enter_presses_one(gui, name: str) -> None:  # type: ignore
    tour.open_screen(gui.context, name)
    gui.frame(3)
    view = gui.window.current_view
    assert view.focus is None
    board = view.board_stop()
    before = _ring_pixels(gui, board)
    gui.key(arcade.key.TAB)
    assert view.focus is BOARD  # the board is the first stop: it lies above the bottom bar
    assert _ring_pixels(gui, board) > before + 200, "no ring is drawn round the board"
    gui.key(arcade.key.TAB)
    first = view.focus
    assert first is not None and first is not BOARD
    rect = _rect(view, first)
    assert _ring_pixels(gui, rect) > 100, f"no ring is drawn round {first.text!r}"
    gui.key(arcade.key.TAB, arcade.key.MOD_SHIFT)
    assert view.focus is BOARD
    target = _tab_to(gui, view, GAMES[name])
    if name != "learn-kalah":
        gui.window.set_size(1600, 900)  # the screen is laid out again: the ring stays on its control
        gui.frame(3)
        assert view.focus is not None and view.focus.text == target.text
        assert _ring_pixels(gui, _rect(view, view.focus)) > 100
    gui.key(arcade.key.ENTER)
    gui.frame(2)
    if name == "puzzle":
        assert isinstance(gui.window.current_view, RulesView)
    elif name == "learn-kalah":
        assert isinstance(gui.window.current_view, LearnMenuView)
    else:
        assert view.show_analysis, "Enter on the focused Analysis button did not open the analysis panel"
        view.cancel_search()
    gui.window.set_size(1280, 720)
    gui.frame(2)


@pytest.mark.parametrize("name", ["kalah", "magnetic-cave"])
def test_the_arrows_play_on_the_focused_board_and_move_the_focus_over_the_buttons(  # type: ignore
        gui, name: str) -> None:
    tour.open_screen(gui.context, name)
    gui.frame(3)
    view = gui.window.current_view
    gui.key(arcade.key.TAB)
    assert view.focus is BOARD
    gui.key(arcade.key.RIGHT)
    assert view.focus is BOARD
    if name == "kalah":
        assert view.cursor >= 0  # the board's cursor moved, not the focus
    else:
        assert view.cell_cursor is not None
    gui.key(arcade.key.TAB)
    first = view.focus
    cursor = view.cell_cursor if name == "magnetic-cave" else view.cursor
    gui.key(arcade.key.RIGHT)
    assert view.focus is not first and view.focus is not BOARD  # on to the next button
    assert (view.cell_cursor if name == "magnetic-cave" else view.cursor) == cursor
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, TitleView)


def test_m_shows_and_hides_the_move_list(gui) -> None:  # type: ignore[no-untyped-def]
    tour.open_screen(gui.context, "kalah")
    gui.frame(2)
    view = gui.window.current_view
    shown = view.panel_shown
    gui.key(arcade.key.M)
    assert view.panel_shown is not shown
    gui.key(arcade.key.TAB)
    assert view.panel_shown is not shown  # Tab is the focus's now
    gui.key(arcade.key.M)
    assert view.panel_shown is shown
    view.cancel_search()
