"""Games in progress are the player's data (issue 29, item 3): a journey in a real window.

Six moves into Kalah against the computer, then a puzzle round, Hus, the cave, a puzzle watched to its end and
Ctrl+S: after every step every game begun and not finished is offered on the title screen, and each offer
resumes to the position it names.  Before issue 29 one autosave held one game: the puzzle round replaced the
Kalah game, and the watched puzzle's end removed the offer altogether.
"""
from __future__ import annotations

import arcade
import arcade.gui

import rules
from game import savegame
from game.autosave import FOLDER, NAME, Autosave
from game.savegame import Seat
from game.session import Session
from game.puzzle_session import Puzzle
from game.views.solitaire_view import SolitaireView
from levels.solitaire import load_levels

from games_in_progress import check_every_offer, leave, offers  # the journeys check the same offers


def play_kalah_against_the_computer(gui, moves: int) -> tuple:  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat("random", 0.05))))
    gui.frame()
    view = gui.window.current_view
    while len(view.match.moves) < moves or not view.match.is_human_turn:
        if view.match.is_human_turn:
            view.play(view.match.legal_moves[-1])
        view.scene.finish()
        gui.frames_until(lambda: view.match.is_human_turn or view.match.is_over, limit=900)
        view.scene.finish()
        assert not view.match.is_over
    leave(gui)
    return tuple(view.match.moves)


def play_a_puzzle_round(gui) -> tuple:  # type: ignore[no-untyped-def]
    gui.context.show_puzzles()
    gui.frame()
    gui.press("Deal")
    view = gui.window.current_view
    move = view.session.game.legal_moves(view.session.state)[0]
    view.play(move)
    view.scene.finish()
    leave(gui)
    return (move,)


def start_and_move(gui, name: str) -> tuple:  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game(name), (Seat(), Seat())))
    gui.frame()
    view = gui.window.current_view
    view.play(view.match.legal_moves[0])
    view.scene.finish()
    leave(gui)
    return tuple(view.match.moves)


def test_every_game_left_unfinished_stays_on_offer_through_an_evening(gui):  # type: ignore[no-untyped-def]
    expected: dict[str, tuple] = {}
    expected["Kalah"] = play_kalah_against_the_computer(gui, 6)
    check_every_offer(gui, expected)

    expected["Solitaire Mancala"] = play_a_puzzle_round(gui)
    check_every_offer(gui, expected)

    expected["Hus"] = start_and_move(gui, "hus")
    check_every_offer(gui, expected)

    expected["Magnetic Cave"] = start_and_move(gui, "magnetic-cave")
    check_every_offer(gui, expected)

    # A puzzle watched to its end: that game ended, so it is not offered; every other one still is.
    # (a level the player takes most of the way, so the computer's part is short; in progress until it ends)
    level = next(level for level in load_levels()[0] if level.id == "lewis-03")
    view = SolitaireView(gui.context, Puzzle.from_level(level))
    gui.context.show(view)
    gui.frame()
    for text in level.line[:-6]:
        view.play(view.session.game.parse_move(view.session.state, text))
        view.scene.finish()
    assert len(gui.context.autosave.slots()) == len(expected) + 1  # a second puzzle in progress, for now
    gui.press("Watch")
    gui.frames_until(lambda: view.session.is_over, limit=2000, dt=0.05)
    leave(gui)
    check_every_offer(gui, expected)

    # Ctrl+S in the Kalah game: saved under a name of its own, and still on offer for Resume.
    kalah = next(b for b in offers(gui) if b.text.startswith("Kalah"))
    gui.click(*kalah.rect.center)
    view = gui.window.current_view
    gui.key(arcade.key.S, arcade.key.MOD_CTRL)
    assert view.save_path is not None and view.save_path.exists()
    leave(gui)
    check_every_offer(gui, expected)

    # The offers name the game, the players, the moves and when.
    texts = {b.text.split(",")[0]: b.text for b in offers(gui)}
    assert texts["Kalah"].startswith(f"Kalah, {len(expected['Kalah'])} moves  -  Human vs Computer  -  today ")
    assert texts["Hus"].startswith("Hus, 1 move  -  Human vs Human  -  today ")

    # Quitting keeps them all: the next evening (a new start on the same folder) offers the same games.
    from game import app

    gui.context = app.start(gui.window, gui.config_dir)
    gui.context.sounds.enabled = False
    check_every_offer(gui, expected)


def test_a_game_is_removed_only_when_the_player_says_so_on_the_load_screen(gui):  # type: ignore[no-untyped-def]
    from game.views.load_view import LoadView

    kept = start_and_move(gui, "oware")
    start_and_move(gui, "kalah")
    gui.context.show_load()
    gui.frame()
    view = gui.window.current_view
    assert isinstance(view, LoadView) and [g.saved.game.title for g in view.kept] == ["Kalah", "Oware"]
    remove = [w for w in gui.widgets(arcade.gui.UIFlatButton) if w.text == "Remove..."]
    assert len(remove) == 2
    where = remove[0].rect.center
    gui.click(*where)
    assert view.confirming is not None and view.confirming.saved.game.title == "Kalah"
    gui.click(*where)  # a double click on Remove... lands on nothing that removes
    assert view.confirming is not None and len(gui.context.autosave.slots()) == 2
    gui.press("Keep it")
    assert view.confirming is None and len(gui.context.autosave.slots()) == 2
    gui.click(*[w for w in gui.widgets(arcade.gui.UIFlatButton) if w.text == "Remove..."][0].rect.center)
    gui.key(arcade.key.ESCAPE)  # Escape keeps it too
    assert view.confirming is None and len(gui.context.autosave.slots()) == 2
    gui.click(*[w for w in gui.widgets(arcade.gui.UIFlatButton) if w.text == "Remove..."][0].rect.center)
    gui.press("Remove it")
    assert [g.saved.game.title for g in view.kept] == ["Oware"] and len(gui.context.autosave.slots()) == 1
    assert "Removed Kalah, 1 move" in view._message.text
    check_every_offer(gui, {"Oware": kept})


def test_the_single_autosave_of_earlier_versions_is_adopted(tmp_path):  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah")
    start = game.initial_state()
    move = game.legal_moves(start)[0]
    savegame.save(tmp_path / NAME, savegame.SavedGame(game, (Seat(), Seat()), start, (move,)))
    store = Autosave(tmp_path)
    games, problems = store.games()
    assert problems == [] and [g.saved.moves for g in games] == [(move,)]
    assert not (tmp_path / NAME).exists() and games[0].path.parent == tmp_path / FOLDER
