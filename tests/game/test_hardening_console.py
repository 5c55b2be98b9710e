"""Console lines: one rule for numbers in every game (ASCII digits 0-9 only), a message for every bad or empty
line, and Ctrl-C never prints a traceback (issue 22)."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from game.console.manager import main as text_main
from game.console.solitaire import main as solitaire_main
from rules.base import RulesError, read_whole_number
from tests import registered

HANG_SECONDS = 5.0
"""What these tests allow an answer that must come 'at once': a hang (what they guard against) never
answers, and a shared, loaded machine can take a second where a quiet one takes milliseconds."""

ROOT = Path(__file__).parents[2]
NOT_NUMBERS = ["٣", "３", "²", "-0", "+3", " 3 3", "3.0", "1e3", "9" * 5000, "", "0x3", "3_0"]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_the_one_rule_for_numbers_refuses_everything_but_ascii_digits(text: str) -> None:
    assert read_whole_number(text) is None
    assert read_whole_number(" 42 ") == 42 and read_whole_number("007") == 7


@pytest.mark.parametrize("game", registered.sowing())
@pytest.mark.parametrize("text", NOT_NUMBERS[:-3])
def test_no_game_reads_a_foreign_digit_or_a_sign_as_a_move(game: str, text: str) -> None:
    rules_ = rules.get_game(game)
    state = rules_.initial_state()
    started = time.perf_counter()
    with pytest.raises(RulesError) as caught:
        rules_.parse_move(state, text + ("" if text else "x"))
    assert len(str(caught.value)) < 400 and time.perf_counter() - started < HANG_SECONDS


def test_solitaire_refuses_foreign_digits_and_thousands_of_digits() -> None:
    game = rules.get_game("solitaire")
    state = game.initial_state(seed=1)
    for text in ["٣ cw", "３ cw", "+3 cw", "-0 cw", "9" * 4301 + " cw", "9" * 100000 + " cw"]:
        with pytest.raises(RulesError) as caught:
            game.parse_move(state, text)
        assert len(str(caught.value)) < 600


def _solitaire(lines: list[str], *argv: str) -> str:
    out = io.StringIO()
    assert solitaire_main(list(argv), io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    return out.getvalue()


def test_the_solitaire_prompt_answers_empty_lines_and_foreign_numbers() -> None:
    output = _solitaire(["", "   ", "٣ cw", "auto ３", "auto +3", "9" * 5000 + " cw", "quit"], "--seed", "1")
    invalid = [line for line in output.splitlines() if "Invalid input" in line]
    assert len(invalid) == 6, invalid
    assert "an empty line" in invalid[0] and "auto takes a number" in invalid[3]
    assert max(len(line) for line in invalid) < 600


@pytest.mark.parametrize("argv, words", [
    (["--seed", "٣"], "--seed must be a whole number"),
    (["--seed", "9" * 5000], "--seed must be a whole number"),
    (["--time", "1e300"], "from 0.001 to 3600"),
    (["--time", "nan"], "from 0.001 to 3600"),
    (["--time", "inf"], "from 0.001 to 3600"),
])
def test_solitaire_command_line_numbers_are_bounded(argv: list[str], words: str) -> None:
    out = io.StringIO()
    assert solitaire_main(argv, io.StringIO(""), out) == 2
    assert words in out.getvalue()


@pytest.mark.parametrize("argv, words", [
    (["kalah", "--seed", "+3"], "--seed must be a whole number"),
    (["kalah", "--time", "1e300"], "from 0.001 to 3600"),
    (["kalah", "--time", "1e-300"], "from 0.001 to 3600"),
])
def test_two_player_command_line_numbers_are_bounded(argv: list[str], words: str) -> None:
    out = io.StringIO()
    assert text_main(argv, io.StringIO(""), out) == 2
    assert words in out.getvalue()


def test_a_double_ctrl_c_during_solve_leaves_without_a_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "game", "text", "solitaire", "--engine", "bfs:max_depth=1000,time=none",
         "--time", "60"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("solve\n")
    process.stdin.flush()
    seen = ""
    while "> solve" not in seen:  # the prompt echoes the line once the console is reading it
        seen += process.stdout.read(1)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    time.sleep(0.005)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate("quit\n", timeout=30)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert process.returncode in (0, 130)


def test_one_ctrl_c_during_solve_stops_the_search_and_the_console_goes_on() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "game", "text", "solitaire", "--engine", "bfs:max_depth=1000,time=none",
         "--time", "60"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("solve\n")
    process.stdin.flush()
    seen = ""
    while "> solve" not in seen:
        seen += process.stdout.read(1)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate("board\nquit\n", timeout=30)
    assert "Search stopped" in out and "stored 0" in out.split("Search stopped")[1], out
    assert process.returncode == 0 and "Traceback" not in err


# -- fuzz: random console lines at every game's prompt -------------------------------------------------------------
LINES = st.one_of(
    st.sampled_from(NOT_NUMBERS + ["0", "1", "5", "13", "a1", "D7", "cw", "3 ccw", "undo", "redo", "board", "help",
                                   "hint extra", "save", "load", "?", "\t", "\x1b[A", "\u202e3", "auto 2",
                                   "levels"]),
    st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t and t.strip().lower() not in (
        "quit", "exit", "q", "hint", "solve", "auto", "save") and not t.strip().lower().startswith(
        ("quit", "exit", "save", "load", "q ", "auto", "solve", "hint"))),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(registered.two_player()), st.lists(LINES, min_size=1, max_size=12))
def test_random_lines_at_a_two_player_prompt_get_a_move_or_a_message(game: str, lines: list[str]) -> None:
    script = ["new", "human", "human", *lines, "quit", "quit"]
    out = io.StringIO()
    started = time.perf_counter()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:  # "save" then any line writes a save named by that line
        os.chdir(folder)
        try:
            code = text_main([game], io.StringIO("".join(line + "\n" for line in script)), out)
        finally:
            os.chdir(here)
    assert code == 0 and time.perf_counter() - started < 5
    assert "Traceback" not in out.getvalue()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, min_size=1, max_size=12))
def test_random_lines_at_the_solitaire_prompt_get_a_round_or_a_message(lines: list[str]) -> None:
    started = time.perf_counter()
    output = _solitaire([*lines, "quit"], "--seed", "3")
    answers = output.count("Invalid input") + output.count("Round ") + output.count("store01")
    assert answers >= 1 and time.perf_counter() - started < 5


def test_loading_a_fifo_at_the_console_prompt_answers_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.save"
    os.mkfifo(fifo)
    out = io.StringIO()
    started = time.perf_counter()
    code = text_main(["kalah"], io.StringIO(f"load {fifo}\ncancel\nquit\n"), out)
    assert code == 0 and time.perf_counter() - started < HANG_SECONDS
    assert "Invalid input: cannot load" in out.getvalue() and "named pipe" in out.getvalue()
