"""The review at a terminal: ``stonecave review FILE [--time S]`` and the text console's ``review`` print the turning
points (the recorded Kalah blunder the tables prove, with its exact cost) and each player's accuracy; bad input
gets one line saying what would be right.

The blunder's values come from the endgame tables, which the analysis reads before it searches, so the marks
asserted do not depend on how fast the machine is (the review itself runs to a time per position).
"""
from __future__ import annotations

import io

import pytest

from game import cli, savegame
from game.console import manager
from game.review import SECONDS_RANGE
from tests.game.test_review import BLUNDER, KALAH_MOVES, needs_core, recorded_kalah

MARK = f"Move {BLUNDER + 1}, "
COST = "turned a win by 6 into a loss by 4, proven"


@pytest.fixture
def saved_file(tmp_path):
    path = tmp_path / "kalah.save"
    savegame.save(path, recorded_kalah())
    return path


@needs_core
def test_stonecave_review_prints_the_proven_blunder_and_accuracies(with_tables, saved_file, capsys):
    assert cli.main(["review", str(saved_file), "--time", "0.2"]) == 0
    out = capsys.readouterr().out
    marks = [line for line in out.splitlines() if line.startswith(MARK)]
    assert len(marks) == 1 and "blunder" in marks[0] and COST in marks[0] and "(10 seeds)" in marks[0], out
    assert "South: accuracy " in out and "North: accuracy " in out
    assert f"Reviewing {len(KALAH_MOVES)} moves of Kalah" in out


@needs_core
def test_the_console_reviews_the_game_it_holds(with_tables, saved_file):
    stdin = io.StringIO("review 0.2\nreview soon\nquit\n")
    stdout = io.StringIO()
    code = manager.main(["kalah:pits=4,seeds=3", "--load", str(saved_file)], stdin, stdout)
    out = stdout.getvalue()
    assert code == 0
    assert "review [SECONDS]" in out  # offered in the start menu
    marks = [line for line in out.splitlines() if line.startswith(MARK)]
    assert len(marks) == 1 and COST in marks[0], out
    assert "Invalid input: review takes" in out and "not 'soon'" in out


def test_the_review_command_at_a_players_prompt(tmp_path):
    stdin = io.StringIO("1\n2\nhelp\nreview 0.1\nquit\nquit\nno\n")
    stdout = io.StringIO()
    manager.main(["kalah:pits=4,seeds=3", "--south", "human", "--north", "alphabeta:depth=1"], stdin, stdout)
    out = stdout.getvalue()
    assert "review [SECONDS]" in out  # in help
    assert "Reviewing 1 move of Kalah" in out or "Reviewing 2 moves of Kalah" in out
    assert "South: accuracy " in out


@pytest.mark.parametrize("options, words", [
    (["--time", "0"], f"--time takes {SECONDS_RANGE[0]:g} to {SECONDS_RANGE[1]:g} seconds per position"),
    (["--time", ""], "not ''"),
    (["--time", "nan"], "not 'nan'"),
    (["--time", "1e3"], "not '1e3'"),
    (["--time", "61"], "not 61"),
])
def test_bad_times_get_one_line(saved_file, capsys, options, words):
    assert cli.main(["review", str(saved_file), *options]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_files_that_cannot_be_reviewed_get_one_line(tmp_path, capsys):
    assert cli.main(["review", str(tmp_path / "missing.save")]) == 1
    assert "cannot read" in capsys.readouterr().err
    broken = tmp_path / "broken.save"
    broken.write_text("StoneCave save 2\ngame: kalah\n", encoding="utf-8")
    assert cli.main(["review", str(broken)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("stonecave review: cannot review") and len(err.strip().splitlines()) == 1
    empty = tmp_path / "empty.save"
    from game.savegame import SavedGame, Seat
    from rules import get_game

    game = get_game("kalah")
    savegame.save(empty, SavedGame(game, (Seat(), Seat()), game.initial_state(), ()))
    assert cli.main(["review", str(empty)]) == 0
    assert "Nothing to review yet" in capsys.readouterr().out


def test_ctrl_c_stops_stonecave_review_with_what_was_done(saved_file):
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        [sys.executable, "-m", "game", "review", str(saved_file), "--time", "60"], cwd=root, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(root)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        first = process.stdout.readline()  # the review has started (an hour of work at 60 s a position)
        assert first.startswith("Reviewing 17 moves of Kalah")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)  # a guard against a hang only
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "(Stopped after " in out and "Traceback" not in err
