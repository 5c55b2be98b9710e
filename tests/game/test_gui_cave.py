"""Window tests of the Magnetic Cave scene: a game against the computer by clicks, refused clicks, bricks that
slide home onto exactly their cell, the winning line, save and load, and a screenshot read by its pixels.

Every test drives the real window (see conftest.Gui); the computer is given a few hundredths of a second per
move so that whole games stay fast.
"""
from __future__ import annotations

import random

import numpy
import pymunk

import rules
from game.session import Session
from game.savegame import Seat
from game.views.cave_view import CaveView
from game.views.match_view import SPEEDS
from rules.magnetic_cave import SIZE, cell_name

QUICK = 0.05
"""Seconds per computer move in these tests."""


def open_cave(gui, seats: tuple[Seat, Seat]) -> CaveView:  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game("magnetic-cave"), seats))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, CaveView)
    return view


def click_cell(gui, view: CaveView, cell: int) -> None:  # type: ignore[no-untyped-def]
    gui.click(*view.scene.centre(cell))


def assert_bricks_match_the_rules(view: CaveView) -> None:
    """Every brick rests exactly on its cell, in its owner's colour, and only occupied cells have one."""
    view.scene.finish()
    state = view.match.state
    bricks = view.scene.bricks
    assert sorted(bricks) == [cell for cell in range(SIZE * SIZE) if state.at(cell)]
    for cell, brick in bricks.items():
        assert brick.colour == state.at(cell) - 1
        assert brick.position == view.scene.centre(cell)
        assert brick.body.body_type == pymunk.Body.STATIC


def test_a_whole_game_against_the_computer_by_clicks(gui):  # type: ignore[no-untyped-def]
    gui.press("Play")
    gui.press("Magnetic Cave")
    gui.press("Start")  # default seats: Black human, White the Settings' opponent engine
    view = gui.window.current_view
    assert isinstance(view, CaveView)
    assert view.match.seats[0].is_human and not view.match.seats[1].is_human
    view.match.seats = (Seat(), Seat(view.match.seats[1].engine, QUICK))
    rng = random.Random(11)
    clicks = answers = 0
    while not view.match.is_over:
        if view.match.is_human_turn:
            before = len(view.match.moves)
            click_cell(gui, view, rng.choice(view.match.legal_moves))  # often mid-slide of the last brick
            assert len(view.match.moves) == before + 1
            clicks += 1
        else:
            before = len(view.match.moves)
            gui.frames_until(lambda: len(view.match.moves) > before, limit=900, dt=0.05)
            answers += 1
        assert clicks <= 32
    assert clicks >= 3 and answers >= 2
    outcome = view.match.outcome
    assert outcome is not None
    gui.frames_until(lambda: view._overlay is not None, limit=400, dt=0.05)
    assert_bricks_match_the_rules(view)
    if outcome.winner is not None:
        line = view.match.game.winning_line(view.match.state)
        assert len(line) >= 5 and view.scene.winning == line


def test_clicks_on_cells_that_cannot_take_a_brick_are_refused_with_a_reason(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui, (Seat(), Seat()))
    click_cell(gui, view, 3)  # D1 on an empty row: touches no wall and no brick
    assert view.match.moves == []
    assert "D1 touches neither wall" in view.notice and "A1 or H1" in view.notice
    click_cell(gui, view, 0)  # A1: legal
    assert view.match.moves == [0]
    gui.frame(40)
    click_cell(gui, view, 0)  # A1 again: taken
    assert view.match.moves == [0] and "A1 already holds a Black brick" in view.notice
    click_cell(gui, view, 2)  # C1: B1 is still empty
    assert view.match.moves == [0] and "B1 or H1" in view.notice


