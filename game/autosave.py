"""The autosave: the game in progress, written after every move, so a crash or a killed window loses nothing.

One file, ``autosave.save`` in the saves folder, in the common save format (``game.savegame``), written
atomically like every save (without the fsync, which would cost the window about 10 ms a move: the autosave
guards against a crash of the program, and a rename is atomic without it).  It is removed when the game ends, when the player saves it under a name of their
own, and when a game is back at its start (nothing to lose).  While it exists the title screen offers "Resume
the game you were playing", which opens it as a new, unsaved game (Save then asks for no name: it writes a new
save and removes the autosave).  An autosave that cannot be read is set aside like any bad file, with a
message, and the title screen goes on without the offer.  Nothing here imports arcade.
"""
from __future__ import annotations

from pathlib import Path

from game import savegame
from game.savegame import SavedGame
from guarded import files

NAME = "autosave.save"


class Autosave:
    """The autosave file of one saves folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.problem = ""
        """The last failure to write, for the screen (empty when the last write worked)."""

    @property
    def path(self) -> Path:
        return self.folder / NAME

    def keep(self, saved: SavedGame, is_over: bool) -> str:
        """Write ``saved`` (or remove the file when the game is over or has no moves); a message when the write
        failed, reported once per run of failures so a full disk does not repeat it at every move."""
        if is_over or not saved.moves:
            self.clear()
            return ""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            savegame.save(self.path, saved, durable=False)  # atomic; no fsync on the UI thread every move
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            message = f"Could not autosave the game to {self.path}: {reason}. Save it yourself to keep it."
            repeated = message == self.problem
            self.problem = message
            return "" if repeated else message
        self.problem = ""
        return ""

    def clear(self) -> None:
        """Remove the autosave (the game ended or was saved); a file that cannot be removed is left."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            pass

    def exists(self) -> bool:
        return files.is_regular(self.path)

    def load(self) -> tuple[SavedGame | None, str]:
        """The game kept, or (None, a message) when there is none or it cannot be read (it is then set aside)."""
        if not files.exists(self.path):
            return None, ""
        try:
            return savegame.load(self.path), ""
        except (savegame.SaveError, OSError, ValueError) as error:
            _aside, phrase = files.set_aside(self.path)
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            return None, f"The game you were playing could not be restored ({reason}); {phrase}."

    @staticmethod
    def summary(saved: SavedGame) -> str:
        """``Kalah, 12 moves`` for the Resume button."""
        count = len(saved.moves)
        unit = "round" if saved.game.num_players == 1 else "move"
        return f"{saved.game.title}, {count} {unit}{'s' if count != 1 else ''}"
