"""The ``stonecave`` command answers every bad argument with a message, never a traceback (issue 22)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import check_output_paths, main

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("argv, code, words", [
    (["engines", "nonexist"], 2, ["unknown game 'nonexist'", "(valid: ", "hus", "kalah"]),
    (["engines", "kalah:pits=99"], 2, ["pits must be from 1 to 12"]),
    (["engines", ""], 2, ["unknown game ''"]),
    (["engines", "--help"], 0, ["usage: stonecave engines"]),
    (["engines", "kalah", "oware"], 2, ["at most one game"]),
])
def test_engines_command_answers_bad_games_in_one_message(capsys, argv, code, words) -> None:  # type: ignore[no-untyped-def]
    assert main(argv) == code
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert all(word in text for word in words), text
    assert "Traceback" not in text


@pytest.mark.parametrize("target, words", [
    ("/dev/full", "a device, not a regular file"),
    ("{tmp}", "a folder, not a regular file"),
    ("{tmp}/missing/out.json", "does not exist"),
])
def test_compare_checks_its_output_path_before_playing(tmp_path: Path, capsys, target: str, words: str) -> None:  # type: ignore[no-untyped-def]
    path = target.format(tmp=tmp_path)
    argv = ["compare", "--game", "kalah", "--engine", "random", "--engine", "random", "--games", "200", "--json", path]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "nothing was played" in err


def test_compare_output_check_accepts_a_writable_file_and_leaves_nothing_behind(tmp_path: Path) -> None:
    assert check_output_paths(["--csv", str(tmp_path / "out.csv"), f"--json={tmp_path / 'out.json'}"]) is None
    assert list(tmp_path.iterdir()) == []


def test_the_window_without_a_display_says_so_in_one_line(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("ARCADE_HEADLESS", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["gui"]) == 1
    assert "no display" in capsys.readouterr().err


def test_an_unreachable_display_gives_a_message_not_a_traceback() -> None:
    env = {**os.environ, "DISPLAY": ":97", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "game", "gui"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert "no display" in done.stderr and "Traceback" not in done.stderr


def test_a_disk_that_fills_during_the_tournament_gives_a_message_not_a_traceback(tmp_path: Path, capsys,
                                                                                  monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import errno

    import ai.tournament

    def full(argv):  # type: ignore[no-untyped-def]
        print("the summary table")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ai.tournament, "main", full)
    assert main(["compare", "--json", str(tmp_path / "out.json")]) == 1
    captured = capsys.readouterr()
    assert "the summary table" in captured.out and "No space left on device" in captured.err


@pytest.mark.parametrize("flag, value, words", [
    ("--games", "999999999999999999999999999", "digits 0-9"),
    ("--games", "5000000", "at most 1,000,000 games"),
    ("--games", "٣", "digits 0-9"),
    ("--jobs", "+2", "digits 0-9"),
    ("--seed", "-0", "digits 0-9"),
])
def test_compare_counts_follow_the_one_rule_for_numbers(capsys, flag: str, value: str, words: str) -> None:  # type: ignore[no-untyped-def]
    argv = ["compare", "--game", "kalah", "--engine", "random", "--engine", "random", flag, value]
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_results_that_cannot_be_written_where_asked_go_to_the_temporary_folder(tmp_path: Path, capsys,
                                                                               monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The disk fills after the games were played: the JSON is written elsewhere and the message says where."""
    import errno
    import json
    import tempfile

    import ai.tournament

    target = tmp_path / "out.json"
    written = ai.tournament.write_atomically

    def fails_for_the_target(path, text):  # type: ignore[no-untyped-def]
        if path == target:
            raise OSError(errno.ENOSPC, "No space left on device")
        written(path, text)

    monkeypatch.setattr(ai.tournament, "write_atomically", fails_for_the_target)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "elsewhere"))
    (tmp_path / "elsewhere").mkdir()
    argv = ["--game", "kalah:pits=3,seeds=2", "--engine", "random", "--engine", "greedy", "--games", "2",
            "--json", str(target), "--quiet"]
    assert ai.tournament.main(argv) == 1
    err = capsys.readouterr().err
    assert "could not write" in err and "No space left on device" in err
    (saved,) = (tmp_path / "elsewhere").glob("stonecave-compare-*-out.json")
    assert str(saved) in err and not target.exists()
    assert len(json.loads(saved.read_text())["games"]) == 2
