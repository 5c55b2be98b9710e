"""The first use's second stage: after the first-use set (0..14 seeds) the background build goes on to the bigger
set a game's Strongest level plays best with (Kalah and Oware: 0..20 seeds), the engines playing with the first set
meanwhile; it is skipped where it does not fit; a search never waits for a set that grew on disk.  Small budgets
and temporary folders (the suite turns the second stage off everywhere else: tests/conftest.py)."""
from __future__ import annotations

import dataclasses
import os
import threading
import time

import pytest

import ai.core
from ai import tables
from ai.search import PVSEngine
from ai.table_loading import tables_by
from ai.tables import games as table_games
from rules import get_game
from rules.oware import OwareState

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the tables are built by the compiled core")

SMALL_FIRST = 100_000      # Oware 0..7 seeds
SMALL_GROWN = 1_000_000    # Oware 0..10 seeds


@pytest.fixture
def grown(monkeypatch):
    """The product's later stages back on: as shipped, or every game growing to ``budget`` bytes in one stage."""
    def turn_on(budget: int | None = None) -> None:
        for shipped in (table_games.KALAH, table_games.OWARE):
            kind = shipped if budget is None else dataclasses.replace(shipped, grown_bytes=budget, grown_steps=())
            monkeypatch.setitem(table_games.TABLE_GAMES, shipped.name, kind)
        tables.auto_seeds.cache_clear()

    monkeypatch.delenv(tables.ENV, raising=False)
    tables.forget()
    yield turn_on
    for build in list(tables._builds.values()):
        build.done.wait(120)
    tables.configure(None)
    tables.forget()
    tables.auto_seeds.cache_clear()


def watch_stages(monkeypatch, key, priorities: list[int] | None = None) -> list[tuple[int, int | None]]:
    """Each stage the background build of ``key`` starts: (its seeds, the top of the set in memory then); with
    ``priorities``, also the build thread's scheduling priority at each (where the system has one)."""
    seen: list[tuple[int, int | None]] = []
    real = tables.build_claimed

    def watched(folder, variant, empty_capture, seeds, *args, **kwargs):
        seen.append((seeds, tables._cache[key].top if key in tables._cache else None))
        if priorities is not None and hasattr(os, "getpriority"):
            priorities.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return real(folder, variant, empty_capture, seeds, *args, **kwargs)

    monkeypatch.setattr(tables, "build_claimed", watched)
    return seen


def test_kalah_grows_from_the_first_use_set_to_twenty_seeds_and_oware_by_twenty_to_twenty_two(grown):
    grown()
    for game, stages, budget in ((get_game("kalah"), (14, 20), table_games.GROWN_BYTES),
                                 (get_game("kalah", empty_capture=False), (14, 20), table_games.GROWN_BYTES),
                                 (get_game("oware"), (14, 20, 22), table_games.OWARE_GROWN_BYTES)):
        assert tables.first_use_stages(game) == stages
        variant, last = tables.variant_of(game), stages[-1]
        assert sum(variant.layer_size(s) for s in range(last + 1)) <= budget      # the biggest set that fits
        assert sum(variant.layer_size(s) for s in range(last + 2)) > budget
    small = get_game("kalah", pits=3, seeds=2)           # 12 seeds: the first-use set holds the whole game
    assert tables.first_use_stages(small) == (12,)
    assert tables.first_use_stages(get_game("hus")) == ()


def test_tables_build_without_seeds_builds_the_set_the_first_use_grows_to(grown):
    from game.tables_command import build_seeds

    grown()
    assert build_seeds(get_game("kalah")) == 20
    assert build_seeds(get_game("oware")) == 22
    assert build_seeds(get_game("kalah", pits=4)) == max(tables.auto_seeds(4, 32, tables.FULL_BYTES),
                                                          tables.auto_seeds(4, 32, table_games.GROWN_BYTES))


def test_status_shows_every_layer_there_is(tmp_path, capsys):
    from game.cli import main

    tables.build_oware_tables(tmp_path, 9, threads=1)
    assert main(["tables", "status", "oware", "--folder", str(tmp_path)]) == 0
    assert "every board of 0..9 seeds" in capsys.readouterr().out
    assert main(["tables", "status", "oware", "--seeds", "5", "--folder", str(tmp_path)]) == 0
    assert "every board of 0..5 seeds" in capsys.readouterr().out


