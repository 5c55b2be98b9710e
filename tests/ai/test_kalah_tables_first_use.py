"""The Kalah endgame tables' first use: the Strongest preset asks for them, the first search starts building the
first-use set in the background (one build per variant and folder, across processes, its progress on disk),
the engine plays without them meanwhile and with them once they are built.  Small variants, temporary folders."""
from __future__ import annotations

import os
import sys
import time

import pytest

import ai.core
from ai import registry, tables
from ai.search import PVSEngine
from rules import get_game

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the tables are built by the compiled core")


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    monkeypatch.delenv(tables.ENV, raising=False)
    tables.forget()
    yield
    for build in list(tables._builds.values()):
        build.done.wait(60)
    tables.configure(None)
    tables.forget()


def test_the_first_use_set_is_the_largest_that_fits_its_budget():
    for pits in (3, 4, 6, 8):
        seeds = tables.auto_seeds(pits)
        assert sum(tables.layer_size(pits, s) for s in range(seeds + 1)) <= tables.AUTO_BYTES
        assert sum(tables.layer_size(pits, s) for s in range(seeds + 2)) > tables.AUTO_BYTES
    assert tables.auto_seeds(6) == 14                      # 9.7 MB: a few seconds on one core
    assert tables.auto_seeds(6, None, tables.FULL_BYTES) == 18   # what `tables build` makes: 86.5 MB
    assert tables.auto_seeds(3, 18) == 18                  # never more seeds than the game has


def test_the_strongest_kalah_preset_uses_the_tables():
    game = get_game("kalah")
    assert registry.make_engine(game, registry.presets(game)["Strongest"]).wants_tables


def test_the_first_search_builds_them_in_the_background_and_the_next_uses_them(tmp_path):
    game = get_game("kalah", pits=3, seeds=2)              # 12 seeds: the whole game fits the first-use set
    tables.configure(tmp_path)
    engine = PVSEngine(game, time=None, depth=3, tables=True)
    assert engine.tables is None                           # nothing built yet, and nothing started
    assert not tables._builds
    first = engine.search(game.initial_state())            # plays at once, without tables
    assert first.move in game.legal_moves(game.initial_state())
    build = tables._builds[(tmp_path, 3, True)]
    assert build.done.wait(60) and build.error is None and build.built_here
    assert not tables.progress_path(tmp_path, 3, True).exists()    # the lock is released
    second = engine.search(game.initial_state())
    assert engine.tables is not None and engine.tables.top == 12
    # the scores stored without tables were dropped: only the root's entry, proven at once, is left
    assert second.info["tt_entries"] == 1 < first.info["tt_entries"]
    result = engine.search(game.initial_state())
    assert result.exhaustive                               # the start position is in the tables: exact
    assert tables.load_kalah_tables(tmp_path, 3, True).top == 12   # on disk, verified
    again = PVSEngine(game, time=None, depth=3, tables=True)
    again.search(game.initial_state())
    assert tables._builds[(tmp_path, 3, True)] is build    # one build per variant and folder


def test_a_folder_named_by_the_environment_is_only_read(tmp_path, monkeypatch):
    monkeypatch.setenv(tables.ENV, str(tmp_path))
    tables.configure(tmp_path / "other")
    game = get_game("kalah", pits=3, seeds=2)
    PVSEngine(game, time=None, depth=2, tables=True).search(game.initial_state())
    assert not tables._builds and not list(tmp_path.iterdir())


def test_one_build_at_a_time_across_processes_and_a_dead_one_is_taken_over(tmp_path, capsys):
    from game.cli import main

    other = tables.BuildLock(tmp_path, 3, True, 12)
    assert other.claim()                                   # "another process" is building
    other.report(9, 50, 100, force=True)
    progress = tables.read_progress(tmp_path, 3, True)
    assert progress.layer == 9 and progress.target == 12 and not progress.is_stale
    assert "9-seed layer is 50% done" in progress.describe()
    assert not tables.BuildLock(tmp_path, 3, True, 12).claim()
    assert tables.build_claimed(tmp_path, 3, True, 12) is None
    assert main(["tables", "status", "kalah:pits=3,seeds=2", "--folder", str(tmp_path)]) == 0
    assert "9-seed layer is 50% done" in capsys.readouterr().out
    assert main(["tables", "build", "kalah:pits=3,seeds=2", "--folder", str(tmp_path)]) == 1
    assert "another build is running" in capsys.readouterr().err

    old = time.time() - tables.STALE_SECONDS - 5           # the other process died: its file goes stale
    os.utime(tables.progress_path(tmp_path, 3, True), (old, old))
    assert tables.read_progress(tmp_path, 3, True).is_stale
    assert main(["tables", "build", "kalah:pits=3,seeds=2", "--folder", str(tmp_path)]) == 0
    assert "every board of 0..12 seeds" in capsys.readouterr().out   # the first-use set, taken over
    assert tables.read_progress(tmp_path, 3, True) is None


def test_an_engine_picks_up_tables_another_process_finished(tmp_path):
    game = get_game("kalah", pits=3, seeds=2)
    tables.configure(tmp_path)
    other = tables.BuildLock(tmp_path, 3, True, 12)
    assert other.claim()
    engine = PVSEngine(game, time=None, depth=2, tables=True)
    engine.search(game.initial_state())
    build = tables._builds[(tmp_path, 3, True)]
    assert build.done.wait(60) and not build.built_here   # it found the other build running and left it
    tables.build_kalah_tables(tmp_path, 3, True, 12)       # the other process builds ...
    engine.search(game.initial_state())
    assert engine.tables is None                           # ... and is not done yet
    other.release()
    engine.search(game.initial_state())
    assert engine.tables is not None and engine.tables.top == 12


def test_the_openspiel_bench_builds_the_tables_before_the_games(tmp_path, monkeypatch):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "bench_openspiel.py"
    spec = importlib.util.spec_from_file_location("bench_openspiel_under_test", path)
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, bench)        # its dataclasses look their module up
    spec.loader.exec_module(bench)
    game = get_game("kalah", pits=3, seeds=2)
    monkeypatch.setenv(tables.ENV, "")
    bench.prepare_tables(game, "pvs:time=1", tmp_path, 1)          # no tables asked for: nothing built
    assert not list(tmp_path.iterdir()) and not os.environ[tables.ENV]
    bench.prepare_tables(game, "pvs:time=1,tables=true", tmp_path, 1)
    assert tables.load_kalah_tables(tmp_path, 3, True).top == 12
    assert os.environ[tables.ENV] == str(tmp_path)                # what the game processes read
