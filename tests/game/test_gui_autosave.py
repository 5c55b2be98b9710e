"""The game in progress survives a crash: kept after every move in its own slot, offered again on the title
screen (issue 22; a slot per game since issue 29)."""
from __future__ import annotations

import arcade

from game import app, savegame
from game.autosave import FOLDER
from game.views.solitaire_view import SolitaireView
from game.views.sowing_view import SowingView
from game.views.title import TitleView


def _human_kalah(gui):  # type: ignore[no-untyped-def]
    import rules
    from game.session import Session
    from game.savegame import Seat

    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat())))
    gui.frame()
    return gui.window.current_view


def _resume_buttons(gui):  # type: ignore[no-untyped-def]
    view = gui.window.current_view
    assert isinstance(view, TitleView)
    return view.resume_buttons


def test_every_move_is_autosaved_and_resumed_after_an_abnormal_exit(gui):  # type: ignore[no-untyped-def]
    view = _human_kalah(gui)
    assert not (gui.context.save_dir / FOLDER).exists()
    for key in (arcade.key.KEY_3, arcade.key.KEY_2, arcade.key.KEY_6):
        gui.key(key)
        path = gui.context.autosave.slot_path(view.match.slot)
        assert list(savegame.load(path).moves) == list(view.match.moves)  # after every move, not only at the end
    moves = view.match.moves
    assert not list((gui.context.save_dir / FOLDER).glob(".*.tmp"))
    # The process dies here: nothing runs but a new start on the same folder.
    context = app.start(gui.window, gui.config_dir)
    context.sounds.enabled = False
    gui.context = context
    gui.frame()
    assert isinstance(gui.window.current_view, TitleView)
    [button] = _resume_buttons(gui)
    assert button.text.startswith("Kalah, 3 moves  -  Human vs Human  -  today ")
    gui.click(*button.rect.center)
    resumed = gui.window.current_view
    assert isinstance(resumed, SowingView) and list(resumed.match.moves) == list(moves)
    assert resumed.match.slot == path.stem, "resumed in its own slot: its next moves update the same entry"
    assert resumed.save_path is None  # Save writes a save of its own, never over the game in progress
    gui.press("Save")
    assert resumed.save_path is not None and resumed.save_path.parent == gui.context.save_dir
    assert path.exists(), "saved by the player but unfinished: still a game in progress"
    context.show_title()
    gui.frame()
    assert [b.text.split("  -  ")[0] for b in _resume_buttons(gui)] == ["Kalah, 3 moves"]


def test_the_autosave_goes_when_the_game_ends_or_is_undone_to_its_start(gui):  # type: ignore[no-untyped-def]
    view = _human_kalah(gui)
    gui.key(arcade.key.KEY_3)
    path = gui.context.autosave.slot_path(view.match.slot)
    assert path.exists()
    view.undo()
    assert not path.exists()
    while not view.match.is_over:
        view.play(view.match.game.legal_moves(view.match.state)[0])
        view.scene.finish()
        path = gui.context.autosave.slot_path(view.match.slot)
        if not view.match.is_over:
            assert path.exists()
    assert not path.exists() and not gui.context.autosave.slots()


def test_a_corrupt_autosave_is_set_aside_with_a_message(gui):  # type: ignore[no-untyped-def]
    folder = gui.context.save_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bad.save").write_text("StoneCave save 1\ngame: kalah\nmoves: ²\n")
    gui.context.show_title()
    gui.frame()
    view = gui.window.current_view
    assert "could not be restored" in view._message.text and "set aside" in view._message.text
    assert not (folder / "bad.save").exists() and list(folder.glob("bad.save.bad-*"))
    assert _resume_buttons(gui) == []


