"""Load game: the saves in the saves folder, newest first; a click continues the game.

Saves use the common format of ``game.savegame`` (the console reads them too).  A Solitaire Mancala save (a
puzzle saved from the puzzle screen or the console) opens on the puzzle screen; any other game on its match
screen.  A file that cannot be used (corrupt, another program's, a game this window cannot draw) is reported
on screen with the reason the save module gives (line and field), and nothing else happens.
"""
from __future__ import annotations

import time
from functools import partial
from pathlib import Path

import arcade.gui

from game import autosave, catalogue, savegame, theme
from game.context import AppContext
from game.session import Session
from game.settings import describe_engine
from game.views.base import MESSAGE_BAND, MenuView
from game.views.widgets import Rows, text_button
from guarded import files

SUFFIX = ".save"
PUZZLE_SCENE = "puzzle"
"""Saves of a game registered with this scene continue on the puzzle screen (``game/catalogue.py``)."""


def save_files(folder: Path) -> list[Path]:
    """The save files in ``folder``, newest first."""
    if not files.is_folder(folder):
        return []
    found = {}
    for path in folder.iterdir():
        if path.suffix == SUFFIX and path.name != autosave.NAME and files.is_regular(path):
            try:
                found[path] = files.modified(path)
            except FileNotFoundError:
                continue  # removed while the folder was read
    return sorted(found, key=lambda path: found[path], reverse=True)


def new_save_path(folder: Path, game_name: str) -> Path:
    """A fresh file name for a save of ``game_name``."""
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    path = folder / f"{game_name}-{stamp}{SUFFIX}"
    counter = 2
    while files.exists(path):
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


def resume(context: AppContext, slot: str | None = None) -> str | None:
    """Open a game in progress (``slot``; the newest when None) where it stopped; it keeps its slot, so its next
    moves update the same entry.  On failure return the message (the file is set aside, so it is never offered
    for Resume again)."""
    assert context.autosave is not None
    kept = context.autosave
    if slot is None:
        slots = kept.slots()
        slot = slots[0] if slots else None
    saved, problem = kept.load(slot) if slot is not None else (None, "")
    if saved is None or slot is None:
        return problem or "There is no game to resume."
    try:
        if catalogue.registration(saved.game).scene == PUZZLE_SCENE:
            _open_puzzle(context, saved, None, slot)
            return None
        match = match_from_saved(saved)
    except (savegame.SaveError, OSError, ValueError) as error:
        phrase = kept.set_aside(slot)  # never offered for Resume again
        return f"A game in progress could not be restored ({error}); {phrase}."
    match.slot = slot
    context.show_match(match, save_path=None)
    return None


def _open_puzzle(context: AppContext, saved: savegame.SavedGame, path: Path | None, slot: str | None = None) -> None:
    """Continue a saved Solitaire Mancala puzzle on the puzzle screen (SaveError when the save is not one);
    ``slot`` is its place among the games in progress when it is resumed from there."""
    from game.records import RecordsStore
    from game.puzzle_session import PuzzleSession
    from game.views.solitaire_view import SolitaireView
    from levels.solitaire import load_levels

    session = PuzzleSession.from_saved(saved, load_levels()[0])
    session.slot = slot
    records = RecordsStore(context.store.directory)
    records.load()  # an unreadable records file is set aside and reported on the Puzzles screen
    view = SolitaireView(context, session.puzzle, records, session=session)
    view.save_path = path
    context.show(view)


def describe_save(save: savegame.SaveSummary) -> tuple[str, str]:
    """The two parts of a save's line in the load list: what it is, and when it was saved."""
    when = time.strftime("%d %b %Y %H:%M", time.localtime(save.modified))
    if save.game is None:
        return f"{save.path.name}: cannot be read", when
    seats = []
    for player, seat in zip(save.game.player_names, save.seats):
        who = "Human" if seat.is_human else describe_engine(str(seat.engine), save.game)
        seats.append(f"{player}: {who}")
    unit = "round" if save.game.num_players == 1 else "move"
    count = f"{save.moves} {unit}{'s' if save.moves != 1 else ''}" + (", over" if save.is_over else "")
    return f"{save.game.title}, {count}  -  {'  vs  '.join(seats)}", when


class LoadView(MenuView):
    """The saves, newest first, one button each (game, players, moves and date), scrolling when many."""

    heading = "Load game"

    def __init__(self, context: AppContext) -> None:
        folder = context.save_dir
        assert folder is not None
        self.saves = []
        for path in save_files(folder):
            try:
                self.saves.append(savegame.summary(path))
            except OSError:
                continue  # removed while the list was read
        self.rows = Rows(self.rebuild)
        super().__init__(context)

    def build(self) -> None:
        folder = self.context.save_dir
        _, _, room_width, room_height = self.content_box()
        width = min(900, room_width)
        box = arcade.gui.UIBoxLayout(space_between=Rows.GAP)
        if not self.saves:
            box.add(theme.label(f"No saved games yet in {folder}.", theme.BODY, theme.TEXT_DIM, width=width,
                                multiline=True, align="center"))
        buttons = []
        for save in self.saves:
            what, when = describe_save(save)
            widget = text_button(f"{what}     {when}", width, 40, 14 if width >= 700 else 13)
            self._fit_text(widget, what, when)
            buttons.append(self.on_click(widget, partial(self.load, save.path)))
        for row in self.rows.layout(buttons, room_height - 44 - 2 * Rows.GAP, width):
            box.add(row)
        box.add(self.on_click(theme.button("Back", width=200, height=44), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="top", align_y=-(self.window.height - room_height - MESSAGE_BAND))
        self.ui.add(anchor)

    @staticmethod
    def _fit_text(widget: arcade.gui.UIFlatButton, what: str, when: str) -> None:
        """Shorten the description until the line fits its button (the date always stays)."""
        label = widget._label._label  # the arcade.Text the button draws
        while label.content_width > widget.width - 24 and len(what) > 12:
            what = what[:-6] + "..."
            widget.text = f"{what}     {when}"

    def scroll(self, steps: int, x: float, y: float) -> bool:
        return self.rows.scroll(steps)

    def default_action(self) -> None:
        """Enter with nothing focused: open the newest save."""
        if self.saves:
            self.load(self.saves[0].path)
        else:
            self.back()

    def load(self, path: Path) -> None:
        problem = open_save(self.context, path)
        if problem:
            self.message(problem, warning=True)
