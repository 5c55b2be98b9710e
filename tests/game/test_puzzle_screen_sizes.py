"""The puzzle list and the puzzle screen at the smallest, a middling and the largest window (#21 item 4):
nothing clipped or overlapping, every level reachable, long messages wrapped inside the window, the board
numbered as the player counts."""
from __future__ import annotations

import itertools

import arcade
import arcade.gui
import pytest

from game import savegame
from rules import parse_game_spec
from game.puzzle_session import Puzzle
from game.views.panels import SIDE_PANEL
from game.views.puzzles import PuzzlesView
from game.views.solitaire_view import SolitaireView
from game import theme
from levels.solitaire import find_level, load_levels
from rules.solitaire import can_set_aside

SIZES = [(800, 500), (960, 600), (2560, 1440)]


@pytest.fixture
def sized(gui, request):  # type: ignore[no-untyped-def]
    width, height = request.param
    gui.window.set_size(width, height)
    gui.window.dispatch_event("on_resize", width, height)
    yield gui
    gui.window.set_size(1280, 720)
    gui.window.dispatch_event("on_resize", 1280, 720)


def overlap(a, b) -> bool:  # type: ignore[no-untyped-def]
    return a.left < b.right - 1 and b.left < a.right - 1 and a.bottom < b.top - 1 and b.bottom < a.top - 1


def label_fits(widget: arcade.gui.UIFlatButton) -> bool:
    """The button's text is no wider than the button (a clipped label reads as another word)."""
    shown = widget.ui_label._label  # measured again alone: the label's own layout is cut to the button
    text = arcade.Text(widget.text, 0, 0, font_name=shown.font_name, font_size=shown.font_size, bold=shown.bold)
    return text.content_width <= widget.rect.width - 4


def shown_controls(gui) -> list:  # type: ignore[no-untyped-def]
    kinds = (arcade.gui.UIFlatButton,)
    return [w for w in gui.widgets() if isinstance(w, kinds) and w.rect.width > 0 and w.visible]


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_puzzle_list_fits_and_every_level_can_be_reached(sized) -> None:  # type: ignore[no-untyped-def]
    gui = sized
    width, height = gui.window.width, gui.window.height
    gui.context.show_puzzles()
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, PuzzlesView)
    controls = shown_controls(gui)
    assert len(controls) >= 3
    for widget in controls:
        assert 0 <= widget.rect.left and widget.rect.right <= width and 0 <= widget.rect.bottom, widget.text
        assert label_fits(widget), widget.text
    for a, b in itertools.combinations(controls, 2):
        assert not overlap(a.rect, b.rect), (a.text, b.text)
    # The list lives above the deal controls: no row is ever drawn or clicked under them.
    bottom, top = view.list_area
    assert bottom >= max(w.rect.top for w in gui.widgets() if w.rect.top < height / 2) and top <= height
    for level in load_levels()[0]:
        row = next(row for row in view.rows if row.level.id == level.id)
        view.scroll_into_view(row)
        row = next(row for row in view.rows if row.level.id == level.id)
        assert view.is_shown(row) and view.row_at(*row.centre).level.id == level.id
    hidden = [row for row in view.rows if not bottom <= row.centre[1] <= top]
    # Too low for 32 rows at the window's type scale (2560x1440 draws them twice as large as 1280x720): the list
    # scrolls, and a row scrolled away is not clickable.
    if height / theme.type_scale(width, height) < 1000:
        assert view.max_scroll > 0  # (at 2560x1440 only the headings overflow: every row may be in view)
        assert hidden or width >= 2560
        assert all(view.row_at(*row.centre) is None for row in hidden)
        view.scroll_to(0)
        gui.window.dispatch_event("on_mouse_scroll", int(width / 2), int((bottom + top) / 2), 0, -2)
        assert view.scroll_offset > 0
    else:
        assert view.max_scroll == 0 and not [row for row in view.rows if not view.is_shown(row)]
    view.scroll_to(0)
    for _ in range(len(view.rows)):  # Down walks every row, the list scrolling to keep the chosen one in view
        view.on_key_press(arcade.key.DOWN, 0)
        assert view.is_shown(view.rows[view.cursor]), view.cursor
    last = view.rows[-1]  # the hardest deal opens with a click, once scrolled to
    view.scroll_into_view(last)
    gui.click(*next(row for row in view.rows if row.level is last.level).centre)
    assert isinstance(gui.window.current_view, SolitaireView)
    gui.window.current_view.cancel_search()


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("level_id", ["dose-01", "lewis-01"])
def test_the_puzzle_screen_fits_every_window(sized, level_id) -> None:  # type: ignore[no-untyped-def]
    gui = sized
    width, height = gui.window.width, gui.window.height
    view = SolitaireView(gui.context, Puzzle.from_level(find_level(level_id)))
    gui.context.show(view)
    gui.frame(2)
    controls = shown_controls(gui)
    bar = [w for w in controls if w.rect.bottom < 70]
    rows = [w for w in controls if w.rect.bottom >= 70]
    assert len(bar) >= 9 and len(rows) >= 2
    for widget in controls:
        assert 0 <= widget.rect.left and widget.rect.right <= width and widget.rect.top <= height, widget.text
        assert label_fits(widget), (widget.text, widget.rect.width)
    for a, b in itertools.combinations(controls, 2):
        assert not overlap(a.rect, b.rect), (a.text, b.text)
    for widget in rows:  # the row under the board stays clear of the side panel
        assert widget.rect.right <= width - SIDE_PANEL, widget.text
    c = view.controller
    if c.game.is_lewis:  # the question's row (Set aside / Keep sowing) fits as well
        state = c.session.state
        hole, direction = next((h, d) for h in range(12) for d in ("cw", "ccw")
                               if state.holes[h] and can_set_aside(state.holes, h, d))
        c.click_hole(hole)
        c.choose(direction)
        gui.frame()
        asked = [w for w in shown_controls(gui) if w.text.startswith(("Set aside", "Keep sowing"))]
        assert len(asked) == 2
        for widget in asked:
            assert label_fits(widget) and widget.rect.left >= 0 and widget.rect.right <= width - SIDE_PANEL
    bar_top = view.top_bar
    title, turn = bar_top.title, bar_top.turn
    assert title.x + title.content_width < turn.x - turn.content_width / 2  # the title never runs into the turn
    # The longest last round there is still fits between the puzzle's name and the score.
    view.controller.last_text = "Round 188: hole 12 (11 stones) to the right, set aside into the right store"
    view.session.puzzle = Puzzle.from_level(find_level("lewis-11"))  # Threshing Floor, the longest name
    gui.frame()
    last, subtitle, scores = bar_top.last, bar_top.variant, bar_top.scores
    assert subtitle.x + subtitle.content_width < last.x - last.content_width / 2
    assert last.x + last.content_width / 2 < scores.x - scores.content_width
    assert view._rules_text.content_width <= view.board_width
    assert view._rules_text.y + view._rules_text.content_height <= view.scene.layout.places[0].y  # under the board
    view.cancel_search()


