"""A screen shown again lays itself out for the window as it is now, and the move list keeps off the bottom bar.

Found by the random journeys (``tests/game/journeys.py``, ``bench/bench_journeys.py``):

1. At 800x500, a puzzle's Rules, the window grown to 1366x768 while the rules were shown, Escape: the puzzle's
   Hint, Undo and Anti-clockwise buttons were at negative x.  The screen laid itself out on show, but its
   UIManager still measured the size it had last seen (no resize reached it while hidden), so its anchored rows
   were placed for 800x500.  Here every screen a game or a puzzle can be covered by (the rules, the review) is
   opened over every game screen of the tour (``game.views.tour.SCREENS``), the window resized while it covers
   it (grown; for two screens shrunk again too), and the game screen shown again, with the journeys' invariants
   checked after each step.
2. A hot-seat Hus game at 1920x1080 (bench seed 107, an evening): the move list ran 2 px into the bottom bar's
   Analysis and Menu buttons, its room counted in 1280x720's line heights.
"""
from __future__ import annotations

import arcade
import pytest

import rules
from game.savegame import Seat
from game.views import tour
from journeys import Journey


def _game_screens() -> list[str]:
    """The tour's game and puzzle screens (the ones a player can cover with the rules or a review)."""
    games = {info.name for info in rules.list_games()} | {"puzzle"}
    return [name for name in tour.SCREENS if name.removesuffix("-analysis") in games]


GAME_SCREENS = _game_screens()
COVERS = {
    "rules": lambda journey: journey.key(arcade.key.F1),
    "review": lambda journey: journey.step("review", journey.view.review, frames=3),
}
"""The screens shown over a game screen, and how a player opens them there."""
TWO_PLAYER = [name for name in GAME_SCREENS if name != "puzzle"]


@pytest.fixture
def journey(gui):  # type: ignore[no-untyped-def]
    walk = Journey(gui)
    yield walk
    walk.leave_full_screen()
    view = gui.window.current_view
    if hasattr(view, "cancel_search"):
        view.cancel_search()


def test_the_tour_has_the_game_screens() -> None:
    assert {"kalah", "oware", "hus", "magnetic-cave", "puzzle", "kalah-analysis"} <= set(GAME_SCREENS)
    assert "title" not in GAME_SCREENS and "review" not in GAME_SCREENS


@pytest.mark.parametrize("cover, screen", [("rules", name) for name in GAME_SCREENS]
                         + [("review", name) for name in ("kalah", "hus", "magnetic-cave-analysis")])
def test_a_game_screen_shown_again_after_a_resize_while_covered_fits_the_window(  # type: ignore[no-untyped-def]
        journey, cover: str, screen: str) -> None:
    journey.resize(800, 500)
    journey.open(screen)
    game_view = journey.view
    assert getattr(game_view, "top_bar", None) is not None, f"{screen} is not a game screen"
    back_down = screen in ("puzzle", "kalah")  # shrunk under the cover as well (a few, to keep the run short)
    for size in ((1366, 768), (800, 500)) if back_down else ((1366, 768),):
        COVERS[cover](journey)
        assert journey.view is not game_view, f"{cover} did not cover {screen}"
        journey.resize(*size)
        journey.key(arcade.key.ESCAPE)  # back to the game, now at another size: the checks hold there
        assert journey.view is game_view
        for widget in journey.gui.widgets(arcade.gui.UIFlatButton):
            assert 0 <= widget.rect.left and widget.rect.right <= size[0], widget.text


def test_a_menu_screen_shown_again_after_a_resize_while_covered_fits_the_window(journey) -> None:  # type: ignore
    journey.resize(800, 500)
    journey.open("puzzles")
    menu = journey.view
    journey.step("rules over it", lambda: journey.gui.context.show_rules("kalah", back=menu), frames=3)
    journey.resize(1366, 768)
    built_on_show = []
    journey.step("back to the puzzle list", lambda: (journey.gui.context.show(menu),
                                                     built_on_show.append(menu.built_for)), frames=0)
    assert journey.view is menu and built_on_show == [(1366, 768)]  # built for the window as shown, before a frame


def test_the_move_list_of_a_long_hus_game_keeps_off_the_bottom_bar_at_every_size(journey) -> None:  # type: ignore
    session = tour._played("hus", (Seat(), Seat()), plies=60)  # hot-seat: the move list takes the whole panel
    assert len(session.moves) >= 60 and not session.is_over
    journey.resize(1920, 1080)
    journey.step("a long hot-seat Hus game", lambda: journey.gui.context.show_match(session), frames=3)
    view = journey.view
    for size in ((1920, 1080), (2560, 1440), (1366, 768), (800, 500), (1600, 900), (900, 1000), (1280, 720)):
        journey.resize(*size)
        moves = view.side_panel.moves
        assert moves.text.count("\n") >= 3
        bottom = moves.y - moves.content_height
        assert bottom >= view.side_panel.bottom, f"the move list runs to y={bottom} under the panel at {size}"
        journey.key(arcade.key.H)  # a hint: its reason takes the panel's foot
        bottom = moves.y - moves.content_height
        assert bottom >= view.side_panel.bottom, f"the move list runs to y={bottom} under the panel at {size}"
    # The hint's reason, however many lines it takes, stays inside the panel and lifts the list above it.
    if not view.controller.hint_text:
        journey.key(arcade.key.H)  # H again (it toggles the hint)
    journey.gui.frames_until(lambda: bool(view.controller.hint_text), limit=600, dt=0.05)
    journey.wait(0.1)
    panel = view.side_panel
    hint_bottom = panel.hint.y - panel.hint.content_height
    assert panel.hint.text and hint_bottom >= panel.bottom, (panel.hint.text, hint_bottom, panel.bottom)
    assert moves.y - moves.content_height >= panel.hint.y
