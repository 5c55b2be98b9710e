"""bench/bench_perfect.py proofs: the starts it samples from an opening proof, the games it counts as violations,
and a short run on a small Kalah's proof (the shipped Kalah(6,4) proofs take the lead's long run)."""
from __future__ import annotations

import random

import pytest

import ai.core
import rules
from ai import kalah_proofs, perfect, tables
from ai.kalah_proof_build import Builder
from ai.kalah_proofs import OpeningProof, parse
from bench import bench_perfect
from bench.bench_perfect import ProofTally, proof_positions, proof_starts

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the proofs are built by the compiled solver")

SPEC = "kalah:pits=4,seeds=4,empty_capture=true"


@pytest.fixture(scope="module")
def small(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Kalah(4,4)'s 0..12 seed tables and an opening proof of it (as tests/ai/test_kalah_proofs.py builds one),
    written to a file: (tables folder, proof file, proof)."""
    folder = tmp_path_factory.mktemp("bench-proof")
    game = rules.parse_game_spec(SPEC)
    full, _ = tables.build_kalah_tables(folder, game.pits, game.empty_capture, 12, threads=1)
    play = tables.load_kalah_tables(folder, game.pits, game.empty_capture, 6)
    entries = Builder(game, full.tables, play.tables, 16, leaf_nodes=40, log=None, leaf_megabytes=1).run()
    text = OpeningProof(game, entries, {"play table seeds": "6"}).to_text()
    path = folder / "proof.txt"
    path.write_text(text, encoding="utf-8")
    return folder, path, parse(text, str(path), SPEC)


def layers(game: rules.Game, plies: int) -> list[set[rules.State]]:
    """Every position exactly 0, 1, ..., ``plies`` plies after the start."""
    found = [{game.initial_state()}]
    for _ in range(plies):
        found.append({game.apply(state, move) for state in found[-1] if not game.is_terminal(state)
                      for move in game.legal_moves(state)})
    return found


def test_the_starts_are_the_start_for_both_sides_then_proof_positions_2_to_8_plies_in_with_their_values(small):
    _, _, proof = small
    game = proof.game
    starts = proof_starts(proof, 6, random.Random(1))
    assert [(start.state, start.side, start.value) for start in starts[:2]] == [
        (game.initial_state(), 0, proof.value), (game.initial_state(), 1, -proof.value)]
    sampled = starts[2:]
    assert [start.side for start in sampled] == [0, 0, 0, 1, 1, 1]   # half from each side's tree
    by_ply = layers(game, 8)
    for start in sampled:
        assert game.to_move(start.state) == start.side                  # Perfect is the side to move
        assert start.value == proof.lookup(start.state).value           # the entry's exact value
        ply = int(start.label.rsplit("(", 1)[1].split()[0])
        assert 2 <= ply <= 8 and start.state in by_ply[ply], start.label  # a real line of that many plies
    assert len({start.state for start in sampled}) == 6
    again = proof_starts(proof, 6, random.Random(1))
    assert [start.state for start in again] == [start.state for start in starts]   # seeded
    assert [start.state for start in proof_starts(proof, 6, random.Random(2))] != [start.state for start in starts]


def test_the_trees_follow_the_proven_moves_and_every_reply_and_stop_at_leaves(small):
    _, _, proof = small
    game = proof.game
    found = proof_positions(proof, 8)
    assert (0, game.initial_state()) in found
    for ply, state in found:
        entry = proof.lookup(state)
        assert entry is not None and ply <= 8
    # after the start's proven move, every reply of North that leaves South to move with an entry is found
    after = game.apply(game.initial_state(), proof.lookup(game.initial_state()).move)
    states = {state for _, state in found}
    replies = [after] if game.to_move(after) == 0 else [game.apply(after, move) for move in game.legal_moves(after)]
    assert [state for state in replies if proof.lookup(state) is not None and game.to_move(state) == 0] == [
        state for state in replies if state in states]


def test_a_game_below_the_proven_value_is_a_violation_and_is_named_one_at_it_is_not():
    tally = ProofTally()
    assert not tally.game(4, 4, "at the value")
    assert not tally.game(9, 4, "above it")
    assert tally.game(2, 4, "Kalah(4,4), Perfect as South vs greedy from the start, game 1")
    assert tally.violations == ["Kalah(4,4), Perfect as South vs greedy from the start, game 1: finished +2, "
                                "below the proven +4"]
    tally.move(0, {"source": "opening proof"}, 0.01)
    tally.move(1, {"source": "prover"}, 0.30)
    tally.move(2, {"source": "opening proof"}, 0.02)
    summary = tally.summary(1.0)
    assert summary.startswith("3 games, 1 violation, mean margin +1.0 above the proven value")
    assert "3 moves: 67% opening proof, 33% prover" in summary and "longest move 0.30 s (limit 1 s)" in summary


@pytest.fixture
def restored(small, monkeypatch):  # type: ignore[no-untyped-def]
    """The bench replaces ``proof_for`` and sets the tables' folder for its process: both are put back after."""
    folder, path, proof = small
    monkeypatch.setattr(kalah_proofs, "proof_for", kalah_proofs.proof_for)
    monkeypatch.setenv(tables.ENV, str(folder))
    yield folder, path, proof
    tables.forget()
    perfect.forget()


def run(folder, path, *extra: str) -> int:  # type: ignore[no-untyped-def]
    return bench_perfect.main(["proofs", "--time", "1", "--tables", str(folder), "--proof-file", str(path),
                               "--game", "kalah:pits=4,seeds=4", *extra])


def test_perfect_plays_from_the_file_given_every_start_against_each_opponent_without_a_violation(restored, capsys,
                                                                                               monkeypatch):
    folder, path, proof = restored
    recorded = []
    monkeypatch.setattr(bench_perfect, "record", lambda *args, **kwargs: recorded.append((args, kwargs)))
    assert run(folder, path, "--games", "1", "--positions", "2", "--opponents", "greedy,random", "--record") == 0
    out = capsys.readouterr().out
    games = [line for line in out.splitlines() if line.startswith("  Kalah(4,4) empty-capture, Perfect as ")]
    assert len(games) == 2 * 4                                   # 2 opponents x (the start twice + 2 positions)
    assert "standard" not in out                                 # only the rule the file proves
    assert out.rstrip().endswith("0 violations")
    summaries = [line for line in out.splitlines() if line.startswith("Kalah(4,4) empty-capture, Perfect vs ")]
    assert len(summaries) == 2 and all("4 games, 0 violations" in line and "% opening proof" in line
                                       for line in summaries)
    assert [args[3] for args, _ in recorded] == [0, 0]          # the violations, with the games as the unit
    assert recorded[0][0][2] == ("games below the proven value, Perfect vs greedy from the start and positions in the "
                                 "opening proof, Kalah(4,4) empty-capture, at 1 s a move")   # no count: reruns replace it
    assert recorded[0][0][4] == "of 4 games (from the start and 2 positions in the proof)"
    assert recorded[0][1]["target"] == "0"


def test_a_perfect_that_throws_the_game_away_is_caught_and_named(restored, capsys, monkeypatch):
    folder, path, proof = restored

    def thrower(game, seconds, tally):  # type: ignore[no-untyped-def]
        def play(state, ply):  # type: ignore[no-untyped-def]
            tally.move(ply, {"source": "thrown"}, 0.0)
            return game.legal_moves(state)[-1]
        return play

    monkeypatch.setattr(bench_perfect, "perfect_player", thrower)
    assert run(folder, path, "--games", "1", "--positions", "0", "--opponents", "greedy") == 1
    out = capsys.readouterr().out
    # the last legal move each turn against greedy (both deterministic) loses by 8 as South and by 14 as North
    assert "Perfect as South vs greedy from the start, game 1: -8 (proven +2)  VIOLATION" in out
    named = ("  Kalah(4,4) empty-capture, Perfect as {} vs greedy from the start, game 1: finished {}, "
             "below the proven {}")
    assert out.strip().splitlines()[-3:] == ["2 violations", named.format("South", -8, "+2"),
                                             named.format("North", -14, "-2")]
    assert "2 games, 2 violations, mean margin -11.0 above the proven value" in out


def test_a_proof_of_another_board_is_refused_with_the_game_to_give(restored):
    folder, path, _ = restored
    with pytest.raises(SystemExit, match=r"proves kalah:pits=4,seeds=4.*give --game kalah:pits=4,seeds=4"):
        bench_perfect.main(["proofs", "--proof-file", str(path), "--tables", str(folder)])
