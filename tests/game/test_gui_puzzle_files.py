"""The puzzle screen's redo, save, load, rules screen and search process, driven by keys and clicks under Xvfb."""
from __future__ import annotations

import os
import signal

import arcade

from game import savegame
from game.scenes.solitaire_board import counts
from game.puzzle_session import Puzzle
from game.views.rules_view import RulesView
from game.views.solitaire_view import SolitaireView
from levels.solitaire import find_level
from rules import parse_game_spec
from test_gui_puzzles import open_level, play_by_input

CTRL = arcade.key.MOD_CTRL


def test_undo_and_redo_by_keys_and_buttons_and_a_new_round_clears_redo(gui):  # type: ignore[no-untyped-def]
    level = find_level("lewis-02")
    view = open_level(gui, level.id)
    for text in level.line[:4]:
        play_by_input(gui, view, text)
    after = list(view.session.states)
    assert gui.button("Redo").disabled
    gui.key(arcade.key.U)
    gui.key(arcade.key.Z, CTRL)
    gui.press("Undo")
    assert view.session.state == after[1] and not gui.button("Redo").disabled
    gui.key(arcade.key.R)
    assert view.session.state == after[2]
    gui.key(arcade.key.Y, CTRL)
    gui.press("Redo")
    assert view.session.state == after[4] and view.session.rounds == 4
    gui.key(arcade.key.R)  # nothing left to redo
    assert view.session.state == after[4] and "Nothing to redo" in view.controller.notice
    view.scene.finish()
    assert view.scene.counts == counts(after[4])
    gui.key(arcade.key.U)
    other = next(m for m in view.session.legal_moves if m != level.line[3] and m != view.session.next_redo)
    view.play(other)
    assert not view.session.can_redo()  # a different round: the taken-back one cannot come back


def test_a_puzzle_saved_with_ctrl_s_loads_back_from_the_load_panel(gui):  # type: ignore[no-untyped-def]
    level = find_level("dose-03")
    view = open_level(gui, level.id)
    for text in level.line[:5]:
        play_by_input(gui, view, text)
    saved_state, saved_rounds = view.session.state, view.session.rounds
    gui.key(arcade.key.S, CTRL)
    files = list((gui.config_dir / "saves").glob("*.save"))
    assert len(files) == 1 and view.save_path == files[0] and "Saved to" in view.controller.notice
    loaded = savegame.load(files[0], expect_game="solitaire")  # the common format, readable by the console
    assert loaded.state == saved_state and loaded.seats[0].is_human
    assert not list((gui.config_dir / "saves").glob(".*.tmp"))
    gui.press("Restart")
    assert view.session.rounds == 0
    gui.key(arcade.key.O, CTRL)
    assert view._load_panel is not None
    gui.press(files[0].stem)
    assert view._load_panel is None and "Loaded" in view.controller.notice
    session = view.session
    assert session.state == saved_state and session.rounds == saved_rounds
    assert session.puzzle.key == level.id and not session.assisted  # found the level again: records still count
    gui.frame(5)
    assert view.scene.counts == counts(saved_state)
    # The game goes on from there by input.
    play_by_input(gui, view, level.line[5])
    assert view.session.rounds == saved_rounds + 1


def test_a_corrupt_or_wrong_game_save_is_named_and_the_puzzle_is_untouched(gui):  # type: ignore[no-untyped-def]
    level = find_level("lewis-01")
    view = open_level(gui, level.id)
    for text in level.line[:3]:
        play_by_input(gui, view, text)
    folder = gui.config_dir / "saves"
    folder.mkdir(exist_ok=True)
    kalah = parse_game_spec("kalah")
    (folder / "kalah-1.save").write_text(savegame.dumps(savegame.new_game(kalah, [savegame.Seat(), savegame.Seat()])))
    good = savegame.dumps(view.session.saved_as("packed-dfs"))
    (folder / "broken.save").write_text(good.replace("move 2:", "move 2: 99 sideways #", 1))
    (folder / "cut.save").write_text(good[: good.index("position:")])  # cut short at a line end
    session, state = view.session, view.session.state
    for name, expected in (("kalah-1.save", "save of Kalah, not Solitaire Mancala"), ("broken.save", "move 2"),
                           ("cut.save", "ends early")):
        gui.key(arcade.key.L)
        gui.press(name.removesuffix(".save"))
        assert f"Cannot load {name}" in view.controller.notice and expected in view.controller.notice and view.controller.notice_warning, view.controller.notice
        assert "unchanged" in view.controller.notice
        assert view.session is session and session.state == state and session.rounds == 3
    gui.key(arcade.key.L)
    gui.key(arcade.key.ESCAPE)  # Escape closes the panel, not the screen
    assert view._load_panel is None and gui.window.current_view is view


def test_a_save_the_computer_helped_with_loads_as_assisted(gui, tmp_path):  # type: ignore[no-untyped-def]
    gui.context.show(SolitaireView(gui.context, Puzzle.from_seed("lewis", 21)))
    view = gui.window.current_view
    move = view.session.legal_moves[0]
    view.play(move, by_computer=True)
    view.save()
    loaded = savegame.load(view.save_path)
    assert not loaded.seats[0].is_human and loaded.seed == 21
    assert view.load_file(view.save_path)
    assert view.session.assisted and view.session.puzzle.seed == 21 and view.session.moves == [move]


