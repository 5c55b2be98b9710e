"""The one model of a game in progress: the undo/redo rule for every seating, redo kept or forgotten by the
next move, the verdict, and a save that comes back as the same game.  No window, no search."""
from __future__ import annotations

from pathlib import Path

import pytest

import rules
from game import savegame
from game.savegame import Seat
from game.puzzle_session import Puzzle, PuzzleSession
from game.session import Session
from tests import registered

HUMAN = Seat()
COMPUTER = Seat("random", 0.1)


def kalah_session(seats: tuple[Seat, Seat], moves: int) -> Session:
    """A Kalah session after ``moves`` first-legal moves (extra turns included)."""
    session = Session.new(rules.get_game("kalah"), seats)
    for _ in range(moves):
        session.play(session.legal_moves[-1])
    return session


def test_hot_seat_undo_takes_back_one_move_and_redo_replays_it():
    session = kalah_session((HUMAN, HUMAN), 3)
    states = list(session.states)
    assert session.undo() == 1
    assert session.states == states[:-1] and session.can_redo()
    assert session.redo() == [session.moves[-1]]
    assert session.states == states and not session.can_redo()


def test_against_the_computer_undo_goes_back_to_the_humans_turn_and_redo_comes_back():
    game = rules.get_game("kalah")
    session = Session.new(game, (HUMAN, COMPUTER))
    human_turns = []
    while len(session.moves) < 8 and not session.is_over:
        if session.is_human_turn:
            human_turns.append(len(session.moves))
        session.play(session.legal_moves[0])
    end = list(session.states)
    taken = session.undo()
    # Back to the latest earlier position with the human to move, whatever the computer played meanwhile.
    assert len(session.moves) == max(t for t in human_turns if t < len(end) - 1)
    assert session.is_human_turn and taken == len(end) - 1 - len(session.moves)
    assert len(session.redo()) == taken and session.states == end


def test_with_no_human_seated_undo_and_redo_take_one_move():
    session = kalah_session((COMPUTER, COMPUTER), 4)
    assert session.undo() == 1 and len(session.moves) == 3
    assert session.undo() == 1 and len(session.moves) == 2
    assert len(session.redo()) == 1 and len(session.moves) == 3


def test_when_the_computer_opened_there_is_nothing_to_undo_on_the_humans_first_turn():
    session = Session.new(rules.get_game("kalah"), (COMPUTER, HUMAN))
    while not session.is_human_turn:
        session.play(session.legal_moves[0])
    assert session.moves and not session.can_undo()
    assert session.undo() == 0 and session.moves


def test_nothing_to_undo_or_redo_at_the_start():
    session = kalah_session((HUMAN, HUMAN), 0)
    assert not session.can_undo() and session.undo() == 0
    assert not session.can_redo() and session.redo() == [] and session.next_redo is None


def test_playing_the_undone_move_keeps_the_rest_and_another_move_forgets_it():
    session = kalah_session((COMPUTER, COMPUTER), 4)
    undone = list(session.moves[2:])
    session.undo()
    session.undo()
    assert session.next_redo == undone[0]
    session.play(undone[0])
    assert session.next_redo == undone[1]
    session.undo()
    other = next(m for m in session.legal_moves if m != undone[0])
    session.play(other)
    assert not session.can_redo()


def test_the_verdict_is_the_rules_outcome_once_the_game_is_over():
    session = kalah_session((HUMAN, HUMAN), 0)
    assert session.outcome is None
    while not session.is_over:
        session.play(session.legal_moves[0])
    assert session.outcome == session.game.outcome(session.state) and session.outcome is not None
    assert not session.is_human_turn


def test_a_saved_session_loads_as_the_same_game_and_counts_as_saved(tmp_path: Path):
    session = kalah_session((HUMAN, COMPUTER), 5)
    assert session.is_unsaved
    path = tmp_path / "game.save"
    session.save(path)
    assert not session.is_unsaved and session.path == path
    loaded = Session.from_saved(savegame.load(path), path)
    assert loaded.states == session.states and loaded.seats == session.seats and not loaded.is_unsaved
    session.play(session.legal_moves[0])
    assert session.is_unsaved


@pytest.mark.parametrize("name", registered.two_player())
def test_undo_then_redo_is_the_identity_in_every_two_player_game(name: str):
    session = Session.new(rules.get_game(name), (HUMAN, COMPUTER), seed=3)
    while len(session.moves) < 6 and not session.is_over:
        session.play(session.legal_moves[0])
    states = list(session.states)
    while session.can_undo():
        session.undo()
    while session.can_redo():
        session.redo()
    assert session.states == states


# -- the puzzle: the same rule with one human seat ------------------------------------------------------------
def dose_puzzle() -> PuzzleSession:
    return PuzzleSession(Puzzle.from_seed("dose", 7))


def test_a_puzzle_undoes_and_redoes_one_round_and_remembers_who_played_it():
    session = dose_puzzle()
    session.play(session.legal_moves[0])
    session.play(session.legal_moves[0], by_computer=True)
    states = list(session.states)
    assert session.undo() == 1 and session.rounds == 1 and session.next_redo_by_computer
    assert session.undo() == 1 and session.rounds == 0 and not session.next_redo_by_computer
    assert not session.can_undo()
    assert len(session.redo()) == 1 and session.by_computer == [False]
    assert len(session.redo()) == 1 and session.by_computer == [False, True] and session.assisted
    assert session.states == states


def test_a_puzzle_restart_keeps_every_round_for_redo_and_a_new_round_forgets_them():
    session = dose_puzzle()
    for _ in range(3):
        session.play(session.legal_moves[0])
    first = session.moves[0]
    session.restart()
    assert session.rounds == 0 and session.next_redo == first
    other = next(m for m in session.legal_moves if m != first)
    session.play(other)
    assert not session.can_redo() and session.undone_by_computer == []


def test_ending_a_dose_puzzle_here_is_taken_back_by_one_undo():
    session = dose_puzzle()
    session.play(session.legal_moves[0])
    session.end_here()
    assert session.is_over and session.can_undo() and not session.can_redo()
    assert session.undo() == 1 and not session.is_over and session.rounds == 1
