"""The games in progress: every unfinished game, written after every move, so nothing a player started is lost.

Each game in progress has a slot of its own: one file, ``in-progress/SLOT.save`` in the saves folder, in the
common save format (``game.savegame``), written atomically like every save (through
``guarded.files.write_atomically``, without the fsync, which would cost the window about 10 ms a move: the
file guards against a crash of the program, and a rename is atomic without it).  A game gets its slot at its
first move and keeps it when it is resumed, so starting another game (of any kind or seating, a puzzle too)
never replaces one.  A slot goes only when its game ends, when its game is back at its start (nothing to
lose), or when the player removes it (the Load screen asks first).  Saving a game under a name of its own
keeps the slot: the game is still unfinished, and the title screen still offers to resume it.

Every file is read through ``guarded`` and checked like any save (the game's ``check_position`` and
``max_moves``, every move replayed); one that cannot be used is set aside with a message and never offered.
The single ``autosave.save`` that earlier versions kept is adopted as a slot.  Nothing here imports arcade.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from game import savegame
from game.savegame import SavedGame
from guarded import files

NAME = "autosave.save"
"""The one autosave earlier versions kept in the saves folder (adopted as a slot when found)."""
FOLDER = "in-progress"
"""The games in progress live here, inside the saves folder, one file per slot."""
SUFFIX = ".save"


@dataclass(frozen=True)
class KeptGame:
    """One game in progress: its slot, its file, when it was last written, and the game."""

    slot: str
    path: Path
    modified: float
    saved: SavedGame


class Autosave:
    """The games in progress of one saves folder, one file per slot."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.problem = ""
        """The last failure to write, for the screen (empty when the last write worked)."""
        self._given: set[str] = set()
        self._ignored: set[str] = set()
        """Slots whose file is bad and could not be set aside: never offered (this run)."""

    @property
    def slots_folder(self) -> Path:
        return self.folder / FOLDER

    @property
    def path(self) -> Path:
        """The single autosave of earlier versions (adopted as a slot by ``games``)."""
        return self.folder / NAME

    def slot_path(self, slot: str) -> Path:
        return self.slots_folder / f"{slot}{SUFFIX}"

    def new_slot(self) -> str:
        """A fresh slot name (nothing is written until the game's first move)."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        slot = f"{stamp}-{uuid.uuid4().hex[:8]}"
        while slot in self._given or files.exists(self.slot_path(slot)):
            slot = f"{stamp}-{uuid.uuid4().hex[:8]}"
        self._given.add(slot)  # never handed out twice, even before its first write
        return slot

    # -- writing ----------------------------------------------------------------------------------------------
    def keep(self, saved: SavedGame, is_over: bool, slot: str | None = None) -> str:
        """Write ``saved`` to ``slot`` (a fresh one when None), or remove the slot when the game is over or has
        no moves; a message when the write failed, reported once per run of failures so a full disk does not
        repeat it at every move."""
        if is_over or not saved.moves:
            if slot is not None:
                self.clear(slot)
            return ""
        path = self.slot_path(slot if slot is not None else self.new_slot())
        try:
            self.slots_folder.mkdir(parents=True, exist_ok=True)
            savegame.save(path, saved, durable=False)  # atomic; no fsync on the UI thread every move
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            message = f"Could not keep the game in progress in {path}: {reason}. Save it yourself to keep it."
            repeated = message == self.problem
            self.problem = message
            return "" if repeated else message
        self.problem = ""
        return ""

    def clear(self, slot: str) -> None:
        """Remove a slot (its game ended, or the player removed it); a file that cannot be removed is left."""
        try:
            self.slot_path(slot).unlink()
        except OSError:
            pass

    # -- reading ----------------------------------------------------------------------------------------------
    def slots(self) -> list[str]:
        """The slots with a file, newest first (the old single autosave adopted first)."""
        self._adopt_old_autosave()
        if not files.is_folder(self.slots_folder):
            return []
        found: dict[str, float] = {}
        for path in self.slots_folder.iterdir():
            if path.suffix == SUFFIX and path.stem not in self._ignored and files.is_regular(path):
                try:
                    found[path.stem] = files.modified(path)
                except FileNotFoundError:
                    continue  # removed while the folder was read
        return sorted(found, key=lambda slot: (found[slot], slot), reverse=True)

    def exists(self, slot: str | None = None) -> bool:
        """Whether ``slot`` (any slot when None) holds a game."""
        if slot is None:
            return bool(self.slots())
        return slot not in self._ignored and files.is_regular(self.slot_path(slot))

    def load(self, slot: str | None = None) -> tuple[SavedGame | None, str]:
        """The game ``slot`` (the newest when None) holds, or (None, a message) when there is none or it cannot
        be used (it is then set aside, never offered again)."""
        if slot is None:
            slots = self.slots()
            if not slots:
                return None, ""
            slot = slots[0]
        path = self.slot_path(slot)
        if slot in self._ignored or not files.exists(path):
            return None, ""
        try:
            saved = savegame.load(path)
        except (savegame.SaveError, OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            return None, f"A game in progress could not be restored ({reason}); {self.set_aside(slot)}."
        if saved.game.is_terminal(saved.state) or not saved.moves:
            self.clear(slot)  # nothing left to play (a file from before the game ended)
            return None, ""
        return saved, ""

    def games(self) -> tuple[list[KeptGame], list[str]]:
        """Every game in progress, newest first, and a message for each file that had to be set aside."""
        kept: list[KeptGame] = []
        problems: list[str] = []
        for slot in self.slots():
            path = self.slot_path(slot)
            try:
                modified = files.modified(path)
            except OSError:
                continue
            saved, problem = self.load(slot)
            if problem:
                problems.append(problem)
            if saved is not None:
                kept.append(KeptGame(slot, path, modified, saved))
        return kept, problems

    def set_aside(self, slot: str) -> str:
        """Move a slot's file out of the way (it is never offered again); the phrase for a message."""
        aside, phrase = files.set_aside(self.slot_path(slot))
        if aside is None:
            self._ignored.add(slot)
        return phrase

    def _adopt_old_autosave(self) -> None:
        """Move the single ``autosave.save`` of earlier versions into a slot of its own."""
        if not files.is_regular(self.path):
            return
        try:
            data = files.read_bytes(self.path, savegame.MAX_BYTES)
            files.write_atomically(self.slot_path(self.new_slot()), data, hidden=True)
            self.path.unlink()
        except files.FileProblem:
            files.set_aside(self.path)  # not a save at all: out of the way, never offered
        except OSError:
            pass  # left where it is (a read-only folder): the player can still load it by hand

    # -- words ------------------------------------------------------------------------------------------------
    @staticmethod
    def summary(saved: SavedGame) -> str:
        """``Kalah, 12 moves`` for a Resume button."""
        count = len(saved.moves)
        unit = "round" if saved.game.num_players == 1 else "move"
        return f"{saved.game.title}, {count} {unit}{'s' if count != 1 else ''}"

    @staticmethod
    def players(saved: SavedGame) -> str:
        """Who plays, in two words a side: ``Human vs Computer``, ``Human vs Human``; a puzzle ``solo``
        (``solo, computer helped`` when a computer played a round)."""
        if saved.game.num_players == 1:
            return "solo" if saved.seats[0].is_human else "solo, computer helped"
        return " vs ".join("Human" if seat.is_human else "Computer" for seat in saved.seats)

    @staticmethod
    def when(modified: float, now: float | None = None) -> str:
        """``today 17:40``, or ``27 Nov 17:40`` on another day."""
        moment = time.localtime(modified)
        today = time.localtime(time.time() if now is None else now)
        if moment[:3] == today[:3]:
            return time.strftime("today %H:%M", moment)
        return time.strftime("%d %b %Y %H:%M", moment)
