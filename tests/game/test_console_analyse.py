"""The console's ``analyse [SECONDS]`` command: every legal move with its value in words, best first, marked
proven or searched; a bad argument gets an ``Invalid input`` line naming what is valid; help lists it."""
from __future__ import annotations

import io
import re

import pytest

import rules
from ai import tables
from ai.solver import SolverEngine
from game.console.manager import main
from game.console.play import ANALYSE_SECONDS, analyse_seconds

TWO_PLAYER = [pytest.param(info.name, id=info.name) for info in rules.list_games() if info.num_players == 2]


@pytest.fixture(autouse=True)
def no_tables(monkeypatch):
    monkeypatch.delenv(tables.ENV, raising=False)
    monkeypatch.setattr(tables, "_directory", None)
    tables.forget()
    yield
    tables.forget()


def play(spec: str, *lines: str, seats: tuple[str, str] = ("human", "human")) -> str:
    """The console's output for a new game of ``spec`` with both seats given and ``lines`` typed at the
    first prompt, then back to the menu and out."""
    game = rules.parse_game_spec(spec)
    first, second = (name.lower() for name in game.player_names)
    stdin = io.StringIO("\n".join(["new", *lines, "quit", "3", "no"]) + "\n")
    stdout = io.StringIO()
    assert main([spec, f"--{first}", seats[0], f"--{second}", seats[1]], stdin, stdout) == 0
    return stdout.getvalue()


def analysis_lines(output: str) -> list[str]:
    """The lines listing the moves of the first analysis in ``output``."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "best first" in line) + 1
    return [line for line in lines[start:] if line.startswith("  ") and not line.startswith("   ")]


def test_analyse_lists_every_move_of_a_solved_game_with_its_exact_value_best_first():
    game = rules.parse_game_spec("kalah:pits=4,seeds=3")
    state = game.initial_state()
    solver = SolverEngine(game)
    expected = {}
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        margin = int(solver.search(child).score)
        margin = margin if game.to_move(child) == game.to_move(state) else -margin
        expected[f"pit {game.move_label(state, move)}"] = margin
    output = play("kalah:pits=4,seeds=3", "analyse 60")  # ends as soon as every move is proven
    assert "Moves of South, best first (every move proven" in output
    rows = analysis_lines(output)
    assert len(rows) == len(expected)
    margins = []
    for row in rows:
        name, value, how = re.match(r"  (pit \d+)\s+(.+?)\s{2,}(proven \(.+\))$", row).groups()
        margin = expected[name]
        words = f"wins by {margin}" if margin > 0 else f"loses by {-margin}" if margin < 0 else "draws"
        assert value == words, row
        margins.append(margin)
    assert margins == sorted(margins, reverse=True)


@pytest.mark.parametrize("name", [param.values[0] for param in TWO_PLAYER])
def test_analyse_works_in_every_two_player_game(name):
    game = rules.parse_game_spec(name)
    output = play(name, "analyse 0.5")
    rows = analysis_lines(output)
    state = game.initial_state()
    names = sorted(game.move_label(state, move) for move in game.legal_moves(state))
    shown = sorted(row.split()[0] if row.split()[0] != "pit" else row.split()[1] for row in rows)
    assert shown == names
    for row in rows:
        assert re.search(r"(searched \d+ pl(y|ies)|proven \(.+\)|not reached)$", row), row
        assert not re.search(r"\d{4,}", row), row  # never a raw internal score


VALID = "Valid: analyse (for 3 s) or analyse SECONDS with SECONDS from 0.1 to 600, e.g. analyse 10."


@pytest.mark.parametrize("argument, problem", [
    ("abc", "'abc' is not a number of seconds for analyse"),
    ("nan", "'nan' is not a number of seconds for analyse"),
    ("inf", "'inf' is not a number of seconds for analyse"),
    ("1 2", "'1 2' is not a number of seconds for analyse"),
    ("10 s s", "'10 s s' is not a number of seconds for analyse"),
    ("0", "analyse takes 0.1 to 600 seconds, not 0"),
    ("-3", "analyse takes 0.1 to 600 seconds, not -3"),
    ("601s", "analyse takes 0.1 to 600 seconds, not 601"),
])
def test_a_bad_analyse_argument_names_what_is_wrong_and_what_is_valid(argument, problem):
    output = play("kalah:pits=4,seeds=3", f"analyse {argument}")
    assert f"Invalid input: {problem}. {VALID}" in output, output
    assert "best first" not in output


def test_the_seconds_of_analyse():
    assert analyse_seconds("") == ANALYSE_SECONDS == 3.0
    assert analyse_seconds("10") == 10.0 and analyse_seconds("2.5s") == 2.5 and analyse_seconds(" 7 S ") == 7.0
    for bad in ("0.05", "1e9", "x" * 50, "s"):
        with pytest.raises(ValueError):
            analyse_seconds(bad)


def test_help_and_the_valid_list_name_analyse():
    output = play("kalah:pits=4,seeds=3", "help", "frobnicate")
    assert re.search(r"^  analyse \[SECONDS\]\s+every legal move's value, best first", output, re.M)
    assert "hint, analyse [SECONDS], review [SECONDS], save [FILE], quit" in output


def test_analyze_is_understood_too():
    output = play("kalah:pits=4,seeds=3", "analyze 60")
    assert "Moves of South, best first" in output