def test_f1_opens_the_solitaire_rules_and_back_returns_to_the_puzzle_as_it_was(gui):  # type: ignore[no-untyped-def]
    level = find_level("lewis-04")
    view = open_level(gui, level.id)
    for text in level.line[:2]:
        play_by_input(gui, view, text)
    state = view.session.state
    gui.key(arcade.key.H)
    gui.key(arcade.key.F1)
    rules = gui.window.current_view
    assert isinstance(rules, RulesView) and rules.page.name == "solitaire"
    gui.press("Back")
    assert gui.window.current_view is view and view.session.state == state
    gui.frames_until(lambda: view.controller.hint_move is not None, limit=900)  # the hint asked before F1 comes
    assert view.controller.hint_move in view.session.legal_moves
    gui.press("Rules")  # the button does the same
    assert isinstance(gui.window.current_view, RulesView)
    gui.key(arcade.key.ESCAPE)
    assert gui.window.current_view is view and view.session.state == state


def test_watching_with_astar_runs_in_a_process_that_stop_kills_and_a_crash_is_reported(gui):  # type: ignore[no-untyped-def]
    gui.context.settings.engine_choices["solitaire"] = {"watch": "astar:time=60"}
    gui.context.show(SolitaireView(gui.context, Puzzle.from_seed("dose", 11)))
    view = gui.window.current_view
    gui.press("Watch")
    gui.frames_until(lambda: "stored so far" in view.controller.watch.text, limit=900)
    assert view.controller.watch.active and gui.button("Pause").text.startswith("Pause")  # the row under the board
    worker = view.controller.searches.watch_worker
    assert worker is not None and worker.process is not None
    assert worker.process.pid != os.getpid()
    gui.press("Stop")
    assert not view.controller.watch.active and view.controller.searches.watch_worker is None and worker.token.is_cancelled
    assert worker.process.popen.wait(timeout=10) == -signal.SIGKILL
    gui.frame()
    assert view.controller.searches.launcher is not None and view.controller.searches.launcher.has_spare  # idle again: a warm process waits
    # A search process that dies says so on the screen, and the player has the board back.
    gui.press("Watch")
    gui.frames_until(lambda: view.controller.searches.watch_worker is not None and view.controller.searches.watch_worker.process is not None, limit=300)
    os.kill(view.controller.searches.watch_worker.process.pid, signal.SIGKILL)
    gui.frames_until(lambda: not view.controller.watch.active, limit=600)
    assert "stopped unexpectedly" in view.controller.notice and view.controller.notice_warning and view.session.rounds == 0


def test_continue_on_the_puzzles_screen_opens_the_newest_saved_puzzle(gui):  # type: ignore[no-untyped-def]
    from game.views.puzzles import PuzzlesView

    gui.press("Puzzles")
    gui.press("Continue")  # nothing saved yet: said so, and the screen stays
    puzzles = gui.window.current_view
    assert isinstance(puzzles, PuzzlesView) and "No saved puzzle" in puzzles._message.text
    gui.press("Back")
    level = find_level("dose-02")
    view = open_level(gui, level.id)
    for text in level.line[:3]:
        play_by_input(gui, view, text)
    gui.press("Save")
    state = view.session.state
    gui.press("Puzzles")
    gui.press("Continue")
    again = gui.window.current_view
    assert isinstance(again, SolitaireView) and again is not view
    assert again.session.state == state and again.session.puzzle.key == level.id
    assert again.save_path == view.save_path
    gui.frame(3)
    assert again.scene.counts == counts(state)


def test_a_watch_search_that_spends_its_budget_says_it_gave_up_and_plays_its_best_round(gui):  # type: ignore[no-untyped-def]
    gui.context.settings.engine_choices["solitaire"] = {"watch": "astar:nodes=3000"}
    gui.context.show(SolitaireView(gui.context, Puzzle.from_seed("dose", 8)))
    view = gui.window.current_view
    gui.press("Watch")
    gui.frames_until(lambda: "reached its limit" in view.controller.watch.text, limit=900)
    assert "not proven" in view.controller.watch.text and "states" not in view.controller.watch.text
    gui.frames_until(lambda: view.session.rounds >= 1, limit=900)  # it still plays the best round it found
    assert view.session.by_computer[0]
    gui.press("Stop")


def test_load_game_on_the_title_screen_continues_a_saved_puzzle_on_the_puzzle_screen(gui):  # type: ignore[no-untyped-def]
    from game.views.title import TitleView

    level = find_level("lewis-03")
    view = open_level(gui, level.id)
    for text in level.line[:3]:
        play_by_input(gui, view, text)
    gui.press("Save")
    state, rounds = view.session.state, view.session.rounds
    gui.press("Puzzles")
    gui.press("Back")
    assert isinstance(gui.window.current_view, TitleView)
    gui.press("Load game")
    gui.press(f"Solitaire Mancala, {rounds} rounds")  # the load list names the game and its length
    again = gui.window.current_view
    assert isinstance(again, SolitaireView) and again is not view
    assert again.session.state == state and again.session.rounds == rounds
    assert again.session.puzzle.key == level.id and again.save_path == view.save_path
    gui.frame(3)
    assert again.scene.counts == counts(state)
