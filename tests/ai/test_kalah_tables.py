"""Kalah endgame tables: every entry equals an exact search by the rules, files are verified (a corrupt,
truncated or mislabelled layer is reported and never used), the prover reproduces the solved values, and a
search with tables plays the proven-best move.  Tables are small and built in a temporary folder."""
from __future__ import annotations

import itertools
import random
import sys

import pytest

import ai.core
from ai import tables
from rules import get_game
from rules.kalah import KalahState

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the tables are built by the compiled core")


def exact_by_rules(game):
    """The exact final margin for the side to move, by plain memoised negamax over the rules."""
    memo = {}

    def value(state):
        if state in memo:
            return memo[state]
        mover = state.to_move
        best = -10**9
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child):
                score = game.outcome(child).margin(mover)
            elif child.to_move == mover:
                score = value(child)
            else:
                score = -value(child)
            best = max(best, score)
        memo[state] = best
        return best

    return value


def boards(pits, seeds):
    """Every board of ``seeds`` seeds in ``2 * pits`` pits (own pits first)."""
    for cuts in itertools.combinations(range(seeds + 2 * pits - 1), 2 * pits - 1):
        edges = (-1,) + cuts + (seeds + 2 * pits - 1,)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(2 * pits))


def state_of(board, pits, stores=(0, 0), to_move=0):
    """The state of a board seen from the side to move (own pits first), ``stores`` = (own, opponent's)."""
    own = board[:pits] + (stores[0],)
    other = board[pits:] + (stores[1],)
    return KalahState(own + other if to_move == 0 else other + own, to_move)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("tables")


@pytest.mark.parametrize("pits, empty_capture, top", [(3, True, 9), (3, False, 9), (4, True, 7), (4, False, 7)])
def test_every_entry_is_the_exact_value_of_its_board(folder, pits, empty_capture, top):
    loaded, built = tables.build_kalah_tables(folder, pits, empty_capture, top)
    assert loaded.top == top and not loaded.problems and [b.seeds for b in built] == list(range(top + 1))
    game = get_game("kalah", pits=pits, seeds=3, empty_capture=empty_capture)
    exact = exact_by_rules(game)
    checked = 0
    for seeds in range(1, top + 1):
        for board in boards(pits, seeds):
            state = state_of(board, pits)
            if game.is_terminal(state):
                continue
            assert loaded.tables.lookup(board[:pits], board[pits:]) == exact(state), (board, seeds)
            checked += 1
    assert checked > 3000


@pytest.mark.parametrize("empty_capture", [True, False])
def test_six_pit_entries_equal_an_exact_search_on_random_boards(folder, empty_capture):
    # the shipped tables have 6 pits: 1000 random boards of each size 6..10 seeds against the rules' negamax
    loaded, _ = tables.build_kalah_tables(folder, 6, empty_capture, 10)
    game = get_game("kalah", pits=6, seeds=4, empty_capture=empty_capture)
    exact = exact_by_rules(game)
    rng = random.Random(6)
    for seeds in range(6, 11):
        checked = 0
        while checked < 1000:
            board = [0] * 12
            for _ in range(seeds):
                board[rng.randrange(12)] += 1
            state = state_of(tuple(board), 6)
            if game.is_terminal(state):
                continue
            assert loaded.tables.lookup(board[:6], board[6:]) == exact(state), (board, seeds)
            checked += 1


def test_the_stores_do_not_change_the_best_play_of_the_board(folder):
    game = get_game("kalah", pits=3, seeds=3)
    loaded, _ = tables.build_kalah_tables(folder, 3, True, 9)
    exact = exact_by_rules(game)
    rng = random.Random(4)
    for _ in range(300):
        seeds = rng.randrange(1, 10)
        board = [0] * 6
        for _ in range(seeds):
            board[rng.randrange(6)] += 1
        stores = (rng.randrange(12), rng.randrange(12))
        to_move = rng.randrange(2)
        state = state_of(tuple(board), 3, stores, to_move)
        if game.is_terminal(state):
            continue
        own_store = stores[0] - stores[1]
        assert exact(state) == own_store + loaded.tables.lookup(board[:3], board[3:])


