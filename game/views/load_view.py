"""Load game: the saves in the saves folder, newest first; a click continues the game.

Saves use the common format of ``game.savegame`` (the console reads them too).  A Solitaire Mancala save (a
puzzle saved from the puzzle screen or the console) opens on the puzzle screen; any other game on its match
screen.  A file that cannot be used (corrupt, another program's, a game this window cannot draw) is reported
on screen with the reason the save module gives (line and field), and nothing else happens.
"""
from __future__ import annotations

import time
from pathlib import Path

import arcade.gui

from game import autosave, catalogue, savegame, theme
from game.context import AppContext
from game.session import Session
from game.views.base import MenuView

SHOWN = 8
SUFFIX = ".save"
PUZZLE_SCENE = "puzzle"
"""Saves of a game registered with this scene continue on the puzzle screen (``game/catalogue.py``)."""


def save_files(folder: Path) -> list[Path]:
    """The save files in ``folder``, newest first."""
    if not folder.is_dir():
        return []
    files = [path for path in folder.iterdir()
             if path.suffix == SUFFIX and path.name != autosave.NAME and path.is_file()]
    return sorted(files, key=lambda path: path.stat().st_mtime, reverse=True)


def new_save_path(folder: Path, game_name: str) -> Path:
    """A fresh file name for a save of ``game_name``."""
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    path = folder / f"{game_name}-{stamp}{SUFFIX}"
    counter = 2
    while path.exists():
        path = folder / f"{game_name}-{stamp}-{counter}{SUFFIX}"
        counter += 1
    return path


def match_from_saved(saved: savegame.SavedGame) -> Session:
    """The match a two-player save holds, or SaveError when this window cannot draw its game."""
    playable = {entry.name for entry in catalogue.games() if entry.available}
    if saved.game.name not in playable:
        raise savegame.SaveError(f"{saved.game.title} games cannot be played in this window yet")
    return Session.from_saved(saved)


def open_save(context: AppContext, path: Path) -> str | None:
    """Open the save at ``path`` in its game screen; on failure return the message (and stay)."""
    try:
        saved = savegame.load(path)
        if catalogue.registration(saved.game).scene == PUZZLE_SCENE:
            _open_puzzle(context, saved, path)
            return None
        match = match_from_saved(saved)
    except (savegame.SaveError, OSError, ValueError) as error:  # RulesError is a ValueError too
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        return f"Cannot load {path.name}: {reason}"
    context.show_match(match, save_path=path)
    return None


def resume(context: AppContext) -> str | None:
    """Open the autosaved game as a new, unsaved game; on failure return the message (the file set aside)."""
    assert context.autosave is not None
    saved, problem = context.autosave.load()
    if saved is None:
        return problem or "There is no game to resume."
    try:
        if catalogue.registration(saved.game).scene == PUZZLE_SCENE:
            _open_puzzle(context, saved, None)
            return None
        match = match_from_saved(saved)
    except (savegame.SaveError, OSError, ValueError) as error:
        return f"The game you were playing could not be restored: {error}"
    context.show_match(match, save_path=None)
    return None


def _open_puzzle(context: AppContext, saved: savegame.SavedGame, path: Path | None) -> None:
    """Continue a saved Solitaire Mancala puzzle on the puzzle screen (SaveError when the save is not one)."""
    from game.records import RecordsStore
    from game.puzzle_session import PuzzleSession
    from game.views.solitaire_view import SolitaireView
    from levels.solitaire import load_levels

    session = PuzzleSession.from_saved(saved, load_levels()[0])
    records = RecordsStore(context.store.directory)
    records.load()  # an unreadable records file is set aside and reported on the Puzzles screen
    view = SolitaireView(context, session.puzzle, records, session=session)
    view.save_path = path
    context.show(view)


class LoadView(MenuView):
    """The newest saves as buttons."""

    heading = "Load game"

    def build(self) -> None:
        folder = self.context.save_dir
        assert folder is not None
        box = arcade.gui.UIBoxLayout(space_between=10)
        files = save_files(folder)
        if not files:
            box.add(theme.label(f"No saved games yet in {folder}.", theme.LABEL, theme.TEXT_DIM))
        for path in files[:SHOWN]:
            stamp = time.strftime("%d %b %Y %H:%M", time.localtime(path.stat().st_mtime))
            widget = theme.button(f"{path.stem}   ({stamp})", width=640, height=46, size=theme.BODY)
            box.add(self.on_click(widget, lambda path=path: self.load(path)))
        if len(files) > SHOWN:
            box.add(theme.label(f"... and {len(files) - SHOWN} older saves in {folder}", theme.SMALL, theme.TEXT_DIM))
        box.add(self.on_click(theme.button("Back", width=200, height=44), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center")
        self.ui.add(anchor)

    def load(self, path: Path) -> None:
        problem = open_save(self.context, path)
        if problem:
            self.message(problem, warning=True)
