"""Greedy, MCTS, the evaluators and the presets: each does what it claims on positions with a known answer."""
from __future__ import annotations

import pytest

from ai.base import EngineError
from ai.evaluators import evaluator_names, get_evaluator
from ai.registry import make_engine, presets
from rules import get_game
from tests import registered


def test_greedy_takes_the_biggest_capture():
    game = get_game("kalah")
    # South's pit 1 (one seed) ends in empty pit 2 opposite North's 9 seeds; no other move captures.
    state = game.from_text("pits=1,1,0,0,0,2/0,5,3,9,2,1 stores=10,14 move=S")
    assert make_engine(game, "greedy").search(state).move == 1


def test_greedy_plays_the_move_that_wins_the_game():
    game = get_game("kalah")
    state = game.from_text("pits=0,0,0,0,0,1/0,0,0,0,3,0 stores=24,20 move=S")
    result = make_engine(game, "greedy").search(state)
    assert result.move == 5 and result.score > 50_000


@pytest.mark.parametrize("rollout", ["random", "greedy", "cutoff"])
def test_mcts_finds_the_winning_move(rollout):
    game = get_game("kalah")
    # The solver says North's pit 3 wins by 4 and every other move loses (by 2 to 6).
    state = game.from_text("pits=0,4,0,0,0,0/1,2,1,1,0,0 stores=22,17 move=N")
    result = make_engine(game, f"mcts:iterations=1500,time=none,rollout={rollout}").search(state)
    assert result.move == 3
    assert result.nodes == 1500


def test_mcts_with_a_seed_replays_and_different_seeds_may_differ():
    game = get_game("kalah", pits=4, seeds=3)
    state = game.initial_state()
    runs = {make_engine(game, f"mcts:iterations=200,time=none,seed={seed}").search(state).info["visits"]
            for seed in range(4)}
    again = make_engine(game, "mcts:iterations=200,time=none,seed=0").search(state).info["visits"]
    assert again in runs and len(runs) > 1


def test_mcts_needs_a_limit():
    game = get_game("kalah")
    with pytest.raises(EngineError, match="needs a limit"):
        make_engine(game, "mcts:time=none").search(game.initial_state())


@pytest.mark.parametrize("name", registered.sowing())
def test_sowing_evaluators_see_the_board_from_the_side_to_move(name):
    game = get_game(name)
    state = game.initial_state()
    for move in game.legal_moves(state)[:3]:
        child = game.apply(state, move)
        if game.is_terminal(child):
            continue
        mirrored = game.from_text(_swap_sides(game.to_text(child)))
        for evaluator in evaluator_names(game):
            scorer = get_evaluator(game, evaluator)
            assert scorer.evaluate(game, mirrored) == scorer.evaluate(game, child), (name, evaluator)


def _swap_sides(text: str) -> str:
    fields = dict(token.split("=", 1) for token in text.split())
    south, north = fields["pits"].split("/")
    fields["pits"] = f"{north}/{south}"
    if "stores" in fields and "," in fields["stores"]:
        a, b = fields["stores"].split(",")
        fields["stores"] = f"{b},{a}"
    fields["move"] = "N" if fields["move"] == "S" else "S"
    return " ".join(f"{key}={value}" for key, value in fields.items())


def test_kalah_default_evaluator_rewards_store_and_seeds():
    game = get_game("kalah")
    better = game.from_text("pits=4,4,4,4,4,4/4,4,4,4,4,0 stores=4,0 move=S")
    worse = game.from_text("pits=4,4,4,4,4,0/4,4,4,4,4,4 stores=0,4 move=S")
    evaluator = get_evaluator(game)
    assert evaluator.evaluate(game, better) > 0 > evaluator.evaluate(game, worse)


@pytest.mark.parametrize("name", registered.two_player())
def test_every_preset_builds_an_engine_that_moves(name):
    game = get_game(name)
    table = presets(game)
    assert list(table) == ["Easy", "Medium", "Hard", "Strongest"] + (["Perfect"] if name == "kalah" else [])
    for spec in table.values():
        engine = make_engine(game, spec)
        assert engine.game == game
    assert make_engine(game, table["Easy"]).search(game.initial_state()).move in game.legal_moves(game.initial_state())
