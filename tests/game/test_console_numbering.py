"""The console shows and reads pits in the player's numbering, 1..n from the player's own left, never 0-based."""
from __future__ import annotations

import io
import re

import rules
from game.console.manager import Console
from game.console.play import Terminal
from game.savegame import Seat


def run(game: str, lines: list[str]) -> str:
    out = io.StringIO()
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    Console(rules.parse_game_spec(game), Terminal(stdin, out), {0: Seat(), 1: Seat()}, seconds=0.2).run()
    return out.getvalue()


def test_a_kalah_move_is_typed_shown_and_described_from_one() -> None:
    output = run("kalah", ["new", "help", "3", "quit", "quit", "no"])
    assert "Legal moves: 1, 2, 3, 4, 5, 6" in output
    # Typing 3 plays the third pit from South's left: 4 seeds, the last in South's store.
    assert "South plays 3: South sows pit 3 (4 seeds), extra turn" in output
    board = rules.get_game("kalah").render(rules.get_game("kalah").initial_state())
    assert "   1   2   3   4   5   6" in board and "   6   5   4   3   2   1" in board
    assert " 0 " not in board.splitlines()[1] and " 0 " not in board.splitlines()[-2]


def test_pit_zero_and_pit_seven_are_refused_with_the_players_range() -> None:
    output = run("kalah", ["new", "0", "7", "quit", "quit", "no"])
    assert "Invalid input: pit 0 does not exist: your pits are numbered 1..6" in output
    assert "Invalid input: pit 7 does not exist: your pits are numbered 1..6" in output
    assert "a move (1, 2, 3, 4, 5, 6)" in output


def test_oware_says_why_a_house_cannot_be_played_in_the_players_numbering() -> None:
    game = rules.get_game("oware")
    state = game.from_text("pits=1,0,0,0,0,3/0,0,0,0,0,0 stores=22,22 move=S")
    assert game.parse_label(state, "6") == 5
    for text, why in (("2", "it is empty"), ("1", "it does not reach North, who has no seeds and must be fed")):
        try:
            game.parse_label(state, text)
        except rules.IllegalMoveError as error:
            assert str(error) == f"house {text} cannot be played: {why}; legal moves: 6"
        else:
            raise AssertionError(f"house {text} was accepted")


def test_hus_pits_run_one_to_thirty_two_and_the_mover_sees_them() -> None:
    game = rules.get_game("hus")
    state = game.initial_state()
    assert [game.move_label(state, move) for move in game.legal_moves(state)] == [str(n) for n in range(1, 25)]
    numbers = [int(n) for line in game.render(state).splitlines() if line.startswith("  pit")
               for n in re.findall(r"\d+", line)]
    assert sorted(numbers) == list(range(1, 33))
    output = run("hus", ["new", "1", "quit", "quit", "no"])
    assert "South plays 1: South sows pit 1 (2 seeds)" in output and "ends in pit 27" in output
