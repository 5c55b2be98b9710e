"""Magnetic Cave rules: legal-move tables, fives in every direction, the tie, notation and move text.

Positions are written top row (8) first, as the notation and the picture show them; ``position`` works out the
side to move from the brick counts, so each board below is only its rows.

After the line, the rules audit: one hand-worked case per point of docs/rules/magnetic-cave.md and the seed's figures.

Every expected value was worked out by hand from the spec text, never by running the rules module.  Boards are
written as the notation writes them: eight rows, row 8 first, each from column A to H, ``.`` empty, ``B``
Black, ``W`` White.
"""
from __future__ import annotations

import random
import re

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome, Reason
from rules.magnetic_cave import CaveState, MagneticCave, cell_name

GAME = MagneticCave()


def position(*rows: str) -> CaveState:
    """A state from 8 written rows (row 8 first); Black moves when the counts are equal, else White."""
    assert len(rows) == 8
    text = "/".join(rows)
    side = "B" if text.count("B") == text.count("W") else "W"
    return GAME.from_text(f"rows={text} move={side}")


def cell(name: str) -> int:
    return (int(name[1]) - 1) * 8 + "ABCDEFGH".index(name[0])


def names(moves) -> list[str]:
    return [cell_name(move) for move in moves]


EMPTY = "........"

# -- legal moves ------------------------------------------------------------------------------------------------

LEGAL_MOVE_TABLE = [
    pytest.param(
        (EMPTY,) * 8,
        "A1 H1 A2 H2 A3 H3 A4 H4 A5 H5 A6 H6 A7 H7 A8 H8",
        id="empty cave: both wall cells of every row",
    ),
    pytest.param(
        (EMPTY,) * 7 + ("B.......",),
        "B1 H1 A2 H2 A3 H3 A4 H4 A5 H5 A6 H6 A7 H7 A8 H8",
        id="a brick on A1 makes B1 playable, H1 still is",
    ),
    pytest.param(
        (EMPTY,) * 6 + ("......WB", "WB......"),
        "C1 H1 A2 F2 A3 H3 A4 H4 A5 H5 A6 H6 A7 H7 A8 H8",
        id="rows fill inwards from each wall",
    ),
    pytest.param(
        (EMPTY,) * 7 + ("BWBW.BWB",),
        "E1 A2 H2 A3 H3 A4 H4 A5 H5 A6 H6 A7 H7 A8 H8",
        id="a row with one empty cell gives one move",
    ),
    pytest.param(
        (EMPTY,) * 6 + ("WBWB....", "BWBWBWBW"),
        "E2 H2 A3 H3 A4 H4 A5 H5 A6 H6 A7 H7 A8 H8",
        id="a full row gives none; a brick below does not hold one",
    ),
    pytest.param(
        ("BWB..WBW", "WBW..BWB", "BWB..WBW", "WBW..BWB", "BWB..WBW", "WBW..BWB", "BWB..WBW", "WBW..BWB"),
        "D1 E1 D2 E2 D3 E3 D4 E4 D5 E5 D6 E6 D7 E7 D8 E8",
        id="two empty cells in the middle of each row",
    ),
    pytest.param(
        ("WBWBWBW.", "BWBWBWB.", "WBWBWBWB", "BWBWBWBW", "BWBWBWBW", "WBWBWBWB", "BWBWBWBW", "WBWBWBWB"),
        "H7 H8",
        id="the last two cells",
    ),
]


@pytest.mark.parametrize("rows, expected", LEGAL_MOVE_TABLE)
def test_legal_moves_are_the_row_ends_in_cell_order(rows, expected):
    state = position(*rows)
    assert names(GAME.legal_moves(state)) == expected.split()


def test_a_cell_that_touches_nothing_is_refused_with_the_legal_moves():
    state = position(*(EMPTY,) * 7, "B......W")
    with pytest.raises(IllegalMoveError, match=r"D1 touches neither wall.*legal moves: B1, G1, A2"):
        GAME.apply(state, cell("D1"))
    with pytest.raises(IllegalMoveError, match="B2 touches neither"):
        GAME.apply(state, cell("B2"))  # the brick below does not hold it: only the side walls are magnets
    with pytest.raises(IllegalMoveError, match="A1 already holds a Black brick"):
        GAME.apply(state, cell("A1"))


# -- five in a row ----------------------------------------------------------------------------------------------

