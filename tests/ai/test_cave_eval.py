"""Magnetic Cave search knowledge: wins in one, forced blocks, move ordering, threat search, evaluator symmetry.

Every answer of the helpers is also checked against the rules alone (apply every move and look), so a table
entry cannot pass by agreeing with a mistake.
"""
from __future__ import annotations

import random

import pytest

from ai.evaluators import evaluator_for
from ai.evaluators.magnetic_cave import (
    DEEP_THREE,
    LOSS_NEXT,
    MAX_SCORE,
    WIN_NEXT,
    WINDOWS,
    ThreatEvaluator,
    reach,
    WindowEvaluator,
    default_evaluator,
    double_threat_moves,
    forced_blocks,
    forced_win,
    move_priority,
    order_moves,
    simple_evaluator,
    winning_moves,
)
from rules.magnetic_cave import CaveState, MagneticCave, cell_name

GAME = MagneticCave()
EMPTY = "........"


def position(*rows: str) -> CaveState:
    """A state from 8 written rows (row 8 first); Black moves when the counts are equal, else White."""
    text = "/".join(rows)
    side = "B" if text.count("B") == text.count("W") else "W"
    return GAME.from_text(f"rows={text} move={side}")


def cells(*names: str) -> tuple[int, ...]:
    return tuple((int(name[1]) - 1) * 8 + "ABCDEFGH".index(name[0]) for name in names)


def wins_by_rules(state: CaveState, player: int) -> set[int]:
    """The legal cells where ``player``'s brick makes five, found by playing each one."""
    probe = CaveState(state.black, state.white, player)
    return {move for move in GAME.legal_moves(probe) if GAME.apply(probe, move).winner == player}


# -- wins in one ------------------------------------------------------------------------------------------------

WIN_IN_ONE = [
    pytest.param((EMPTY,) * 4 + ("B......W",) * 4, ("A5",), id="column A, top end"),
    pytest.param((EMPTY, ".......W", ".......W", ".......W", ".......W", EMPTY, EMPTY, "BBBB...."), ("E1",),
                 id="row 1 from the left wall"),
    pytest.param(("W.......", "W.......", "W.......", "W.......", EMPTY, "....BBBB", EMPTY, EMPTY), ("D3",),
                 id="row 3 from the right wall"),
    pytest.param((".......W", ".......W", ".......W", ".......W", "B.......", "B.......", "B.......", "B......B"),
                 ("H4",), id="White, column H below its four"),
    pytest.param(("BWBW....", "WBWB....", "BWB.....", "WB......", "B.......", EMPTY, ".......W", ".......W"),
                 ("E8",), id="diagonal up-right, end"),
    pytest.param(("BWBWB...", "WBWB....", "BW......", "WB......", "B.......", EMPTY, ".......W", ".......W"),
                 ("C6",), id="diagonal up-right, middle"),
    pytest.param(("....WBWB", "....BWBW", ".....BWB", "......BW", ".......B", EMPTY, "W.......", "W......."),
                 ("D8",), id="diagonal up-left, end"),
    pytest.param(("W.......",) + (EMPTY,) * 6 + ("WBB.BBWW",), ("D1",), id="the gap in the middle of a row"),
    pytest.param((".......W", EMPTY, "B.......", "B.......", "B.......", "B......W", ".......W", ".......W"),
                 ("A2", "A7"), id="an open four on the wall: two wins"),
    pytest.param((EMPTY, EMPTY, EMPTY, EMPTY, ".......W", ".......W", ".......W", "BBB.BBWW"), ("D1",),
                 id="six in a row"),
    pytest.param(("WWWW....", EMPTY, EMPTY, EMPTY, EMPTY, "B.......", "B.......", "B.....BB"), ("E8",),
                 id="White, row 8"),
    pytest.param(("WWBW....", "BWWB....", "BW......", "WB......", "BBBB...W", EMPTY, EMPTY, ".......W"),
                 ("E4",), id="row 4 among other bricks"),
]


@pytest.mark.parametrize("rows, expected", WIN_IN_ONE)
def test_winning_moves_finds_every_win_in_one(rows, expected):
    state = position(*rows)
    mover = state.to_move
    assert winning_moves(GAME, state) == cells(*expected)
    assert set(cells(*expected)) == wins_by_rules(state, mover)
    assert order_moves(GAME, state)[: len(expected)] == list(cells(*expected))
    assert ThreatEvaluator().evaluate(GAME, state) == WIN_NEXT
    assert forced_win(GAME, state)[0] in cells(*expected)


# -- forced blocks ---------------------------------------------------------------------------------------------