def test_the_first_use_goes_on_to_the_bigger_set_and_plays_with_the_first_meanwhile(grown, tmp_path, monkeypatch):
    grown(SMALL_GROWN)
    monkeypatch.setattr(tables, "AUTO_BYTES", SMALL_FIRST)
    tables.auto_seeds.cache_clear()
    game = get_game("oware")
    key = (tmp_path, "oware", 0)
    priorities: list[int] = []
    in_memory_at_each_stage = watch_stages(monkeypatch, key, priorities)
    tables.configure(tmp_path)
    engine = PVSEngine(game, time=None, depth=2, tables=True)
    engine.search(game.initial_state())
    build = tables._builds[key]
    assert build.stages == (7, 10)
    assert build.done.wait(120) and build.error is None and build.skipped is None and build.built_here
    # the second stage started with the first-use set in memory: the engines played with it meanwhile
    assert in_memory_at_each_stage[-1] == (10, 7)
    if priorities:                                           # Linux: the second stage yields to everything else
        assert priorities[-1] == 19 >= priorities[0]
    assert not tables.progress_path(tmp_path, tables.oware_variant()).exists()
    engine.search(game.initial_state())
    assert engine.tables is not None and engine.tables.top == 10
    assert tables.load_oware_tables(tmp_path).top == 10      # on disk, verified


def test_a_step_between_is_a_stage_of_its_own_and_plays_before_the_last(grown, tmp_path, monkeypatch):
    """Oware's first use goes 0..14, 0..20, 0..22: here 0..7, 0..9, 0..10.  The middle set is in memory, playing,
    while the last is built."""
    variant = tables.oware_variant()
    step = sum(variant.layer_size(seeds) for seeds in range(10))           # 0..9 fits, 0..10 does not
    monkeypatch.setitem(table_games.TABLE_GAMES, "oware", dataclasses.replace(
        table_games.OWARE, grown_bytes=SMALL_GROWN, grown_steps=(step, SMALL_GROWN * 10)))
    monkeypatch.setattr(tables, "AUTO_BYTES", SMALL_FIRST)
    tables.auto_seeds.cache_clear()
    game = get_game("oware")
    assert tables.first_use_stages(game) == (7, 9, 10)   # a step at or past the last stage is no stage
    key = (tmp_path, "oware", 0)
    in_memory = watch_stages(monkeypatch, key)
    tables.configure(tmp_path)
    engine = PVSEngine(game, time=None, depth=2, tables=True)
    engine.search(game.initial_state())
    build = tables._builds[key]
    assert build.done.wait(120) and build.error is None and build.skipped is None
    assert [seeds for seeds, _ in in_memory] == [7, 9, 10] and in_memory[1:] == [(9, 7), (10, 9)]
    engine.search(game.initial_state())
    assert engine.tables is not None and engine.tables.top == 10


def test_the_second_stage_is_skipped_where_the_disk_would_fill(grown, tmp_path, monkeypatch):
    grown(SMALL_GROWN)
    monkeypatch.setattr(tables, "AUTO_BYTES", SMALL_FIRST)
    tables.auto_seeds.cache_clear()
    monkeypatch.setattr(tables, "free_disk", lambda folder: tables.GROWN_DISK_LEFT + 1000)
    tables.configure(tmp_path)
    game = get_game("oware")
    PVSEngine(game, time=None, depth=2, tables=True).search(game.initial_state())
    build = tables._builds[(tmp_path, "oware", 0)]
    assert build.done.wait(120) and build.error is None
    assert build.skipped is not None and "8..10" in build.skipped and "must stay free" in build.skipped
    assert tables.load_oware_tables(tmp_path).top == 7      # the first-use set is kept and plays


