"""The review screen under Xvfb: it opens from the game-over panel and from the Load screen (a save and a game in
progress), a turning point chosen by keys or a click shows its board (the stones of that position), "Play on from
here" starts a game from it with the player to move, Escape cancels a review under way and goes back, and a resize
keeps every part inside the window without overlaps.

The recorded Kalah game of tests/game/test_review.py (its blunder at move 15 proven by small endgame tables) is the
game reviewed; the screen's review is given a budget in plies where a test needs its marks, so no assert depends on
the machine's speed.
"""
from __future__ import annotations

from collections import Counter

import arcade
import arcade.gui
import pytest

from game import savegame
from game.autosave import FOLDER
from game.review import Budget
from game.session import Session
from game.views import review_view
from game.views.load_view import LoadView
from game.views.review_view import ReviewView
from game.views.sowing_view import SowingView
from tests.game.journeys import violations
from tests.game.test_review import BLUNDER, needs_core, recorded_kalah

FRAMES = 20_000
"""A guard against a hang only: each review here ends on its own."""


@pytest.fixture
def by_depth(monkeypatch):
    """Reviews the screen starts run to a depth (deterministic), not a time."""
    original = review_view.ReviewRun

    def run(game, states, moves, budget):  # type: ignore[no-untyped-def]
        return original(game, states, moves, Budget(depth=3))

    monkeypatch.setattr(review_view, "ReviewRun", run)


def finished(gui) -> ReviewView:  # type: ignore[no-untyped-def]
    view = gui.window.current_view
    assert isinstance(view, ReviewView)
    gui.frames_until(lambda: view.progress.finished, limit=FRAMES)
    gui.frame(2)
    return view


def board_counts(view: ReviewView) -> Counter:
    """Stones on each place of the review's board, as drawn."""
    return Counter(stone.location for stone in view.board.scene.field.stones)


def expected_counts(view: ReviewView, index: int) -> Counter:
    counts = view.board.spec.counts(view.states[index])
    return Counter({place: count for place, count in counts.items() if count})


def rectangles_inside_and_apart(gui, view: ReviewView) -> None:  # type: ignore[no-untyped-def]
    width, height = gui.window.width, gui.window.height
    parts = view.geometry
    for name, (left, bottom, w, h) in parts.items():
        assert left >= 0 and bottom >= 0 and left + w <= width + 0.5 and bottom + h <= height + 0.5, (name, width, height)
    names = list(parts)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            a, b = parts[first], parts[second]
            apart = a[0] + a[2] <= b[0] + 0.5 or b[0] + b[2] <= a[0] + 0.5 or a[1] + a[3] <= b[1] + 0.5 \
                or b[1] + b[3] <= a[1] + 0.5
            assert apart, (first, second, a, b)
    for widget in gui.widgets(arcade.gui.UIFlatButton):
        rect = widget.rect
        assert rect.left >= 0 and rect.bottom >= 0 and rect.right <= width and rect.top <= height, widget.text
    for text, _ in view.rows:
        left, bottom, w, h = parts["list"]
        assert bottom <= text.y - text.content_height / 2 and text.y + text.content_height / 2 <= bottom + h
        assert text.x + text.content_width <= left + w
    summary = view.texts["summary"]
    assert summary.content_height <= parts["summary"][3] + 2, "the summary's lines fit their band"
    detail = view.texts["detail"]
    assert detail.content_height <= parts["detail"][3] + 2, "the chosen point's sentence fits its band"
    assert view.board.scene.layout is not None