def test_a_puzzle_in_progress_is_autosaved_and_resumed(gui):  # type: ignore[no-untyped-def]
    gui.context.show_puzzles()
    gui.frame()
    gui.press("Deal")
    view = gui.window.current_view
    assert isinstance(view, SolitaireView)
    move = view.session.game.legal_moves(view.session.state)[0]
    view.play(move)
    view.scene.finish()
    path = gui.context.autosave.slot_path(view.session.slot)
    assert savegame.load(path).moves == (move,)
    gui.context.show_title()
    gui.frame()
    [button] = _resume_buttons(gui)
    assert button.text.startswith("Solitaire Mancala, 1 round  -  solo")
    gui.click(*button.rect.center)
    resumed = gui.window.current_view
    assert isinstance(resumed, SolitaireView) and tuple(resumed.session.moves) == (move,)
    assert resumed.save_path is None and resumed.session.slot == path.stem


HOSTILE_KALAH = ("StoneCave save 2\ngame: kalah:pits=6,seeds=4,empty_capture=true\nseat South: human\n"
                 "seat North: human\nseed: none\nstart: pits={pit},4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S\nmoves: 1\n"
                 "move 1: 2\nposition: pits={pit},0,5,5,5,5/4,4,4,4,4,4 stores=0,0 move=N\nend\n")
"""A save whose first pit holds ``pit`` seeds (issue 31 item 17: 1,000 froze the window, 60,000 killed it)."""


def test_an_autosave_with_60000_seeds_in_a_pit_is_never_offered_for_resume(gui):  # type: ignore[no-untyped-def]
    folder = gui.context.save_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hostile.save").write_text(HOSTILE_KALAH.format(pit=60000))
    gui.context.show_title()
    gui.frame()
    view = gui.window.current_view
    assert isinstance(view, TitleView)
    assert "could not be restored" in view._message.text and "always has exactly 48" in view._message.text
    assert _resume_buttons(gui) == []
    assert not (folder / "hostile.save").exists() and list(folder.glob("hostile.save.bad-*"))
    gui.context.show_title()  # the next start (or the next visit) meets no game in progress at all
    gui.frame()
    assert not gui.window.current_view._message.text
    assert _resume_buttons(gui) == []


def test_loading_a_save_with_1000_seeds_in_a_pit_says_why_and_changes_nothing(gui):  # type: ignore[no-untyped-def]
    from game.views.load_view import LoadView

    folder = gui.context.save_dir
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kalah-hostile.save").write_text(HOSTILE_KALAH.format(pit=1000))
    gui.context.show_load()
    gui.frame()
    view = gui.window.current_view
    assert isinstance(view, LoadView) and len(view.saves) == 1
    view.load(view.saves[0].path)
    gui.frame()
    assert gui.window.current_view is view, "a refused save must leave the screen as it was"
    assert view._message.text.startswith("Cannot load kalah-hostile.save: line 6 (start): not a position Kalah "
                                         "can reach"), view._message.text
    assert (folder / "kalah-hostile.save").exists(), "a save the player named is reported, never moved"


def test_an_autosave_that_cannot_be_resumed_is_set_aside_not_offered_again(gui, monkeypatch):  # type: ignore[no-untyped-def]
    """A game the window cannot open (here made so by the test) is reported once and the file set aside, so
    the title screen stops offering a Resume that can only fail."""
    from game.views import load_view

    view = _human_kalah(gui)
    gui.key(arcade.key.KEY_3)
    path = gui.context.autosave.slot_path(view.match.slot)
    assert path.exists() and view.match.moves
    gui.context.show_title()
    gui.frame()

    def cannot(saved):  # type: ignore[no-untyped-def]
        raise savegame.SaveError("Kalah games cannot be played in this window yet")

    monkeypatch.setattr(load_view, "match_from_saved", cannot)
    [button] = _resume_buttons(gui)
    gui.click(*button.rect.center)
    title = gui.window.current_view
    assert isinstance(title, TitleView)
    assert "could not be restored" in title._message.text and "set aside" in title._message.text
    assert not path.exists() and list(path.parent.glob(path.name + ".bad-*"))
    assert _resume_buttons(gui) == [], "the list on screen follows at once"
    gui.context.show_title()
    gui.frame()
    assert _resume_buttons(gui) == []