def test_a_layer_is_reused_and_the_files_are_checked(folder, capsys):
    loaded, built = tables.build_kalah_tables(folder, 3, True, 9)
    assert built == [] and loaded.top == 9
    path = tables.layer_path(folder, 3, True, 6)
    data = bytearray(path.read_bytes())
    try:
        data[tables.HEADER_BYTES + 17] ^= 0x01                    # one flipped bit in the entries
        path.write_bytes(data)
        loaded = tables.load_kalah_tables(folder, 3, True)
        assert loaded.top == 5
        assert any("checksum" in problem and path.name in problem for problem in loaded.problems)
        path.write_bytes(data[: len(data) - 5])                    # a partial file
        loaded = tables.load_kalah_tables(folder, 3, True)
        assert loaded.top == 5 and any("truncated" in problem for problem in loaded.problems)
        path.write_bytes(b"")                                      # an empty one
        assert tables.load_kalah_tables(folder, 3, True).top == 5
        other = tables.layer_path(folder, 3, False, 6)
        path.write_bytes(other.read_bytes() if other.exists() else b"x" * 100)  # another variant's layer
        loaded = tables.load_kalah_tables(folder, 3, True)
        assert loaded.top == 5 and loaded.problems
        data[tables.HEADER_BYTES + 17] ^= 0x01
        data[16] = 99                                              # a future format version
        path.write_bytes(data)
        loaded = tables.load_kalah_tables(folder, 3, True)
        assert loaded.top == 5 and "format version" in loaded.problems[0]
        path.unlink()                                              # a missing layer hides those above it
        loaded = tables.load_kalah_tables(folder, 3, True)
        assert loaded.top == 5 and "missing" in loaded.problems[0]
    finally:
        tables.build_kalah_tables(folder, 3, True, 9)              # rebuilt, the later tests' tables
    assert tables.load_kalah_tables(folder, 3, True).top == 9


def test_the_prover_finds_the_solved_values_with_and_without_tables(folder):
    from ai.kalah_solve import KalahProver

    for variant, value in [(dict(pits=3, seeds=3), 2), (dict(pits=4, seeds=3), 8),
                           (dict(pits=3, seeds=3, empty_capture=False), 2)]:
        game = get_game("kalah", **variant)
        loaded, _ = tables.build_kalah_tables(folder, game.pits, game.empty_capture, 7)
        for use in (None, loaded.tables):
            prover = KalahProver(game, use, memory=8)
            proof = prover.prove(game.initial_state())
            assert proof.value == value, (variant, use)
            assert prover.prove_by_tests(game.initial_state(), first_depth=4).value == value
            line, complete = prover.principal_variation(game.initial_state(), proof.value)
            assert complete
            state = game.initial_state()
            for move in line:
                state = game.apply(state, move)
            assert game.is_terminal(state) and game.outcome(state).margin(0) == value


def test_a_search_with_tables_plays_the_proven_best_move(folder, monkeypatch):
    from ai.search import PVSEngine

    monkeypatch.setenv(tables.ENV, str(folder))
    tables.forget()
    game = get_game("kalah", pits=4, seeds=3)
    loaded, _ = tables.build_kalah_tables(folder, 4, True, 7)
    exact = exact_by_rules(game)
    engine = PVSEngine(game, time=None, depth=1, tables=True)
    engine.search(game.initial_state())  # the tables load in the background; an untimed search waits for them
    assert engine.tables is not None and engine.tables.top == 7
    rng = random.Random(9)
    tried = 0
    while tried < 150:
        board = [0] * 8
        for _ in range(rng.randrange(2, 8)):
            board[rng.randrange(8)] += 1
        state = state_of(tuple(board), 4, (rng.randrange(15), rng.randrange(15)), rng.randrange(2))
        if game.is_terminal(state):
            continue
        tried += 1
        best = exact(state)
        result = engine.search(state)          # one ply: every child is answered by the tables
        child = game.apply(state, result.move)
        if game.is_terminal(child):
            played = game.outcome(child).margin(state.to_move)
        else:
            played = exact(child) if child.to_move == state.to_move else -exact(child)
        assert played == best, game.to_text(state)
        assert result.exhaustive
    tables.forget()


def test_the_commands_build_and_solve(folder, capsys):
    from game.cli import main

    target = folder / "cli"
    assert main(["tables", "build", "kalah:pits=3", "--seeds", "6", "--folder", str(target)]) == 0
    out = capsys.readouterr().out
    assert "estimate:" in out and "done" in out
    assert main(["tables", "status", "kalah:pits=3", "--folder", str(target)]) == 0
    assert "0..6 seeds" in capsys.readouterr().out
    assert main(["solve", "kalah:pits=4,seeds=3", "--folder", str(target)]) == 0
    out = capsys.readouterr().out
    assert "value: +8" in out and "principal variation" in out
    game = get_game("kalah", pits=3, seeds=3)
    state = game.apply(game.initial_state(), 1)
    assert main(["solve", "kalah:pits=3,seeds=3", "--folder", str(target), "--position", game.to_text(state)]) == 0
    mover = "South" if state.to_move == 0 else "North"
    assert f"value: {exact_by_rules(game)(state):+d} for {mover}" in capsys.readouterr().out
    assert main(["solve", "kalah:pits=3,seeds=3", "--position", "pits=nonsense"]) == 2