@needs_core
def test_from_the_game_over_panel_to_a_turning_point_and_play_on(gui, with_tables, by_depth):  # type: ignore[no-untyped-def]
    saved = recorded_kalah()
    gui.context.show_match(Session.from_saved(saved))
    match = gui.window.current_view
    gui.updates_until(lambda: match.game_over_shown, limit=600)
    gui.press("Review")
    view = finished(gui)
    assert view.return_to is match
    points = view.review.turning_points
    assert any(point.index == BLUNDER and point.grade == "blunder" and point.proven for point in points)
    assert view.cursor == 0 and view.selected == points[0].index, "the first turning point is shown at once"

    # Down to the blunder, Enter: its board and its sentence.
    row = next(number for number, point in enumerate(points) if point.index == BLUNDER)
    for _ in range(row):
        gui.key(arcade.key.DOWN)
    gui.key(arcade.key.ENTER)
    assert view.selected == BLUNDER
    assert board_counts(view) == expected_counts(view, BLUNDER)
    assert "turned a win by 6 into a loss by 4, proven" in view.texts["detail"].text
    rectangles_inside_and_apart(gui, view)

    # A click on another row shows that one.
    if len(view.rows) > 1:
        text, point = next((text, point) for text, point in view.rows if point.index != BLUNDER)
        gui.click(text.x + 20, text.y)
        assert view.selected == point.index and board_counts(view) == expected_counts(view, point.index)
        for _ in range(len(points)):
            if view.selected == BLUNDER:
                break
            gui.key(arcade.key.DOWN)
            gui.key(arcade.key.ENTER)
    assert view.selected == BLUNDER

    gui.press("Play on from here")
    game_view = gui.window.current_view
    assert isinstance(game_view, SowingView)
    played = game_view.match
    state = saved.states[BLUNDER]
    assert played.start == state and played.state == state and not played.moves
    mover = saved.game.to_move(state)
    assert played.seats[mover].is_human and not played.seats[1 - mover].is_human
    assert gui.context.statistics.is_counted(played), "practice from a position is not a game for Statistics"


def test_a_cave_game_reviews_from_its_game_over_panel(gui, by_depth):  # type: ignore[no-untyped-def]
    import rules
    from ai.registry import make_engine
    from game.views.cave_view import CaveView
    from tests.game.test_review import played_game

    game = rules.get_game("magnetic-cave")
    states, moves = played_game(game, (None, make_engine(game, "pvs:depth=2")), seed=2)
    saved = savegame.SavedGame(game, (savegame.Seat(), savegame.Seat()), states[0], tuple(moves))
    gui.context.show_match(Session.from_saved(saved))
    match = gui.window.current_view
    assert isinstance(match, CaveView)
    gui.updates_until(lambda: match.game_over_shown, limit=600)
    gui.press("Review")
    view = finished(gui)
    points = view.review.turning_points
    assert points, "the random side's bricks are marked"
    if len(points) > 1:
        gui.key(arcade.key.DOWN)
    gui.key(arcade.key.ENTER)
    chosen = points[view.cursor]
    assert view.selected == chosen.index and view.board.scene.state == states[chosen.index]
    assert "seed" not in view.texts["detail"].text and chosen.name in view.texts["detail"].text
    assert violations(gui.window) == []
    gui.press("Play on from here")
    played = gui.window.current_view
    assert isinstance(played, CaveView) and played.match.state == states[chosen.index]


@needs_core
def test_back_returns_to_the_finished_game(gui, with_tables, by_depth):  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.from_saved(recorded_kalah()))
    match = gui.window.current_view
    gui.updates_until(lambda: match.game_over_shown, limit=600)
    gui.press("Review")
    finished(gui)
    for _ in range(3):  # Tab to Back; Enter then presses it (not the list's Enter)
        gui.key(arcade.key.TAB)
        if gui.window.current_view.focus.text == "Back":
            break
    assert gui.window.current_view.focus.text == "Back"
    gui.key(arcade.key.ENTER)
    assert gui.window.current_view is match


