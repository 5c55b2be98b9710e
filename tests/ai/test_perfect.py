"""The Perfect level (``ai.perfect``): from positions whose value an independent source proves (the exhaustive
``ai.solver`` search, which shares no code with the prover or the tables), Perfect, playing either side against
random, greedy and pvs opponents, ends the game with at least the proven margin; every move it proves says so
with the exact value; the tables answer when the board is within them; it falls back to the Strongest search
when it cannot prove in time."""
from __future__ import annotations

import random

import pytest

import ai.core
import rules
from ai import kalah_proofs, perfect, registry, tables
from ai.base import CancelToken, EngineError, Limits
from ai.evaluators import HEURISTIC_BOUND, WIN

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the prover runs on the compiled core")

SMALL = ("kalah:pits=4,seeds=3", "kalah:pits=4,seeds=3,empty_capture=false", "kalah:pits=3,seeds=3")
TABLE_SEEDS = 8
"""The small table sets built for these tests (every board of 0..8 seeds): Perfect answers from them late in a
game and proves the rest."""


@pytest.fixture(scope="module")
def table_folder(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("tables")
    for pits, empty_capture in ((3, True), (4, True), (4, False), (6, True)):
        tables.build_kalah_tables(folder, pits, empty_capture, TABLE_SEEDS, threads=1)
    return folder


@pytest.fixture()
def with_tables(table_folder, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv(tables.ENV, str(table_folder))
    tables.forget()
    perfect.forget()
    yield table_folder
    tables.forget()
    perfect.forget()


def exact_value(game: rules.Game, state: rules.State) -> int:
    """The position's value for the side to move, by the exhaustive solver (no tables, no prover)."""
    found = registry.make_engine(game, "solver").search(state)
    assert found.exhaustive
    return int(found.score)


def random_position(game: rules.Game, rng: random.Random, plies: int) -> rules.State:
    while True:
        state = game.initial_state()
        for _ in range(plies):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            return state


def play_out(game: rules.Game, state: rules.State, side: int, opponent: str, seed: int) -> tuple[int, list[dict]]:
    """Perfect (for ``side``) against ``opponent`` to the end: Perfect's final margin and its moves' info, each
    checked against the solver's exact value of the position it moved in."""
    engine = registry.make_engine(game, "perfect:time=20")
    other = registry.make_engine(game, opponent.replace("random", f"random:seed={seed}"))
    infos = []
    while not game.is_terminal(state):
        if game.to_move(state) == side:
            found = engine.search(state, Limits(time=20))
            info = found.info
            assert info["proven"] is True and found.exhaustive, info
            assert info["value"] == exact_value(game, state), (game.to_text(state), info)
            after = game.apply(state, found.move)
            kept = (game.outcome(after).margin(side) if game.is_terminal(after)
                    else exact_value(game, after) * (1 if game.to_move(after) == side else -1))
            assert kept == info["value"], (game.to_text(state), found.move)  # the move keeps the proven value
            infos.append(info)
            move = found.move
        else:
            move = other.search(state, Limits(time=5)).move
        state = game.apply(state, move)
    return int(game.outcome(state).margin(side)), infos


@pytest.mark.parametrize("spec", SMALL)
@pytest.mark.parametrize("opponent", ["random", "greedy", "pvs:depth=4"])
def test_perfect_ends_with_at_least_the_proven_value_from_either_side(spec, opponent, with_tables):
    game = rules.parse_game_spec(spec)
    rng = random.Random(f"{spec} {opponent}")
    for trial in range(4):
        state = random_position(game, rng, rng.randint(0, 6))
        side = trial % 2
        value = exact_value(game, state) * (1 if game.to_move(state) == side else -1)
        margin, infos = play_out(game, state, side, opponent, trial)
        assert margin >= value, (spec, opponent, game.to_text(state), side, value, margin)
        values = [info["value"] for info in infos]
        assert all(later >= value for later in values)  # the value for Perfect never drops below the proof
        assert values == sorted(values), values  # and what it keeps only grows as the opponent errs
        assert {info["source"] for info in infos} <= {"tables", "prover"}


def test_a_lost_position_is_lost_by_no_more_than_its_value_and_a_won_one_won_by_at_least_it(with_tables):
    game = rules.parse_game_spec("kalah:pits=4,seeds=3")
    rng = random.Random(11)
    seen = set()
    for trial in range(40):
        state = random_position(game, rng, rng.randint(1, 8))
        side = game.to_move(state)
        value = exact_value(game, state)
        kind = (value > 0) - (value < 0)
        if kind in seen or kind == 0:
            continue
        seen.add(kind)
        margin, _ = play_out(game, state, side, "pvs:depth=6", trial)
        assert margin >= value
        if seen == {-1, 1}:
            break
    assert seen == {-1, 1}


def test_kalah_6_4_midgames_are_proved_exactly_and_kept(with_tables):
    game = rules.get_game("kalah")
    rng = random.Random(7)
    checked = 0
    while checked < 4:
        state = game.initial_state()
        while not game.is_terminal(state) and sum(state.pits) > 20:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.is_terminal(state) or sum(state.pits) <= TABLE_SEEDS:
            continue
        side = game.to_move(state)
        value = exact_value(game, state)
        margin, infos = play_out(game, state, side, "greedy" if checked % 2 else "pvs:depth=3", checked)
        assert infos[0]["value"] == value and infos[0]["source"] == "prover"
        assert margin >= value
        checked += 1


def test_the_tables_answer_when_the_board_is_within_them(with_tables):
    game = rules.get_game("kalah")
    state = game.from_text("pits=0,2,0,1,0,1/1,0,0,2,0,1 stores=20,20 move=S")
    assert sum(state.pits) <= TABLE_SEEDS
    found = registry.make_engine(game, "perfect:time=1").search(state, Limits(time=1))
    assert found.info["source"] == "tables" and found.info["proven"] and found.exhaustive
    assert found.info["value"] == exact_value(game, state)
    values = found.info["values"]
    assert set(values) == set(game.legal_moves(state)) and values[found.move] == max(values.values())
    expected = found.info["value"]
    assert found.score == (WIN + expected if expected > 0 else -(WIN - expected) if expected < 0 else 0.0)


def test_it_falls_back_to_the_strongest_search_when_it_cannot_prove_in_time(monkeypatch):
    monkeypatch.setattr(kalah_proofs, "proof_for", lambda game: None)  # as in a variant with no opening proof
    monkeypatch.delenv(tables.ENV, raising=False)
    tables.forget()
    perfect.forget()
    game = rules.get_game("kalah")
    start = game.initial_state()  # Kalah(6,4) is +10, but the proof takes minutes without the opening proof
    found = registry.make_engine(game, "perfect:time=0.3").search(start, Limits(time=0.3))
    assert found.move in game.legal_moves(start)
    assert found.info["proven"] is False and found.info["source"] == "search"
    assert found.info["why"] == "not proved in time"
    assert found.depth >= 4 and abs(found.score) < HEURISTIC_BOUND
    perfect.forget()


def test_a_cancelled_search_answers_with_a_legal_move(monkeypatch):
    monkeypatch.setattr(kalah_proofs, "proof_for", lambda game: None)  # a position the opening proof does not hold
    game = rules.get_game("kalah")
    state = game.initial_state()
    token = CancelToken()
    token.cancel()
    found = registry.make_engine(game, "perfect:time=5").search(state, Limits(time=5), token)
    assert found.move in game.legal_moves(state) and found.info["proven"] is False


def test_perfect_is_a_kalah_level_only():
    kalah, oware = rules.get_game("kalah"), rules.get_game("oware")
    assert registry.presets(kalah)["Perfect"].startswith("perfect:")
    assert "Perfect" not in registry.presets(oware)
    assert "perfect" in {info.name for info in registry.engines(kalah)}
    assert "perfect" not in {info.name for info in registry.engines(oware)}
    with pytest.raises(EngineError, match="does not play Oware"):
        registry.make_engine(oware, "perfect")
    with pytest.raises(EngineError, match="time"):
        registry.make_engine(kalah, "perfect:time=0")
