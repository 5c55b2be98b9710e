"""Magnetic Cave rules: legal-move tables, fives in every direction, the tie, notation and move text.

Positions are written top row (8) first, as the notation and the picture show them; ``position`` works out the
side to move from the brick counts, so each board below is only its rows.
"""
from __future__ import annotations

import random

import pytest

import rules
from rules import IllegalMoveError, NotationError, Reason
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