def test_from_load_a_save_and_a_game_in_progress_and_escape_cancels(gui):  # type: ignore[no-untyped-def]
    folder = gui.context.save_dir
    folder.mkdir(parents=True, exist_ok=True)
    saved = recorded_kalah()
    savegame.save(folder / "evening.save", saved)
    in_progress = folder / FOLDER
    in_progress.mkdir(parents=True, exist_ok=True)
    partial = savegame.SavedGame(saved.game, saved.seats, saved.start, saved.moves[:6])
    savegame.save(in_progress / "20261127-120000-abcd0001.save", partial)
    gui.context.show_load()
    gui.frame(2)
    load = gui.window.current_view
    assert isinstance(load, LoadView)
    reviews = [w for w in gui.widgets(arcade.gui.UIFlatButton) if w.text == "Review"]
    assert len(reviews) == 2, "one beside the game in progress, one beside the save"
    save_button = next(w for w in reviews if getattr(w, "path", None) == folder / "evening.save")
    gui.click(*save_button.rect.center)
    view = gui.window.current_view
    assert isinstance(view, ReviewView) and view.moves == saved.moves and "evening.save" in view.title
    # Escape while the review runs: it is cancelled, and the Load screen is back.
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, LoadView)
    assert view.run.token.is_cancelled
    assert view.run.wait(60), "the review stopped after Escape"

    kept_button = next(w for w in gui.widgets(arcade.gui.UIFlatButton) if w.text == "Review" and hasattr(w, "slot"))
    gui.click(*kept_button.rect.center)
    view = gui.window.current_view
    assert isinstance(view, ReviewView) and view.moves == partial.moves
    view.back()
    assert view.run.wait(60)


def test_a_resize_keeps_the_layout_inside_the_window(gui, by_depth):  # type: ignore[no-untyped-def]
    saved = recorded_kalah()
    review_view.open_review(gui.context, saved.game, saved.states, saved.moves, title="Kalah (evening.save)")
    view = finished(gui)
    for width, height in ((800, 500), (1024, 600), (1920, 1080), (1280, 720)):
        gui.window.set_size(width, height)
        gui.window.dispatch_event("on_resize", width, height)
        gui.frame(2)
        assert view.built_for == (width, height)
        rectangles_inside_and_apart(gui, view)
        assert violations(gui.window) == []
        gui.key(arcade.key.DOWN)
        gui.key(arcade.key.ENTER)
        rectangles_inside_and_apart(gui, view)
        assert violations(gui.window) == []
    # A click on the graph shows any position, with what the move from it did in words.
    left, bottom, width, height = view.geometry["graph"]
    for index in range(len(view.states)):
        gui.click(left + width * index / (len(view.states) - 1), bottom + height / 2)
        assert view.selected == index and board_counts(view) == expected_counts(view, index)
        words = view.texts["detail"].text
        assert words and "None" not in words
        if index < len(view.moves):
            assert words.startswith(f"Move {index + 1}, ")
    view.back()


def test_a_game_without_moves_or_a_puzzle_is_not_reviewed(gui):  # type: ignore[no-untyped-def]
    import rules

    kalah = rules.get_game("kalah")
    assert "no move" in review_view.open_review(gui.context, kalah, [kalah.initial_state()], [])
    solitaire = rules.get_game("solitaire")
    assert "puzzle" in review_view.open_review(gui.context, solitaire, [solitaire.initial_state()], [])
    assert not isinstance(gui.window.current_view, ReviewView)


@pytest.mark.parametrize("size", [(800, 500), (1280, 720)])
def test_the_game_over_panel_with_review_fits(gui, size):  # type: ignore[no-untyped-def]
    gui.window.set_size(*size)
    gui.window.dispatch_event("on_resize", *size)
    gui.context.show_match(Session.from_saved(recorded_kalah()))
    match = gui.window.current_view
    gui.updates_until(lambda: match.game_over_shown, limit=600)
    gui.frame(2)
    texts = [w.text for w in gui.widgets(arcade.gui.UIFlatButton)]
    assert "Review" in texts and "Replay" in texts
    assert violations(gui.window) == []
