"""The review of a game (game/review.py, game/review_words.py): a recorded Kalah game with a blunder the endgame
tables prove is marked with its exact cost and "proven"; Oware and cave games get sensible marks; every proven
mark's cost is the exact one; the budget is checked; cancel stops a review.

Budgets are in plies (deterministic); no assert depends on the machine's speed.  Kalah's tables are built small
(4 pits, up to 8 seeds) in a temporary folder, and the exact reference is plain memoised negamax over the rules.
"""
from __future__ import annotations

import math
import random

import pytest

import ai.core
from ai.registry import make_engine
from game import savegame
from game.explain import move_name
from game.review import (
    CAVE_GRADES, SEED_GRADES, Budget, ReviewError, ReviewRun, grade, review_game,
)
from game.review_words import headline, review_lines, turning_words
from game.savegame import SavedGame, Seat
from rules import get_game
from tests.ai.test_analysis import exact_by_rules, move_margin

needs_core = pytest.mark.skipif(ai.core.module() is None, reason="endgame tables are built by the compiled core")

KALAH_MOVES = (2, 3, 1, 1, 2, 1, 3, 0, 1, 3, 0, 2, 3, 2, 0, 1, 3)
"""Kalah with 4 pits and 3 seeds (rules' notation, pits from 0): random moves to 10 seeds on the board, then the
exact best moves except move 15, which throws a proven win by 6 away into a loss by 4 (found by negamax)."""
BLUNDER = 14
"""The index of the position the blunder was played from (move 15)."""


def recorded_kalah() -> SavedGame:
    """The recorded game, through the save file's text (as the Load screen and ``stonecave review`` read it)."""
    game = get_game("kalah", pits=4, seeds=3)
    saved = SavedGame(game, (Seat(), Seat()), game.initial_state(), KALAH_MOVES)
    return savegame.loads(savegame.dumps(saved))


def played_game(game, engines, seed, limit=400):
    """A game where ``engines[player]`` moves (None: a random move by ``seed``)."""
    rng = random.Random(seed)
    state = game.initial_state()
    states, moves = [state], []
    while not game.is_terminal(state) and len(moves) < limit:
        engine = engines[game.to_move(state)]
        move = rng.choice(game.legal_moves(state)) if engine is None else engine.search(state).move
        state = game.apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


@needs_core
def test_the_proven_blunder_is_marked_with_its_exact_cost(with_tables):
    saved = recorded_kalah()
    game = saved.game
    exact = exact_by_rules(game)
    state = saved.states[BLUNDER]
    margins = {move: move_margin(game, exact, state, move) for move in game.legal_moves(state)}
    assert max(margins.values()) == 6 and margins[KALAH_MOVES[BLUNDER]] == -4  # the recording is what it says

    review = review_game(game, saved.states, saved.moves, Budget(depth=4))
    assert review.complete
    blunder = review.judged[BLUNDER]
    assert blunder is not None and blunder.grade == "blunder"
    assert blunder.proven and blunder.result_change
    assert blunder.loss == 10
    assert blunder.best.margin == 6 and blunder.played.margin == -4
    assert blunder in review.turning_points
    name = move_name(game, state, KALAH_MOVES[BLUNDER])
    assert turning_words(game, blunder).startswith(f"{name} turned a win by 6 into a loss by 4, proven; ")
    assert "(10 seeds)" in turning_words(game, blunder)
    assert headline(game, blunder).startswith(f"Move {BLUNDER + 1}, {game.player_names[blunder.player]}, blunder")

    # Every value the review calls proven is the exact one, and the moves after the blunder (best play) lose nothing.
    for judged in review.judged:
        assert judged is not None
        if judged.proven:
            position = saved.states[judged.index]
            assert judged.loss == max(margins_of(game, exact, position).values()) - \
                move_margin(game, exact, position, judged.move)
    for judged in review.judged[BLUNDER + 1:]:
        assert judged is not None and judged.loss == 0 and judged.grade is None

    # The series: one value per position from South's view, the last the final result.
    assert len(review.series) == len(saved.states)
    final = game.outcome(saved.states[-1]).margin(0)
    assert review.series[-1] is not None and review.series[-1].proven and review.series[-1].margin == final
    before = review.series[BLUNDER]
    after = review.series[BLUNDER + 1]
    south = 1 if blunder.player == 0 else -1
    assert before is not None and after is not None
    assert before.margin == south * 6 and after.margin == south * -4

    # The blunderer's accuracy is below 100, lowered by at least the blunder's share.
    summary = review.players[blunder.player]
    assert summary.counts[2] >= 1 and summary.accuracy is not None and summary.accuracy < 100
    assert summary.accuracy <= 100 * (summary.judged - 1) / summary.judged + 1e-9


def margins_of(game, exact, state):
    return {move: move_margin(game, exact, state, move) for move in game.legal_moves(state)}


@needs_core
def test_a_review_by_depth_is_the_same_twice(with_tables):
    saved = recorded_kalah()
    first = review_game(saved.game, saved.states, saved.moves, Budget(depth=4))
    second = review_game(saved.game, saved.states, saved.moves, Budget(depth=4))
    assert first.judged == second.judged and first.series == second.series
    assert review_lines(first) == review_lines(second)


