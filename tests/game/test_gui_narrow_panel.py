"""Hus's sixteen columns need a small window's whole width: below ``MatchView.NARROW`` the side panel starts
hidden there (Tab shows it), while Kalah keeps it, and a wide window shows it for every game."""
from __future__ import annotations

import arcade
import pytest

import rules
from game.savegame import Seat
from game.session import Session
from game.views.panels import SIDE_PANEL


def open_game(gui, name: str, width: int, height: int):  # type: ignore[no-untyped-def]
    gui.window.set_size(width, height)
    gui.window.dispatch_event("on_resize", width, height)
    gui.context.show_match(Session.new(rules.get_game(name), (Seat(), Seat())))
    gui.frame(5)
    return gui.window.current_view


@pytest.mark.parametrize("name, width, shown", [("hus", 800, False), ("hus", 1280, True), ("kalah", 800, True)])
def test_the_side_panel_gives_way_to_a_wide_board_in_a_narrow_window(gui, name, width, shown):  # type: ignore[no-untyped-def]
    view = open_game(gui, name, width, 500 if width == 800 else 720)
    assert view.panel_shown is shown
    left, _, board_width, _ = view.scene.layout.board
    assert left + board_width <= width - (SIDE_PANEL if shown else 0) + 1  # the board keeps clear of the panel
    if name == "hus" and not shown:
        assert board_width > width - SIDE_PANEL  # and takes the room the panel left
    gui.key(arcade.key.M)
    gui.frame(2)
    assert view.panel_shown is not shown  # M still shows or hides it (Tab moves the focus)
    gui.key(arcade.key.M)
    gui.frame(2)
    assert view.panel_shown is shown
