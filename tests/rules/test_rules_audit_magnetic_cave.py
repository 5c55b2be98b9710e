"""Rules audit, Magnetic Cave: one hand-worked case per point of docs/rules/magnetic-cave.md and the seed's figures.

Every expected value was worked out by hand from the spec text, never by running the rules module.  Boards are
written as the notation writes them: eight rows, row 8 first, each from column A to H, ``.`` empty, ``B``
Black, ``W`` White.
"""
from __future__ import annotations

import re

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome, Reason
from rules.magnetic_cave import CaveState, MagneticCave, cell_name

GAME = MagneticCave()


def cell(name: str) -> int:
    """A1 = 0 .. H1 = 7, A2 = 8 .. H8 = 63, as the cell numbering the rules module documents."""
    return (int(name[1]) - 1) * 8 + "ABCDEFGH".index(name[0])


def position(rows: list[str], move: str) -> CaveState:
    assert len(rows) == 8
    return GAME.from_text(f"rows={'/'.join(rows)} move={move}")


def play(state: CaveState, *names: str) -> CaveState:
    for name in names:
        state = GAME.apply(state, cell(name))
    return state


# -- rules 1, 2: board and turns ---------------------------------------------------------------------------------
def test_an_empty_8x8_cave_black_first():
    start = GAME.initial_state()
    assert GAME.to_text(start) == "rows=" + "/".join(["........"] * 8) + " move=B"
    assert start.cells == (0,) * 64 and GAME.to_move(start) == 0
    assert GAME.player_names == ("Black", "White")
    assert rules.get_game("magnetic-cave") == rules.get_game("cave") == GAME
    assert GAME.parameters == {}


def test_cells_are_named_by_column_letter_and_row_number():
    assert [cell_name(index) for index in (0, 7, 8, 51, 63)] == ["A1", "H1", "A2", "D7", "H8"]


def test_black_and_white_alternate_and_the_state_exposes_its_cells():
    state = play(GAME.initial_state(), "A1", "H1", "A8")
    assert GAME.to_move(state) == 1
    assert state.cells[cell("A1")] == 1 and state.cells[cell("H1")] == 2 and state.cells[cell("A8")] == 1
    assert sum(1 for value in state.cells if value) == 3
    assert state.rows[0] == (1, 0, 0, 0, 0, 0, 0, 2) and state.rows[7] == (1, 0, 0, 0, 0, 0, 0, 0)
    assert GAME.to_text(state) == "rows=B......./......../......../......../......../......../......../B......W move=W"


# -- rule 3: where a brick may go --------------------------------------------------------------------------------
def test_at_the_start_only_the_wall_cells_are_legal():
    expected = [name for row in range(1, 9) for name in (f"A{row}", f"H{row}")]
    assert [cell_name(move) for move in GAME.legal_moves(GAME.initial_state())] == expected


def test_a_brick_holds_only_the_cells_to_its_left_and_right():
    state = play(GAME.initial_state(), "A1")
    legal = {cell_name(move) for move in GAME.legal_moves(state)}
    assert "B1" in legal and "A2" in legal and "H1" in legal
    assert "B2" not in legal  # diagonal of A1
    state = play(state, "B1")
    assert "B2" not in {cell_name(move) for move in GAME.legal_moves(state)}  # above B1: no gravity
    with pytest.raises(IllegalMoveError, match="touches neither wall"):
        GAME.apply(state, cell("B2"))


def test_each_row_fills_inwards_and_its_legal_cells_are_its_two_ends():
    rows = ["........"] * 6 + ["W.......", "BWB...WB"]
    state = position(rows, "B")
    assert [cell_name(move) for move in GAME.legal_moves(state)] == [
        "D1", "F1", "B2", "H2", "A3", "H3", "A4", "H4", "A5", "H5", "A6", "H6", "A7", "H7", "A8", "H8"]
    with pytest.raises(IllegalMoveError, match="E1"):
        GAME.apply(state, cell("E1"))


def test_an_occupied_cell_is_refused():
    state = play(GAME.initial_state(), "A1")
    with pytest.raises(IllegalMoveError, match="already holds a Black brick"):
        GAME.apply(state, cell("A1"))


# -- rule 4: five or more in a line ------------------------------------------------------------------------------
def test_five_in_a_row_from_d7_to_h7_wins_at_once():
    # The seed's figure: Black builds a bridge D7..H7.  D7 is held by E7.
    rows = ["........", "....BBBB", "........", "........", "........", "........", "........", "WWWW...."]
    state = play(position(rows, "B"), "D7")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))
    assert GAME.is_terminal(state) and GAME.legal_moves(state) == ()
    assert set(GAME.winning_line(state)) == {cell(name) for name in ("D7", "E7", "F7", "G7", "H7")}
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply(state, cell("A1"))


def test_five_in_a_column_wins():
    rows = ["........"] * 4 + ["B......W", "B......W", "B......W", "B......W"]
    state = play(position(rows, "B"), "A5")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))


