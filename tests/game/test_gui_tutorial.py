"""The guided first game on screen: reached from Play, a step's glowing pit plays its move, a wrong pit is
refused, Enter goes on, Escape leaves; every game's guide runs to its end by keys alone."""
from __future__ import annotations

import arcade

from game.tutorial import TUTORIALS
from game.views.tutorial_view import LearnMenuView, TutorialView


def centre_of(view: TutorialView, location: int) -> tuple[float, float]:
    """A point inside ``location`` on the scene (found by asking the scene, over a grid of the window)."""
    for x in range(0, view.window.width, 6):
        for y in range(0, view.window.height, 6):
            if view.scene.location_at(x, y) == location:
                points = [(px, py) for px in range(x, x + 40, 2) for py in range(y, y + 40, 2)
                          if view.scene.location_at(px, py) == location]
                return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    raise AssertionError(f"location {location} is not on the screen")


def test_kalah_guide_from_the_play_menu_by_clicks(gui):  # type: ignore[no-untyped-def]
    gui.context.show_play()
    gui.press("Learn to play")
    assert isinstance(gui.window.current_view, LearnMenuView)
    gui.press("Kalah")
    view = gui.window.current_view
    assert isinstance(view, TutorialView) and view.heading == "Learn Kalah: step 1 of 5"
    assert not view.waiting_for_move
    gui.key(arcade.key.ENTER)
    assert view.index == 1 and view.waiting_for_move

    target = view.target()
    wrong = next(location for location in range(6) if location != target)
    before = view.state
    gui.click(*centre_of(view, wrong))
    assert view.state == before and view.waiting_for_move
    assert "Not that one" in view._message.text

    image = gui.screenshot()
    x, y = centre_of(view, target)
    ring = [image.getpixel((int(x + dx), int(image.height - y))) for dx in range(-60, 61)]
    assert any(b > r + 60 and b > g + 40 for r, g, b, *_ in ring), "the move to make glows in the hint's blue"

    gui.click(x, y)
    assert view.played and view.state != before
    assert view.state == view.game.apply(before, view.step.move)
    gui.updates_until(lambda: not view.scene.is_animating, limit=900)
    gui.key(arcade.key.ENTER)
    assert view.index == 2
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, LearnMenuView)


def test_every_guide_runs_to_its_end_by_keys(gui):  # type: ignore[no-untyped-def]
    for tutorial in TUTORIALS:
        view = TutorialView(gui.context, tutorial)
        gui.context.show(view)
        gui.frame()
        presses = 0
        while gui.window.current_view is view:
            gui.key(arcade.key.SPACE)
            presses += 1
            assert presses < 4 * len(tutorial.steps), "the guide does not end"
        assert isinstance(gui.window.current_view, LearnMenuView)
        assert view.index == len(tutorial.steps) - 1


def test_a_short_window_keeps_every_guides_board_words_apart(gui):  # type: ignore[no-untyped-def]
    """At 800x500 (opened there, whatever size came before) Hus's four rows had 175 px under the guide's text: its
    counts and numbers overlapped.  The board now keeps the banner's room; the announcement (a capture, a relay)
    is written on the board's caption line, inside the board's words."""
    from game.views import tour
    from journeys import violations

    for size in ((2560, 1440), (800, 500)):
        gui.window.set_size(*size)
        gui.frame()
    for name in ("learn-hus", "learn-kalah"):
        tour.open_screen(gui.context, name)
        gui.frame()
        view = gui.window.current_view
        announced = []
        while True:
            assert not violations(gui.window), f"{name} step {view.index + 1} at 800x500: {violations(gui.window)}"
            view.advance()
            if view.scene.is_animating:
                for _ in range(400):
                    gui.frame()
                    assert not violations(gui.window), f"{name} step {view.index + 1} mid-move: " \
                                                       f"{violations(gui.window)}"
                    if view.banner:
                        announced.append(view.scene._caption_text.text == view.banner)
                    if not view.scene.is_animating and not view.answer_due:
                        break
            if view.index + 1 >= len(view.tutorial.steps) and not view.waiting_for_move:
                break
            if not view.waiting_for_move:
                view.advance()
                gui.frame()
        assert view.scene.layout.cell >= 20, f"{name}: pits {view.scene.layout.cell:.0f} px apart at 800x500"
        if name == "learn-hus":
            assert announced and all(announced), "Hus's announcements are not on the board's caption line"
