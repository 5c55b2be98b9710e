"""Oware endgame tables: every entry of the small layers equals a pure-Python reference (value iteration by
whole sweeps over the moves of ``rules.oware``), bigger layers satisfy the Bellman equation over the rules'
moves, files are verified (a corrupt, truncated or mislabelled layer is reported and never used), and a search
with tables scores a table position from the tables.  Tables are small and built in a temporary folder."""
from __future__ import annotations

import itertools
import random

import numpy
import pytest

import ai.core
from ai import tables
from ai.evaluators import WIN
from rules import get_game
from rules.oware import OwareState

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the tables are built by the compiled core")

TOP = 11
"""The layers the module's tests build (0..11 seeds: 1.35 M boards, about a second on two cores)."""


def boards(seeds):
    """Every board of ``seeds`` seeds in the 12 houses (the mover's houses 0..5 first)."""
    for cuts in itertools.combinations(range(seeds + 11), 11):
        edges = (-1,) + cuts + (seeds + 11,)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(12))


def rules_for(grand_slam="no-capture"):
    """The rules without the no-capture limit: the tables' game (a fresh state's moves never repeat a
    position; repetition and the limit are the search's business)."""
    return get_game("oware", grand_slam=grand_slam, no_capture_limit=0)


def moves_by_rules(game, board):
    """(end margin or None, captured, the child's board seen from its mover) for each legal move of South on
    ``board`` (stores 0: with at most a few dozen seeds on the board, no majority can end the game), or the
    board's own end margin when it is over."""
    state = OwareState(board, (0, 0), 0)
    if game.is_terminal(state):
        return game.outcome(state).margin(0)
    result = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        captured = child.stores[0]
        if game.is_terminal(child):
            result.append((game.outcome(child).margin(0), captured, None))
        else:
            result.append((None, captured, child.pits[6:] + child.pits[:6]))
    return result


def reference_values(game, top):
    """Every board's value up to ``top`` seeds, by value iteration from 0 in whole (Jacobi) sweeps: after k
    sweeps a value is exactly the game cut after k moves with 0 at the cut; stop when a sweep changes
    nothing.  An independent method from the core's (in place, dirty boards only) and the rules' moves."""
    values = {}
    for seeds in range(top + 1):
        layer = list(boards(seeds))
        index = {board: i for i, board in enumerate(layer)}
        fixed, moving = [], []           # per board: the best fixed option, and the same-layer children
        for board in layer:
            options = moves_by_rules(game, board)
            if isinstance(options, int):
                fixed.append(options)
                moving.append(())
                continue
            fixed.append(max((end if end is not None else captured - values[child]
                              for end, captured, child in options if end is not None or captured), default=-99))
            moving.append(tuple(index[child] for end, captured, child in options if end is None and not captured))
        size = len(layer)
        children = numpy.full((size, 6), size)            # index `size`: no child (its value is 99, so -99)
        for i, same in enumerate(moving):
            children[i, :len(same)] = same
        current = numpy.zeros(size + 1, dtype=numpy.int64)
        current[size] = 99
        while True:
            following = numpy.maximum(numpy.array(fixed), (-current[children]).max(axis=1))
            if numpy.array_equal(following, current[:size]):
                break
            current[:size] = following
        values.update(zip(layer, current[:size].tolist()))
    return values


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("oware-tables")
    loaded, built = tables.build_oware_tables(folder, TOP, threads=2)
    assert loaded.top == TOP and [layer.seeds for layer in built] == list(range(TOP + 1))
    assert all(layer.sweeps >= 2 for layer in built)       # at least one pass and the closing sweep
    return folder


def test_the_small_layers_equal_the_reference(folder):
    loaded = tables.load_oware_tables(folder)
    assert loaded.top == TOP and not loaded.problems
    reference = reference_values(rules_for(), 7)
    assert len(reference) == sum(tables.oware_variant().layer_size(s) for s in range(8))
    wrong = [(board, value, loaded.tables.lookup(board[:6], board[6:])) for board, value in reference.items()
             if loaded.tables.lookup(board[:6], board[6:]) != value]
    assert not wrong, wrong[:5]
    assert len(set(reference.values())) > 10                # margins of many sizes, both signs


@pytest.mark.parametrize("grand_slam", ["capture", "forbidden"])
def test_the_other_grand_slam_rules_equal_the_reference(tmp_path, grand_slam):
    loaded, _ = tables.build_oware_tables(tmp_path, 6, grand_slam=grand_slam, threads=2)
    reference = reference_values(rules_for(grand_slam), 5)
    assert all(loaded.tables.lookup(board[:6], board[6:]) == value for board, value in reference.items())
    if grand_slam == "capture":                              # the rule matters: some board differs from abapa's
        abapa = reference_values(rules_for(), 5)
        assert any(abapa[board] != value for board, value in reference.items())


