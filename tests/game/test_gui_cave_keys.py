"""Magnetic Cave by keyboard alone (issue 29, item 4): a cell cursor the arrows move over the whole cave, Enter
to place, cells typed after C or a row digit (so A and H keep opening the analysis and the hint), a "Keys:" line
under the cave, and a cursor that cannot be taken for a brick and goes when the mouse is used.

Every test drives the real window under Xvfb (conftest.Gui)."""
from __future__ import annotations

import random

import arcade

import rules
from game.savegame import Seat
from game.session import Session
from game.views.cave_view import CaveView
from rules.magnetic_cave import SIZE, cell_name

K = arcade.key
GAME = rules.get_game("magnetic-cave")
QUICK = 0.05
LETTER_KEYS = [K.A, K.B, K.C, K.D, K.E, K.F, K.G, K.H]
DIGIT_KEYS = [K.KEY_1, K.KEY_2, K.KEY_3, K.KEY_4, K.KEY_5, K.KEY_6, K.KEY_7, K.KEY_8]


def open_cave(gui, seats=(Seat(), Seat()), start=None) -> CaveView:  # type: ignore[no-untyped-def]
    gui.context.show_match(Session(GAME, seats, start) if start is not None else Session.new(GAME, seats))
    gui.frame(2)
    gui.move(1, 1)  # the pointer rests off the cave
    view = gui.window.current_view
    assert isinstance(view, CaveView)
    return view


def walk_to(gui, view: CaveView, target: int) -> int:  # type: ignore[no-untyped-def]
    """Arrow keys until the cursor is on ``target``; the number of keys pressed."""
    presses = 0
    if view.cell_cursor is None:
        gui.key(K.RIGHT)  # the first arrow shows the cursor where it starts
        presses += 1
    while view.cell_cursor != target:
        row, column = divmod(view.cell_cursor, SIZE)
        want_row, want_column = divmod(target, SIZE)
        if column != want_column:
            gui.key(K.RIGHT if want_column > column else K.LEFT)
        else:
            gui.key(K.UP if want_row > row else K.DOWN)
        presses += 1
        assert presses < 40, "the cursor does not reach its cell"
    return presses


def assert_no_accident(view: CaveView) -> None:
    assert not view.show_analysis, "a typed cell opened the analysis panel"
    assert view.controller.hint_move is None and not view.controller.hint_text, "a typed cell asked for a hint"
    assert view.window.current_view is view, "a key left the game"


