"""The StoneCave save file: one human-readable, versioned text format for a game of any StoneCave game.

Both the console and the window use it, so it imports neither arcade nor anything else of the application.
A save holds everything needed to go on exactly where play stopped, and a check of where that is::

    StoneCave save 2
    # Kalah, South to move after 3 moves
    game: kalah:pits=6,seeds=4,empty_capture=true
    seat South: human
    seat North: engine alphabeta:depth=6 time=1
    seed: none
    start: pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S
    moves: 3
    move 1: 3
    move 2: 6
    move 3: 1
    position: pits=5,5,0,5,5,5/4,4,4,4,4,0 stores=1,1 move=S
    end

- Line 1 is the magic and the format version.  Lines starting with ``#`` and blank lines are ignored anywhere
  after it; every other line is ``field: value`` and the fields come in the order shown.
- ``game`` is ``rules.Game.spec``: the registry name and every variant parameter.
- One ``seat`` per player, named by the game's player names: ``human``, or ``engine SPEC`` (an engine spec
  of ``ai.registry``) optionally followed by ``time=SECONDS``, the computer's time per move.
- ``seed`` is the random seed of the starting deal, or ``none``; ``start`` is the starting position in the
  game's one-line notation (``to_text``), which is what the moves are replayed from.
- ``moves`` counts the moves; each ``move N`` holds one move as the player sees and types it (``move_label``:
  a pit numbered 1..n from its owner's left, a cell such as ``D4``, a round such as ``3 cw``).  Format 1,
  which wrote the rules' notation (``format_move``: pits from 0), is still read.
- ``position`` is the current position, a check against the replayed moves; ``end`` marks a complete file.

Loading checks every line and replays every move with the rules; a problem raises ``SaveError`` naming the
line, the field and what was expected.  Saving writes a temporary file next to the target, flushes and
fsyncs it, then renames it over the target, so a crash mid-save leaves the previous save intact.
"""
from __future__ import annotations

import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import rules
from guarded import files
from guarded.files import FileProblem, file_kind
from rules import Game, Move, RulesError, State

MAGIC = "StoneCave save"
VERSION = 2
"""Format 2 writes moves as the player numbers them (``move_label``); format 1 wrote ``format_move``."""
READABLE = (1, 2)
MAX_BYTES = 16 * 1024 * 1024
"""No real save comes near this (a 5000-turn Hus game is about 150 kB); bigger files are refused unread."""
SEAT_TIME = (0.001, 3600.0)
"""The seconds per move a seat may give a computer (the engines' own ``time`` range)."""
MAX_MOVES = 1_000_000
"""Most moves a save may list (far beyond any real game; refuses a ``moves:`` count of endless digits)."""
STALE_TEMPORARY = files.STALE_TEMPORARY
"""Seconds after which a ``.NAME.*.tmp`` left by a save that was killed is removed."""
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")
"""A whole number as a save writes it: ASCII digits only (no ``٣``, ``３``, ``²`` or ``+``), at most 19 of them."""


class SaveError(ValueError):
    """A save file that cannot be used; the message names the line and field and what was expected."""

    def __init__(self, message: str, line: int | None = None, field_name: str | None = None) -> None:
        where = ""
        if line is not None:
            where = f"line {line}" + (f" ({field_name})" if field_name else "") + ": "
        elif field_name:
            where = f"{field_name}: "
        super().__init__(where + message)
        self.line = line
        self.field = field_name


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays one side: a human (``engine`` is None) or a computer with an engine spec and time per move."""

    engine: str | None = None
    time: float | None = None
    """Seconds per move for a computer, or None for the game's default."""

    @property
    def is_human(self) -> bool:
        return self.engine is None

    def to_text(self) -> str:
        """``human`` or ``engine SPEC [time=SECONDS]``, as a save file's seat line holds it."""
        if self.engine is None:
            return "human"
        return f"engine {self.engine}" + (f" time={self.time:g}" if self.time is not None else "")

    @classmethod
    def from_text(cls, text: str) -> Seat:
        """Parse ``to_text``'s form; raises ValueError saying what a seat should look like."""
        words = text.split()
        if words == ["human"]:
            return cls()
        if len(words) in (2, 3) and words[0] == "engine":
            time = None
            if len(words) == 3:
                key, sep, value = words[2].partition("=")
                if key != "time" or not sep:
                    raise ValueError(f"expected time=SECONDS after the engine spec, not {words[2]!r}")
                low, high = SEAT_TIME
                try:
                    time = float(value) if len(value) <= 40 else math.nan
                except ValueError:
                    raise ValueError(f"time must be a number of seconds from {low:g} to {high:g}, "
                                     f"not {_clip(value)!r}") from None
                if not math.isfinite(time) or not low <= time <= high:
                    raise ValueError(f"time must be a number of seconds from {low:g} to {high:g}, "
                                     f"not {_clip(value)!r}")
            return cls(words[1], time)
        raise ValueError(f"expected 'human' or 'engine SPEC [time=SECONDS]', not {_clip(text)!r}")