# Black to move in each; playing ``move`` makes five (the moved brick at an end or in the middle of the line).
FIVES = [
    pytest.param(
        (EMPTY, EMPTY, EMPTY, ".......W", ".......W", ".......W", ".......W", "BBBB...."),
        "E1", id="horizontal, brick at the end",
    ),
    pytest.param(
        ("W.......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "WBB.BBWW"),
        "D1", id="horizontal, brick in the middle",
    ),
    pytest.param(
        (EMPTY, EMPTY, EMPTY, EMPTY, "B......W", "B......W", "B......W", "B......W"),
        "A5", id="vertical, brick at the end",
    ),
    pytest.param(
        (EMPTY, EMPTY, EMPTY, "B......W", "B......W", ".......W", "B......W", "B......."),
        "A3", id="vertical, brick in the middle",
    ),
    pytest.param(
        ("BWBW....", "WBWB....", "BWB.....", "WB......", "B.......", EMPTY, ".......W", ".......W"),
        "E8", id="diagonal up-right, brick at the end",
    ),
    pytest.param(
        ("BWBWB...", "WBWB....", "BW......", "WB......", "B.......", EMPTY, ".......W", ".......W"),
        "C6", id="diagonal up-right, brick in the middle",
    ),
    pytest.param(
        ("....WBWB", "....BWBW", ".....BWB", "......BW", ".......B", EMPTY, "W.......", "W......."),
        "D8", id="diagonal up-left, brick at the end",
    ),
    pytest.param(
        ("...BWBWB", "....BWBW", "......WB", "......BW", ".......B", EMPTY, "W.......", "W......."),
        "F6", id="diagonal up-left, brick in the middle",
    ),
    pytest.param(
        (EMPTY, EMPTY, EMPTY, EMPTY, ".......W", ".......W", ".......W", "BBB.BBWW"),
        "D1", id="six in a row wins too",
    ),
]


@pytest.mark.parametrize("rows, move", FIVES)
def test_five_in_a_row_wins_at_once(rows, move):
    state = position(*rows)
    assert state.to_move == 0 and not GAME.is_terminal(state)
    after = GAME.apply(state, cell(move))
    assert after.winner == 0
    assert GAME.is_terminal(after) and GAME.legal_moves(after) == ()
    outcome = GAME.outcome(after)
    assert outcome.winner == 0 and outcome.reason is Reason.FIVE_IN_A_ROW and outcome.scores == (1, 0)
    assert cell(move) in GAME.winning_line(after)
    # The incremental test from the last brick agrees with a scan of the whole board.
    assert GAME.from_text(GAME.to_text(after)) == after
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.apply(after, GAME.legal_moves(state)[0])


def test_the_mirror_and_flipped_boards_win_the_same_way():
    # The walls make the cave symmetric left-right, and rows are independent, so top-bottom too.
    for param in FIVES:
        rows, move = param.values
        mirrored = tuple(row[::-1] for row in rows)
        flipped = tuple(reversed(rows))
        column = "ABCDEFGH"["HGFEDCBA".index(move[0])]
        for board, target in ((mirrored, column + move[1]), (flipped, move[0] + str(9 - int(move[1])))):
            assert GAME.apply(position(*board), cell(target)).winner == 0, (board, target)


def test_white_wins_with_five_too():
    state = position(EMPTY, "B.......", EMPTY, "B.......", ".......W", "B......W", "B......W", "B......W")
    assert state.to_move == 1
    after = GAME.apply(state, cell("H5"))
    assert after.winner == 1
    assert GAME.outcome(after).scores == (0, 1)
    assert GAME.winning_line(after) == tuple(cell(f"H{row}") for row in range(1, 6))


@pytest.mark.parametrize(
    "rows, move",
    [
        pytest.param((EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, ".......W", ".......W", "BBB....W"), "D1", id="four"),
        pytest.param(
            (EMPTY, EMPTY, EMPTY, EMPTY, ".......W", ".......W", ".......W", "BBWBB..."), "F1",
            id="five cells broken by the other colour",
        ),
        pytest.param(
            (EMPTY, EMPTY, EMPTY, EMPTY, "W.......", "B......W", "B......W", "B......."), "A5",
            id="a five split by an opposing brick",
        ),
    ],
)
def test_no_five_no_win_and_the_game_goes_on(rows, move):
    state = position(*rows)
    after = GAME.apply(state, cell(move))
    assert after.winner is None and not GAME.is_terminal(after) and GAME.outcome(after) is None
    assert after.to_move == 1 and GAME.legal_moves(after)
    assert GAME.winning_line(after) == ()
    again = GAME.apply(after, GAME.legal_moves(after)[0])  # and the game really goes on
    assert again.to_move == 0


TIE_ROWS = ("WWBBWWBB", "BBWWBBWW", "WWBBWWBB", "BBWWBBWW", "WWBBWWBB", "BBWWBBWW", "WWBBWWBB", "BBWWBBWW")


def test_a_full_board_without_five_is_a_tie():
    last = (".WBBWWBB",) + TIE_ROWS[1:]
    state = position(*last)
    assert state.to_move == 1 and names(GAME.legal_moves(state)) == ["A8"]
    after = GAME.apply(state, cell("A8"))
    assert GAME.is_terminal(after) and after.winner is None
    outcome = GAME.outcome(after)
    assert outcome.winner is None and outcome.reason is Reason.BOARD_FULL and outcome.scores == (0, 0)
    assert GAME.legal_moves(after) == ()
    assert GAME.to_text(after) == f"rows={'/'.join(TIE_ROWS)} move=B"


# -- state views, material, move text --------------------------------------------------------------------------


def test_cells_and_rows_read_the_board_from_row_1():
    state = GAME.initial_state()
    for move in ("A1", "H1", "A2"):
        state = GAME.apply(state, cell(move))
    assert state.cells[0] == 1 and state.cells[7] == 2 and state.cells[8] == 1
    assert sum(1 for value in state.cells if value) == 3
    assert state.rows[0] == (1, 0, 0, 0, 0, 0, 0, 2) and state.rows[1][0] == 1
    assert state.bricks == (2, 1) and state.to_move == 1
    assert GAME.material(state) == 0
    assert GAME.material(CaveState(state.black, state.white, 0)) == 1  # a skipped turn would show


def test_moves_are_typed_as_cells_in_any_case():
    state = position(*(EMPTY,) * 7, "B......W")
    assert GAME.format_move(state, cell("B1")) == "B1"
    assert GAME.format_move(state, 51) == "D7"
    for typed in ("b1", "B1", "  b1 "):
        assert GAME.parse_move(state, typed) == cell("B1")
    with pytest.raises(NotationError, match=r"column letter A-H.*legal moves: B1, G1"):
        GAME.parse_move(state, "Z9")
    with pytest.raises(NotationError, match="not a cell"):
        GAME.parse_move(state, "c 1")
    with pytest.raises(IllegalMoveError, match="H1 already holds a White brick"):
        GAME.parse_move(state, "h1")
    with pytest.raises(IllegalMoveError, match="E4 touches neither"):
        GAME.parse_move(state, "e4")


def test_describe_and_render():
    state = position(*(EMPTY,) * 4, "B......W", "B......W", "B......W", "B......W")
    assert GAME.describe_move(state, cell("A5")) == "Black places a brick on A5: five in a row, Black wins"
    assert GAME.describe_move(state, cell("B1")) == "Black places a brick on B1"
    picture = GAME.render(state).splitlines()
    assert picture[0].split() == list("ABCDEFGH") and picture[9].split() == list("ABCDEFGH")
    assert picture[8] == "  1 |■ . . . . . . □| 1"
    assert picture[1].startswith("  8 |")
    assert "Black (■) to move" in picture[-1]
    assert "wins" in GAME.render(GAME.apply(state, cell("A5"))).splitlines()[-1]


def test_registry_names_the_game():
    game = rules.get_game("cave")
    assert isinstance(game, MagneticCave) and game.spec == "magnetic-cave"
    assert game.player_names == ("Black", "White") and game.title == "Magnetic Cave"


# -- notation ---------------------------------------------------------------------------------------------------


def test_notation_round_trip_and_start():
    start = GAME.initial_state()
    assert GAME.to_text(start) == "rows=" + "/".join([EMPTY] * 8) + " move=B"
    rng = random.Random(7)
    for _ in range(20):
        state = start
        while not GAME.is_terminal(state):
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            again = GAME.from_text(GAME.to_text(state))
            assert again == state and again.winner == state.winner


@pytest.mark.parametrize(
    "text, message",
    [
        ("rows=" + "/".join([EMPTY] * 7) + " move=B", "expected 8 rows"),
        ("rows=" + "/".join([EMPTY] * 7 + ["......."]) + " move=B", "row 1 '.......' must have 8 cells"),
        ("rows=" + "/".join([EMPTY] * 7 + ["X......."]) + " move=B", "'X' in column A"),
        ("rows=" + "/".join([EMPTY] * 8) + " move=Q", "expected B \\(Black\\) or W \\(White\\)"),
        ("rows=" + "/".join([EMPTY] * 7 + [".B.....W"]) + " move=B", "row 1 '.B.....W' has a brick that touches"),
        ("rows=" + "/".join([EMPTY] * 7 + ["B......."]) + " move=B", "Black has 1 and White 0"),
        ("rows=" + "/".join([EMPTY] * 7 + ["B......W"]) + " move=W", "one more brick than White"),
        (
            "rows=" + "/".join(["WWWWW..."] + [EMPTY] * 6 + ["BBBBB..."]) + " move=B",
            "both colours have five",
        ),
        (
            "rows=" + "/".join(["W......W"] * 2 + ["W......."] + ["B......."] * 5) + " move=B",
            "Black has five in a row but is to move",
        ),
        (
            "rows=" + "/".join(["BBBBB..."] + ["W......W"] * 4 + [EMPTY, ".......W", "BBBBB..."]) + " move=W",
            "cannot all have been made by one last brick",
        ),
        ("rows=" + "/".join([EMPTY] * 8), "missing field 'move'"),
        ("rows=" + "/".join([EMPTY] * 8) + " move=B turn=3", "unknown field 'turn'"),
    ],
)
def test_bad_notation_says_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.from_text(text)


def test_a_five_made_by_the_last_brick_reads_back_as_won():
    text = "rows=" + "/".join([EMPTY] * 3 + ["W......."] * 4 + ["BBBBB..."]) + " move=W"
    state = GAME.from_text(text)
    assert state.winner == 0 and GAME.is_terminal(state) and GAME.legal_moves(state) == ()
    two_lines = "rows=" + "/".join([EMPTY] * 3 + ["B......W"] * 4 + ["BBBBWWW."]) + " move=W"
    assert GAME.from_text(two_lines).winner == 0  # A1 made both lines at once


# -- playouts ---------------------------------------------------------------------------------------------------


def test_random_playout_gives_the_same_game_as_apply():
    for seed in range(30):
        final, plies = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        rng = random.Random(seed)
        state, count = GAME.initial_state(), 0
        while not GAME.is_terminal(state):
            moves = GAME.legal_moves(state)
            state = GAME.apply(state, moves[int(rng.random() * len(moves))])
            count += 1
        assert (final, plies) == (state, count)


# == the rules audit: one hand-worked case per point of docs/rules/magnetic-cave.md ================================


def spec_position(rows: list[str], move: str) -> CaveState:
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
    state = spec_position(rows, "B")
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
    state = play(spec_position(rows, "B"), "D7")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))
    assert GAME.is_terminal(state) and GAME.legal_moves(state) == ()
    assert set(GAME.winning_line(state)) == {cell(name) for name in ("D7", "E7", "F7", "G7", "H7")}
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply(state, cell("A1"))