@pytest.mark.parametrize("sized", [(800, 500)], indirect=True, ids=["800x500"])
def test_a_load_error_is_wrapped_inside_the_window_and_read_whole(sized) -> None:  # type: ignore[no-untyped-def]
    gui = sized
    view = SolitaireView(gui.context, Puzzle.from_level(find_level("lewis-01")))
    gui.context.show(view)
    folder = gui.config_dir / "saves"
    folder.mkdir(exist_ok=True)
    kalah = parse_game_spec("kalah")
    path = folder / "kalah-from-another-game-with-a-long-name.save"
    path.write_text(savegame.dumps(savegame.new_game(kalah, [savegame.Seat(), savegame.Seat()])))
    view.load_file(path)
    gui.frame(2)
    notice = view.controller.notice
    assert notice.startswith(f"Cannot load {path.name}") and notice.endswith("unchanged.")
    message = view._message
    assert message.text == notice  # whole: nothing cut off
    assert message.content_width <= view.board_width and message.content_height > 30  # wrapped on lines
    assert 0 <= message.x - message.content_width / 2 and message.x + message.content_width / 2 <= view.board_width
    assert message.y + message.content_height <= gui.window.height
    view.cancel_search()


def test_the_board_numbers_the_holes_1_to_12_and_names_the_stores(gui) -> None:  # type: ignore[no-untyped-def]
    view = SolitaireView(gui.context, Puzzle.from_level(find_level("lewis-01")))
    gui.context.show(view)
    gui.frame()
    from game.scenes.solitaire_board import hole_location

    names = view.scene._names
    assert [text.text for text in names] == [str(n) for n in range(1, 13)] + ["Store", "Store"]
    for hole in range(12):  # each number over (top row) or under (bottom row) its own hole
        place = view.scene.layout.places[hole_location(hole)]
        assert names[hole].x == place.x
        assert (names[hole].y > place.y) == (hole < 6)
    view.cancel_search()


@pytest.mark.parametrize("sized", [(800, 500)], indirect=True, ids=["800x500"])
def test_the_verdict_and_the_load_panel_fit_the_smallest_window(sized) -> None:  # type: ignore[no-untyped-def]
    gui = sized
    view = SolitaireView(gui.context, Puzzle.from_level(find_level("lewis-01")))
    gui.context.show(view)
    view.save()  # something for the Load panel to list
    while not view.session.is_over:  # the first legal round every time: lost
        view.play(view.session.legal_moves[0])
        view.scene.finish()
    gui.frames_until(lambda: view._overlay is not None, limit=300)

    def inside(widget) -> bool:  # type: ignore[no-untyped-def]
        return 0 <= widget.rect.left and widget.rect.right <= gui.window.width and 0 <= widget.rect.bottom \
            and widget.rect.top <= gui.window.height

    labels = [w for w in gui.widgets(arcade.gui.UILabel) if w.text]
    headline = next(w for w in labels if w.text.startswith("Lost"))
    assert headline._label.content_width <= headline.rect.width + 1 and inside(headline)
    for widget in labels + [w for w in gui.widgets(arcade.gui.UIFlatButton) if w.text in ("Undo", "Restart")]:
        assert inside(widget), widget.text
    view.controller.undo()
    view._show_changes()
    view.show_load()
    gui.frame()
    names = [w for w in gui.widgets(arcade.gui.UIFlatButton) if w.text.startswith("solitaire-")]
    assert names and all(inside(w) and label_fits(w) for w in names)
    view.cancel_search()