def test_oware_the_stronger_player_scores_higher():
    game = get_game("oware")
    states, moves = played_game(game, (None, make_engine(game, "pvs:depth=4")), seed=5)
    review = review_game(game, states, moves, Budget(depth=4))
    assert review.complete and len(review.series) == len(states)
    random_side, engine_side = review.players
    assert engine_side.accuracy is not None and random_side.accuracy is not None
    assert engine_side.accuracy > random_side.accuracy
    assert engine_side.counts[2] <= random_side.counts[2]
    assert random_side.counts != (0, 0, 0), "a random player makes mistakes the review sees"
    for judged in review.judged:
        assert judged is not None and judged.loss >= 0
        assert (judged.move == judged.best_move) <= (judged.grade is None)  # the best move is never marked
        limits = dict(zip(("inaccuracy", "mistake", "blunder"), SEED_GRADES))
        if judged.grade is not None and not judged.result_change:
            assert judged.loss >= limits[judged.grade] - 1e-9
    assert all(0 <= summary.accuracy <= 100 for summary in review.players if summary.accuracy is not None)


def test_the_cave_review_speaks_in_outcomes():
    game = get_game("magnetic-cave")
    states, moves = played_game(game, (None, make_engine(game, "pvs:depth=3")), seed=2)
    review = review_game(game, states, moves, Budget(depth=3))
    assert review.complete
    random_side, engine_side = review.players
    assert engine_side.accuracy is not None and random_side.accuracy is not None
    assert engine_side.accuracy > random_side.accuracy
    assert review.turning_points, "the random side's bricks are marked"
    for point in review.series:
        assert point is not None and point.margin is None and 0.0 <= point.points <= 1.0
    for judged in review.turning_points:
        words = turning_words(game, judged)
        assert "seed" not in words and ("%" in words or "win" in words or "loss" in words or "draw" in words)
        if judged.result_change:
            assert judged.grade in ("mistake", "blunder")
    outcome = game.outcome(states[-1])
    assert outcome is not None
    last = review.series[-1]
    assert last is not None and last.proven and last.points == (1.0 if outcome.margin(0) > 0 else
                                                                0.0 if outcome.margin(0) < 0 else 0.5)


def test_grades_follow_the_stated_thresholds():
    kalah, cave = get_game("kalah"), get_game("magnetic-cave")
    assert grade(kalah, 1.9, False) is None
    assert [grade(kalah, limit, False) for limit in SEED_GRADES] == ["inaccuracy", "mistake", "blunder"]
    assert [grade(cave, limit, False) for limit in CAVE_GRADES] == ["inaccuracy", "mistake", "blunder"]
    assert grade(kalah, 1.0, True) == "mistake", "a proven win given away is at least a mistake"
    assert grade(cave, 0.0, True) == "mistake"
    assert grade(kalah, 9.0, True) == "blunder"


@pytest.mark.parametrize("options, words", [
    ({}, "a depth in plies or a number of seconds"),
    ({"depth": 1}, "2 to 40 plies, not 1"),
    ({"depth": 41}, "not 41"),
    ({"seconds": 0.0}, "seconds per position, not 0"),
    ({"seconds": math.nan}, "not nan"),
    ({"seconds": math.inf}, "not inf"),
])
def test_a_bad_budget_says_what_would_be_right(options, words):
    with pytest.raises(ReviewError, match=words):
        Budget(**options)


def test_a_puzzle_is_not_reviewed():
    game = get_game("solitaire")
    with pytest.raises(ReviewError, match="two-player games"):
        review_game(game, [game.initial_state()], [], Budget(depth=2))


def test_cancel_stops_a_review_and_keeps_what_was_done():
    game = get_game("hus")
    states, moves = played_game(game, (None, None), seed=1, limit=60)
    run = ReviewRun(game, states, moves, Budget(depth=40))  # would take far longer than the test
    first = run.poll()
    assert not first.finished and first.total == len(moves)
    run.cancel()
    assert run.wait(60), "the review did not stop after cancel"
    progress = run.poll()
    assert progress.finished and progress.cancelled and progress.error is None
    assert not progress.review.complete
    assert progress.done < len(moves)
    lines = review_lines(progress.review)
    assert "Stopped after" in lines[-1]
    assert not any(line.startswith("No turning points: every move") for line in lines), "not said of a part"


def test_a_game_in_play_is_reviewed_to_its_last_position_and_every_move_has_words():
    from game.review_words import move_words

    game = get_game("kalah", pits=4, seeds=3)
    states, moves = played_game(game, (None, None), seed=9, limit=8)
    assert not game.is_terminal(states[-1])
    review = review_game(game, states, moves, Budget(depth=3))
    assert all(point is not None for point in review.series), "the graph reaches the position in play"
    for judged in review.judged:
        assert judged is not None
        words = move_words(game, judged)
        assert words.startswith(f"Move {judged.index + 1}, ") and "None" not in words and judged.name in words
        if judged.grade is None and judged.loss == 0 and judged.choices > 1:
            assert "the best move" in words