MUST_BLOCK = [
    pytest.param(("B.......", EMPTY, EMPTY, EMPTY, ".......W", "B......W", "B......W", "B......W"), "H5",
                 id="White's column H from below"),
    pytest.param((EMPTY, EMPTY, EMPTY, ".......W", ".......W", ".......W", EMPTY, "BBBB...."), "E1",
                 id="Black's row 1"),
    pytest.param(("....WWWW", EMPTY, "B.......", EMPTY, EMPTY, "B.......", "B.......", "B......."), "D8",
                 id="White's row 8 from the right"),
    pytest.param(("BWBW....", "WBWB....", "BWB.....", "WB......", "B.......", EMPTY, EMPTY, ".......W"), "E8",
                 id="Black's diagonal up-right"),
    pytest.param(("B.......",) + (EMPTY,) * 6 + ("BWW.WWBB",), "D1", id="the gap in White's row"),
    pytest.param((EMPTY,) * 4 + ("B.......", "B......W", "B......W", "B......W"), "A5",
                 id="Black's column A"),
    pytest.param(("....BWBW", "....WBWB", ".....WBW", "......WB", ".......W", EMPTY, "B.......", "B......."),
                 "D8", id="White's diagonal up-left"),
    pytest.param((".......W", ".......W", ".......W", ".......W", EMPTY, "B.......", "B.......", "B......B"), "H4",
                 id="White's column H from above"),
    pytest.param((EMPTY, EMPTY, EMPTY, "BBB.BWWW", EMPTY, EMPTY, EMPTY, EMPTY), "D5", id="the gap in Black's row 5"),
    pytest.param(("WBWBW...", "BWBW....", "WB......", "BW......", "W.......", EMPTY, ".......B", ".......B"),
                 "C6", id="the middle of White's diagonal"),
    pytest.param((EMPTY, EMPTY, EMPTY, EMPTY, "WB......", "WB......", "WB......", "WB......"), "A5",
                 id="White's column A; Black's column B cannot be reached yet"),
]


def _opponent_can_win_after(state: CaveState, move: int) -> bool:
    after = GAME.apply(state, move)
    return bool(wins_by_rules(after, after.to_move))


@pytest.mark.parametrize("rows, block", MUST_BLOCK)
def test_forced_blocks_finds_the_single_threat(rows, block):
    state = position(*rows)
    (cell,) = cells(block)
    assert winning_moves(GAME, state) == () and not wins_by_rules(state, state.to_move)
    assert forced_blocks(GAME, state) == (cell,)
    assert wins_by_rules(state, 1 - state.to_move) == {cell}
    assert order_moves(GAME, state)[0] == cell
    for move in GAME.legal_moves(state):
        if move != cell:
            assert _opponent_can_win_after(state, move), cell_name(move)
    score = ThreatEvaluator().evaluate(GAME, state)
    assert abs(score) < LOSS_NEXT


def test_two_threats_cannot_both_be_blocked():
    state = position(EMPTY, EMPTY, "B.......", "B.......", "B.......", "B......W", ".......W", ".......W")
    assert state.to_move == 1
    assert forced_blocks(GAME, state) == cells("A2", "A7")
    assert ThreatEvaluator().evaluate(GAME, state) == -LOSS_NEXT


def test_a_block_that_opens_the_next_threat_is_lost():
    # White's diagonals make C1 and D1 threat cells; Black must fill C1, which opens D1 for White.
    state = position(
        "......BB", "......BB", "......BB", "BWWW....", "WBWW....", "BWWW....", "WBWW....", "BB......"
    )
    assert state.to_move == 0 and not wins_by_rules(state, 0)
    assert wins_by_rules(state, 1) == set(cells("C1"))
    assert _opponent_can_win_after(state, cells("C1")[0])
    assert ThreatEvaluator().evaluate(GAME, state) == -LOSS_NEXT


# -- ordering and threat search ---------------------------------------------------------------------------------


def _random_states(count: int, seed: int) -> list[CaveState]:
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            states.append(state)
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return states[:count]


def test_order_moves_is_a_permutation_with_wins_then_blocks_first():
    for state in _random_states(400, seed=3):
        legal = GAME.legal_moves(state)
        ordered = order_moves(GAME, state)
        assert sorted(ordered) == sorted(legal)
        wins = wins_by_rules(state, state.to_move)
        blocks = wins_by_rules(state, 1 - state.to_move) - wins
        assert set(ordered[: len(wins)]) == wins
        assert set(ordered[len(wins) : len(wins) + len(blocks)]) == blocks


def test_a_move_that_opens_a_threat_for_the_opponent_is_tried_last():
    # White's column B needs B5, reachable only after A5: Black must not fill A5.
    state = position(".......B", ".......B", EMPTY, EMPTY, "WW......", "BW......", "BW......", "BW......")
    assert state.to_move == 0
    (a5,) = cells("A5")
    assert move_priority(state, a5) < 0
    assert order_moves(GAME, state)[-1] == a5


def _wins_against_every_reply(state: CaveState, line: tuple[int, ...]) -> bool:
    """Check by the rules alone that ``line`` (mover, forced block, mover, ...) wins whatever the opponent does."""
    mover = state.to_move
    after = GAME.apply(state, line[0])
    if after.winner == mover:
        return True
    if GAME.is_terminal(after):
        return False
    for reply in GAME.legal_moves(after):
        answered = GAME.apply(after, reply)
        if GAME.is_terminal(answered):
            return False
        if len(line) > 1 and reply == line[1]:
            if not _wins_against_every_reply(answered, line[2:]):
                return False
        elif not wins_by_rules(answered, mover):
            return False
    return True