@dataclass(frozen=True)
class SavedGame:
    """A game in progress: the rules, the seats, the start and the moves.  ``states`` is derived by replay.

    Building one replays the moves, so an illegal move raises IllegalMoveError at once and ``states`` (the
    start, then the position after each move) is always consistent; an undo history is ``states`` itself.
    """

    game: Game
    seats: tuple[Seat, ...]
    start: State
    moves: tuple[Move, ...] = ()
    seed: int | None = None
    states: tuple[State, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.seats) != self.game.num_players:
            raise ValueError(f"{self.game.title} has {self.game.num_players} seats, not {len(self.seats)}")
        states = [self.start]
        for move in self.moves:
            states.append(self.game.apply(states[-1], move))
        object.__setattr__(self, "states", tuple(states))

    @property
    def state(self) -> State:
        """The current position (after the last move)."""
        return self.states[-1]


# -- writing -------------------------------------------------------------------------------------------------
def dumps(saved: SavedGame) -> str:
    """The save file's text for ``saved``."""
    game = saved.game
    state = saved.state
    if game.is_terminal(state):
        status = "game over"
    else:
        status = f"{game.player_names[game.to_move(state)]} to move"
    lines = [
        f"{MAGIC} {VERSION}",
        f"# {game.title}, {status} after {len(saved.moves)} move{'s' if len(saved.moves) != 1 else ''}",
        f"game: {game.spec}",
    ]
    for name, seat in zip(game.player_names, saved.seats):
        lines.append(f"seat {name}: {seat.to_text()}")
    lines.append(f"seed: {'none' if saved.seed is None else saved.seed}")
    lines.append(f"start: {game.to_text(saved.start)}")
    lines.append(f"moves: {len(saved.moves)}")
    for number, (before, move) in enumerate(zip(saved.states, saved.moves), start=1):
        lines.append(f"move {number}: {game.move_label(before, move)}")
    lines.append(f"position: {game.to_text(state)}")
    lines.append("end")
    return "\n".join(lines) + "\n"


def save(path: str | os.PathLike[str], saved: SavedGame, durable: bool = True) -> None:
    """Write ``saved`` to ``path`` atomically: the old file stays whole until the new one is complete.

    Raises OSError (or ValueError for an impossible file name) when the file cannot be written; the target
    is then untouched and no temporary file is left behind.  Only a regular file is ever replaced: a folder, a
    named pipe, a device or a socket of that name is refused (SaveError).  A symbolic link is followed: the file
    it points to is replaced and the link stays (a link to nothing, or to something else, is refused).
    Temporary files that saves killed midway left here are removed (``remove_stale_temporaries``).
    ``durable=False`` skips the fsyncs (about 10 ms on a disk): the write is still atomic, so it survives a
    crash of the program, but not necessarily a power cut; the autosave uses it, once per move.
    """
    target = writable_target(Path(path))
    files.write_atomically(target, dumps(saved), durable=durable, hidden=True, make_folder=False)


def writable_target(target: Path) -> Path:
    """The regular file a save to ``target`` replaces (a symbolic link resolved), or SaveError naming what
    is there instead."""
    info = files.status(target, follow=False)
    if info is None:
        return target  # nothing there (or it cannot be looked at: the write reports it)
    if stat.S_ISLNK(info.st_mode):
        resolved = Path(os.path.realpath(target))
        found = files.status(resolved)
        if found is None:
            raise SaveError(f"{str(target)!r} is a symbolic link to {str(resolved)!r}, which does not exist; "
                            "give the name of a file to save to")
        if not stat.S_ISREG(found.st_mode):
            raise SaveError(f"{str(target)!r} is a symbolic link to {file_kind(found.st_mode)}, not a save file; "
                            "give another name")
        return resolved
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(f"{str(target)!r} is {file_kind(info.st_mode)}, not a save file; it was left untouched: "
                        "give another name")
    return target


def remove_stale_temporaries(folder: Path, name: str | None = None) -> list[Path]:
    """Remove ``.NAME.*.tmp`` files (of ``name``, or of any save when None) in ``folder`` older than
    ``STALE_TEMPORARY`` seconds: what saves killed midway left; a save in progress elsewhere is younger."""
    return files.remove_stale_matching(folder, f".{name}.*.tmp" if name else ".*.tmp")