def test_a_placed_brick_slides_to_its_wall_and_ends_exactly_on_its_cell(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui, (Seat(), Seat()))
    for cell in (7, 8 + 7):  # H1 (Black), H2 (White)
        click_cell(gui, view, cell)
        gui.frames_until(lambda: not view.scene.is_animating, limit=300)
    click_cell(gui, view, 6)  # G1: held by H1, so the right wall pulls it
    brick = view.scene.bricks[6]
    target = view.scene.centre(6)
    assert brick.is_moving and brick.side == 1
    xs = [brick.position[0]]
    assert xs[0] < target[0]  # it appears out in the open row, left of its cell
    while view.scene.is_animating:
        gui.frame()
        xs.append(brick.position[0])
        assert len(xs) < 200
    steps = numpy.diff(xs[: max(4, len(xs) // 2)])
    assert (steps >= 0).all() and steps[-1] > steps[1]  # pulled towards the wall, faster and faster
    assert brick.position == target and brick.body.position == target
    assert brick.body.body_type == pymunk.Body.STATIC
    assert_bricks_match_the_rules(view)


def test_five_in_a_row_lights_up_and_undo_takes_it_back(gui):  # type: ignore[no-untyped-def]
    view = open_cave(gui, (Seat(), Seat()))
    for cell in (0, 7, 8, 15, 16, 23, 24, 31):  # Black A1-A4, White H1-H4
        view.play(cell)
        view.scene.finish()
    click_cell(gui, view, 32)  # A5: five in column A
    assert view.match.is_over and view.scene.winning == ()  # lit once the brick is home
    gui.frames_until(lambda: not view.scene.is_animating, limit=300)
    assert view.scene.winning == (0, 8, 16, 24, 32)
    assert any("five in a row" in text for text, _ in view.toasts)
    gui.frames_until(lambda: view._overlay is not None, limit=300)
    gui.press("Undo")
    assert not view.match.is_over and view.scene.winning == ()
    assert_bricks_match_the_rules(view)


def test_save_load_hint_and_computer_against_computer(gui, tmp_path):  # type: ignore[no-untyped-def]
    view = open_cave(gui, (Seat(), Seat("random", QUICK)))
    gui.context.settings.set("think_time", 0.25)
    click_cell(gui, view, 0)
    gui.frames_until(lambda: len(view.match.moves) == 2, limit=2000, dt=0.05)  # frames, not a clock: a loaded
    gui.press("Hint")  # machine gives the computer's and the hint's searches fewer cycles per frame
    gui.frames_until(lambda: view.hint_location is not None, limit=2000, dt=0.05)
    assert view.hint_location in view.legal_locations() and view.match.game.format_move(view.match.state, view.controller.hint_move) in view.controller.hint_text
    gui.press("Save")
    assert view.save_path is not None and view.save_path.exists()
    moves = list(view.match.moves)
    gui.context.show_load()
    gui.frame(2)
    gui.press("Magnetic Cave, 2 moves")  # the load list names the game and its length, not the file
    loaded = gui.window.current_view
    assert isinstance(loaded, CaveView) and loaded.match.moves == moves
    assert_bricks_match_the_rules(loaded)
    # Computers against each other: they play within the game's limit, Pause stops them, Speed cycles.
    watch = open_cave(gui, (Seat("random", 10.0), Seat("greedy", QUICK)))
    assert watch.controller.think_time(10.0) < 3.0
    assert watch.watching and "Pause" in watch._buttons
    gui.frames_until(lambda: len(watch.match.moves) >= 4, limit=2000, dt=0.05)
    gui.press("Pause")
    frozen = len(watch.match.moves)
    gui.frame(20, dt=0.1)
    assert len(watch.match.moves) == frozen
    gui.press("Speed")
    assert watch.scene.speed == SPEEDS[(1 + 1) % len(SPEEDS)] * gui.context.settings.get("animation_speed")
    gui.press("Resume")
    gui.frames_until(lambda: len(watch.match.moves) > frozen, limit=2000, dt=0.05)


def test_screenshot_shows_64_cells_and_each_brick_in_its_colour(gui, tmp_path):  # type: ignore[no-untyped-def]
    view = open_cave(gui, (Seat(), Seat()))
    rng = random.Random(4)
    for _ in range(18):
        view.play(rng.choice(view.match.legal_moves))
        view.scene.finish()
    gui.move(10, 10)  # no highlight under the mouse
    gui.frame(5)
    image = gui.screenshot(tmp_path / "cave.png")
    assert image.size == (1280, 720)
    rgb = numpy.asarray(image.convert("RGB")).astype(int)
    assert len(image.convert("RGB").getcolors(1 << 20) or ()) > 300, "the picture is nearly blank"
    height = rgb.shape[0]
    kinds = {"empty": 0, "black": 0, "white": 0}
    state = view.match.state
    last = view.match.moves[-1]
    for cell in range(SIZE * SIZE):
        x, y = view.scene.centre(cell)
        r, g, b = rgb[height - 1 - int(y), int(x)]
        if r > 200 and g > 200 and b > 200:
            kind = "white"
        elif max(r, g, b) < 40 and abs(r - b) < 12:
            kind = "black"
        elif 25 <= r <= 60 and 25 <= g <= 60 and 30 <= b <= 70 and b >= r:
            kind = "empty"  # the slate slot of an empty cell
        else:
            raise AssertionError(f"{cell_name(cell)} shows {(r, g, b)}: neither an empty slot nor a brick")
        expected = ("empty", "black", "white")[state.at(cell)]
        assert kind == expected or (cell == last and kind != "empty"), f"{cell_name(cell)}: {kind}, not {expected}"
        kinds[kind] += 1
    assert kinds["black"] + kinds["white"] == 18 and kinds["empty"] == 64 - 18
    # The walls glow violet on both sides of the cave.
    layout = view.scene.layout
    for x in (layout.left - layout.wall / 2, layout.right + layout.wall / 2):
        r, g, b = rgb[height - 1 - int((layout.top + layout.bottom) / 2), int(x)]
        assert b > 200 and b > r + 40 and b > g + 60, (r, g, b)
