"""Load game: the games in progress (``game.autosave``; each can be removed, after a question), then the saves
in the saves folder, newest first; a click continues the game.

Saves use the common format of ``game.savegame`` (the console reads them too).  A Solitaire Mancala save (a
puzzle saved from the puzzle screen or the console) opens on the puzzle screen; any other game on its match
screen.  A file that cannot be used (corrupt, another program's, a game this window cannot draw) is reported
on screen with the reason the save module gives (line and field), and nothing else happens.  Beside each
two-player game with moves, "Review" opens its review (``game.views.review_view``).
"""
from __future__ import annotations

import time
from functools import partial
from pathlib import Path

import arcade.gui

from game import autosave, catalogue, savegame, theme
from game.autosave import KeptGame
from game.context import AppContext
from game.session import Session
from game.settings import describe_engine
from game.views.base import MenuView, message_band
from game.views.widgets import Rows, text_button
from guarded import files
from rules import Game

SUFFIX = ".save"
REVIEW_WIDTH = 96
"""The width of the Review button beside a two-player game with moves."""
PUZZLE_SCENE = "puzzle"
"""Saves of a game registered with this scene continue on the puzzle screen (``game/catalogue.py``)."""


def is_reviewable(game: Game, moves: int) -> bool:
    """A game the review screen can read: two players and at least one move."""
    return game.num_players == 2 and moves > 0


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


def describe_when(modified: float) -> str:
    """When a file was written, as the load list shows it."""
    return time.strftime("%d %b %Y %H:%M", time.localtime(modified))