# -- reading -------------------------------------------------------------------------------------------------
def load(path: str | os.PathLike[str], expect_game: str | None = None) -> SavedGame:
    """Read and check the save at ``path``; a new SavedGame, or SaveError naming the problem.

    ``expect_game`` (a registry name such as ``kalah``) refuses a save of another game.  OSError (no such
    file, no permission) is raised as is.
    """
    target = Path(path)
    try:
        data = files.read_bytes(target, MAX_BYTES)
    except FileProblem as error:
        raise SaveError(f"{_clip(str(target))!r} {error}: not a StoneCave save") from None
    return loads_bytes(data, expect_game)


def loads_bytes(data: bytes, expect_game: str | None = None) -> SavedGame:
    """Decode ``data`` as UTF-8 text (refusing binary files with the offending line) and ``loads`` it."""
    if not data.strip():
        raise SaveError("the file is empty: not a StoneCave save", line=1)
    nul = data.find(b"\0")
    if nul >= 0:
        raise SaveError("binary data (a NUL byte): not a StoneCave save", line=data.count(b"\n", 0, nul) + 1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise SaveError(
            f"byte 0x{data[error.start]:02x} is not UTF-8 text: not a StoneCave save", line=line
        ) from None
    return loads(text, expect_game)


class _Lines:
    """The file's meaningful lines with their numbers, read in order by the parser."""

    def __init__(self, text: str) -> None:
        self._items: Iterator[tuple[int, str]] = (
            (number, line.strip())
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")
        )
        self.last = 1  # line 1, the magic line, is read before

    def field(self, name: str, expected: str) -> tuple[int, str]:
        """The next line, which must be ``name: value``; returns (line number, value)."""
        item = next(self._items, None)
        if item is None:
            raise SaveError(
                f"the file ends early (truncated?): expected '{name}: {expected}'", line=self.last + 1, field_name=name
            )
        number, line = item
        self.last = number
        key, sep, value = line.partition(":")
        if not sep or key.strip() != name:
            raise SaveError(f"expected '{name}: {expected}', found {_clip(line)!r}", line=number, field_name=name)
        return number, value.strip()

    def end(self) -> None:
        """The closing ``end`` line, and nothing after it."""
        item = next(self._items, None)
        if item is None:
            raise SaveError("the file ends early (truncated?): expected 'end'", line=self.last + 1, field_name="end")
        number, line = item
        if line != "end":
            raise SaveError(f"expected 'end', found {_clip(line)!r}", line=number, field_name="end")
        extra = next(self._items, None)
        if extra is not None:
            raise SaveError(f"unexpected text after 'end': {_clip(extra[1])!r}", line=extra[0])


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def loads(text: str, expect_game: str | None = None) -> SavedGame:
    """Parse and check a save file's text; a new SavedGame, or SaveError naming the line and field."""
    if text.startswith("\ufeff"):
        text = text[1:]
    all_lines = text.splitlines()
    if not text.strip():
        raise SaveError("the file is empty: not a StoneCave save", line=1)
    first = all_lines[0].strip()
    if not first.startswith(MAGIC):
        raise SaveError(
            f"not a StoneCave save (it should begin with '{MAGIC} {VERSION}', not {_clip(first)!r})", line=1
        )
    version_text = first[len(MAGIC):].strip()
    if not (version_text.isascii() and version_text.isdigit()) or len(version_text) > 6:
        raise SaveError(f"expected the format version after '{MAGIC}', e.g. '{MAGIC} {VERSION}'", line=1,
                        field_name="version")
    version = int(version_text)
    if version not in READABLE:
        raise SaveError(
            f"format version {version} is not supported (this StoneCave reads versions "
            f"{', '.join(map(str, READABLE))})", line=1, field_name="version",
        )
    lines = _Lines("\n".join(["#"] + all_lines[1:]))

    number, spec = lines.field("game", "name:parameters")
    game = _read_game(spec, number, expect_game)
    seats = tuple(_read_seat(game, lines, name) for name in game.player_names)

    number, seed_text = lines.field("seed", "a whole number or none")
    seed: int | None = None
    if seed_text.lower() != "none":
        if not WHOLE_NUMBER.fullmatch(seed_text):
            raise SaveError(f"expected a whole number or none (digits 0-9, at most 19), not {_clip(seed_text)!r}",
                            number, "seed")
        seed = int(seed_text)

    number, start_text = lines.field("start", "the starting position")
    try:
        start = game.from_text(start_text)
    except (RulesError, ValueError, OverflowError) as error:
        raise SaveError(f"not a {game.title} position: {_clip(str(error), 200)}", number, "start") from None
    _check_bounds(game, start, number, "start")

    number, count_text = lines.field("moves", "the number of moves")
    if not (count_text.isascii() and count_text.isdigit()) or len(count_text) > 7 or int(count_text) > MAX_MOVES:
        raise SaveError(f"expected the number of moves (digits 0-9, at most {MAX_MOVES}), not {_clip(count_text)!r}",
                        number, "moves")
    count = int(count_text)
    if count > game.max_moves:
        raise SaveError(f"{count} moves, but a game of {game.title} ({game.spec}) lasts at most {game.max_moves}",
                        number, "moves")

    moves: list[Move] = []
    state = start
    for index in range(1, count + 1):
        number, move_text = lines.field(f"move {index}", "a move")
        try:
            move = game.parse_move(state, move_text) if version == 1 else game.parse_label(state, move_text)
            state = game.apply(state, move)
        except (RulesError, ValueError, OverflowError) as error:
            raise SaveError(f"illegal move {_clip(move_text)!r}: {_clip(str(error), 200)}", number,
                            f"move {index}") from None
        moves.append(move)

    number, position_text = lines.field("position", "the current position")
    try:
        position = game.from_text(position_text)
    except (RulesError, ValueError, OverflowError) as error:
        raise SaveError(f"not a {game.title} position: {_clip(str(error), 200)}", number, "position") from None
    _check_bounds(game, position, number, "position")
    # Compared as notation, so a game whose state keeps more than its notation shows is not refused wrongly.
    if game.to_text(position) != game.to_text(state):
        raise SaveError(
            f"the position does not match the moves: replaying them gives {game.to_text(state)!r}",
            number, "position",
        )
    lines.end()
    return SavedGame(game, seats, start, tuple(moves), seed)


def _check_bounds(game: Game, state: State, number: int, field_name: str) -> None:
    """SaveError unless ``state`` is within what ``game``'s variant allows (``Game.check_position``): the
    bounds come from the game, never from the file, and are checked before anything replays or draws it."""
    try:
        game.check_position(state)
    except (RulesError, ValueError, OverflowError) as error:
        raise SaveError(f"not a position {game.title} can reach: {_clip(str(error), 200)}", number,
                        field_name) from None


def _read_game(spec: str, number: int, expect_game: str | None) -> Game:
    try:
        game = rules.parse_game_spec(spec)
    except (RulesError, ValueError, OverflowError) as error:
        raise SaveError(_clip(str(error), 200), number, "game") from None
    if expect_game is not None:
        try:
            expected = rules.game_class(expect_game)
        except RulesError:
            expected = None
        if expected is not None and expected.name != game.name:
            raise SaveError(f"this is a save of {game.title}, not {expected.title}", number, "game")
    return game


def _read_seat(game: Game, lines: _Lines, name: str) -> Seat:
    number, text = lines.field(f"seat {name}", "human or engine SPEC")
    try:
        seat = Seat.from_text(text)
    except ValueError as error:
        raise SaveError(str(error), number, f"seat {name}") from None
    if seat.engine is not None:
        check_engine(game, seat.engine, number, f"seat {name}")
    return seat


def check_engine(game: Game, spec: str, line: int | None = None, field_name: str | None = None) -> None:
    """Raise SaveError unless ``spec`` names a registered engine, with valid parameters, that plays ``game``."""
    from ai.base import EngineError  # the engine registry reads YAML: only needed when a computer seat is named
    from ai.registry import check_engine_spec

    try:
        check_engine_spec(spec, game)
    except EngineError as error:
        raise SaveError(str(error), line, field_name) from None


def new_game(game: Game, seats: Sequence[Seat], seed: int | None = None) -> SavedGame:
    """A SavedGame at the starting position of ``game`` (dealt with ``seed`` where the start is random)."""
    return SavedGame(game, tuple(seats), game.initial_state(seed=seed), (), seed)


# -- what the load list shows --------------------------------------------------------------------------------
@dataclass(frozen=True)
class SaveSummary:
    """What a player needs to pick a save: the game, who plays, how far it went, when it was saved."""

    path: Path
    modified: float
    """When the file was last written (seconds since the epoch)."""
    game: Game | None = None
    seats: tuple[Seat, ...] = ()
    moves: int = 0
    is_over: bool = False
    problem: str = ""
    """Why the file cannot be read (empty when it can)."""


def summary(path: str | os.PathLike[str]) -> SaveSummary:
    """The summary of the save at ``path``; a file that cannot be read gets the reason instead (never raises
    SaveError; OSError only when the file itself has gone)."""
    target = Path(path)
    modified = files.modified(target)
    try:
        saved = load(target)
    except (SaveError, RulesError, ValueError) as error:
        return SaveSummary(target, modified, problem=str(error))
    return SaveSummary(target, modified, saved.game, saved.seats, len(saved.moves),
                       saved.game.is_terminal(saved.state))
