"""Magnetic Cave's preview: the brick's ghost and, in words, what it would do, by the rules' own win test."""
from __future__ import annotations

import rules
from game.savegame import Seat
from game.scenes.cave_board import describe_cell, preview_cell, winning_cells
from game.session import Session
from game.views.cave_view import CaveView

GAME = rules.get_game("magnetic-cave")


def cell(name: str) -> int:
    return "ABCDEFGH".index(name[0]) + 8 * (int(name[1:]) - 1)


def test_a_win_a_block_a_threat_and_an_open_five_are_named():  # type: ignore[no-untyped-def]
    # Black: B, C, D on row 4... written top row first: row 4 holds BBB, row 3 WWWW.
    state = GAME.from_text("rows=......../......../......../......../BBB...../WWWW..../BB....../W....... move=B")
    assert winning_cells(state.white, state.occupied) == (cell("E3"),)
    assert describe_cell(GAME, state, cell("E3")) == "E3: blocks White's five"
    assert describe_cell(GAME, state, cell("D4")) == ("D4: threatens five on E4, leaves White's five on E3 open")
    assert describe_cell(GAME, state, cell("H8")) == "H8: leaves White's five on E3 open"
    win = GAME.from_text("rows=......../......../......../......../BBBB..../WWWW..../B......./W....... move=B")
    assert describe_cell(GAME, win, cell("E4")) == "E4: five in a row, Black wins"
    marked = preview_cell(GAME, state, cell("D4"))
    assert (marked.threats, marked.dangers, marked.line) == ((cell("E4"),), (cell("E3"),), ())
    line = preview_cell(GAME, win, cell("E4")).line
    assert len(line) == 5 and cell("E4") in line and all(GAME.apply(win, cell("E4")).at(c) == 1 for c in line)
    quiet = GAME.initial_state()
    assert describe_cell(GAME, quiet, cell("A1")) == "A1: no five in reach either way"


def test_the_playable_fives_are_the_moves_with_which_the_rules_say_the_mover_wins():  # type: ignore[no-untyped-def]
    import random

    rng, seen = random.Random(7), 0
    for _ in range(30):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            bits = state.black if state.to_move == 0 else state.white
            winners = {move for move in GAME.legal_moves(state) if GAME.apply(state, move).winner == state.to_move}
            assert set(winning_cells(bits, state.occupied)) == winners
            for move in winners:
                assert describe_cell(GAME, state, move).endswith(f"{GAME.player_names[state.to_move]} wins")
            seen += bool(winners)
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert seen > 0


def test_hovering_a_legal_cell_shows_the_ghost_and_the_caption(gui):  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(GAME, (Seat(), Seat())))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, CaveView)
    x, y = view.scene.centre(cell("A1"))
    gui.move(x, y)
    gui.frame()
    assert (view.scene.preview.cell, view.scene.preview.player) == (cell("A1"), 0)
    assert view.scene._caption.text == "A1: no five in reach either way"
    x, y = view.scene.centre(cell("D4"))  # not legal: no ghost
    gui.move(x, y)
    gui.frame()
    assert view.scene.preview is None


def test_the_cells_a_preview_names_are_marked_on_the_cave(gui):  # type: ignore[no-untyped-def]
    start = GAME.from_text("rows=......../......../......../......../BBB...../WWWW..../BB....../W....... move=B")
    gui.context.show_match(Session(GAME, (Seat(), Seat()), start))
    gui.frame(2)
    view = gui.window.current_view
    gui.move(*view.scene.centre(cell("D4")))
    gui.frame()
    marks = view.scene._ghosts()
    # E4 (Black's threat) and E3 (White's five left open) are marked, then D4's ghost brick
    assert [(round(sprite.center_x), round(sprite.center_y)) for sprite in marks] == [
        tuple(round(v) for v in view.scene.centre(cell(name))) for name in ("E4", "E3", "D4")]


def test_a_cell_picked_with_the_arrow_keys_shows_its_preview_too(gui):  # type: ignore[no-untyped-def]
    import arcade

    gui.context.show_match(Session.new(GAME, (Seat(), Seat())))
    gui.frame(2)
    view = gui.window.current_view
    gui.move(1, 1)  # the mouse is off the cave
    gui.key(arcade.key.RIGHT)
    gui.frame()
    picked = view._cursor_location()
    assert picked is not None and view.scene.preview is not None and view.scene.preview.cell == picked
    assert view.scene._caption.text.startswith(cell_name_of(picked))


def cell_name_of(index: int) -> str:
    return "ABCDEFGH"[index % 8] + str(index // 8 + 1)
