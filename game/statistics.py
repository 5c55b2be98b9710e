"""Statistics of finished two-player games, kept as YAML in the user's data folder (next to the settings).

One file, ``statistics.yaml``, lists every finished game: which game, who the human played, how it ended::

    version: 1
    games:
      - {game: kalah, kind: computer, opponent: 'alphabeta:depth=6', result: won, moves: 31, date: '2026-11-22'}
      - {game: oware, kind: hot-seat, opponent: hot-seat, result: drawn, moves: 88, date: '2026-11-22'}

``kind`` is ``computer`` (one human against an engine: ``opponent`` is the engine or preset spec and ``result``
is from the human's point of view), ``hot-seat`` (two humans) or ``watch`` (computer against computer,
``opponent`` names both engines); the last two are counted under their own headings, with the result seen
from the first player's side (South, or Black in Magnetic Cave).  The screen adds them up per game and
opponent (``tallies``).

A match counts once, the first time it ends (undoing and finishing again does not count twice), and a saved
game that was already over when opened does not count at all (``mark_recorded``).  As with the puzzle records
(``game.records``), the file is written atomically and one that cannot be read is set aside as
``statistics.yaml.bad-<time>`` with a message, never a crash.
"""
from __future__ import annotations

import time
import weakref
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from game.settings import config_dir, write_atomically
from guarded import files
from guarded.files import FileProblem, quote

if TYPE_CHECKING:
    from game.session import Session

STATISTICS_FILE = "statistics.yaml"
FILE_VERSION = 1
KINDS = ("computer", "hot-seat", "watch")
"""Against an engine, two humans at one screen, computer against computer (the screen's headings)."""
KIND_TITLES = {"computer": "Against the computer", "hot-seat": "Hot-seat (two players)",
               "watch": "Computer against computer"}
RESULTS = ("won", "lost", "drawn")


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the game, the kind of opponent and who, the result, its length, the day."""

    game: str
    kind: str
    opponent: str
    result: str
    moves: int
    date: str


@dataclass
class Tally:
    """Games played, won, lost and drawn (for one game and opponent)."""

    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0

    def add(self, result: str) -> None:
        self.played += 1
        setattr(self, result, getattr(self, result) + 1)


def record_of(match: Session, date: str | None = None) -> GameRecord | None:
    """The record of a finished match (None while it is still in play)."""
    outcome = match.outcome
    if not match.is_over or outcome is None:
        return None
    humans = [index for index, seat in enumerate(match.seats) if seat.is_human]
    if len(humans) == 1:
        side = humans[0]
        kind, opponent = "computer", str(match.seats[1 - side].engine)
    else:
        side = 0
        kind = "hot-seat" if humans else "watch"
        opponent = "hot-seat" if humans else " vs ".join(str(seat.engine) for seat in match.seats)
    if outcome.winner is None:
        result = "drawn"
    else:
        result = "won" if outcome.winner == side else "lost"
    return GameRecord(match.game.name, kind, opponent, result, len(match.moves), date or time.strftime("%Y-%m-%d"))


def _read_record(index: int, raw: Any) -> GameRecord:
    where = f"games[{index}]"
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: expected a mapping with game, kind, opponent, result, moves and date")
    values: dict[str, Any] = {}
    for name in ("game", "kind", "opponent", "result", "date"):
        value = raw.get(name)
        if not isinstance(value, str) or not value:
            raise ValueError(f"{where}.{name}: expected a text, found {quote(value)}")
        values[name] = value
    moves = raw.get("moves")
    if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
        raise ValueError(f"{where}.moves: expected a whole number of at least 0, found {quote(moves)}")
    if values["kind"] not in KINDS:
        raise ValueError(f"{where}.kind: expected one of {', '.join(KINDS)}, found {quote(values['kind'])}")
    if values["result"] not in RESULTS:
        raise ValueError(f"{where}.result: expected one of {', '.join(RESULTS)}, found {quote(values['result'])}")
    return GameRecord(moves=moves, **values)


class StatisticsStore:
    """Every finished game, read lazily from and written to ``statistics.yaml`` in ``directory``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else config_dir()
        self.records: list[GameRecord] = []
        self.loaded = False
        self._counted: list[weakref.ref] = []
        """The matches already counted (or opened already over), by identity: a Session is not hashable."""

    @property
    def path(self) -> Path:
        return self.directory / STATISTICS_FILE

    def load(self) -> list[str]:
        """Read the file; the problems found (empty when it was fine or absent).

        A file that is not valid YAML, of another version or with a malformed entry is set aside and the
        statistics start empty.
        """
        self.records, self.loaded = [], True
        try:
            data = files.load_yaml(self.path)
            if not isinstance(data, dict) or data.get("version") != FILE_VERSION:
                raise ValueError(f"expected a mapping with version: {FILE_VERSION} and games")
            raw = data.get("games") or []
            if not isinstance(raw, list):
                raise ValueError("games: expected a list of finished games")
            records = [_read_record(index, entry) for index, entry in enumerate(raw)]
        except FileNotFoundError:
            return []
        except (FileProblem, ValueError) as error:
            _aside, phrase = files.set_aside(self.path)
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            return [f"Statistics file {self.path} could not be read ({first}); "
                    f"{phrase}; the statistics start afresh."]
        self.records = records
        return []

    def ensure_loaded(self) -> list[str]:
        """Load once; the problems of that first load (empty afterwards)."""
        return [] if self.loaded else self.load()

    # -- counting ---------------------------------------------------------------------------------------------
    def is_counted(self, match: Session) -> bool:
        self._counted = [ref for ref in self._counted if ref() is not None]
        return any(ref() is match for ref in self._counted)

    def mark_recorded(self, match: Session) -> None:
        """Never count ``match`` (it was counted, or it was already over when it was opened)."""
        if not self.is_counted(match):
            self._counted.append(weakref.ref(match))

    def record_match(self, match: Session) -> list[str]:
        """Count a finished match once and write the file; the problems met (a bad file set aside, a failed
        write), each a message for the screen.  A match still in play, or already counted, is left alone."""
        record = record_of(match)
        if record is None or self.is_counted(match):
            return []
        self.mark_recorded(match)
        problems = self.ensure_loaded()
        self.records.append(record)
        try:
            self.save()
        except OSError as error:
            problems.append(f"Could not save the statistics to {self.path}: {error.strerror or error}")
        return problems

    def reset(self) -> None:
        """Forget every game and write the empty file (OSError when it cannot be written)."""
        self.records, self.loaded = [], True
        self.save()

    def tallies(self) -> dict[tuple[str, str, str], Tally]:
        """Played, won, lost, drawn per (game, kind, opponent), in the order they were first played."""
        totals: dict[tuple[str, str, str], Tally] = {}
        for record in self.records:
            totals.setdefault((record.game, record.kind, record.opponent), Tally()).add(record.result)
        return totals

    def save(self) -> None:
        data = {"version": FILE_VERSION, "games": [asdict(record) for record in self.records]}
        text = "# StoneCave statistics: every finished two-player game (written by the game)\n"
        write_atomically(self.path, text + yaml.safe_dump(data, sort_keys=False, width=200))