def describe_save(save: savegame.SaveSummary) -> tuple[str, str]:
    """The two parts of a save's line in the load list: what it is, and when it was saved."""
    when = describe_when(save.modified)
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
    """The games in progress (each with Remove, which asks first), then the saves, newest first: one button
    each (game, players, moves and date), scrolling when many."""

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
        self.kept: list[KeptGame] = []
        problems: list[str] = []
        if context.autosave is not None:
            self.kept, problems = context.autosave.games()
        self.confirming: KeptGame | None = None
        """The game in progress the player asked to remove, waiting for Remove it / Keep it."""
        self.rows = Rows(self.rebuild)
        super().__init__(context)
        if problems:
            self.message("\n".join(problems), warning=True)

    def build(self) -> None:
        if self.confirming is not None:
            self._build_confirmation(self.confirming)
            return
        px = theme.px  # design lengths (pixels at 1280x720) in this window's pixels (``MenuView``)
        folder = self.context.save_dir
        _, _, room_width, room_height = self.content_box()
        width = min(px(900), room_width)
        wide = width >= px(700)
        box = arcade.gui.UIBoxLayout(space_between=px(Rows.GAP))
        rows: list[arcade.gui.UIWidget] = []
        if self.kept:
            rows.append(theme.label("Games in progress", theme.sized(theme.LABEL, 16), theme.ACCENTS[0]))
            remove_width = px(110)
            for game in self.kept:
                what, _ = describe_save(savegame.SaveSummary(game.path, game.modified, game.saved.game,
                                                             game.saved.seats, len(game.saved.moves)))
                when = describe_when(game.modified)
                what = f"Resume {what}"
                reviewable = is_reviewable(game.saved.game, len(game.saved.moves))
                room = width - remove_width - px(8) - ((px(REVIEW_WIDTH) + px(8)) if reviewable else 0)
                widget = text_button(f"{what}     {when}", room, px(40), 14 if wide else 13)
                self._fit_text(widget, what, when)
                self.on_click(widget, partial(self.resume, game.slot))
                remove = text_button("Remove...", remove_width, px(40), 13)
                remove.slot = game.slot  # type: ignore[attr-defined]  # which game it removes (for tests)
                self.on_click(remove, partial(self.ask_remove, game))
                line = arcade.gui.UIAnchorLayout(width=width, height=px(40), size_hint=None)
                line.add(widget, anchor_x="left", anchor_y="center")
                if reviewable:
                    review = text_button("Review", px(REVIEW_WIDTH), px(40), 13)
                    review.slot = game.slot  # type: ignore[attr-defined]
                    self.on_click(review, partial(self.review_saved, game.saved, None))
                    line.add(review, anchor_x="right", anchor_y="center", align_x=-(remove_width + px(8)))
                line.add(remove, anchor_x="right", anchor_y="center")
                rows.append(line)
            rows.append(theme.label("Saved games", theme.sized(theme.LABEL, 16), theme.ACCENTS[0]))
        if not self.saves:
            rows.append(theme.label(f"No saved games yet in {folder}.", theme.BODY, theme.TEXT_DIM, width=width,
                                    multiline=True, align="center"))
        for save in self.saves:
            what, when = describe_save(save)
            reviewable = save.game is not None and is_reviewable(save.game, save.moves)
            room = width - (px(REVIEW_WIDTH) + px(8) if reviewable else 0)
            widget = text_button(f"{what}     {when}", room, px(40), 14 if wide else 13)
            self._fit_text(widget, what, when)
            self.on_click(widget, partial(self.load, save.path))
            if not reviewable:
                rows.append(widget)
                continue
            review = text_button("Review", px(REVIEW_WIDTH), px(40), 13)
            review.path = save.path  # type: ignore[attr-defined]  # which save it reviews (for tests)
            self.on_click(review, partial(self.review_file, save.path))
            line = arcade.gui.UIAnchorLayout(width=width, height=px(40), size_hint=None)
            line.add(widget, anchor_x="left", anchor_y="center")
            line.add(review, anchor_x="right", anchor_y="center")
            rows.append(line)
        for shown in self.rows.layout(rows, room_height - px(44 + 2 * Rows.GAP), width):
            box.add(shown)
        box.add(self.on_click(theme.button("Back", width=px(200), height=px(44)), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="top",
                   align_y=-(self.window.height - room_height - message_band(self.scale)))
        self.ui.add(anchor)

    def _build_confirmation(self, game: KeptGame) -> None:
        """Remove a game in progress?  The question replaces the list, and its Remove it lies left of where every
        Remove... was (those sit at the list's right edge), so a double click on Remove... removes nothing."""
        px = theme.px
        _, _, room_width, _ = self.content_box()
        width = min(px(640), room_width)
        assert self.context.autosave is not None
        words = self.context.autosave
        box = arcade.gui.UIBoxLayout(space_between=px(16))
        box.add(theme.label(f"Remove the game in progress {words.summary(game.saved)} "
                            f"({words.players(game.saved)}, {words.when(game.modified)})? It cannot be resumed "
                            "afterwards.", theme.BODY, theme.TEXT, width=width, multiline=True, align="center"))
        buttons = arcade.gui.UIBoxLayout(vertical=False, space_between=px(40))
        buttons.add(self.on_click(theme.button("Keep it", width=px(200), height=px(44)), self.cancel_remove))
        buttons.add(self.on_click(theme.button("Remove it", width=px(200), height=px(44)), self.remove_confirmed))
        box.add(buttons)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center")
        self.ui.add(anchor)

    @staticmethod
    def _fit_text(widget: arcade.gui.UIFlatButton, what: str, when: str) -> None:
        """Shorten the description until the line fits its button (the date always stays)."""
        label = widget._label._label  # the arcade.Text the button draws
        while label.content_width > widget.width - 24 * theme.ui_scale() and len(what) > 12:
            what = what[:-6] + "..."
            widget.text = f"{what}     {when}"

    def scroll(self, steps: int, x: float, y: float) -> bool:
        return self.confirming is None and self.rows.scroll(steps)

    def default_action(self) -> None:
        """Enter with nothing focused: Keep it while asking; else resume the newest game in progress, or open
        the newest save."""
        if self.confirming is not None:
            self.cancel_remove()
        elif self.kept:
            self.resume(self.kept[0].slot)
        elif self.saves:
            self.load(self.saves[0].path)
        else:
            self.back()

    def back(self) -> None:
        """Escape or Back: out of the question (keeping the game), else to the title screen."""
        if self.confirming is not None:
            self.cancel_remove()
        else:
            super().back()

    def load(self, path: Path) -> None:
        problem = open_save(self.context, path)
        if problem:
            self.message(problem, warning=True)

    def review_file(self, path: Path) -> None:
        """Review the save at ``path`` (``game.views.review_view``); Back returns to this list."""
        try:
            saved = savegame.load(path)
        except (savegame.SaveError, OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            self.message(f"Cannot review {path.name}: {reason}", warning=True)
            return
        self.review_saved(saved, path)

    def review_saved(self, saved: savegame.SavedGame, path: Path | None) -> None:
        from game.views.review_view import open_review

        title = saved.game.title if path is None else f"{saved.game.title} ({path.name})"
        problem = open_review(self.context, saved.game, saved.states, saved.moves, title=title)
        if problem:
            self.message(problem, warning=True)

    def resume(self, slot: str) -> None:
        problem = resume(self.context, slot)
        if problem:
            self.kept = [game for game in self.kept if game.slot != slot]
            self.message(problem, warning=True)
            self.rebuild()

    def ask_remove(self, game: KeptGame) -> None:
        self.confirming = game
        self.rebuild()

    def cancel_remove(self) -> None:
        self.confirming = None
        self.rebuild()

    def remove_confirmed(self) -> None:
        game, self.confirming = self.confirming, None
        if game is not None and self.context.autosave is not None:
            self.context.autosave.clear(game.slot)
            self.kept = [other for other in self.kept if other.slot != game.slot]
            self.message(f"Removed {self.context.autosave.summary(game.saved)}.")
        self.rebuild()
