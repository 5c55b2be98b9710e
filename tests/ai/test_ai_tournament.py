"""Tournaments: the Elo arithmetic against known values, colour-swapped pairs, parallel play, forfeits,
overrun counting, balanced openings, the table, CSV and JSON, and the command's error messages.

Fake engines are declared in a temporary YAML registry (``fake_registry``) so the tournament builds them
from specs exactly as it builds real ones.
"""
from __future__ import annotations

import csv
import io
import json
import math
import time

import pytest

import rules
from ai import registry
from ai.base import Engine, SearchResult
from ai.elo import elo_estimate, elo_from_score, expected_score, score_fraction
from ai.tournament import GameTask, balanced_openings, compare, main, play_game

SMALL = "kalah:pits=3,seeds=2"


# -- Elo ----------------------------------------------------------------------------------------------------------
def test_elo_of_known_scores():
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85: a 3-to-1 expected ratio
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert elo_from_score(10 / 11) == pytest.approx(400.0)  # 400 points: ten times the odds
    assert elo_from_score(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert expected_score(400.0) == pytest.approx(10 / 11)
    assert expected_score(elo_from_score(0.62)) == pytest.approx(0.62)
    with pytest.raises(ValueError, match="between 0 and 1"):
        elo_from_score(1.5)


def test_elo_interval_of_a_known_match():
    # 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16, standard error 0.04, so the 95% score
    # interval is 0.7 -/+ 1.96 * 0.04 = [0.6216, 0.7784], i.e. +86.2 .. +218.3 Elo around +147.2.
    estimate = elo_estimate(60, 20, 20)
    assert estimate.score == 0.7 and estimate.games == 100
    assert estimate.difference == pytest.approx(147.19, abs=0.01)
    assert estimate.low == pytest.approx(86.23, abs=0.01)
    assert estimate.high == pytest.approx(218.25, abs=0.01)
    assert estimate.format() == "+147 [+86, +218]"
    mirrored = elo_estimate(20, 20, 60)
    assert mirrored.difference == pytest.approx(-estimate.difference)
    assert (mirrored.low, mirrored.high) == pytest.approx((-estimate.high, -estimate.low))


def test_elo_edge_cases():
    assert elo_estimate(0, 10, 0).difference == 0.0
    assert elo_estimate(0, 10, 0).margin == 0.0
    perfect = elo_estimate(10, 0, 0)
    assert perfect.difference == math.inf and perfect.format() == "+inf [+inf, +inf]"
    assert score_fraction(3, 2, 5) == 0.4
    with pytest.raises(ValueError, match="no games"):
        elo_estimate(0, 0, 0)
    with pytest.raises(ValueError, match="negative"):
        elo_estimate(-1, 0, 3)


# -- fake engines, registered from a temporary YAML file -------------------------------------------------------------
class IllegalEngine(Engine):
    """Always answers a move that does not exist."""

    name = "illegal"

    def search(self, state, limits=None, cancel=None, progress=None):
        return SearchResult(99)


class SleepyEngine(Engine):
    """Plays the first legal move after sleeping ``pause`` seconds, ignoring the token."""

    name = "sleepy"

    def __init__(self, game, pause: float = 0.02) -> None:
        super().__init__(game, pause=pause)
        self.pause = pause

    def search(self, state, limits=None, cancel=None, progress=None):
        time.sleep(self.pause)
        return SearchResult(self.game.legal_moves(state)[0], depth=1, nodes=1)


class FirstMoveEngine(Engine):
    """Plays the first legal move: deterministic, for checking colour swaps."""

    name = "first"

    def search(self, state, limits=None, cancel=None, progress=None):
        return SearchResult(self.game.legal_moves(state)[0], depth=2, nodes=3)


FAKES = """
engines:
  random:
    class: ai.random_engine:RandomEngine
    kind: any
    params:
      seed: {type: int, default: 0, min: 0, max: 2147483647, description: seed}
  illegal:
    class: tests.ai.test_ai_tournament:IllegalEngine
  sleepy:
    class: tests.ai.test_ai_tournament:SleepyEngine
    params:
      pause: {type: float, default: 0.02, min: 0, max: 1, description: seconds to sleep}
  first:
    class: tests.ai.test_ai_tournament:FirstMoveEngine
"""


@pytest.fixture
def fake_registry(tmp_path, monkeypatch):
    (tmp_path / "fakes.yaml").write_text(FAKES, encoding="utf-8")
    monkeypatch.setattr(registry, "DATA_DIR", tmp_path)
    registry._load_registry.cache_clear()
    yield
    registry._load_registry.cache_clear()


# -- tournaments -----------------------------------------------------------------------------------------------------
def _check_consistent(result, games):
    a, b = result.summaries()
    assert a.games == b.games == games == len(result.records)
    assert (a.wins, a.draws, a.losses) == (b.losses, b.draws, b.wins)
    assert a.wins + a.draws + a.losses == games
    assert a.score + b.score == pytest.approx(1.0)
    assert [r.index for r in result.records] == list(range(games))
    for record in result.records:
        assert record.a_seat == record.index % 2  # A moves first in even games
        if record.reason != "forfeit":
            mine, theirs = record.scores[record.a_seat], record.scores[1 - record.a_seat]
            assert record.winner == ("A" if mine > theirs else "B" if mine < theirs else None)


def test_random_against_random_plays_colour_swapped_pairs():
    result = compare(SMALL, "random", "random", games=12)
    _check_consistent(result, 12)
    assert result.summary(0).moves > 0 and result.summary(0).overruns == 0
    # Per-game seeds differ, so the twelve games are not all the same game.
    assert len({(r.plies, r.scores) for r in result.records}) > 1


def test_the_same_seed_gives_the_same_tournament_in_one_process_or_two():
    def outline(result):
        return [(r.index, r.opening, r.a_seat, r.winner, r.scores, r.plies) for r in result.records]

    single = compare(SMALL, "random", "random:seed=7", games=8, openings=2, seed=3)
    parallel = compare(SMALL, "random", "random:seed=7", games=8, openings=2, seed=3, jobs=2)
    assert outline(single) == outline(parallel)
    assert outline(compare(SMALL, "random", "random:seed=7", games=8, openings=2, seed=4)) != outline(single)


def test_a_deterministic_pair_differs_only_by_colour(fake_registry):
    result = compare(SMALL, "first", "first", games=4)
    _check_consistent(result, 4)
    even = [r for r in result.records if r.a_seat == 0]
    odd = [r for r in result.records if r.a_seat == 1]
    # The same game each time: the first player's result is the same, so A's result flips with the colours.
    assert {r.scores for r in even} == {r.scores for r in odd} and len({r.scores for r in even}) == 1
    assert result.summary(0).mean_depth == 2.0


def test_an_illegal_move_forfeits_the_game(fake_registry):
    result = compare(SMALL, "illegal", "random", games=4)
    assert all(r.winner == "B" and r.reason == "forfeit" for r in result.records)
    assert "99" in result.records[0].forfeit and "not a legal move" in result.records[0].forfeit
    a = result.summary(0)
    assert a.forfeits == 4 and a.losses == 4 and a.elo == -math.inf
    assert "forfeited" in result.table()
    document = json.loads(result.to_json())  # infinite Elo becomes null, not invalid JSON
    assert document["summary"][0]["elo"] is None


def test_moves_over_the_time_limit_are_counted_as_overruns(fake_registry):
    result = compare(SMALL, "sleepy:pause=0.02", "random", games=2, time_limit=0.001)
    sleepy, other = result.summaries()
    assert sleepy.moves > 0 and sleepy.overruns == sleepy.moves
    assert sleepy.max_move_time >= 0.02 and sleepy.mean_move_time >= 0.02
    assert other.overruns == 0
    # Without a time limit nothing can overrun.
    assert compare(SMALL, "sleepy:pause=0.0", "random", games=2).summary(0).overruns == 0


def test_play_game_from_an_opening():
    game = rules.parse_game_spec(SMALL)
    opening = (0, 1)
    task = GameTask(0, game.spec, ("random", "random"), 1, 1, opening, (1, 2), None)
    record = play_game(task)
    assert record.opening == 1 and record.a_seat == 1
    expected_plies = record.stats[0].moves + record.stats[1].moves
    assert record.plies == expected_plies and sum(record.scores) == game.material(game.initial_state())


def test_balanced_openings_are_distinct_legal_prefixes_and_repeatable():
    game = rules.get_game("kalah", pits=4, seeds=3)
    openings = balanced_openings(game, 5, plies=3, seed=11)
    assert len(openings) == len(set(openings)) == 5
    finals = set()
    for moves in openings:
        state = game.initial_state()
        for move in moves:
            game.check_move(state, move)
            state = game.apply(state, move)
        assert not game.is_terminal(state)
        finals.add(state)
    assert len(finals) == 5
    assert balanced_openings(game, 5, plies=3, seed=11) == openings


def test_balanced_openings_prefer_values_near_zero(fake_registry, monkeypatch):
    # A judge that scores each candidate by a made-up signed value: the chosen openings must be exactly the
    # candidates whose values are nearest zero.
    import ai.openings as tournament

    game = rules.get_game("kalah", pits=4, seeds=3)
    judged: dict = {}

    def judge(g, state, rng):
        value = (hash(state) % 21) - 10
        judged[state] = value
        return value

    monkeypatch.setattr(tournament, "_playout_value", judge)
    chosen = balanced_openings(game, 3, plies=4, seed=2, pool=5)
    assert len(judged) == 15

    def final(moves):
        state = game.initial_state()
        for move in moves:
            state = game.apply(state, move)
        return state

    chosen_values = sorted(abs(judged[final(m)]) for m in chosen)
    assert chosen_values == sorted(abs(v) for v in judged.values())[:3]


# -- output and the command ---------------------------------------------------------------------------------------
def test_table_csv_and_json_agree():
    result = compare(SMALL, "random", "random:seed=9", games=6, openings=1, seed=5)
    a, b = result.summaries()
    table = result.table()
    assert "A random" in table and "B random:seed=9" in table and f"{a.wins:>4}" in table
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [row["engine"] for row in rows] == ["random", "random:seed=9"]
    assert [int(rows[0][k]) for k in ("wins", "draws", "losses")] == [a.wins, a.draws, a.losses]
    assert float(rows[1]["score"]) == pytest.approx(b.score)
    document = json.loads(result.to_json())
    assert document["engines"] == ["random", "random:seed=9"]
    assert len(document["games"]) == 6 and len(document["openings"]) == 2
    assert document["summary"][0]["wins"] == a.wins
    assert document["settings"]["seed"] == 5


def test_the_command_prints_the_table_and_writes_csv(tmp_path, capsys):
    out = tmp_path / "result.csv"
    code = main(["--game", SMALL, "--engine", "random", "--engine", "random:seed=3", "--games", "4",
                 "--csv", str(out), "--quiet"])
    printed = capsys.readouterr().out
    assert code == 0 and "A random" in printed and "score" in printed
    assert out.read_text().startswith("game,engine,games,wins")


@pytest.mark.parametrize("argv, message", [
    (["--game", "kalah", "--engine", "random"], "exactly two --engine"),
    (["--game", "chess", "--engine", "random", "--engine", "random"], "unknown game 'chess'"),
    (["--game", "kalah:pits=0", "--engine", "random", "--engine", "random"], "pits must be from 1 to 12"),
    (["--game", "kalah", "--engine", "nosuch", "--engine", "random"], "unknown engine 'nosuch'"),
    (["--game", "kalah", "--engine", "random:seed=x", "--engine", "random"], "seed must be a whole number"),
    (["--game", "kalah", "--engine", "random", "--engine", "random", "--games", "0"], "--games: expected at least 1"),
    (["--game", "kalah", "--engine", "random", "--engine", "random", "--time-limit", "-1"], "positive number"),
    (["--game", "kalah", "--engine", "random", "--engine", "random", "--csv", "/nonexistent/dir/x.csv"],
     "does not exist"),
    (["--engine", "random", "--engine", "random"], "--game"),
])
def test_bad_arguments_get_clear_messages(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