def test_a_later_stage_is_checked_also_when_the_first_use_set_was_on_disk_already(grown, tmp_path, monkeypatch):
    """A player's second session: the first-use set is on disk, so the build's only stage is the bigger set; it is
    still a later stage (the room check, the lowest priority), not built as if it were the first-use set."""
    grown(SMALL_GROWN)
    monkeypatch.setattr(tables, "AUTO_BYTES", SMALL_FIRST)
    tables.auto_seeds.cache_clear()
    tables.build_oware_tables(tmp_path, 7, threads=1)      # the first session's first-use set
    monkeypatch.setattr(tables, "free_disk", lambda folder: tables.GROWN_DISK_LEFT + 1000)
    tables.configure(tmp_path)
    game = get_game("oware")
    PVSEngine(game, time=None, depth=2, tables=True).search(game.initial_state())
    build = tables._builds[(tmp_path, "oware", 0)]
    assert build.stages == (10,)
    assert build.done.wait(120) and build.error is None
    assert build.skipped is not None and "8..10" in build.skipped and "must stay free" in build.skipped
    assert tables.load_oware_tables(tmp_path).top == 7


def test_a_search_does_not_wait_for_a_set_that_grew_on_disk(grown, tmp_path, monkeypatch):
    """Another process finished a bigger set: this one loads it beside its searches, which go on with the set in
    memory until the load is done (loading 226 MB would take a move's time)."""
    game = get_game("oware")
    tables.build_oware_tables(tmp_path, 7, threads=1)
    monkeypatch.setenv(tables.ENV, str(tmp_path))
    assert tables_by(game).top == 7                          # loaded and cached
    tables.build_oware_tables(tmp_path, 9, threads=1)        # "another process" adds layers 8..9
    assert tables.has_grown(game)
    gate = threading.Event()
    real = tables.tables_for

    def slow(game, reload=True):
        if reload:
            gate.wait(30)                                    # the load takes its time
        return real(game, reload)

    monkeypatch.setattr(tables, "tables_for", slow)
    started = time.perf_counter()
    now = tables_by(game, by=time.perf_counter() + 0.05)     # a timed search: answered with what is in memory
    assert now is not None and now.top == 7 and time.perf_counter() - started < 5
    gate.set()
    assert tables_by(game).top == 9                          # an untimed one waits for the load: the bigger set
    assert not tables.has_grown(game)


def test_table_seeds_measures_a_smaller_set_against_a_bigger_one_in_the_same_folder(tmp_path, monkeypatch):
    """``pvs:table_seeds=N`` (how the SPRT of the second stage was run): only the layers 0..N are used, the set in
    memory is shared by every engine asking for N or more, and a cut is loaded once."""
    from ai import registry

    tables.build_oware_tables(tmp_path, 9, threads=1)
    monkeypatch.setenv(tables.ENV, str(tmp_path))
    tables.forget()
    try:
        game = get_game("oware")
        whole = registry.make_engine(game, "pvs:depth=2,tables=true")
        cut = registry.make_engine(game, "pvs:depth=2,tables=true,table_seeds=7")
        roomy = registry.make_engine(game, "pvs:depth=2,tables=true,table_seeds=30")
        for engine in (whole, cut, roomy):
            engine.search(game.initial_state())               # an untimed search waits for its tables
        assert (whole.tables.top, cut.tables.top, roomy.tables.top) == (9, 7, 9)
        assert roomy.tables is whole.tables                  # nothing to cut: the one set in memory
        again = registry.make_engine(game, "pvs:depth=2,tables=true,table_seeds=7")
        again.search(game.initial_state())
        assert again.tables is cut.tables                    # loaded once
        # the cut shares the layers in memory: nothing is read again, so the search that asks never waits on disk
        from guarded import binary

        def no_reading(*args, **kwargs):  # type: ignore[no-untyped-def]
            raise AssertionError("a cut read a layer again")

        monkeypatch.setattr(binary, "read_binary", no_reading)
        fewer = registry.make_engine(game, "pvs:depth=2,tables=true,table_seeds=4")
        fewer.search(game.initial_state())
        assert fewer.tables.top == 4
        for own, other in (((0, 0, 1, 0, 2, 0), (0, 1, 0, 0, 0, 0)), ((1, 0, 0, 0, 0, 0), (0, 0, 0, 2, 0, 1))):
            assert fewer.tables.lookup(own, other) == whole.tables.lookup(own, other)
        # a board of 8 seeds: the cut set does not hold it, the whole set answers it exactly
        state = OwareState((0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0), (20, 20), 0)
        assert whole.search(state).exhaustive and not cut.search(state).exhaustive
    finally:
        tables.forget()
