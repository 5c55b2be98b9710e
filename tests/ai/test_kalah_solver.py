"""The board prover (``ai.kalah_solver``, ``kalah_solver.pxi``): its values are plain minimax's on small games
under both capture rules, from starts and from positions part way; enhanced transposition cutoffs, futility,
move order, hints and tables change how many nodes it visits but never a value; a proof stopped part way and
saved resumes to the same value with fewer nodes; a checkpoint for another proof, cut short, damaged or not a
regular file (a FIFO, a device, a folder) is refused with one message, and a loaded table is a copy that the
file on disk can no longer change."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import ai.core
from ai import tables
from ai.base import CancelToken
from ai.kalah_solver import (CheckpointError, Solver, board_of, load_checkpoint, planned_table_seeds,
                             save_checkpoint, table_bytes, default_megabytes)
from rules import get_game

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the solver runs on the compiled core")

SMALL = [(2, 3), (2, 4), (3, 2), (3, 3), (4, 2), (5, 1)]


def negamax(game):
    """The exact final margin for the side to move by plain memoised negamax over the rules."""
    memo: dict = {}

    def value(state):
        if state in memo:
            return memo[state]
        mover = state.to_move
        best = -10**9
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child):
                score = game.outcome(child).margin(mover)
            else:
                score = value(child) if child.to_move == mover else -value(child)
            best = max(best, score)
        memo[state] = best
        return best

    return value


def positions(game, count, seed):
    """The start and ``count`` positions reached by random moves from it (none over)."""
    rng = random.Random(seed)
    found = [game.initial_state()]
    for _ in range(50 * count):
        if len(found) > count:
            break
        state = game.random_walk(game.initial_state(), rng, rng.randrange(1, 8))
        if not game.is_terminal(state):
            found.append(state)
    return found


def move_value(game, value, state, move):
    child = game.apply(state, move)
    if game.is_terminal(child):
        return game.outcome(child).margin(state.to_move)
    return value(child) if child.to_move == state.to_move else -value(child)


@pytest.mark.parametrize("empty_capture", [True, False])
@pytest.mark.parametrize("pits,seeds", SMALL)
def test_values_and_moves_are_minimaxs(pits, seeds, empty_capture):
    game = get_game("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture)
    exact = negamax(game)
    solver = Solver(game, megabytes=1)
    for state in positions(game, 6, seed=pits * 10 + seeds):
        proof = solver.solve(state)
        assert proof.is_exact and proof.value == exact(state), game.to_text(state)
        assert move_value(game, exact, state, proof.move) == proof.value


@pytest.mark.parametrize("empty_capture", [True, False])
def test_switches_change_nodes_never_values(empty_capture):
    game = get_game("kalah", pits=3, seeds=3, empty_capture=empty_capture)
    states = positions(game, 3, seed=7)
    values, nodes = set(), {}
    for etc in (True, False):
        for futility in (True, False):
            for ordering in (0, 2, 3):
                for hint in (0, 4):
                    solver = Solver(game, megabytes=4, etc=etc, futility=futility, ordering=ordering)
                    proofs = [solver.solve(state, hint_depth=hint) for state in states]
                    values.add(tuple(proof.value for proof in proofs))
                    nodes[etc, futility, ordering, hint] = solver.nodes
    assert len(values) == 1
    assert values.pop() == tuple(negamax(game)(state) for state in states)
    assert len(set(nodes.values())) > 4                       # the switches do change the search
    assert nodes[True, True, 2, 0] < nodes[False, False, 0, 0]


@pytest.mark.parametrize("empty_capture", [True, False])
def test_tables_change_nodes_never_values(tmp_path, empty_capture):
    game = get_game("kalah", pits=3, seeds=3, empty_capture=empty_capture)
    loaded, _ = tables.build_kalah_tables(tmp_path, 3, empty_capture, 8, threads=1)
    exact = negamax(game)
    plain, tabled = Solver(game, megabytes=1), Solver(game, loaded.tables, megabytes=1)
    for state in positions(game, 8, seed=3):
        assert plain.solve(state).value == tabled.solve(state).value == exact(state)
    assert tabled.nodes < plain.nodes


@pytest.mark.parametrize("empty_capture", [True, False])
def test_a_cleared_solver_is_a_new_one_node_for_node(tmp_path, empty_capture):
    """What the opening proofs' leaf tests do (a cold prover, cleared instead of made anew): after ``clear``
    every proof, its node count and its counters are a new solver's, with or without tables, however much the
    solver proved before."""
    game = get_game("kalah", pits=4, seeds=3, empty_capture=empty_capture)
    loaded, _ = tables.build_kalah_tables(tmp_path, 4, empty_capture, 8, threads=1)
    for board_tables in (None, loaded.tables):
        reused = Solver(game, board_tables, megabytes=1)
        for state in positions(game, 6, seed=11):
            reused.solve(game.initial_state())                  # the table, the history and the counters filled
            reused.clear()
            assert reused.nodes == 0 and reused.bounds == {}
            fresh = Solver(game, board_tables, megabytes=1)
            for limit in (3000, 0):                               # stopped part way, then to the end
                again, first = reused.solve(state, node_limit=limit), fresh.solve(state, node_limit=limit)
                assert _untimed(again) == _untimed(first), game.to_text(state)
                assert reused.core.stats == fresh.core.stats


def _untimed(proof):  # type: ignore[no-untyped-def]
    return (proof.value, proof.move, proof.lower, proof.upper, proof.nodes, proof.stopped,
            [(test.gamma, test.result, test.nodes) for test in proof.tests])


def test_a_small_table_still_proves_exactly():
    """One bucket: nearly every entry is replaced, the values stay exact."""
    game = get_game("kalah", pits=4, seeds=2)
    solver = Solver(game, megabytes=0)
    assert len(solver.table) == 64
    assert solver.solve(game.initial_state()).value == negamax(game)(game.initial_state())


def test_a_stopped_proof_resumes_from_its_checkpoint(tmp_path: Path):
    game = get_game("kalah", pits=4, seeds=3)
    start = game.initial_state()
    fresh = Solver(game, megabytes=8)
    whole = fresh.solve(start)
    assert whole.is_exact and whole.value == 8
    first = Solver(game, megabytes=8)
    part = first.solve(start, node_limit=whole.nodes // 2)
    assert part.stopped and not part.is_exact and first.nodes < whole.nodes
    path = tmp_path / "proof.ckpt"
    save_checkpoint(path, first, {"game": game.spec})
    again, header = load_checkpoint(path, game, None, {"game": game.spec})
    assert header["nodes"] == first.nodes
    rest = again.solve(start)
    assert rest.value == whole.value and rest.is_exact
    assert rest.nodes < whole.nodes                            # the first half's work was kept
    assert again.principal_variation(start, rest.value)       # plays out to the proven value


@pytest.mark.parametrize("threads,resumed_on", [(1, 1), (2, 1), (2, 2)])
def test_checkpoints_on_the_way_do_not_change_the_value(tmp_path: Path, threads, resumed_on):
    """On one searcher or two (every searcher stopped for each save), and resumed onto one or two."""
    game = get_game("kalah", pits=4, seeds=3, empty_capture=False)
    path = tmp_path / "proof.ckpt"
    solver = Solver(game, megabytes=8, threads=threads)
    saves = []

    def checkpoint():
        save_checkpoint(path, solver, {"game": game.spec})
        saves.append(solver.nodes)

    proof = solver.solve(game.initial_state(), checkpoint=checkpoint, checkpoint_nodes=2_000)
    assert len(saves) >= 2 and proof.value == Solver(game, megabytes=8).solve(game.initial_state()).value
    resumed, _ = load_checkpoint(path, game, None, {"game": game.spec}, resumed_on)
    assert len(resumed.helpers) == resumed_on - 1
    assert resumed.solve(game.initial_state()).value == proof.value


def test_a_cancelled_proof_says_what_it_knows():
    game = get_game("kalah", pits=6, seeds=3)
    cancel = CancelToken()
    cancel.cancel()
    proof = Solver(game, megabytes=4).solve(game.initial_state(), cancel=cancel)
    assert proof.stopped and proof.value is None and proof.lower <= proof.upper


def test_a_checkpoint_of_another_proof_or_cut_short_is_refused(tmp_path: Path):
    game = get_game("kalah", pits=3, seeds=2)
    solver = Solver(game, megabytes=1)
    solver.solve(game.initial_state())
    path = tmp_path / "proof.ckpt"
    save_checkpoint(path, solver, {"game": game.spec})
    with pytest.raises(CheckpointError, match="kalah:pits=4"):
        load_checkpoint(path, game, None, {"game": "kalah:pits=4,seeds=3"})
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(CheckpointError, match="cut short"):
        load_checkpoint(path, game, None, {"game": game.spec})
    (tmp_path / "other").write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError, match="not a StoneCave"):
        load_checkpoint(tmp_path / "other", game, None, {})
    save_checkpoint(path, solver, {"game": game.spec})
    _header_with(path, format=1)                   # format 1: its table has no check words (refused by name)
    with pytest.raises(CheckpointError, match="another format"):
        load_checkpoint(path, game, None, {"game": game.spec})



def _header_with(path: Path, **changes) -> None:
    """Rewrite the checkpoint at ``path`` with its JSON header changed (the table kept)."""
    import json

    from ai.kalah_solver import MAGIC
    data = path.read_bytes()
    size = int.from_bytes(data[len(MAGIC):len(MAGIC) + 8], "little")
    start = len(MAGIC) + 8
    header = json.loads(data[start:start + size])
    header.update(changes)
    raw = json.dumps(header).encode()
    path.write_bytes(MAGIC + len(raw).to_bytes(8, "little") + raw + data[start + size:])


def test_a_damaged_or_hostile_checkpoint_is_refused_in_one_message(tmp_path: Path):
    import os

    game = get_game("kalah", pits=3, seeds=2)
    solver = Solver(game, megabytes=1)
    solver.solve(game.initial_state())
    path = tmp_path / "proof.ckpt"
    save_checkpoint(path, solver, {"game": game.spec})
    good = path.read_bytes()
    again, _ = load_checkpoint(path, game, None, {"game": game.spec})
    assert bytes(again.table) == bytes(solver.table) and again.bounds == solver.bounds
    path.write_bytes(good + b"\0" * 64)                  # longer than its header says
    with pytest.raises(CheckpointError, match="too long"):
        load_checkpoint(path, game, None, {"game": game.spec})
    for changes, words in (({"bounds": [["x", 1, 2, None]]}, "bounds"), ({"bounds": {"a": 1}}, "bounds"),
                           ({"bounds": [[[1, 2], 5, -5, None]]}, "bounds"), ({"table_bytes": 100}, "table size"),
                           ({"table_bytes": "1"}, "table size"), ({"format": 99}, "another format")):
        path.write_bytes(good)
        _header_with(path, **changes)
        with pytest.raises(CheckpointError, match=words):
            load_checkpoint(path, game, None, {"game": game.spec})
    path.write_bytes(good[:30] + b"{not json" + good[39:])
    with pytest.raises(CheckpointError, match="damaged"):
        load_checkpoint(path, game, None, {"game": game.spec})
    folder = tmp_path / "folder.ckpt"
    folder.mkdir()
    with pytest.raises(CheckpointError, match="folder"):
        load_checkpoint(folder, game, None, {})
    device = tmp_path / "zero.ckpt"
    device.symlink_to("/dev/zero")
    with pytest.raises(CheckpointError, match="device"):
        load_checkpoint(device, game, None, {})
    fifo = tmp_path / "pipe.ckpt"
    os.mkfifo(fifo)                                      # no writer: the old open() waited for ever
    with pytest.raises(CheckpointError, match="FIFO"):
        load_checkpoint(fifo, game, None, {})


def test_a_loaded_table_is_a_copy_and_a_new_one_belongs_to_no_file(tmp_path: Path):
    from guarded import binary

    game = get_game("kalah", pits=3, seeds=2)
    fresh = Solver(game, megabytes=1)
    assert len(fresh.table) == table_bytes(1) and not any(bytes(fresh.table[:4096]))
    with pytest.raises(ValueError, match="at least one byte"):
        binary.anonymous_buffer(0)
    fresh.solve(game.initial_state())
    path = tmp_path / "proof.ckpt"
    save_checkpoint(path, fresh, {"game": game.spec})
    loaded, _ = load_checkpoint(path, game, None, {"game": game.spec})
    path.write_bytes(b"x" * path.stat().st_size)         # the file rewritten under a running proof
    assert bytes(loaded.table) == bytes(fresh.table)
    assert loaded.solve(game.initial_state()).value == fresh.solve(game.initial_state()).value


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="reads the mapping's flags from Linux's /proc")
def test_a_new_table_is_private_memory_marked_for_huge_pages():
    # A shared anonymous mapping (mmap's default) is shared memory, which gets no huge pages: every probe of
    # a 1 GB table then missed the TLB, and the board prover ran at half speed on two searchers.
    import ctypes

    table = Solver(get_game("kalah", pits=6, seeds=4), megabytes=64).table
    start = ctypes.addressof(ctypes.c_char.from_buffer(table))
    mapping, flags = None, None
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5:
            low, high = (int(part, 16) for part in fields[0].split("-"))
            mapping = fields if low <= start < high else None
        elif mapping is not None and fields[0] == "VmFlags:":
            flags = fields[1:]
            break
    assert mapping is not None and flags is not None, "the table's mapping is not in /proc/self/smaps"
    assert mapping[1].endswith("p"), f"the table is a shared mapping ({mapping[1]}), not the process's own"
    assert "hg" in flags, f"the table is not marked for huge pages (VmFlags {' '.join(flags)})"


def test_the_plan_sizes():
    assert planned_table_seeds(get_game("kalah", pits=6, seeds=4)) == 20
    assert planned_table_seeds(get_game("kalah", pits=4, seeds=3)) == 10
    assert default_megabytes(get_game("kalah", pits=6, seeds=4), 24_000) == 1024
    six_five = get_game("kalah", pits=6, seeds=5)
    assert default_megabytes(six_five, 24_000) == 8192 and default_megabytes(six_five, 8_000) == 3200
    assert planned_table_seeds(six_five, 24_000) == 28                 # 5.6 GB: as Kalah(6,5) was proved
    assert planned_table_seeds(six_five, 8_000) == 25                  # a quarter of a smaller machine
    assert planned_table_seeds(get_game("kalah", pits=6, seeds=4), 8_000) == 20   # up to 48 seeds: the machine
    assert default_megabytes(get_game("kalah", pits=3, seeds=2), 24_000) == 16
    assert table_bytes(1024) == 1 << 30


# -- two searchers on one table --------------------------------------------------------------------------------


@pytest.mark.parametrize("empty_capture", [True, False])
@pytest.mark.parametrize("pits,seeds", [(2, 4), (3, 3), (4, 2), (5, 1)])
def test_two_searchers_prove_minimaxs_values_and_moves(pits, seeds, empty_capture):
    """The tests run at once on two searchers sharing a table (and a test whose answer the other's implies is
    stopped): the values and moves are still plain minimax's, from the start and part way."""
    game = get_game("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture)
    exact = negamax(game)
    for state in positions(game, 8, seed=pits * 7 + seeds):
        solver = Solver(game, megabytes=1, threads=2)
        proof = solver.solve(state, hint_depth=6, hint_nodes=500)
        assert proof.is_exact and proof.value == exact(state), game.to_text(state)
        assert move_value(game, exact, state, proof.move) == proof.value
        assert solver.nodes == sum(s.nodes for s in [solver.core] + solver.helpers) == proof.nodes


def test_two_searchers_work_on_a_kalah_6_3_proof_at_once():
    """On a proof long enough to overlap, both searchers search (each has nodes) and the tests they ran are the
    proof's; the value is the one searcher's."""
    game = get_game("kalah", pits=6, seeds=3)
    state = game.apply(game.initial_state(), 1)
    one = Solver(game, megabytes=16).solve(state)
    solver = Solver(game, megabytes=16, threads=2)
    two = solver.solve(state)
    assert two.value == one.value and two.is_exact
    assert solver.core.nodes > 0 and solver.helpers[0].nodes > 0
    assert len(two.tests) >= 2 and two.lower == two.upper == two.value


@pytest.mark.parametrize("threads", [1, 2])
def test_the_tests_running_are_named_while_they_run_and_none_after(threads):
    """``Solver.testing`` (what ``stonecave solve``'s line every 30 s says within a long test): while a test runs
    it holds that test's value, stores included; after the proof it is empty."""
    game = get_game("kalah", pits=6, seeds=3)
    state = game.apply(game.initial_state(), 1)
    solver = Solver(game, megabytes=16, threads=threads)
    seen: list[list[int]] = []

    class Watched:
        def __init__(self, searcher):  # type: ignore[no-untyped-def]
            self.searcher = searcher

        def test(self, board, gamma, flag, limit):  # type: ignore[no-untyped-def]
            seen.append(list(solver.testing))
            return self.searcher.test(board, gamma, flag, limit)

        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(self.searcher, name)

    solver.core = Watched(solver.core)
    solver.helpers = [Watched(helper) for helper in solver.helpers]
    proof = solver.solve(state)
    stores = board_of(game, state)[1]
    assert proof.is_exact and seen and solver.testing == []
    tested = {test.gamma for test in proof.tests}
    assert all(values for values in seen)
    assert tested <= {value for values in seen for value in values}, (tested, seen)
    assert all(value - stores in range(-36, 37) for values in seen for value in values)  # stores included


def test_an_entry_that_does_not_match_its_check_is_never_read():
    """Threads share the table without locks: an entry torn by two writers at once fails its check word and is
    not read (no bound, no move), and a proof on such a table is still exact."""
    game = get_game("kalah", pits=4, seeds=3)
    start = game.initial_state()
    solver = Solver(game, megabytes=1)
    value = solver.solve(start).value
    board, _ = board_of(game, start)
    assert solver.core.bounds(board) is not None
    table = memoryview(solver.table).cast("B")
    for at in range(12, len(table), 16):               # each entry's lower bound: its second word changed
        table[at] = (table[at] + 1) & 0xFF
    assert solver.core.bounds(board) is None
    solver.bounds.clear()
    assert solver.solve(start).value == value