def test_five_on_a_rising_diagonal_from_a3_to_e7_wins_for_white():
    # The seed's other figure: White's bridge A3..E7; E7 is held by D7.
    rows = [".......B", "BBBB....", "BBBW....", "BBW.....", "BW......", "W.......", "WW......", "WWW....W"]
    before = position(rows, "W")
    assert GAME.outcome(before) is None
    state = play(before, "E7")
    assert GAME.outcome(state) == Outcome(1, Reason.FIVE_IN_A_ROW, (0, 1))
    assert set(GAME.winning_line(state)) == {cell(name) for name in ("A3", "B4", "C5", "D6", "E7")}


def test_five_on_a_falling_diagonal_wins():
    # Black D8, E7, F6, G5 and then H4 on the wall.
    rows = ["...BWWWW", "....BWWW", ".....BWW", "......BW", "........", "........", "BBB.....", "BBB....."]
    state = play(position(rows, "B"), "H4")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))


def test_six_in_a_row_wins_too():
    # D1 joins B1, C1 and E1, F1, G1: six Black bricks.
    rows = ["........"] * 6 + ["WWW.....", "WBB.BBBW"]
    state = play(position(rows, "B"), "D1")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))


def test_four_in_a_row_is_not_a_win():
    rows = ["........"] * 6 + ["W.......", "BBB....W"]
    state = position(rows, "W")
    state = play(state, "H2", "D1")
    assert GAME.outcome(state) is None and GAME.to_move(state) == 1


# -- rule 5: a full board without five ---------------------------------------------------------------------------
def test_a_full_board_without_five_is_a_tie():
    # Colour (column // 2 + row) % 2: pairs along rows, alternating up columns, runs of two on diagonals.
    # A8 (White) is left for White's last brick.
    even, odd = "BBWWBBWW", "WWBBWWBB"
    rows = [".WBBWWBB", even, odd, even, odd, even, odd, even]
    before = position(rows, "W")
    assert GAME.legal_moves(before) == (cell("A8"),)
    state = play(before, "A8")
    assert GAME.is_terminal(state) and GAME.legal_moves(state) == ()
    assert GAME.outcome(state) == Outcome(None, Reason.BOARD_FULL, (0, 0))


# -- moves as text and notation ----------------------------------------------------------------------------------
def test_moves_are_typed_as_cells():
    start = GAME.initial_state()
    assert GAME.parse_move(start, "h8") == cell("H8") and GAME.format_move(start, cell("A3")) == "A3"
    with pytest.raises(NotationError, match="column letter A-H then a row number 1-8"):
        GAME.parse_move(start, "I9")
    with pytest.raises(IllegalMoveError, match="legal moves: A1, H1"):
        GAME.parse_move(start, "D4")


@pytest.mark.parametrize(
    "rows, move, word",
    [
        (["........"] * 7 + ["B.B....."], "B", "unbroken run"),
        (["........"] * 7 + ["BB......"], "B", "as many bricks as White"),
        (["........"] * 7 + ["X......."], "B", "expected . (empty), B (Black) or W (White)"),
        (["........"] * 7, "B", "expected 8 rows"),
    ],
)
def test_bad_positions_say_what_is_wrong(rows, move, word):
    with pytest.raises(NotationError, match=re.escape(word)):
        GAME.from_text(f"rows={'/'.join(rows)} move={move}")


# -- an independent reference: the rule text on an 8x8 grid, fives by scanning the whole board ------------------
def reference_legal(grid: list[list[int]]) -> set[tuple[int, int]]:
    """(row, column) of every empty cell that touches a wall or has a brick directly left or right of it."""
    legal = set()
    for row in range(8):
        for column in range(8):
            if grid[row][column]:
                continue
            if column in (0, 7) or grid[row][column - 1] or grid[row][column + 1]:
                legal.add((row, column))
    return legal


def reference_five(grid: list[list[int]], colour: int, row: int, column: int) -> bool:
    """Whether ``colour`` has five in a line through (row, column): every window of five cells along the
    four directions that contains the cell."""
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for back in range(5):
            cells = [(row + (k - back) * dr, column + (k - back) * dc) for k in range(5)]
            if all(0 <= r < 8 and 0 <= c < 8 and grid[r][c] == colour for r, c in cells):
                return True
    return False


def test_random_games_agree_with_the_reference():
    import random

    rng = random.Random(472)
    endings = set()
    for _ in range(80):
        state, grid, colour = GAME.initial_state(), [[0] * 8 for _ in range(8)], 1
        while True:
            legal = {divmod(move, 8) for move in GAME.legal_moves(state)}
            assert legal == reference_legal(grid), GAME.to_text(state)
            move = rng.choice(GAME.legal_moves(state))
            row, column = divmod(move, 8)
            grid[row][column] = colour
            state = GAME.apply(state, move)
            assert state.rows == tuple(tuple(line) for line in grid)
            if reference_five(grid, colour, row, column):
                expected = Outcome(colour - 1, Reason.FIVE_IN_A_ROW, (1, 0) if colour == 1 else (0, 1))
            elif all(all(line) for line in grid):
                expected = Outcome(None, Reason.BOARD_FULL, (0, 0))
            else:
                expected = None
            assert GAME.outcome(state) == expected, GAME.to_text(state)
            if expected is not None:
                endings.add(expected.reason)
                break
            colour = 3 - colour
            assert GAME.to_move(state) == colour - 1
    assert Reason.FIVE_IN_A_ROW in endings