def test_bigger_layers_satisfy_the_bellman_equation_over_the_rules_moves(folder):
    loaded = tables.load_oware_tables(folder)
    game = rules_for()
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        seeds = rng.randrange(9, TOP + 1)
        board = [0] * 12
        for _ in range(seeds):
            board[rng.randrange(12)] += 1
        board = tuple(board)
        options = moves_by_rules(game, board)
        if isinstance(options, int):
            expected = options
        else:
            expected = max(end if end is not None else captured - loaded.tables.lookup(child[:6], child[6:])
                           for end, captured, child in options)
            checked += 1
        assert loaded.tables.lookup(board[:6], board[6:]) == expected, board
    assert checked > 2500


def test_a_layer_is_reused_and_the_files_are_checked(folder):
    loaded, built = tables.build_oware_tables(folder, TOP)
    assert built == [] and loaded.top == TOP
    variant = tables.oware_variant()
    path = tables.variant_layer_path(folder, variant, 6)
    original = path.read_bytes()
    data = bytearray(original)
    try:
        data[tables.HEADER_BYTES + 100] ^= 0x04                 # one flipped bit in the entries
        path.write_bytes(data)
        loaded = tables.load_oware_tables(folder)
        assert loaded.top == 5
        assert any("checksum" in problem and path.name in problem for problem in loaded.problems)
        path.write_bytes(original[:-7])                          # a partial file
        loaded = tables.load_oware_tables(folder)
        assert loaded.top == 5 and any("truncated" in problem for problem in loaded.problems)
        path.write_bytes(original[:20])                          # shorter than its header
        assert tables.load_oware_tables(folder).top == 5
        other, _ = tables.build_oware_tables(folder, 6, grand_slam="capture")
        path.write_bytes(tables.variant_layer_path(folder, tables.oware_variant("capture"), 6).read_bytes())
        loaded = tables.load_oware_tables(folder)                # another variant's layer under this name
        assert loaded.top == 5 and "grand_slam=capture" in loaded.problems[0]
        kalah = tables.build_kalah_tables(folder, 2, True, 3)[0]
        path.write_bytes(tables.layer_path(folder, 2, True, 3).read_bytes())
        loaded = tables.load_oware_tables(folder)                # another game's
        assert loaded.top == 5 and "kalah" in loaded.problems[0] and kalah.top == 3
        path.unlink()                                            # a missing layer hides those above it
        loaded = tables.load_oware_tables(folder)
        assert loaded.top == 5 and "missing" in loaded.problems[0]
    finally:
        path.write_bytes(original)
    assert tables.load_oware_tables(folder).top == TOP


def test_the_variants_have_their_own_files_and_refuse_unknown_rules(tmp_path):
    assert tables.oware_variant().stem == "oware-abapa"
    assert tables.oware_variant("forbidden", skip_start=False).stem == "oware-slamforbidden-keepstart"
    assert tables.variant_of(get_game("oware", grand_slam="capture")) == tables.oware_variant("capture")
    with pytest.raises(ValueError, match="grand slam rules"):
        tables.oware_variant("sometimes")
    with pytest.raises(ValueError, match="another Oware variant"):
        core = ai.core.require().OwareCore(4, slam_captures=True)
        core.use_tables(tables.load_oware_tables(tmp_path).tables)


def test_the_first_use_set_is_about_ten_megabytes():
    variant = tables.oware_variant()
    seeds = tables.auto_seeds(variant)
    assert seeds == 14
    assert sum(variant.layer_size(s) for s in range(seeds + 1)) <= tables.AUTO_BYTES
    assert sum(variant.layer_size(s) for s in range(seeds + 2)) > tables.AUTO_BYTES
    assert tables.game_auto_seeds(get_game("oware", seeds=1)) == 12    # never more than the game's seeds


def test_the_strongest_oware_preset_uses_the_tables():
    from ai import registry

    game = get_game("oware")
    assert registry.make_engine(game, registry.presets(game)["Strongest"]).wants_tables


def table_score(game, loaded, state):
    """What the search must answer at a table position: the rules' moves, each ending move scored by the rules
    and every other child by the score houses and the child's table value (a proven result)."""
    from ai.evaluators import final_score

    mover = state.to_move
    best = None
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            score = final_score(game, child, mover)
        else:
            own, other = child.pits[6 * mover:6 * mover + 6], child.pits[6 - 6 * mover:12 - 6 * mover]
            margin = child.stores[mover] - child.stores[1 - mover] - loaded.tables.lookup(other, own)
            score = 0.0 if margin == 0 else (WIN + margin if margin > 0 else -WIN + margin)
        best = score if best is None else max(best, score)
    return best


