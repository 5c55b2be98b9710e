"""Running tournaments elsewhere and in steps: the same games on one process, a process pool and a local Dask
cluster; SPRT runs that stop at the same pair wherever they run; checkpoints that resume an interrupted run
without replaying its games; a Dask worker that dies mid-game; and the messages for each misuse.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from ai.base import EngineError
from ai.checkpoint import CheckpointError
from ai.cluster import DaskRunner, PoolRunner, import_distributed
from ai.sprt import H0, H1, SprtSettings
from ai.tournament import compare, main, play_game

SMALL = "kalah:pits=3,seeds=2"
PAIR = ("greedy", "random")  # fast, and different enough that the results are not all draws
DIE_MARKER = "STONECAVE_TEST_DIE_MARKER"


def outline(result):
    return [(r.index, r.opening, r.a_seat, r.winner, r.reason, r.scores, r.plies) for r in result.records]


def totals(result):
    return [(s.wins, s.draws, s.losses) for s in result.summaries()], result.pentanomial


# -- the same games everywhere -------------------------------------------------------------------------------------
def test_a_local_dask_cluster_plays_the_same_games_as_the_process_pool():
    options = dict(games=12, openings=2, seed=8)
    pool = compare(SMALL, *PAIR, jobs=2, **options)
    dask = compare(SMALL, *PAIR, jobs=2, cluster="local", **options)
    assert outline(dask) == outline(pool) and len(outline(pool)) == 12
    assert totals(dask) == totals(pool)
    assert pool.settings["runner"] == "2 processes"
    assert dask.settings["runner"] == "local Dask cluster of 2 workers"
    assert len({(r.scores, r.plies) for r in pool.records}) > 1  # the games differ from one another


def test_a_scheduler_address_runs_the_same_games():
    # --cluster tcp://HOST:PORT: the tournament connects to a scheduler it did not start (here one on this
    # machine, with two worker processes) and leaves it running.
    distributed = import_distributed()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://")
        remote = compare(SMALL, *PAIR, games=6, seed=3, cluster=address)
        again = compare(SMALL, *PAIR, games=6, seed=3, cluster=address)  # the scheduler is still up
        with distributed.Client(address) as client:
            assert len(client.nthreads()) == 2
    assert remote.settings["runner"] == f"Dask cluster at {address}"
    assert outline(remote) == outline(again) == outline(compare(SMALL, *PAIR, games=6, seed=3))


def test_an_sprt_stops_at_the_same_pair_on_one_process_on_a_pool_and_on_dask():
    settings = SprtSettings(0, 150)
    runs = [compare(SMALL, "alphabeta:depth=3", "random", games=400, openings=4, seed=2, sprt=settings, **where)
            for where in (dict(jobs=1), dict(jobs=2), dict(jobs=2, cluster="local"))]
    first = runs[0]
    assert first.sprt is not None and first.sprt.verdict == H1
    assert len(first.records) == 2 * first.sprt.pairs < 400  # stopped well before the cap, on a whole pair
    for other in runs[1:]:
        assert outline(other) == outline(first)
        assert other.sprt.llr == first.sprt.llr and other.pentanomial == first.pentanomial
    document = json.loads(first.to_json())
    assert document["sprt"]["verdict"] == "H1" and "H1 accepted" in document["sprt"]["verdict_text"]
    assert document["sprt"]["pentanomial"] == list(first.pentanomial)


def test_an_sprt_without_evidence_stops_at_the_cap_with_no_verdict():
    result = compare(SMALL, "random", "random", games=8, sprt=SprtSettings(0, 10))
    assert len(result.records) == 8 and result.sprt.pairs == 4 and result.sprt.verdict is None
    assert "no verdict" in result.table()
    with pytest.raises(ValueError, match="must be even"):
        compare(SMALL, "random", "random", games=7, sprt=SprtSettings(0, 10))


def test_equal_engines_are_not_declared_stronger():
    # The same engine on both sides: a sequential test with wide hypotheses accepts H0 (elo1 = 100 is far off).
    result = compare(SMALL, "random", "random", games=2000, sprt=SprtSettings(0, 100), seed=1)
    assert result.sprt.verdict == H0 and len(result.records) < 2000


# -- checkpoints and resuming -----------------------------------------------------------------------------------------
class Interrupt:
    """A progress hook that interrupts the run after ``after`` games, as Ctrl-C would."""

    def __init__(self, after: int) -> None:
        self.after = after

    def __call__(self, done, total, partial):
        if done >= self.after:
            raise KeyboardInterrupt


def _record_lines(path: Path) -> list[dict]:
    return [json.loads(line)["record"] for line in path.read_text().splitlines()[1:] if line.strip()]


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_run_resumes_from_its_checkpoint_to_the_same_totals(tmp_path, jobs):
    options = dict(games=10, openings=2, seed=4, jobs=jobs)
    whole = compare(SMALL, *PAIR, **options)
    path = tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):
        compare(SMALL, *PAIR, checkpoint=path, progress=Interrupt(after=4), **options)
    saved = _record_lines(path)
    assert 4 <= len(saved) < 10
    played_again: list[int] = []
    resumed = compare(SMALL, *PAIR, checkpoint=path, resume=True,
                      progress=lambda done, total, partial: played_again.append(partial.records[-1].index),
                      **options)
    assert outline(resumed) == outline(whole) and totals(resumed) == totals(whole)
    assert resumed.settings["resumed_games"] == len(saved)
    assert sorted(played_again) == sorted(set(range(10)) - {r["index"] for r in saved})  # nothing replayed
    assert sorted(r["index"] for r in _record_lines(path)) == list(range(10))  # each game once in the file


def test_a_torn_last_line_is_dropped_and_its_game_played_again(tmp_path):
    path = tmp_path / "run.jsonl"
    whole = compare(SMALL, *PAIR, games=6, checkpoint=path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])  # header, 3 games, half a 4th
    resumed = compare(SMALL, *PAIR, games=6, checkpoint=path, resume=True)
    assert outline(resumed) == outline(whole) and resumed.settings["resumed_games"] == 3
    assert sorted(r["index"] for r in _record_lines(path)) == list(range(6))


def test_a_resumed_sprt_reaches_the_same_verdict(tmp_path):
    options = dict(games=400, openings=4, seed=2, sprt=SprtSettings(0, 150))
    whole = compare(SMALL, "alphabeta:depth=3", "random", **options)
    path = tmp_path / "sprt.jsonl"
    with pytest.raises(KeyboardInterrupt):
        compare(SMALL, "alphabeta:depth=3", "random", checkpoint=path, progress=Interrupt(after=6), **options)
    resumed = compare(SMALL, "alphabeta:depth=3", "random", checkpoint=path, resume=True, **options)
    assert resumed.sprt.verdict == whole.sprt.verdict and resumed.sprt.llr == whole.sprt.llr
    assert outline(resumed) == outline(whole)


def test_checkpoint_misuse_is_refused_with_clear_messages(tmp_path):
    path = tmp_path / "run.jsonl"
    compare(SMALL, *PAIR, games=2, seed=1, checkpoint=path)
    with pytest.raises(CheckpointError, match="already exists; continue it with --resume"):
        compare(SMALL, *PAIR, games=2, seed=1, checkpoint=path)
    with pytest.raises(CheckpointError, match=r"another run: seed 1 \(now 2\)"):
        compare(SMALL, *PAIR, games=2, seed=2, checkpoint=path, resume=True)
    with pytest.raises(CheckpointError, match="engines greedy vs random"):
        compare(SMALL, "random", "greedy", games=2, seed=1, checkpoint=path, resume=True)
    with pytest.raises(CheckpointError, match="no checkpoint"):
        compare(SMALL, *PAIR, games=2, checkpoint=tmp_path / "missing.jsonl", resume=True)
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(CheckpointError, match="not a stonecave compare checkpoint"):
        compare(SMALL, *PAIR, games=2, checkpoint=other, resume=True)
    # A larger cap on resume is allowed: the first games are the same, the rest are new.
    longer = compare(SMALL, *PAIR, games=4, seed=1, checkpoint=path, resume=True)
    assert outline(longer)[:2] == outline(compare(SMALL, *PAIR, games=2, seed=1)) and len(longer.records) == 4
    # And a smaller one keeps only the games under it.
    shorter = compare(SMALL, *PAIR, games=2, seed=1, checkpoint=path, resume=True)
    assert outline(shorter) == outline(longer)[:2] and shorter.settings["resumed_games"] == 2


# -- Dask specifics ----------------------------------------------------------------------------------------------------
def play_or_die(task):
    """Kill the worker process the first time game 3 is played (a marker file remembers), else play it."""
    marker = Path(os.environ[DIE_MARKER])
    if task.index == 3 and not marker.exists():
        marker.write_text("died")
        os._exit(1)
    return play_game(task)


def test_a_worker_that_dies_loses_only_its_game_which_is_played_again(tmp_path, monkeypatch):
    marker = tmp_path / "died"
    monkeypatch.setenv(DIE_MARKER, str(marker))  # the worker processes inherit it
    whole = compare(SMALL, *PAIR, games=8, seed=6)
    survived = compare(SMALL, *PAIR, games=8, seed=6, jobs=2, cluster="local", play=play_or_die)
    assert marker.exists()  # a worker really died in game 3
    assert outline(survived) == outline(whole)


def test_a_pool_worker_that_dies_loses_only_its_game_which_is_played_again(tmp_path, monkeypatch):
    """Without Dask too: a killed pool worker (the OOM killer's way) used to leave the run waiting forever."""
    marker = tmp_path / "died"
    monkeypatch.setenv(DIE_MARKER, str(marker))
    whole = compare(SMALL, *PAIR, games=6, seed=6)
    survived = compare(SMALL, *PAIR, games=6, seed=6, jobs=2, play=play_or_die)
    assert marker.exists()  # a worker really died in game 3
    assert outline(survived) == outline(whole)


def square_or_die(number):
    """Kill the worker process the first time 3 is played (a marker file remembers), else square it."""
    marker = Path(os.environ[DIE_MARKER])
    if number == 3 and not marker.exists():
        marker.write_text("died")
        os._exit(1)
    return number * number


def test_a_game_submitted_after_a_worker_died_starts_the_fresh_pool_and_nothing_is_lost(tmp_path, monkeypatch):
    """The race the run above can lose: the pool is broken before the lost game comes back, and the next
    ``submit`` meets it first (the executor refuses new work at once)."""
    monkeypatch.setenv(DIE_MARKER, str(tmp_path / "died"))
    runner = PoolRunner(square_or_die, 2)
    try:
        runner.submit(3)
        broken = runner._pool
        deadline = time.monotonic() + 60
        while not broken._broken:  # the executor's own flag: set once it saw its worker die
            assert time.monotonic() < deadline, "the worker did not die"
            time.sleep(0.01)
        runner.submit(4)  # raised BrokenProcessPool
        assert runner._pool is not broken
        assert sorted(runner.next_record() for _ in range(2)) == [9, 16]
    finally:
        runner.close()


def always_die(task):
    """Kill the worker process every time game 1 is played."""
    if task.index == 1:
        os._exit(1)
    return play_game(task)


def test_a_game_that_always_kills_its_pool_worker_stops_the_run_with_a_message():
    with pytest.raises(EngineError, match=r"died \d+ times with games? (\d+, )*1\b"):
        compare(SMALL, *PAIR, games=4, seed=6, jobs=2, play=always_die)


def test_without_dask_the_message_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # makes the import fail, as if not installed
    with pytest.raises(EngineError, match=r'pip install -e "\.\[cluster\]"'):
        import_distributed()
    with pytest.raises(EngineError, match="needs Dask"):
        DaskRunner(play_game, "local", 2)


def test_an_unreachable_scheduler_is_reported(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("ai.cluster.CONNECT_TIMEOUT", 1.0)
    argv = ["--game", SMALL, "--engine", "random", "--engine", "random", "--games", "2", "--quiet",
            "--checkpoint", str(tmp_path / "run.jsonl")]
    code = main([*argv, "--cluster", "tcp://127.0.0.1:9"])
    assert code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err
    # The checkpoint it left holds no game, so the same command on a pool may reuse the file.
    assert main(argv) == 0 and len(_record_lines(tmp_path / "run.jsonl")) == 2


# -- the command ------------------------------------------------------------------------------------------------------
def test_the_command_runs_an_sprt_and_writes_its_verdict(tmp_path, capsys):
    out = tmp_path / "sprt.json"
    code = main(["--game", SMALL, "--engine", "alphabeta:depth=3", "--engine", "random", "--openings", "4",
                 "--seed", "2", "--sprt", "elo0=0,elo1=150", "--games", "400", "--json", str(out)])
    captured = capsys.readouterr()
    assert code == 0
    assert "SPRT elo0=0 elo1=150 alpha=0.05 beta=0.05 (logistic Elo)" in captured.out
    assert "H1 accepted: A is stronger than B by at least elo1=150" in captured.out
    assert "LLR +" in captured.err and "[-2.94, +2.94]" in captured.err  # the live line
    document = json.loads(out.read_text())
    assert document["sprt"]["verdict"] == "H1" and document["sprt"]["llr"] >= document["sprt"]["upper_bound"]


def test_the_command_runs_an_sprt_in_normalized_elo(tmp_path, capsys):
    out = tmp_path / "sprt.json"
    code = main(["--game", SMALL, "--engine", "alphabeta:depth=3", "--engine", "random", "--openings", "4",
                 "--seed", "2", "--sprt", "elo0=0,elo1=100,model=normalized", "--games", "400", "--quiet",
                 "--json", str(out)])
    assert code == 0 and "(normalized Elo)" in capsys.readouterr().out
    document = json.loads(out.read_text())["sprt"]
    assert document["elo_model"] == "normalized" and document["verdict"] == "H1"


@pytest.mark.parametrize("argv, message", [
    (["--sprt", "elo0=0"], "needs elo1"),
    (["--sprt", "elo0=5,elo1=1"], "elo0 must be below elo1"),
    (["--sprt", "elo0=0,elo1=10", "--games", "7"], "cap must be even"),
    (["--checkpoint", "a.jsonl", "--resume", "a.jsonl"], "not allowed with argument"),
    (["--checkpoint", "/nonexistent/dir/run.jsonl"], "does not exist"),
    (["--resume", "/nonexistent/run.jsonl"], "no checkpoint at /nonexistent/run.jsonl"),
])
def test_bad_sprt_and_checkpoint_arguments(argv, message, capsys):
    assert main(["--game", SMALL, "--engine", "random", "--engine", "random", *argv]) == 2
    assert message in capsys.readouterr().err
