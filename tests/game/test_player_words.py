"""The words a player reads for values and moves (issue 30): the game's own units through ``ai.calibration``,
moves compared with the best (equal values named equal, the best never worse), and what a Hus move or a cave
brick does, on positions built by hand."""
from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

import rules
from ai.evaluators import WIN
from game.analysis_words import (
    compare_words, row_words, same_value, side_words, value_phrase, value_words,
)
from game.move_words import biggest_capture, cave_words, hus_words, longest_line, winning_cells
from rules.magnetic_cave import cell_name
from tests.game.player_screens import engine_words

KALAH = rules.get_game("kalah")
CAVE = rules.get_game("magnetic-cave")
HUS = rules.get_game("hus")


@dataclass(frozen=True)
class Row:
    name: str
    score: float
    proven: bool = False
    exact: bool = True
    depth: int = 6


# -- values in the game's units ---------------------------------------------------------------------------------
def test_sowing_values_are_seeds_ahead_or_behind_and_proven_results_say_so():
    assert value_phrase(KALAH, 3.2, False) == "about 3 seeds ahead"
    assert value_phrase(KALAH, -1.2, False) == "about 1 seed behind"
    assert value_phrase(KALAH, 0.3, False) == "about even"
    assert value_words(KALAH, WIN + 4, True, 0) == "wins by 4, proven"
    assert value_words(KALAH, 0.0, True, 0) == "draws, proven"
    assert value_words(KALAH, -(WIN + 2), True, 0) == "loses by 2, proven"
    assert value_words(KALAH, WIN + 4, True, 12, exact=False) == "wins by 4 or more, proven"
    assert side_words(KALAH, -3.0, False) == "North is about 3 seeds ahead"
    assert side_words(KALAH, WIN + 4, True) == "South wins by 4, proven"



@pytest.fixture(autouse=True)
def plain_calibration(monkeypatch):  # type: ignore[no-untyped-def]
    """The words' own logic, on the plain reading of a score (seeds as scored): the fitted curves
    (``ai/data/calibration.json``) are ``tests/ai/test_calibration.py``'s to check, and they change as they are
    refitted."""
    import ai.calibration

    monkeypatch.setattr(ai.calibration, "shipped", lambda: ai.calibration.PLACEHOLDER)

def test_cave_values_are_outcomes_never_better_or_worse_alone():
    assert value_phrase(CAVE, 0.0, False) == "even"
    assert value_phrase(CAVE, 400.0, False) == "winning"
    assert value_phrase(CAVE, -400.0, False) == "losing"
    assert side_words(CAVE, -400.0, False) == "White is winning"
    assert side_words(CAVE, 60.0, False).startswith("Black is ") and "better" in side_words(CAVE, 60.0, False)
    assert side_words(CAVE, WIN + 1, True) == "Black has a forced win"
    assert side_words(CAVE, WIN + 1, True, distance=7) == "Black has a forced win in 7"
    assert value_phrase(CAVE, WIN + 1, True, distance=7) == "wins in 7"
    for score in (-900.0, -120.0, -30.0, -5.0, 0.0, 5.0, 30.0, 120.0, 900.0):
        phrase = value_phrase(CAVE, score, False)
        assert "better" not in phrase and "worse" not in phrase, phrase  # no absolute scale


def test_the_values_never_carry_engine_words():
    for game in (KALAH, CAVE):
        for score, proven in ((2.5, False), (-7.0, False), (WIN + 3, True), (0.0, True), (math.nan, False)):
            assert not engine_words([value_words(game, score, proven, 18)])
    assert value_words(KALAH, 2.5, False, 18, details=True).endswith("(18 plies)")  # for engine developers


# -- moves against the best -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, scores", [
    (KALAH, [3.0, 3.0, 2.9, 1.0, -4.0]),
    (KALAH, [WIN + 2, WIN + 2, 0.0, -(WIN + 1)]),
    (CAVE, [0.0] * 16),  # the cave's start: every move the same, none "better"
    (CAVE, [40.0, 38.0, 10.0, -150.0]),
])
def test_equal_values_are_named_equal_and_the_best_is_never_worse(game, scores):
    names = [f"pit {index + 1}" if game is KALAH else cell_name(index) for index in range(len(scores))]
    rows = [Row(name, score, abs(score) >= WIN / 2 or (score == 0.0 and game is KALAH and WIN + 2 in scores))
            for name, score in zip(names, scores)]
    words = [row_words(game, rows, index) for index in range(len(rows))]
    assert "worse" not in words[0] and "behind" not in words[0] or scores[0] < 0
    for index, row in enumerate(rows):
        if row.score == rows[0].score:
            assert words[index] == words[0] or words[index] == "as good as the best", words
            assert compare_words(game, rows[0], row) in ("best", "as good as the best")
            assert same_value(game, rows[0], row)
        if index and row.score < rows[0].score and not same_value(game, rows[0], row):
            said = compare_words(game, rows[0], row)
            assert "worse than" in said or " where " in said, said
    assert compare_words(game, rows[0], rows[0]) == "best"