def test_five_in_a_column_wins():
    rows = ["........"] * 4 + ["B......W", "B......W", "B......W", "B......W"]
    state = play(spec_position(rows, "B"), "A5")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))


def test_five_on_a_rising_diagonal_from_a3_to_e7_wins_for_white():
    # The seed's other figure: White's bridge A3..E7; E7 is held by D7.
    rows = [".......B", "BBBB....", "BBBW....", "BBW.....", "BW......", "W.......", "WW......", "WWW....W"]
    before = spec_position(rows, "W")
    assert GAME.outcome(before) is None
    state = play(before, "E7")
    assert GAME.outcome(state) == Outcome(1, Reason.FIVE_IN_A_ROW, (0, 1))
    assert set(GAME.winning_line(state)) == {cell(name) for name in ("A3", "B4", "C5", "D6", "E7")}


def test_five_on_a_falling_diagonal_wins():
    # Black D8, E7, F6, G5 and then H4 on the wall.
    rows = ["...BWWWW", "....BWWW", ".....BWW", "......BW", "........", "........", "BBB.....", "BBB....."]
    state = play(spec_position(rows, "B"), "H4")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))


def test_six_in_a_row_wins_too():
    # D1 joins B1, C1 and E1, F1, G1: six Black bricks.
    rows = ["........"] * 6 + ["WWW.....", "WBB.BBBW"]
    state = play(spec_position(rows, "B"), "D1")
    assert GAME.outcome(state) == Outcome(0, Reason.FIVE_IN_A_ROW, (1, 0))


def test_four_in_a_row_is_not_a_win():
    rows = ["........"] * 6 + ["W.......", "BBB....W"]
    state = spec_position(rows, "W")
    state = play(state, "H2", "D1")
    assert GAME.outcome(state) is None and GAME.to_move(state) == 1


# -- rule 5: a full board without five ---------------------------------------------------------------------------
def test_a_full_board_without_five_is_a_tie_worked_by_hand():
    # Colour (column // 2 + row) % 2: pairs along rows, alternating up columns, runs of two on diagonals.
    # A8 (White) is left for White's last brick.
    even, odd = "BBWWBBWW", "WWBBWWBB"
    rows = [".WBBWWBB", even, odd, even, odd, even, odd, even]
    before = spec_position(rows, "W")
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
