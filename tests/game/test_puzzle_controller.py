"""The puzzle screen's controller without a window: choosing a round, undo/redo, hint and watch (through a
stand-in for the search processes), save and load, the end and its record, and the buttons' states."""
from __future__ import annotations

from types import SimpleNamespace

from ai.base import SearchResult
from ai.worker import Failed, Finished, Progress
from game import savegame
from game.autosave import Autosave
from game.puzzle_controller import ROUND_GAP, PuzzleController
from game.puzzle_session import Puzzle, PuzzleSession
from game.records import RecordsStore
from levels.solitaire import find_level
from rules.solitaire import CCW, CW, Round, can_set_aside


class FakeSearches:
    """``game.puzzle_search.PuzzleSearches`` without processes: the test posts the messages."""

    def __init__(self) -> None:
        self.started: list[tuple[str, str, object]] = []
        self.running: dict[str, object] = {}
        self.inbox: list[tuple[str, object]] = []
        self.cancelled: list[str] = []

    def start(self, role, game, spec, state):  # type: ignore[no-untyped-def]
        self.started.append((role, spec, state))
        self.running[role] = state
        return None

    def is_running(self, role: str) -> bool:
        return role in self.running

    def cancel(self, role: str | None = None) -> None:
        for name in [role] if role else list(self.running):
            if self.running.pop(name, None) is not None:
                self.cancelled.append(name)

    def poll(self):  # type: ignore[no-untyped-def]
        inbox, self.inbox = self.inbox, []
        for role, message in inbox:
            if role not in self.running:
                continue
            state = self.running[role]
            if isinstance(message, (Finished, Failed)):
                del self.running[role]
            yield role, state, message

    def refill(self) -> None:
        pass

    def open(self) -> None:
        pass

    def close(self) -> None:
        self.cancel()


def make(tmp_path, level_id: str = "lewis-01"):  # type: ignore[no-untyped-def]
    level = find_level(level_id)
    searches = FakeSearches()
    records = RecordsStore(tmp_path)
    controller = PuzzleController(PuzzleSession(Puzzle.from_level(level)), SimpleNamespace(engine_choices={}),
                                  Autosave(tmp_path), records, searches=searches)
    return controller, level, searches


def rounds_of(controller, level):  # type: ignore[no-untyped-def]
    game, state, moves = controller.game, controller.session.state, []
    for text in level.line:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.apply(state, move)
    return moves


def test_a_round_is_chosen_by_hole_and_direction_and_queued_for_the_board(tmp_path) -> None:
    controller, level, _ = make(tmp_path, "dose-01")
    assert controller.start_hole() is None and not controller.enabled()["Clockwise"]
    controller.choose(CW)
    assert controller.notice_warning and controller.session.rounds == 0
    first = rounds_of(controller, level)[0]
    controller.click_hole(first.hole - 1)
    assert controller.chosen == first.hole - 1 and controller.enabled()["Clockwise"]
    before = controller.session.state
    controller.choose(first.direction)
    change = controller.board_changes[-1]
    assert (change.before, change.move, change.after) == (before, first, controller.session.state)
    assert controller.session.rounds == 1 and controller.chosen is None
    assert controller.last_text.startswith("Round 1:") and controller.last_start == first.hole - 1


def test_undo_redo_and_restart_show_the_board_at_once_and_keep_who_played(tmp_path) -> None:
    controller, level, _ = make(tmp_path)
    moves = rounds_of(controller, level)
    controller.play(moves[0])
    controller.play(moves[1], by_computer=True)
    controller.board_changes.clear()
    controller.undo()
    assert controller.session.rounds == 1 and controller.board_changes[-1].move is None
    assert controller.board_changes[-1].after == controller.session.state
    controller.redo()
    assert controller.session.by_computer == [False, True] and controller.board_changes[-1].move == moves[1]
    controller.restart()
    assert controller.session.rounds == 0 and controller.board_changes[-1].after == controller.session.state
    controller.undo()
    assert "Nothing to undo" in controller.notice


def test_the_lewis_question_is_asked_when_a_stone_can_be_set_aside(tmp_path) -> None:
    controller, level, _ = make(tmp_path)
    state = controller.session.state
    hole, direction = next((h, d) for h in range(12) for d in (CW, CCW) if state.holes[h]
                           and can_set_aside(state.holes, h, d))
    controller.click_hole(hole)
    controller.choose(direction)
    assert controller.asking == direction and controller.controls_row == "asking"
    assert controller.enabled()["Set aside"] and not controller.enabled()["Clockwise"]
    controller.decide(True)
    assert controller.session.moves[-1] == Round(hole + 1, direction, True) and controller.asking is None