def test_a_worse_move_says_by_how_much_in_seeds():
    best, other = Row("pit 3", 3.0), Row("pit 5", 1.8)
    assert compare_words(KALAH, best, other) == "a little worse than pit 3 (about 1 seed)"
    assert compare_words(KALAH, best, Row("pit 1", -4.0)) == "much worse than pit 3 (about 7 seeds)"
    assert compare_words(KALAH, Row("pit 2", WIN + 4, True), Row("pit 6", WIN + 1, True)) == \
        "worse than pit 2 (3 seeds, proven)"
    assert compare_words(KALAH, Row("pit 2", WIN + 4, True), Row("pit 6", -(WIN + 1), True)) == \
        "loses where pit 2 wins"
    assert compare_words(CAVE, Row("D4", 300.0), Row("E4", -300.0)) == "much worse than D4"


def test_the_cave_start_reads_even_for_every_move():
    rows = [Row(cell_name(move), 1.5) for move in CAVE.legal_moves(CAVE.initial_state())]
    words = {row_words(CAVE, rows, index) for index in range(len(rows))}
    assert words <= {"even", "as good as the best"}, words


# -- what a move does -------------------------------------------------------------------------------------------
CAVE_FOUR = CAVE.from_text("rows=......../......../......../......../......../......../WWWW..../BBBB.... move=B")


def test_a_brick_that_makes_five_wins_and_one_that_blocks_says_so():
    assert cave_words(CAVE, CAVE_FOUR, 4) == ["makes five in a row"]  # E1
    white = CAVE.from_text("rows=......../......../......../......../......../......../WWWW..../BBBB...B move=W")
    said = cave_words(CAVE, white, 4)  # E1 for White: Black's A1-D1 needs E1
    assert said[0] == "blocks Black's five", said


def test_a_brick_that_makes_a_four_threatens_five():
    state = CAVE.from_text("rows=......../......../......../......../......../......../WWW...../BBB..... move=B")
    said = cave_words(CAVE, state, 3)  # D1: A1-D1, E1 still empty and legal
    assert "makes a four" in said or "makes an open four" in said, said
    assert any(phrase.startswith("threatens five at E1") for phrase in said), said
    assert longest_line(state.black | 1 << 3, state.occupied | 1 << 3, 3) == (4, 1)
    assert winning_cells(state.black | 1 << 3, state.occupied | 1 << 3) == [4]


def test_a_brick_that_builds_a_three_says_so():
    state = CAVE.from_text("rows=......../......../......../......../......../......../WW....../BB...... move=B")
    said = cave_words(CAVE, state, 2)  # C1: A1-C1
    assert said == ["builds a three"], said


def test_a_hus_move_says_its_relays_captures_and_what_it_leaves_open():
    start = HUS.initial_state()
    for move in HUS.legal_moves(start):
        report = HUS.report(start, move)
        said = hus_words(HUS, start, move)
        relays = len(report.laps) - 1
        assert any("relays" in phrase for phrase in said) == (relays > 0), said
        assert any("captures" in phrase for phrase in said) == (report.captured > 0), said
        after = HUS.apply(start, move)
        reply, seeds = biggest_capture(HUS, after)
        if seeds:
            assert f"leaves North a capture of {seeds} seed" in said[-1] and f"pit {HUS.move_label(after, reply)})" in said[-1]
        else:
            assert said[-1] == "leaves North no capture"


def test_a_hus_capture_names_the_opponents_pits():
    state = HUS.initial_state()
    state = HUS.apply(state, HUS.legal_moves(state)[0])
    state = HUS.apply(state, HUS.legal_moves(state)[0])  # the first turn is over: captures count
    capturing = [move for move in HUS.legal_moves(state) if HUS.report(state, move).captured]
    assert capturing, "a capture is possible here"
    move = capturing[0]
    report = HUS.report(state, move)
    pits = sorted({place.number for capture in report.captures for place, seeds in capture.taken if seeds})
    said = next(phrase for phrase in hus_words(HUS, state, move) if phrase.startswith("captures"))
    assert said.startswith(f"captures {report.captured} seeds from North's pit")
    assert all(str(number) in said for number in pits)


def test_a_narrow_column_keeps_the_unit_and_the_side():
    from game.views.analysis_panel import terse_words

    assert terse_words("about 3 seeds ahead") == "+3 seeds" and terse_words("about 1 seed behind") == "-1 seed"
    assert terse_words("about even") == "even" and terse_words("wins by 4") == "wins by 4"
