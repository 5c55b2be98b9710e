"""The match controller without a window: the computer's search and pending move, hint, undo/redo, pause,
replay, the autosave and counting a finished game.  Plain pytest; nothing here imports arcade."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import rules
from ai.base import SearchResult
from game.autosave import Autosave
from game.controller import REPLY_GAP, SPEEDS, WATCH_GAP, MatchController
from game.savegame import Seat
from game.session import Session

ROOT = Path(__file__).resolve().parents[2]
HUMAN = Seat()
COMPUTER = Seat("random", 0.1)


class FakeSettings:
    def __init__(self, **values: Any) -> None:
        self.values = {"think_time": 0.2, **values}

    def get(self, name: str) -> Any:
        return self.values[name]

    def engine_spec(self, game: Any, role: str) -> str:
        return "random"


class FakeStatistics:
    def __init__(self) -> None:
        self.recorded: list[int] = []
        self.marked: list[int] = []

    def mark_recorded(self, match: Session) -> None:
        self.marked.append(id(match))

    def record_match(self, match: Session) -> list[str]:
        if id(match) in self.recorded:
            return []
        self.recorded.append(id(match))
        return []


def controller_for(seats: tuple[Seat, Seat], game: str = "kalah", **options: Any) -> MatchController:
    return MatchController(Session.new(rules.get_game(game), seats), FakeSettings(), None, FakeStatistics(),
                           **options)


def run_until(controller: MatchController, done: Any, seconds: float = 10.0, step: float = 0.05) -> None:
    """Tick the controller (as frames would) until ``done()``; fails after ``seconds`` of real time."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "timed out"
        controller.tick(step, animating=False)
        time.sleep(0.005)


def next_computer_move(controller: MatchController) -> Any:
    moves: list[Any] = []

    def arrived() -> bool:
        move = controller.computer_move(animating=False)
        if move is not None:
            moves.append(move)
        return bool(moves)

    run_until(controller, arrived)
    return moves[0]


def test_the_controller_module_does_not_import_arcade():
    code = "import sys, game.controller; assert 'arcade' not in sys.modules and 'pyglet' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_the_computer_answers_a_human_move_with_a_legal_move_after_the_gap():
    controller = controller_for((HUMAN, COMPUTER))
    session = controller.session
    assert controller.computer_move(animating=False) is None  # the human's turn: nothing to search
    controller.play(session.legal_moves[0])
    while session.is_human_turn:  # an extra turn for the human
        controller.play(session.legal_moves[0])
    move = next_computer_move(controller)
    assert move in session.legal_moves and controller.worker is None
    assert controller.clock - controller.pending_since >= REPLY_GAP
    controller.play(move)
    assert controller.pending_move is None and controller.thinking == ""


def test_while_stones_fly_the_computer_searches_but_does_not_play():
    controller = controller_for((COMPUTER, HUMAN))
    assert controller.computer_move(animating=True) is None and controller.worker is not None
    run_until(controller, lambda: controller.pending_move is not None)
    assert controller.computer_move(animating=True) is None  # the last stones have not landed
    controller.tick(1.0, animating=False)
    assert controller.computer_move(animating=False) is not None


def test_a_result_for_a_position_no_longer_current_is_dropped():
    controller = controller_for((COMPUTER, COMPUTER))
    controller.computer_move(animating=False)
    worker = controller.worker
    assert worker is not None
    controller.session.play(controller.session.legal_moves[0])  # the position changes under the search
    worker.wait(5)
    controller.tick(0.1, animating=False)
    assert controller.pending_move is None


def test_a_computer_seat_keeps_its_engine_from_move_to_move_while_its_spec_and_game_stay():
    """The engine (and its table: what its searches proved, the memory it took) is kept between a seat's moves.
    A new one is built when the seat's engine changes, and while the last search still unwinds after a cancel
    (one engine never runs two searches at once)."""
    pvs = Seat("pvs:time=0.05", 0.1)
    controller = controller_for((pvs, COMPUTER))
    session = controller.session
    engines = []
    for _ in range(4):  # South's moves (pvs) and North's (random), each its own seat's
        mover = session.to_move
        controller.play(next_computer_move(controller))
        if mover == 0:
            engines.append(controller._seat_engines[0][1])
    assert len(engines) >= 2 and all(engine is engines[0] for engine in engines)
    assert controller._seat_engines[1][1] is not engines[0]          # each seat its own
    while session.to_move != 0:
        controller.play(next_computer_move(controller))
    controller.computer_move(animating=False)
    worker = controller.worker
    assert worker is not None and worker.searching
    controller.cancel_search()                                       # the search unwinds on its own
    fresh = controller._seat_engine(0, "pvs:time=0.05")
    if worker.searching:                                             # (it may have returned already)
        assert fresh is not engines[0]
    deadline = time.monotonic() + 5
    while worker.searching:                                          # it notices the cancel within milliseconds
        assert time.monotonic() < deadline, "the cancelled search did not return"
        time.sleep(0.005)
    assert controller._seat_engine(0, "pvs:time=0.05") is engines[0]
    assert controller._seat_engine(0, "pvs:time=0.1") is not engines[0]     # another engine for the seat