def test_a_hint_is_shown_for_its_own_position_only(tmp_path) -> None:
    controller, level, searches = make(tmp_path)
    moves = rounds_of(controller, level)
    controller.hint()
    assert searches.started[-1][0] == "hint" and "thinking" in controller.hint_text
    searches.inbox.append(("hint", Progress(SearchResult(None, info={"live": True, "visited": 1234}), 1.0)))
    controller.update(0.1, animating=False)
    assert "stored so far" in controller.hint_text and "states" not in controller.hint_text  # engine counts: Details
    line = tuple(moves[:12])  # the rest of a solution, 12 rounds long
    searches.inbox.append(("hint", Finished(SearchResult(moves[0], 48, pv=line, info={"solved": True}), False)))
    controller.update(0.1, animating=False)
    # In words: the hole as the board numbers it, the way the stones go on screen, the rounds still to play.
    report = controller.game.report(controller.session.state, moves[0])
    way = "right" if (moves[0].direction == "cw") == (report.picked.index < 6) else "left"
    assert controller.hint_move == moves[0]
    assert controller.notice.startswith(f"Hint: Sow hole {report.picked.number} to the {way}:")
    assert controller.notice.endswith("the board is clear in 12 rounds")
    controller.play(moves[0])  # the position changed: the hint goes
    assert controller.hint_move is None and controller.hint_text == ""
    controller.hint()
    controller.play(moves[1])  # a hint asked before this round is cancelled, never shown
    assert "hint" in searches.cancelled and not searches.is_running("hint")


def test_watching_plays_the_engines_line_round_by_round_then_records_nothing(tmp_path) -> None:
    controller, level, searches = make(tmp_path)
    moves = rounds_of(controller, level)
    controller.toggle_watch()
    assert controller.watch.active and not controller.enabled()["Watch"] and not controller.enabled()["Hint"]
    controller.update(0.01, animating=False)
    assert searches.started[-1][0] == "watch"
    searches.inbox.append(("watch", Finished(SearchResult(moves[0], pv=tuple(moves), exhaustive=True,
                                                           info={"solved": True, "reason": "a win"}), False)))
    controller.update(0.01, animating=False)
    assert controller.watch.line == (controller.session.states[0], tuple(moves))
    controller.update(ROUND_GAP, animating=True)  # the stones still fly: nothing is played
    assert controller.session.rounds == 0
    steps = 0
    while not controller.session.is_over and steps < 10 * len(moves):
        controller.update(ROUND_GAP, animating=False)
        steps += 1
    assert controller.session.rounds == len(moves) and all(controller.session.by_computer)
    from game.puzzle_words import round_list

    lines = round_list(controller.session)  # every round the computer's: each line still fits the panel
    assert all(line.endswith(" (PC)") and len(line) <= 26 for line in lines) and any(" +1" in line for line in lines)
    controller.update(0.01, animating=False)
    assert not controller.watch.active and controller.should_finish(animating=False)
    verdict = controller.finish()
    assert verdict.won and "Not recorded" in controller.record_line and controller.records.best(level.id) is None


def test_a_failed_engine_stops_watching_with_its_reason(tmp_path) -> None:
    controller, _, searches = make(tmp_path)
    controller.toggle_watch()
    controller.update(0.01, animating=False)
    searches.inbox.append(("watch", Failed("out of memory")))
    controller.update(0.01, animating=False)
    assert not controller.watch.active and "out of memory" in controller.notice and controller.notice_warning


def test_the_players_win_is_recorded_once(tmp_path) -> None:
    controller, level, _ = make(tmp_path)
    for move in rounds_of(controller, level):
        controller.play(move)
    assert controller.should_finish(animating=False) and not controller.should_finish(animating=True)
    assert not controller.enabled()["Watch"] and not controller.enabled()["Hint"]
    verdict = controller.finish()
    assert verdict.won and "first result" in controller.record_line
    assert controller.records.best(level.id).cleared and not controller.should_finish(animating=False)


def test_save_and_load_round_trip_and_a_bad_file_leaves_the_board(tmp_path) -> None:
    controller, level, _ = make(tmp_path)
    moves = rounds_of(controller, level)
    controller.play(moves[0])
    path = tmp_path / "saves" / "solitaire-1.save"
    assert controller.save(path) and controller.save_path == path and savegame.load(path).moves == (moves[0],)
    other, _, _ = make(tmp_path, "dose-02")
    assert other.load(path) and other.session.puzzle.key == level.id and other.session.rounds == 1
    assert other.board_changes[-1].after == other.session.state and other.save_path == path
    bad = tmp_path / "bad.save"
    bad.write_text("not a save", encoding="utf-8")
    state = other.session.state
    assert not other.load(bad)
    assert other.session.state == state and "unchanged" in other.notice and other.notice_warning