def test_forced_wins_found_are_real_and_some_are_long():
    found = long = 0
    for state in _random_states(600, seed=11):
        line = forced_win(GAME, state)
        if line is None:
            continue
        found += 1
        long += len(line) >= 3
        assert _wins_against_every_reply(state, line), (GAME.to_text(state), line)
    assert found >= 30 and long >= 3


def test_an_open_three_on_the_wall_gives_a_double_threat():
    state = position(EMPTY, EMPTY, EMPTY, "B.......", "B.......", "B......W", ".......W", ".......W")
    assert state.to_move == 0
    moves = double_threat_moves(GAME, state)
    assert cells("A2")[0] in moves and cells("A6")[0] in moves
    for move in moves:
        assert _wins_against_every_reply(state, (move,))
    assert forced_win(GAME, state) is not None


def test_double_threat_moves_are_real_on_random_positions():
    seen = 0
    for state in _random_states(400, seed=5):
        for move in double_threat_moves(GAME, state):
            seen += 1
            assert _wins_against_every_reply(state, (move,)), (GAME.to_text(state), cell_name(move))
    assert seen >= 5


# -- evaluator symmetry and range -------------------------------------------------------------------------------

_REVERSED_BYTE = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))


def _mirror(bits: int) -> int:
    """Reflect left-right: each row's bits reversed."""
    return int.from_bytes(bits.to_bytes(8, "little").translate(_REVERSED_BYTE), "little")


def _flip(bits: int) -> int:
    """Turn upside down: the rows' order reversed."""
    return int.from_bytes(bits.to_bytes(8, "little"), "big")


def _swap(state: CaveState) -> CaveState:
    return CaveState(state.white, state.black, 1 - state.to_move)


def _black_view(evaluator, state: CaveState) -> float:
    score = evaluator.evaluate(GAME, state)
    return score if state.to_move == 0 else -score


@pytest.mark.parametrize("evaluator", [ThreatEvaluator(), WindowEvaluator()], ids=["default", "windows"])
def test_evaluators_are_symmetric(evaluator):
    nonzero = 0
    for state in _random_states(500, seed=9):
        score = evaluator.evaluate(GAME, state)
        nonzero += score != 0
        assert abs(score) <= MAX_SCORE
        assert _black_view(evaluator, _swap(state)) == -_black_view(evaluator, state)
        for transform in (_mirror, _flip):
            other = CaveState(transform(state.black), transform(state.white), state.to_move)
            assert evaluator.evaluate(GAME, other) == score
    assert nonzero > 400


def test_windows_and_factories():
    assert len(WINDOWS) == 96 and len(set(WINDOWS)) == 96
    assert all(window.bit_count() == 5 for window in WINDOWS)
    assert default_evaluator(GAME).name == "default" and simple_evaluator(GAME).name == "windows"


def _deep_threes(bits: int, others: int) -> int:
    """By a scan of the windows: the windows holding three of ``bits`` and none of ``others`` whose two empty
    cells are neither playable now nor next."""
    now, later = reach(bits | others)
    return sum(
        1 for window in WINDOWS
        if (window & bits).bit_count() == 3 and not window & others and not window & (now | later)
    )


@pytest.mark.parametrize("bonus", [(0, 80), (30, 80)], ids=["White only", "both colours"])
def test_a_search_values_its_own_deep_windows_of_three_by_the_setting(monkeypatch, bonus):
    from ai.evaluators import magnetic_cave

    monkeypatch.setattr(magnetic_cave, "DEEP_THREE", bonus)
    plain = ThreatEvaluator()
    met = 0
    for state in _random_states(1000, seed=31):
        white_deep = _deep_threes(state.white, state.black)
        score = plain.evaluate(GAME, state)
        if abs(score) >= LOSS_NEXT:
            continue  # a decided position scores the same for everyone
        met += white_deep > 0
        # The bonus counts for White and against Black, whoever is to move; Black's deep windows get nothing.
        for player in (0, 1):
            favoured = plain.playing_for(player)
            extra = bonus[player] * _deep_threes(state.white if player else state.black,
                                                      state.black if player else state.white)
            expected = score + (extra if state.to_move == player else -extra)
            assert favoured.evaluate(GAME, state) == expected, GAME.to_text(state)
        assert evaluator_for(plain, GAME, state) == plain.playing_for(state.to_move)
    assert met >= 20


def test_the_deep_three_setting_is_off_by_default():
    # Measured: no gain at 1 s a move (BENCHMARKS.md), so every search scores both colours alike.
    assert DEEP_THREE == (0, 0)
    assert ThreatEvaluator().playing_for(0) == ThreatEvaluator().playing_for(1) == ThreatEvaluator()


def test_an_evaluator_without_playing_for_is_used_as_it_is():
    windows = WindowEvaluator()
    assert evaluator_for(windows, GAME, GAME.initial_state()) is windows
