"""The match controller's frame steps without a window: what the screen is asked to do each frame, the board's
position (the top bar speaks of it) following the animation, and the replay handing the result back."""
from __future__ import annotations

import time
from typing import Any

import rules
from game.controller import MatchController, PlayMove, ReplayMove, ShowResult
from game.savegame import Seat
from game.session import Session

HUMAN = Seat()
COMPUTER = Seat("random", 0.1)


class Settings:
    def get(self, name: str) -> Any:
        return {"think_time": 0.2}[name]

    def engine_spec(self, game: Any, role: str) -> str:
        return "random"


def controller_for(seats: tuple[Seat, Seat], game: str = "kalah", **options: Any) -> MatchController:
    return MatchController(Session.new(rules.get_game(game), seats), Settings(), None, None, **options)


def finish_by_hand(controller: MatchController) -> None:
    while not controller.session.is_over:
        controller.play(controller.session.legal_moves[0])


def test_the_computers_move_comes_as_a_step_once_the_stones_have_landed():
    controller = controller_for((COMPUTER, HUMAN))
    deadline = time.monotonic() + 10
    step = None
    while step is None:
        assert time.monotonic() < deadline, "no move came"
        step = controller.update(0.05, animating=False)
        time.sleep(0.005)
    assert isinstance(step, PlayMove) and step.move in controller.session.legal_moves


def test_the_top_bar_keeps_to_the_board_until_the_move_lands():
    controller = controller_for((HUMAN, HUMAN))
    session = controller.session
    move = session.legal_moves[0]  # South sows pit 1: no extra turn
    controller.play(move)
    assert session.to_move == 1
    controller.update(0.05, animating=True)  # the stones still fly
    assert controller.board_state == session.states[0]
    assert controller.turn()[1] == 0 and controller.last_text() == "No move yet"
    controller.update(0.05, animating=False)  # landed
    assert controller.board_state == session.state and controller.turn()[1] == 1
    assert controller.last_text() != "No move yet"


def test_the_result_is_asked_for_once_after_the_delay_and_again_after_a_replay():
    controller = controller_for((HUMAN, HUMAN), game_over_delay=1.0)
    finish_by_hand(controller)
    assert controller.update(0.5, animating=True) is None  # flying: the delay counts from the landing
    assert controller.update(0.5, animating=False) is None
    assert isinstance(controller.update(0.6, animating=False), ShowResult)
    assert controller.update(0.6, animating=False) is None and controller.result_shown
    controller.start_replay()
    assert not controller.result_shown
    steps = []
    for _ in range(2000):
        step = controller.update(1.0, animating=False)
        if isinstance(step, ShowResult):
            break
        steps.append(step)
    else:
        raise AssertionError("the result never came back after the replay")
    replayed = [step for step in steps if isinstance(step, ReplayMove)]
    assert [step.move for step in replayed] == controller.session.moves


def test_stopping_a_replay_shows_the_games_position_and_brings_the_result_back():
    controller = controller_for((HUMAN, HUMAN))
    finish_by_hand(controller)
    assert isinstance(controller.update(0.1, animating=False), ShowResult)
    controller.start_replay()
    controller.update(1.0, animating=False)
    controller.update(1.0, animating=False)
    assert controller.replay_index is not None and controller.board_state != controller.session.state
    assert controller.stop_replay() and not controller.stop_replay()
    assert controller.board_state == controller.session.state
    assert isinstance(controller.update(0.1, animating=False), ShowResult)


def test_the_buttons_follow_the_seating_and_the_position():
    playing = controller_for((HUMAN, COMPUTER))
    assert playing.button_names()[0] == "Hint" and not playing.is_button_enabled("Undo")
    playing.play(playing.session.legal_moves[0])
    assert playing.is_button_enabled("Undo") == playing.session.can_undo()
    watching = controller_for((COMPUTER, COMPUTER))
    assert watching.button_names()[:2] == ["Pause", "Speed"] and watching.button_text("Pause") == "Pause"
    watching.toggle_pause()
    assert watching.button_text("Pause") == "Resume"
    watching.faster()
    assert watching.button_text("Speed") == "Speed x2"


def test_the_computers_reasoning_stays_while_it_thinks_again():
    controller = controller_for((COMPUTER, COMPUTER))
    assert controller.computer_text == "It has not moved yet."
    moves = 0
    deadline = time.monotonic() + 20
    while moves < 2:
        assert time.monotonic() < deadline, "the computers did not move"
        step = controller.update(1.0, animating=False)
        if isinstance(step, PlayMove):
            shown = controller.reasoning
            controller.play(step.move)
            controller.update(0.01, animating=True)  # its stones fly: the panel still speaks of the board
            assert controller.reasoning == shown and "thinking" not in controller.computer_text
            moves += 1
        time.sleep(0.005)
    controller.update(0.01, animating=False)  # landed
    first_line = controller.computer_text.splitlines()[0]
    assert first_line.startswith(("South played pit", "North played pit"))
    controller.update(0.01, animating=False)  # the next search starts: the reasoning stays above it
    assert controller.computer_text.splitlines()[0] == first_line
    assert "thinking" in controller.computer_text
    assert controller_for((HUMAN, HUMAN)).computer_text == "No computer plays in this game."