def test_a_whole_game_against_the_computer_by_keyboard_alone(gui):  # type: ignore[no-untyped-def]
    gui.press("Play")
    gui.press("Magnetic Cave")
    gui.press("Start")
    view = gui.window.current_view
    assert isinstance(view, CaveView)
    view.match.seats = (Seat(), Seat(view.match.seats[1].engine, QUICK))
    gui.move(1, 1)
    gui.frame()
    assert view.scene._caption.text.startswith("Keys:")
    rng = random.Random(29)
    ways = {"arrows": 0, "C letter digit": 0, "digit letter": 0}
    turn = 0
    while not view.match.is_over:
        if not view.match.is_human_turn:
            before = len(view.match.moves)
            gui.frames_until(lambda: len(view.match.moves) > before, limit=900, dt=0.05)
            continue
        target = rng.choice(view.match.legal_moves)
        before = len(view.match.moves)
        way = list(ways)[turn % 3]
        turn += 1
        if way == "arrows":
            walk_to(gui, view, target)
            assert view.scene.cursor == target  # the frame is drawn where the keys put it
            assert view.scene.preview is not None and view.scene.preview.cell == target
            gui.key(K.ENTER)
        elif way == "C letter digit":
            gui.key(K.C)
            assert view.scene._caption.text.startswith("Type a cell")
            gui.key(LETTER_KEYS[target % SIZE])  # A and H among them
            assert_no_accident(view)
            gui.key(DIGIT_KEYS[target // SIZE])
        else:
            gui.key(DIGIT_KEYS[target // SIZE])
            gui.key(LETTER_KEYS[target % SIZE])
        ways[way] += 1
        assert_no_accident(view)
        assert len(view.match.moves) == before + 1 and view.match.moves[-1] == target, (way, cell_name(target))
        assert turn <= 40
    assert min(ways.values()) >= 1, ways
    gui.frames_until(lambda: view._overlay is not None, limit=400, dt=0.05)
    assert_no_accident(view)


def test_arrows_move_in_two_dimensions_and_stop_at_the_walls(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui)
    gui.key(K.UP)
    start = view.cell_cursor
    assert start is not None and start in view.match.legal_moves  # it appears on a cell a brick can take
    gui.key(K.UP)
    assert view.cell_cursor == start + SIZE  # a row up
    gui.key(K.DOWN)
    gui.key(K.DOWN)
    assert view.cell_cursor == start - SIZE
    for _ in range(10):
        gui.key(K.LEFT)
    assert view.cell_cursor % SIZE == 0  # column A: it stops at the wall
    for _ in range(3):
        gui.key(K.RIGHT)
    assert view.cell_cursor % SIZE == 3  # D: one column per key, in order
    for _ in range(10):
        gui.key(K.UP)
    assert view.cell_cursor // SIZE == SIZE - 1


def test_enter_on_a_closed_cell_says_why_and_places_nothing(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui)
    walk_to(gui, view, 3 * SIZE + 3)  # D4: an empty cave takes bricks only beside the walls
    assert view.scene.preview is None and "D4 touches neither wall" in view.scene._caption.text
    gui.key(K.ENTER)
    assert view.match.moves == [] and "in row 4 a brick can go on A4 or H4" in view.notice
    gui.key(K.C)
    gui.key(K.D)
    gui.key(K.KEY_4)
    assert view.match.moves == [] and "D4" in view.notice and view.cell_cursor == 3 * SIZE + 3


def test_typing_a_cell_can_be_corrected_and_abandoned_without_leaving(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui)
    gui.key(K.C)
    gui.key(K.B)
    gui.key(K.BACKSPACE)  # B was a slip
    assert view.typing and view.typed_column is None
    gui.key(K.ESCAPE)  # stops the typing, does not leave the game
    assert not view.typing and gui.window.current_view is view and view.match.moves == []
    assert view.scene._caption.text.startswith("Keys:")
    gui.key(K.A)  # outside typing A is still the analysis panel
    assert view.show_analysis
    gui.key(K.A)
    gui.key(K.C)
    gui.key(K.H)
    gui.key(K.KEY_1)
    assert view.match.moves == [7] and not view.show_analysis  # H1 placed, no hint asked for
    assert view.controller.hint_move is None


def test_the_cursor_is_a_frame_not_a_brick_and_the_mouse_hides_it(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui)
    walk_to(gui, view, 0)  # A1
    gui.frame()
    assert view.scene.cursor == 0 and view.scene._cursor_shapes is not None
    ghost = view.scene._ghosts()[-1]  # the preview's ghost is smaller and fainter than a placed brick
    assert ghost.width < view.scene.layout.cell * 0.8 and ghost.alpha <= 120
    gui.key(K.ENTER)
    assert view.match.moves == [0]
    gui.frame()
    assert view.scene.cursor == 0  # still framed, over the brick now placed: the keyboard's place is kept
    gui.move(1, 1)  # the mouse is used: the frame and any ghost go at once
    gui.frame()
    assert view.scene.cursor is None and view.scene.preview is None
    view.scene.finish()
    shot = gui.screenshot()
    x, y = view.scene.centre(1)  # B1, empty: no ghost or frame of a brick anywhere but the placed one
    assert shot.getpixel((int(x), gui.window.height - int(y)))[:3] == shot.getpixel(
        (int(view.scene.centre(2)[0]), gui.window.height - int(y)))[:3]
    x, y = view.scene.centre(SIZE + 7)  # H2, legal and under the mouse: its preview, no keyboard frame
    gui.move(x, y)
    gui.frame()
    assert view.scene.preview is not None and view.scene.preview.cell == SIZE + 7 and view.scene.cursor is None


def test_the_keys_line_shows_only_while_a_human_chooses(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui, seats=(Seat(), Seat()))
    assert view.scene._caption.text.startswith("Keys:") and "C A4" in view.scene._caption.text
    view.new_game()
    view.controller.session.seats = (Seat(), Seat())
    gui.frame()
    assert view.scene._caption.text.startswith("Keys:")


def test_the_keys_line_and_the_typing_prompt_fit_a_small_window(gui):  # type: ignore[no-untyped-def]
    gui.window.set_size(800, 500)
    gui.window.dispatch_event("on_resize", 800, 500)
    view = open_cave(gui)
    room = gui.window.width - view.right_panel
    caption = view.scene._caption
    assert caption.text.startswith("Keys:") and 0 <= caption.left and caption.right <= room
    gui.key(K.C)
    gui.key(K.D)
    assert caption.text.startswith("Type a cell") and caption.text.endswith("D_")
    assert 0 <= caption.left and caption.right <= room, (caption.left, caption.right, room)
