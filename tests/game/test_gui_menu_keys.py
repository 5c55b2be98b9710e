"""Keys on every screen: Escape goes back, Tab moves a visible focus that Enter or Space presses, Enter alone
does the screen's obvious next step, and F11 switches full screen everywhere, game screens included."""
from __future__ import annotations

import arcade
import pytest

from game.views import tour
from game.views.base import MenuView
from game.views.play_menu import PlayMenuView
from game.views.seats import SeatSetupView
from game.views.settings_view import SettingsView
from game.views.sowing_view import SowingView
from game.views.title import TitleView


def test_enter_on_the_seat_screen_starts_the_game(gui) -> None:  # type: ignore[no-untyped-def]
    gui.key(arcade.key.ENTER)  # title: Enter is Play
    assert isinstance(gui.window.current_view, PlayMenuView)
    gui.press("Kalah")
    assert isinstance(gui.window.current_view, SeatSetupView)
    gui.key(arcade.key.ENTER)
    view = gui.window.current_view
    assert isinstance(view, SowingView) and view.match.game.name == "kalah"
    view.cancel_search()


def test_escape_goes_back_from_every_menu(gui) -> None:  # type: ignore[no-untyped-def]
    gui.context.show_seats("oware")
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, PlayMenuView)
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, TitleView)
    for name in ("settings", "statistics", "load", "rules"):
        tour.open_screen(gui.context, name)
        gui.frame()
        gui.key(arcade.key.ESCAPE)
        assert isinstance(gui.window.current_view, TitleView), name


def _focus_ring_pixels(gui, view: MenuView) -> int:  # type: ignore[no-untyped-def]
    """Pixels of the focus ring's colour in a thin band just outside the focused button."""
    image = gui.screenshot().convert("RGB")
    rect = view.focus.rect
    height = gui.window.height
    ring = tuple(arcade.color.Color(*view_ring_colour())[:3])
    count = 0
    for x in range(int(rect.left) - 6, int(rect.right) + 6):
        for y in (int(rect.top) + 3, int(rect.bottom) - 4):
            if 0 <= x < image.width and 0 <= height - y < image.height and image.getpixel((x, height - y)) == ring:
                count += 1
    return count


def view_ring_colour():  # type: ignore[no-untyped-def]
    from game import theme

    return theme.ACCENTS[1]


def test_tab_moves_a_visible_focus_and_enter_presses_it(gui) -> None:  # type: ignore[no-untyped-def]
    view = gui.window.current_view
    assert isinstance(view, TitleView) and view.focus is None
    gui.key(arcade.key.TAB)
    first = view.focus
    assert first is not None and first.text == "Play"
    assert _focus_ring_pixels(gui, view) > 50  # drawn round the button, not only remembered
    gui.key(arcade.key.TAB)
    assert view.focus is not first and view.focus.text == "Puzzles"
    gui.key(arcade.key.TAB, arcade.key.MOD_SHIFT)
    assert view.focus is first
    gui.key(arcade.key.DOWN)
    gui.key(arcade.key.DOWN)
    assert view.focus.text == "Load game"
    gui.key(arcade.key.DOWN)
    assert view.focus.text == "Rules"
    for _ in range(4):
        gui.key(arcade.key.UP)
    assert view.focus.text == "Quit"  # Up from Play wraps round to the last button
    gui.key(arcade.key.UP)
    assert view.focus.text == "Settings"
    gui.key(arcade.key.ENTER)
    assert isinstance(gui.window.current_view, SettingsView)


def test_space_steps_a_focused_choice_and_arrows_step_it_either_way(gui) -> None:  # type: ignore[no-untyped-def]
    gui.context.show_seats("kalah")
    gui.frame()
    view = gui.window.current_view
    gui.key(arcade.key.TAB)
    gui.key(arcade.key.TAB)
    assert getattr(view.focus, "name", "") == "seat1"
    before = view.choices[1]
    gui.key(arcade.key.SPACE)
    assert view.choices[1] != before and view.focus.name == "seat1"
    gui.key(arcade.key.LEFT)
    assert view.choices[1] == before


@pytest.mark.parametrize("name", ["title", "play", "seats", "settings", "statistics", "load", "rules", "kalah",
                                  "magnetic-cave", "puzzles", "puzzle"])
def test_f11_switches_full_screen_on_every_screen(gui, name: str) -> None:  # type: ignore[no-untyped-def]
    tour.open_screen(gui.context, name)
    gui.frame()
    settings = gui.context.settings
    assert settings.get("fullscreen") is False
    gui.key(arcade.key.F11)
    assert settings.get("fullscreen") is True, name
    gui.key(arcade.key.F11)
    assert settings.get("fullscreen") is False, name
    view = gui.window.current_view
    if hasattr(view, "cancel_search"):
        view.cancel_search()


def test_the_focus_stays_on_a_choice_when_the_screen_is_built_again(gui) -> None:  # type: ignore[no-untyped-def]
    gui.context.show_settings()
    gui.frame()
    view = gui.window.current_view
    for _ in range(40):
        if getattr(view.focus, "name", "") == "engine-game":
            break
        gui.key(arcade.key.TAB)
    gui.key(arcade.key.SPACE)  # another game: the engine rows are built again
    assert view.game_name != "kalah" and getattr(view.focus, "name", "") == "engine-game"


def test_the_seat_screen_names_the_computer_it_will_start(gui) -> None:  # type: ignore[no-untyped-def]
    """"Computer (engine from Settings)" is resolved in words under the choices, and follows a change."""
    import rules

    gui.context.settings.set_engine_choice(rules.get_game("kalah"), "opponent", "pvs:time=2")
    gui.context.show_seats("kalah")
    gui.frame()
    view = gui.window.current_view
    assert "North: PVS, the thinking time per move" in view._explain.text  # one thinking time (Settings')
    seat = next(widget for widget in gui.widgets() if getattr(widget, "name", "") == "seat1")
    while seat.value != "preset:Easy":
        gui.click(*seat.point(1))
    assert "North: Computer (Easy)" in view._explain.text