def test_undo_cancels_the_search_and_pauses_computers_only_play():
    controller = controller_for((COMPUTER, COMPUTER))
    for _ in range(2):
        controller.play(next_computer_move(controller))
    controller.computer_move(animating=False)
    worker = controller.worker
    assert worker is not None
    assert controller.undo() == 1
    assert controller.worker is None and worker.token.is_cancelled and controller.paused
    assert any("Paused after undo" in text for text, _ in controller.take_notices())
    assert controller.computer_move(animating=False) is None  # paused: no new search
    controller.toggle_pause()
    assert not controller.paused


def test_undo_and_redo_follow_the_session_rule_and_say_when_there_is_nothing():
    controller = controller_for((HUMAN, HUMAN))
    assert controller.undo() == 0 and controller.take_notices() == [("Nothing to undo.", False)]
    assert controller.redo() == [] and controller.take_notices() == [("Nothing to redo.", False)]
    move = controller.session.legal_moves[0]
    controller.play(move)
    assert controller.undo() == 1 and controller.redo() == [move]


def test_a_hint_names_a_legal_move_and_goes_when_the_position_changes():
    controller = controller_for((HUMAN, COMPUTER))
    assert controller.hint()
    run_until(controller, lambda: controller.hint_move is not None)
    assert controller.hint_move in controller.session.legal_moves and f"pit {controller.hint_move + 1}" in controller.hint_text.lower()
    controller.play(controller.hint_move)
    assert controller.hint_move is None and controller.hint_text == ""


def test_a_hint_shows_the_searchs_depth_only_with_details_on():
    controller = controller_for((HUMAN, COMPUTER))
    searched = SearchResult(controller.session.legal_moves[0], score=2.5, depth=18)  # an estimate, not a proof
    for details in (False, True):
        controller.settings.values["details"] = details  # the Details switch
        controller.show_hint(searched)
        assert ("(18 plies)" in controller.hint_text) == details, controller.hint_text


def test_no_hint_on_the_computers_turn():
    controller = controller_for((COMPUTER, HUMAN))
    assert not controller.hint() and controller.take_notices() == [("A hint is for a human's turn.", False)]


def test_an_engine_that_cannot_be_built_pauses_with_a_warning():
    controller = controller_for((Seat("no-such-engine"), HUMAN))
    assert controller.computer_move(animating=False) is None
    assert controller.paused and controller.worker is None
    (text, warning), = controller.take_notices()
    assert warning and text.startswith("The computer cannot play")


def test_the_think_time_is_the_seats_or_the_settings_within_the_games_limit():
    controller = controller_for((HUMAN, HUMAN), move_time_limit=3.0)
    assert controller.think_time(None) == 0.2
    assert controller.think_time(1.0) == 1.0
    assert controller.think_time(10.0) < 3.0


def test_replay_shows_every_move_in_order_then_ends():
    controller = controller_for((HUMAN, HUMAN))
    for _ in range(4):
        controller.play(controller.session.legal_moves[0])
    session = controller.session
    assert controller.start_replay() == session.states[0]
    steps = []
    while controller.replay_index is not None:
        step = controller.replay_step(0.05, animating=False)
        if step is not None:
            steps.append(step)
            assert controller.replay_step(0.05, animating=True) is None  # waits for the animation
    assert [index for index, *_ in steps] == list(range(4))
    assert all(session.states[i] == before and session.moves[i] == move and session.states[i + 1] == after
               for i, before, move, after in steps)
    assert controller.computer_move(animating=False) is None  # human seats: nothing to do after a replay


def test_speed_changes_the_gap_between_computer_moves():
    controller = controller_for((COMPUTER, COMPUTER))
    controller.faster()
    assert controller.speed == SPEEDS[2]
    for _ in range(len(SPEEDS)):
        controller.slower()
    assert controller.speed == SPEEDS[0]
    move = next_computer_move(controller)
    assert move is not None and controller.clock - controller.pending_since >= WATCH_GAP / SPEEDS[0]


def test_a_finished_game_is_counted_once_and_a_game_opened_over_is_marked(tmp_path: Path):
    statistics = FakeStatistics()
    session = Session.new(rules.get_game("kalah"), (HUMAN, HUMAN))
    controller = MatchController(session, FakeSettings(), Autosave(tmp_path), statistics)
    while not session.is_over:
        controller.play(session.legal_moves[0])
    controller.record_game_over()
    controller.record_game_over()
    assert statistics.recorded == [id(session)]
    reopened = MatchController(session, FakeSettings(), None, statistics)
    assert statistics.marked == [id(session)] and reopened.session is session


