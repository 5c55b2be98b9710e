"""bench/bench_table_reach.py: the ply-by-ply count of positions the endgame tables answer, on hand-made games,
and the records it reads (games that keep their moves) replayed into board seeds."""
from __future__ import annotations

import json

import pytest

from ai.tournament import GameTask, play_game
from bench.bench_table_reach import board_seeds, entry_ply, reach, read_records
from rules import parse_game_spec

# Three hand-made games, each the seeds on the board before ply 0, 1, 2, ...
GAMES = (
    (10, 8, 6, 4, 2),        # inside 6 from ply 2
    (10, 9, 7),              # ends at ply 3, never inside 6
    (10, 10, 10, 9, 5, 3),   # inside 6 from ply 4
)


def test_the_share_counts_the_games_still_in_play_at_each_ply_and_a_threshold_includes_its_own_count():
    counted = reach(GAMES, threshold=6, every=2)
    assert counted.plies == (0, 2, 4)
    assert counted.in_play == (3, 3, 2)
    # ply 2: 6 (at the threshold: inside), 7, 10; ply 4: 2 and 5 of the two games left (the second has ended)
    assert counted.shares == pytest.approx((0.0, 1 / 3, 1.0))
    assert counted.mean_seeds == pytest.approx((10.0, 23 / 3, 3.5))


def test_half_the_games_inside_counts_every_game_and_one_that_ended_outside_as_never_inside():
    counted = reach(GAMES, threshold=6, every=2)
    assert counted.half_inside == 4          # entries 2, 4 and never: the second of three games enters at ply 4
    assert counted.inside_at_end == 2
    assert counted.overall == pytest.approx(5 / 14)  # 6, 4, 2 and 5, 3 of 14 positions
    assert reach(GAMES, threshold=10, every=2).half_inside == 0
    assert reach(GAMES, threshold=1, every=2).half_inside is None
    assert [entry_ply(game, 6) for game in GAMES] == [2, None, 4]


def test_the_ply_columns_stop_when_too_few_games_are_left_and_every_sets_their_step():
    assert reach(GAMES, threshold=6, every=2, min_games=3).plies == (0, 2)
    assert reach(GAMES, threshold=6, every=1).plies == (0, 1, 2, 3, 4, 5)
    assert reach(GAMES, threshold=6, every=1).shares[3] == pytest.approx(1 / 2)  # 4 inside, 9 not
    with pytest.raises(ValueError, match="no games"):
        reach((), threshold=6)


def _document(game_spec: str, moves: list[list[str]]) -> dict:
    return {"game": game_spec, "games": [{"index": index, "moves": line} for index, line in enumerate(moves)]}


def test_records_are_replayed_into_the_seeds_on_the_board_before_each_move(tmp_path):
    game = parse_game_spec("kalah:pits=3,seeds=2")
    # South sows pit 2 (2 seeds: one into its store, one into North's pit 0): the board goes from 12 to 11;
    # then North sows its pit 0 (3 seeds, the last into its store, so North moves again): 10 in the pits.
    assert board_seeds(game, ["2", "0"]) == (12, 11)
    assert board_seeds(game, ["2", "0", "1"]) == (12, 11, 10)
    path = tmp_path / "records.json"
    path.write_text(json.dumps(_document(game.spec, [["2", "0", "1"], ["0"]])), encoding="utf-8")
    records = read_records(path)
    assert records.label == "Kalah(3,2), empty capture" and records.game == "kalah"
    assert records.seeds == ((12, 11, 10), (12,))


def test_records_without_moves_or_with_an_illegal_one_are_refused_with_the_game_named(tmp_path):
    path = tmp_path / "records.json"
    path.write_text(json.dumps({"game": "kalah", "games": [{"index": 3, "plies": 40}]}), encoding="utf-8")
    with pytest.raises(SystemExit, match="game 3 has no moves"):
        read_records(path)
    path.write_text(json.dumps(_document("kalah", [["2", "9"]])), encoding="utf-8")
    with pytest.raises(SystemExit, match="game 0 does not replay"):
        read_records(path)
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(SystemExit, match="not a tournament's JSON"):
        read_records(path)


def test_a_played_game_keeps_every_move_from_the_start_and_they_replay_to_its_end():
    game = parse_game_spec("kalah:pits=3,seeds=2")
    task = GameTask(index=1, game=game.spec, specs=("greedy", "alphabeta:depth=2"), a_seat=1, opening=1,
                    opening_moves=(0,), seeds=(None, None), time_limit=None)
    played = play_game(task)
    assert played.moves[0] == "0" and len(played.moves) == 1 + played.plies
    state = game.initial_state()
    for text in played.moves:
        state = game.apply(state, game.parse_move(state, text))
    assert game.is_terminal(state)
    assert played.scores == tuple(game.outcome(state).scores)
