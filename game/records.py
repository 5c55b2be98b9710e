"""Best puzzle results, kept as YAML in the user's data folder (next to the settings).

One file, ``puzzles.yaml``, maps a puzzle's key (a level id such as ``dose-01``, or ``deal:lewis:1234`` for a
random deal from a seed) to the best result played on it::

    version: 1
    results:
      dose-01: {stored: 44, rounds: 187, cleared: false}
      lewis-03: {stored: 48, rounds: 73, cleared: true}

A result is better when it clears the board (a ``lewis`` win), else when it stores more stones; among equals
fewer rounds is better.  The folder is the settings folder (``$STONECAVE_CONFIG_DIR`` or the platform's, see
``game.settings.config_dir``), the file is written atomically, and a file that cannot be read is set aside as
``puzzles.yaml.bad-<time>`` with a message for the screen, never a crash: the player loses old records, not
the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from game.settings import config_dir, write_atomically
from guarded import files
from guarded.files import FileProblem, clip, quote

RECORDS_FILE = "puzzles.yaml"
FILE_VERSION = 1


@dataclass(frozen=True)
class PuzzleResult:
    """How one finished puzzle went: stones stored, rounds played, whether the board was cleared."""

    stored: int
    rounds: int
    cleared: bool = False

    def is_better_than(self, other: PuzzleResult | None) -> bool:
        """True when this result beats ``other`` (a clear, then more stones, then fewer rounds)."""
        if other is None:
            return True
        return (self.cleared, self.stored, -self.rounds) > (other.cleared, other.stored, -other.rounds)

    def describe(self, par: int) -> str:
        """One line for a list: ``cleared in 73 rounds``, ``46 of 46, perfect (208 rounds)``, ``40 of 46``."""
        if self.cleared:
            return f"cleared in {self.rounds} rounds"
        perfect = ", perfect" if self.stored >= par else ""
        return f"{self.stored} of {par}{perfect} ({self.rounds} rounds)"


def deal_key(variant: str, seed: int) -> str:
    """The records key of a random deal."""
    return f"deal:{variant}:{seed}"


def _read_result(key: str, raw: Any) -> PuzzleResult:
    if not isinstance(raw, dict):
        raise ValueError(f"results.{clip(key, 40)}: expected a mapping with stored, rounds and cleared")
    values: dict[str, Any] = {}
    for name, kind in (("stored", int), ("rounds", int), ("cleared", bool)):
        value = raw.get(name, False if name == "cleared" else None)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            expected = "true or false" if kind is bool else "a whole number"
            raise ValueError(f"results.{clip(key, 40)}.{name}: expected {expected}, found {quote(value)}")
        values[name] = value
    if not 0 <= values["stored"] <= 48 or values["rounds"] < 0:
        raise ValueError(f"results.{clip(key, 40)}: stored must be 0..48 and rounds at least 0")
    return PuzzleResult(**values)


class RecordsStore:
    """The best result per puzzle, read from and written to ``puzzles.yaml`` in ``directory``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else config_dir()
        self.results: dict[str, PuzzleResult] = {}

    @property
    def path(self) -> Path:
        return self.directory / RECORDS_FILE

    def load(self) -> list[str]:
        """Read the file; the problems found (empty when it was fine or absent).

        A file that is not valid YAML, of another version or with a malformed entry is set aside and the
        records start empty, so one bad edit never hides behind half-read records.
        """
        self.results = {}
        try:
            data = files.load_yaml(self.path)
            if not isinstance(data, dict) or data.get("version") != FILE_VERSION:
                raise ValueError(f"expected a mapping with version: {FILE_VERSION} and results")
            raw = data.get("results") or {}
            if not isinstance(raw, dict):
                raise ValueError("results: expected a mapping of puzzle -> result")
            results = {str(key): _read_result(str(key), value) for key, value in raw.items()}
        except FileNotFoundError:
            return []
        except (FileProblem, ValueError) as error:
            _aside, phrase = files.set_aside(self.path)
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            return [f"Puzzle records {self.path} could not be read ({first}); "
                    f"{phrase}; the records start afresh."]
        self.results = results
        return []

    def best(self, key: str) -> PuzzleResult | None:
        return self.results.get(key)

    def record(self, key: str, result: PuzzleResult) -> bool:
        """Keep ``result`` if it beats the best so far and write the file; True when it was a new best.

        Raises OSError when the file cannot be written (the caller reports it); the record is kept in memory.
        """
        if not result.is_better_than(self.results.get(key)):
            return False
        self.results[key] = result
        self.save()
        return True

    def save(self) -> None:
        data = {"version": FILE_VERSION,
                "results": {key: {"stored": r.stored, "rounds": r.rounds, "cleared": r.cleared}
                            for key, r in sorted(self.results.items())}}
        text = "# StoneCave puzzle records: the best result per level or deal (written by the game)\n"
        write_atomically(self.path, text + yaml.safe_dump(data, sort_keys=False))