def test_every_game_keeps_its_own_slot_and_new_game_never_discards_one(tmp_path: Path):
    autosave = Autosave(tmp_path)
    controller = MatchController(Session.new(rules.get_game("kalah"), (HUMAN, HUMAN)), FakeSettings(), autosave,
                                 FakeStatistics())
    controller.play(controller.session.legal_moves[0])
    old = controller.session
    assert autosave.slots() == [old.slot]
    controller.new_game()
    assert controller.session is not old and controller.session.moves == [] and autosave.slots() == [old.slot]
    controller.play(controller.session.legal_moves[0])
    assert set(autosave.slots()) == {old.slot, controller.session.slot} and old.slot != controller.session.slot
    controller.undo()  # back at its start: nothing to keep of this one, the other stays
    assert autosave.slots() == [old.slot]


def test_save_writes_the_game_and_keeps_it_in_progress_and_a_bad_path_warns(tmp_path: Path):
    autosave = Autosave(tmp_path / "saves")
    controller = MatchController(Session.new(rules.get_game("kalah"), (HUMAN, HUMAN)), FakeSettings(), autosave,
                                 FakeStatistics())
    controller.play(controller.session.legal_moves[0])
    path = tmp_path / "saves" / "mine.stonecave"
    assert controller.save(path) and controller.save_path == path and path.exists()
    assert autosave.slots() == [controller.session.slot], "saved, but still unfinished: still on offer"
    (tmp_path / "file").write_text("")
    assert not controller.save(tmp_path / "file" / "inside.stonecave")
    assert controller.take_notices()[-1][1]  # a warning
    controller.new_game()
    assert controller.save_path is None


def test_the_top_bar_lines_say_whose_turn_and_which_rules():
    controller = controller_for((HUMAN, COMPUTER))
    text, player = controller.turn()
    assert player == 0 and text.endswith("to move (you)") and controller.why_not_now() == ""
    assert controller.rules_text() == "standard rules"
    controller.start_replay()
    assert controller.turn() == ("Replay", None)
    other = MatchController(Session.new(rules.get_game("kalah", pits=4, seeds=3), (COMPUTER, HUMAN)),
                            FakeSettings(), None, None)
    assert "pits 4" in other.rules_text() and other.why_not_now().startswith("It is the computer's turn")


def test_the_computer_s_clock_starts_when_its_move_is_asked_for_not_when_its_engine_is_built(monkeypatch):
    """Building the engine (tables to open, a book to read) is time the player waits: it counts."""
    import ai.registry

    build = ai.registry.make_engine

    def slow_build(*args, **kwargs):
        engine = build(*args, **kwargs)
        time.sleep(0.6)
        return engine

    monkeypatch.setattr("game.controller.registry.make_engine", slow_build)
    controller = controller_for((COMPUTER, HUMAN))
    asked = time.perf_counter()
    controller.computer_move(animating=True)
    worker = controller.worker
    assert worker is not None and worker.limits.deadline is not None
    assert worker.limits.deadline - asked <= worker.limits.time + 0.3  # not 0.6 s later


def test_every_rules_parameter_changed_reads_as_words_in_the_top_bar():
    """Generated from the games' own parameters: each changed from its default (a switch turned, a number one
    more or less, another choice) reads as words, never the spec's name or Python's True and False."""
    import re

    for info in rules.list_games():
        if info.num_players != 2:
            continue  # Solitaire's screen says its rules its own way
        name = info.name
        game = rules.get_game(name)
        for param in game.params:
            if param.kind is bool:
                value: Any = not param.default
            elif param.choices:
                value = next(choice for choice in param.choices if choice != param.default)
            else:
                value = param.default + 1 if param.maximum is None or param.default < param.maximum else param.default - 1
            try:
                variant = rules.get_game(name, **{param.name: value})
            except rules.ParameterError:
                continue  # a combination the rules refuse (oware: no limit needs repetition)
            controller = MatchController(Session.new(variant, (HUMAN, HUMAN)), FakeSettings(), None, None)
            said = controller.rules_text()
            assert said != "standard rules" and not re.search(r"_|True|False", said), (name, param.name, said)
            assert param.name.replace("_", " ") in said or param.name == "no_capture_limit", (name, param.name, said)
    kalah = rules.get_game("kalah", pits=4, seeds=3, empty_capture=False)
    assert MatchController(Session.new(kalah, (HUMAN, HUMAN)), FakeSettings(), None, None).rules_text() == \
        "pits 4, seeds 3, no empty capture"
    oware = rules.get_game("oware", no_capture_limit=50, grand_slam="forbidden")
    assert MatchController(Session.new(oware, (HUMAN, HUMAN)), FakeSettings(), None, None).rules_text() == \
        "grand slam forbidden, 50-move limit without captures"
