"""The puzzle screen's files and rules: save, load and the rules screen (F1), as the two-player screens have them.

A mixin of ``SolitaireView``.  Saves use the common format of ``game.savegame`` (the console reads them too),
written atomically into the saves folder; Save again writes the same file.  Load lists the saves in that
folder, newest first, in a small panel over the board; a file that cannot be used (corrupt, truncated, a save
of another game) is named with the reason the save module gives (line and field), and the puzzle on the
board stays exactly as it was.  F1 (or Rules) opens Solitaire Mancala's rules screen; its Back returns to the
puzzle as it was, a hint that was being thought about asked again.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import arcade
import arcade.gui

from game import savegame, theme
from game.context import AppContext
from game.puzzle_session import PuzzleSession
from game.views.load_view import new_save_path, save_files
from game.views.panels import SIDE_PANEL
from levels.solitaire import load_levels
from rules import RulesError

if TYPE_CHECKING:
    from game.puzzle_session import Puzzle

SHOWN = 8
"""Saves listed in the Load panel (the newest)."""


def read_puzzle(path: Path) -> PuzzleSession:
    """The puzzle in progress saved at ``path`` (SaveError, OSError or ValueError saying why it cannot be)."""
    return PuzzleSession.from_saved(savegame.load(path, expect_game="solitaire"), load_levels()[0])


def describe_error(error: Exception) -> str:
    """An error's message for the screen (an OSError's reason without its number)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def puzzle_saves(folder: Path) -> list[Path]:
    """The saves this screen wrote (``solitaire-*.save``) in ``folder``, newest first."""
    return [path for path in save_files(folder) if path.name.startswith("solitaire-")]


class PuzzleFiles:
    """Save, Load and Rules for the puzzle screen (mixed into ``SolitaireView``)."""

    context: AppContext
    session: PuzzleSession
    save_path: Path | None = None
    _load_panel: arcade.gui.UIWidget | None = None
    _hint_wanted = False
    say: Callable[..., None]

    # -- save ---------------------------------------------------------------------------------------------------
    def save(self) -> None:
        """Write the puzzle in progress to its save file (a new one the first time)."""
        folder = self.context.save_dir
        assert folder is not None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = self.save_path or new_save_path(folder, self.session.game.name)
            savegame.save(path, self.session.saved_as(self.watch_spec))  # type: ignore[attr-defined]
        except (OSError, ValueError) as error:
            self.say(f"Could not save: {error}", warning=True)
            return
        self.save_path = path
        self.context.autosave.clear()  # saved by the player: nothing left to restore
        self.say(f"Saved to {path}")

    # -- load ---------------------------------------------------------------------------------------------------
    def show_load(self) -> None:
        """The Load panel: the newest saves as buttons, and Cancel (Escape)."""
        self.close_load()
        folder = self.context.save_dir
        assert folder is not None
        files = save_files(folder)
        if not files:
            self.say(f"No saved games yet in {folder}: Save (Ctrl+S) keeps this puzzle there.", warning=True)
            return
        box = arcade.gui.UIBoxLayout(space_between=8)
        box.add(theme.label("Load a saved puzzle", theme.HEADING, theme.ACCENTS[0]))
        for path in files[:SHOWN]:
            stamp = time.strftime("%d %b %H:%M", time.localtime(path.stat().st_mtime))
            widget = theme.button(f"{path.stem}   ({stamp})", width=560, height=40, size=theme.BODY)
            widget.event("on_click")(lambda event, path=path: self.load_file(path))
            box.add(widget)
        if len(files) > SHOWN:
            box.add(theme.label(f"... and {len(files) - SHOWN} older saves in {folder}", theme.SMALL, theme.TEXT_DIM))
        cancel = theme.button("Cancel", width=200, height=40, size=theme.BODY)
        cancel.event("on_click")(lambda event: self.close_load())
        box.add(cancel)
        frame = arcade.gui.UIBoxLayout()
        frame.add(box.with_padding(all=18))
        frame.with_background(color=theme.PANEL).with_border(color=theme.ACCENTS[0], width=2)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(frame, anchor_x="center", anchor_y="center", align_x=-SIDE_PANEL / 2, align_y=20)
        self._load_panel = self.ui.add(anchor, layer=2)  # type: ignore[attr-defined]

    def close_load(self) -> None:
        if self._load_panel is not None:
            self.ui.remove(self._load_panel)  # type: ignore[attr-defined]
            self._load_panel = None

    def load_file(self, path: Path) -> bool:
        """Continue the puzzle saved at ``path``; on any problem say why and leave the board untouched."""
        self.close_load()
        try:
            session = read_puzzle(path)
        except (savegame.SaveError, OSError, RulesError, ValueError) as error:
            self.say(f"Cannot load {path.name}: {describe_error(error)}. The puzzle on the board is unchanged.",
                     warning=True)
            return False
        self.replace_session(session)  # type: ignore[attr-defined]
        self.save_path = path
        puzzle: Puzzle = session.puzzle
        self.say(f"Loaded {path.name}: {puzzle.title}, {session.rounds} rounds played.")
        return True

    # -- rules ------------------------------------------------------------------------------------------------
    def show_rules(self) -> None:
        """Solitaire Mancala's rules screen; Back comes here again, as it was."""
        self._hint_wanted = self.hint_worker is not None  # type: ignore[attr-defined]
        self.context.show_rules(self.session.game.name, back=self)  # type: ignore[arg-type]

    def resume_after_rules(self) -> None:
        """Back from another screen: ask again for the hint that was being thought about when it opened."""
        if self._hint_wanted:
            self._hint_wanted = False
            self.hint()  # type: ignore[attr-defined]