# -- #21: no stale or contradicting text -------------------------------------------------------------------
def test_a_played_round_clears_the_selection_hint_and_saved_lines(tmp_path) -> None:
    controller, level, searches = make(tmp_path)
    moves = rounds_of(controller, level)
    controller.click_hole(moves[0].hole - 1)
    assert "choose a direction" in controller.notice
    controller.choose(moves[0].direction)
    assert controller.notice == "" or controller.asking is not None
    if controller.asking is not None:
        controller.decide(moves[0].set_aside)
    assert "choose a direction" not in controller.notice and controller.session.rounds == 1
    assert controller.save(tmp_path / "solitaire-a.save") and controller.notice.startswith("Saved")
    controller.play(moves[1])
    assert controller.notice == ""
    controller.hint()
    searches.inbox.append(("hint", Finished(SearchResult(moves[2], info={}), False)))
    controller.update(0.1, animating=False)
    assert controller.notice.startswith("Hint:")
    controller.play(moves[2])
    assert controller.notice == "" and controller.hint_text == ""


def lose(controller) -> None:  # type: ignore[no-untyped-def]
    """Play the first legal round each time until the game ends (a lewis deal played that way is lost)."""
    while not controller.session.is_over:
        controller.play(controller.session.legal_moves[0])


def test_after_a_loss_keys_say_the_game_is_over_and_the_verdict_offers_nothing_disabled(tmp_path) -> None:
    controller, _, _ = make(tmp_path)
    lose(controller)
    verdict = controller.session.verdict()
    assert verdict.won is False
    for press in (lambda: controller.choose_side(True), lambda: controller.choose(CW), controller.hint,
                  lambda: controller.click_hole(0)):
        controller.say("")
        press()
        assert "game is over" in controller.notice and "Select a hole" not in controller.notice
    # Watch is disabled once the game is over: the verdict may only offer it after an Undo.
    assert not controller.enabled()["Watch"]
    assert "watch" not in verdict.detail.lower() or "once undone, Watch" in verdict.detail
    controller.undo()
    assert controller.enabled()["Watch"]


def test_rounds_loaded_from_a_save_are_not_all_marked_as_the_computers(tmp_path) -> None:
    from game.puzzle_words import round_list

    controller, level, _ = make(tmp_path)
    moves = rounds_of(controller, level)
    controller.play(moves[0])
    controller.play(moves[1], by_computer=True)
    controller.play(moves[2])
    assert [line.endswith("(PC)") for line in round_list(controller.session)] == [False, True, False]
    path = tmp_path / "solitaire-helped.save"
    controller.save(path)
    other, _, _ = make(tmp_path)
    assert other.load(path)
    assert not any(line.endswith("(PC)") for line in round_list(other.session))
    assert other.session.assisted  # still never recorded as the player's own
    lose(other)
    other.finish()
    assert other.record_line.startswith("Not recorded: the computer helped")
    # Restarted and played alone, the deal counts again.
    alone, _, _ = make(tmp_path)
    assert alone.load(path)
    alone.restart()
    alone.play(moves[0])
    assert not alone.session.assisted


# -- #21: words ------------------------------------------------------------------------------------------------
def test_the_screen_speaks_of_holes_as_the_board_numbers_them(tmp_path) -> None:
    from game.puzzle_words import round_list, rules_line, status

    controller, level, _ = make(tmp_path)
    moves = rounds_of(controller, level)
    subtitle, turn, _ = status(controller.session, controller.watch)
    assert subtitle == f"{level.name}, Clear the board" and turn == "Round 1: pick a hole"
    assert "Evan Lewis" in rules_line(controller.session)
    controller.click_hole(moves[0].hole - 1)
    assert controller.notice.startswith(f"Hole {moves[0].hole} (")
    controller.play(moves[0])
    controller.play(moves[1])
    texts = [controller.last_text, status(controller.session, controller.watch)[1], *round_list(controller.session)]
    for text in texts:
        assert "hole0" not in text and "hole1" not in text and "store0" not in text and " cw" not in text, text
    selected = controller.session.state.selected
    assert texts[1] == f"Round 3: hole {selected + 1}"
    assert round_list(controller.session)[0].startswith(f"  1. hole {moves[0].hole} ")


def test_the_console_lists_the_levels_by_set_easy_and_short_first() -> None:
    import io

    from game.console.solitaire import main
    from levels.solitaire import load_levels

    out = io.StringIO()
    main(["solitaire", "--level", "lewis-01"], stdin=io.StringIO("levels\nquit\n"), stdout=out)
    listed = [line.split()[0] for line in out.getvalue().splitlines() if line.startswith(("lewis-", "dose-"))]
    assert listed == [level.id for level in load_levels()[0]]
    first = next(line for line in out.getvalue().splitlines() if line.startswith(listed[0]))
    assert "Clear the board" in first and f"{find_level(listed[0]).length} rounds" in first