def test_a_search_with_tables_scores_a_table_position_from_them(folder, monkeypatch):
    from ai.search import PVSEngine

    monkeypatch.setenv(tables.ENV, str(folder))
    tables.forget()
    try:
        game = get_game("oware")
        loaded = tables.load_oware_tables(folder)
        engine = PVSEngine(game, time=None, depth=4, tables=True)
        engine.search(game.initial_state())  # the tables load in the background; an untimed search waits for them
        assert engine.tables is not None and engine.tables.top == TOP
        rng = random.Random(3)
        searched = exact = 0
        while searched < 40:
            seeds = rng.randrange(4, TOP + 1)
            board = [0] * 12
            for _ in range(seeds):
                board[rng.randrange(12)] += 1
            south = rng.randrange(48 - seeds - 24, 25)           # neither side has a majority yet
            state = OwareState(tuple(board), (south, 48 - seeds - south), rng.randrange(2))
            if game.is_terminal(state):
                continue
            result = engine.search(state)
            assert result.exhaustive                             # every child is proven: depth 1 suffices
            assert result.score == table_score(game, loaded, state), game.to_text(state)
            mover = state.to_move
            own, other = state.pits[6 * mover:6 * mover + 6], state.pits[6 - 6 * mover:12 - 6 * mover]
            margin = state.stores[mover] - state.stores[1 - mover] + loaded.tables.lookup(own, other)
            # where no capture can reach a majority, that is exactly the stores plus the root's table value
            if max(state.stores) + seeds <= 24 or result.score == (WIN + margin if margin > 0 else
                                                                   -WIN + margin if margin < 0 else 0.0):
                exact += 1
            searched += 1
        assert exact >= 20
        without = PVSEngine(game, time=None, depth=4)
        assert without.tables is None
    finally:
        tables.forget()


def test_the_first_search_builds_the_oware_set_in_the_background(tmp_path, monkeypatch):
    from ai.search import PVSEngine

    monkeypatch.delenv(tables.ENV, raising=False)
    monkeypatch.setattr(tables, "AUTO_BYTES", 100_000)   # a small first-use set: 0..7 seeds
    tables.auto_seeds.cache_clear()
    tables.forget()
    tables.configure(tmp_path)
    try:
        game = get_game("oware")
        engine = PVSEngine(game, time=None, depth=2, tables=True)
        engine.search(game.initial_state())
        build = tables._builds[(tmp_path, "oware", 0)]
        assert build.done.wait(60) and build.error is None and build.built_here
        assert not tables.progress_path(tmp_path, tables.oware_variant()).exists()
        engine.search(game.initial_state())
        assert engine.tables is not None and engine.tables.top == 7
    finally:
        tables.configure(None)
        tables.forget()
        tables.auto_seeds.cache_clear()


def test_sowing_into_the_starting_house_follows_the_rules(tmp_path):
    """skip_start=false: 12 seeds or more also land in the house they left; the Bellman equation over the rules'
    moves holds on the 12-seed boards where that happens."""
    loaded, _ = tables.build_oware_tables(tmp_path, 12, skip_start=False, threads=2)
    game = get_game("oware", no_capture_limit=0, skip_start=False)
    rng = random.Random(5)
    for _ in range(300):
        board = [0] * 12
        big = rng.randrange(6)
        board[big] = 12 - rng.randrange(2)                  # 11 seeds: the start's own rule; 12: a full lap
        for _ in range(12 - board[big]):
            board[rng.randrange(12)] += 1
        board = tuple(board)
        options = moves_by_rules(game, board)
        expected = options if isinstance(options, int) else max(
            end if end is not None else captured - loaded.tables.lookup(child[:6], child[6:])
            for end, captured, child in options)
        assert loaded.tables.lookup(board[:6], board[6:]) == expected, board


def test_the_tables_command_builds_and_lists_oware(tmp_path, capsys):
    from game.cli import main

    assert main(["tables", "build", "oware", "--seeds", "6", "--folder", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "estimate:" in out and "passes" in out and "every board of 0..6 seeds" in out
    assert main(["tables", "status", "--folder", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "oware grand_slam=no-capture skip_start=true: every board of 0..6 seeds" in out
    assert "kalah pits=6 empty_capture=true: no tables" in out
    with pytest.raises(SystemExit, match="tables exist for kalah and oware, not hus"):
        main(["tables", "build", "hus", "--folder", str(tmp_path)])
