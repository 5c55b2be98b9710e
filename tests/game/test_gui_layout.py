"""Every screen at 800x500, 1280x720 and 1920x1080: no button or text outside the window, over another or cut off.

The screens are reached through ``game.views.tour`` (the same list ``tools/screenshots.py`` photographs) and
checked with ``game.views.layout`` (every visible button, label and text the view keeps, as rectangles).
``OWNED_ELSEWHERE`` lists the cases still broken by texts another part of the code lays out, with the reason;
for those the test insists they are still broken, so a fix shows up here and the entry must go.
"""
from __future__ import annotations

import pytest

from game.views import layout, tour

SIZES = ((800, 500), (1280, 720), (1920, 1080))
OWNED_ELSEWHERE: dict[tuple[str, int, int], str] = {}


def _open(gui, name: str, width: int, height: int):  # type: ignore[no-untyped-def]
    gui.window.set_size(width, height)
    gui.window.dispatch_event("on_resize", width, height)
    tour.open_screen(gui.context, name)
    # A second of the screen's life: its first frame drawn, updates, then the last two frames drawn (the layout
    # is checked on what they drew).  Drawing the 27 frames between moved no box (compared once over the 69
    # screen-and-size cases below: only texts a running search or a random deal writes differed, as they do
    # from one run to the next) and cost four fifths of the test's time.
    gui.frame(1, 1 / 30)
    for _ in range(27):
        gui.update(1 / 30)
    gui.frame(2, 1 / 30)
    return gui.window.current_view


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(tour.SCREENS))
def test_nothing_leaves_the_window_or_overlaps(gui, name: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    view = _open(gui, name, *size)
    assert gui.window.width == size[0] and gui.window.height == size[1]
    found = layout.boxes(view)
    assert found, f"{name}: no buttons or texts were found to check"
    wrong = layout.problems(found, *size)
    if hasattr(view, "cancel_search"):
        view.cancel_search()
    known = OWNED_ELSEWHERE.get((name, *size))
    if known:
        assert wrong, f"{name} at {size[0]}x{size[1]} is fixed: remove it from OWNED_ELSEWHERE ({known})"
    else:
        assert not wrong, f"{name} at {size[0]}x{size[1]}:\n" + "\n".join(wrong)


MENUS = ("title", "play", "seats", "settings-pvs", "statistics", "load", "rules")


@pytest.mark.parametrize("name", MENUS)
def test_the_menus_fit_a_2560x1440_window_too(gui, name: str) -> None:  # type: ignore[no-untyped-def]
    view = _open(gui, name, 2560, 1440)
    assert (gui.window.width, gui.window.height) == (2560, 1440)
    wrong = layout.problems(layout.boxes(view), 2560, 1440)
    assert not wrong, f"{name} at 2560x1440:\n" + "\n".join(wrong)


def test_the_check_sees_overlap_clipping_and_leaving(gui) -> None:  # type: ignore[no-untyped-def]
    """The checker itself: a label over a button, a button past the edge and a cut-off text are all reported."""
    import arcade.gui

    from game import theme

    view = _open(gui, "play", 800, 500)
    anchor = arcade.gui.UIAnchorLayout()
    anchor.add(theme.button("A very long text for a small button", width=60, height=40), anchor_x="left",
               anchor_y="bottom", align_x=780)
    view.ui.add(anchor)
    view.ui.add(arcade.gui.UIAnchorLayout(children=[theme.label("over the Back button")]))
    gui.frame(2)
    wrong = layout.problems(layout.boxes(view), 800, 500)
    assert any("leaves the 800x500 window" in line for line in wrong)
    assert any("is cut off" in line for line in wrong)
    assert any("overlaps" in line and "over the Back button" in line for line in wrong)


def test_a_long_option_shrinks_to_fit_its_choice_and_a_short_one_grows_back(gui) -> None:  # type: ignore[no-untyped-def]
    import arcade.gui

    from game.views.widgets import Choice

    view = _open(gui, "play", 800, 500)
    choice = Choice([("long", "Computer: Iterative deepening (PVS)"), ("short", "Human")], "long",
                    lambda value: None, width=280, name="probe")
    view.ui.add(arcade.gui.UIAnchorLayout(children=[choice]))
    gui.frame(2)
    size = choice.style["normal"].font_size
    assert size < 13 and not layout._is_clipped(choice)
    gui.click(*choice.point(1))
    gui.frame(2)
    assert choice.value == "short" and choice.style["normal"].font_size == 13


@pytest.mark.parametrize("size", [(800, 500), (1280, 720), (1920, 1080)])
def test_a_long_variant_line_gives_way_to_whose_turn_it_is(gui, size):  # type: ignore[no-untyped-def]
    """The rules changed in every way a player can (Oware's three) made the variant line push "South to move"
    down to "S...": the variant is shortened instead, and the turn is said in full."""
    import rules
    from game.savegame import Seat
    from game.session import Session

    width, height = size
    gui.window.set_size(width, height)
    gui.window.dispatch_event("on_resize", width, height)
    game = rules.get_game("oware", no_capture_limit=50, grand_slam="forbidden", skip_start=False)
    gui.context.show_match(Session.new(game, (Seat(), Seat())))
    gui.frame(3)
    view = gui.window.current_view
    bar = view.top_bar
    assert bar.turn.text == view.controller.turn()[0], bar.turn.text  # in full
    assert bar.variant.right + 8 <= bar.turn.left  # apart
    assert bar.variant.right + 8 <= bar.last.left or not bar.last.text
