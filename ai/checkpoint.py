"""A tournament's checkpoint: a JSON-lines file written as games finish, from which a run resumes.

The first line describes the run (game, engines, the settings that decide what each game is, and the
openings as move text); each following line is one game's record, appended and flushed to the disk as soon
as the game finishes, in the order games finish.  ``stonecave compare ... --resume FILE`` reads it back,
checks that the run is the same one, and plays only the games that are missing.

The file is a schema, checked line by line on resume, because it may have been edited, damaged or written
by anyone:

- the first line must be a header of this format and version, every field of the right type and range
  (``check_header``), and its openings legal move lines of the game; otherwise the run cannot resume;
- every other line must be one game's record of *this* run (``check_record``): an index within the run, the
  opening and seat that index implies, a known winner, scores, plies and move statistics that are whole or
  finite numbers in range.  A line that fails is reported (``Recovery.problems``) and its game played again;
  it is never counted;
- lines may end with ``\\n``, ``\\r\\n`` or ``\\r``; an unterminated last line that is not a valid record
  (a write cut short) is cut off at its first byte before anything is appended, and the file is read and
  written only through ``guarded.records`` (regular files only, bounded, never blocking on a FIFO).
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Sequence

from ai.compare_options import MAX_OPENING_PLIES, MAX_OPENINGS, MAX_TIME_LIMIT
from ai.game_play import GameRecord, MoveStats
from guarded.files import FileProblem, exists, quote, read_bytes, writable_problem, write_atomically
from guarded.records import RECORDS_LIMIT, Line, RecordLines, RecordWriter, cut, read_lines

FORMAT = "stonecave-compare-checkpoint"
VERSION = 1
RUN_KEYS = ("seed", "openings", "opening_plies", "judge", "time_limit", "overrun_margin", "max_plies")
"""Settings that decide what each game is: a resumed run must repeat them (the game cap, jobs, cluster and
SPRT bounds may change)."""
MAX_LINE = 4 * 1024 * 1024
"""Longest line read as JSON (a record of a 20,000-ply game is about 150 kB)."""
MAX_TEXT = 100_000
"""Longest text in a record (a forfeit's reason with its traceback)."""
MAX_PROBLEMS_SHOWN = 5
"""Problems listed one by one in a message; the rest are counted."""


class CheckpointError(ValueError):
    """A checkpoint that cannot be read, or that belongs to another run."""


class _Invalid(ValueError):
    """One field of a line that breaks the schema; the message names it."""


# -- reading JSON safely ----------------------------------------------------------------------------------------
def _no_constant(name: str) -> Any:
    raise _Invalid(f"{name} is not a number JSON allows")


def parse_json_line(text: str | None) -> Any:
    """One line's JSON value; ``_Invalid`` for text that is not JSON, too long, too deep, or NaN/Infinity."""
    if text is None:
        raise _Invalid("not UTF-8 text")
    if len(text) > MAX_LINE:
        raise _Invalid(f"a line of {len(text):,} characters is longer than any record")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _Invalid("nested too deeply") from None
    except ValueError as error:  # JSONDecodeError, and int() of thousands of digits
        if isinstance(error, _Invalid):
            raise
        raise _Invalid("not JSON") from None


# -- the schema -------------------------------------------------------------------------------------------------
def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(f"{name} must be a whole number, not {quote(value)}")
    if not low <= value <= high:
        raise _Invalid(f"{name} {quote(value)} is outside {low}..{high}")
    return value


def _number(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _Invalid(f"{name} must be a number, not {quote(value)}")
    if not low <= value <= high:
        raise _Invalid(f"{name} {quote(value)} is outside {low:g}..{high:g}")
    return float(value)


def _text(value: Any, name: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise _Invalid(f"{name} must be text, not {quote(value)}")
    if len(value) > limit:
        raise _Invalid(f"{name} is {len(value):,} characters long (at most {limit:,})")
    return value


def _texts(value: Any, name: str, limit: int) -> list[str]:
    if not isinstance(value, list):
        raise _Invalid(f"{name} must be a list, not {quote(value)}")
    if len(value) > limit:
        raise _Invalid(f"{name} holds {len(value):,} items (at most {limit:,})")
    return [_text(item, f"{name}[{number}]", 100) for number, item in enumerate(value)]


def check_header(first: Any) -> dict[str, Any]:
    """The header line's fields checked against the schema; ``CheckpointError`` naming the first bad one."""
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        raise CheckpointError("is not a stonecave compare checkpoint")
    if first.get("version") != VERSION:
        raise CheckpointError(f"has checkpoint version {quote(first.get('version'))}, this program reads {VERSION}")
    try:
        game = _text(first.get("game"), "its game", 200)
        engines = first.get("engines")
        if not isinstance(engines, list) or len(engines) != 2:
            raise _Invalid(f"its engines must be a list of two engine specs, not {quote(engines)}")
        engines = [_text(spec, "an engine spec", 400) for spec in engines]
        saved = first.get("run")
        if not isinstance(saved, dict):
            raise _Invalid(f"its run must be a table of settings, not {quote(saved)}")
        missing = [key for key in RUN_KEYS if key not in saved]
        if missing:
            raise _Invalid(f"its run lacks {', '.join(missing)}")
        run: dict[str, Any] = {
            "seed": _whole(saved["seed"], "seed", -(2**63), 2**63),
            "openings": _whole(saved["openings"], "openings", 0, MAX_OPENINGS),
            "opening_plies": _whole(saved["opening_plies"], "opening_plies", 1, MAX_OPENING_PLIES),
            "judge": None if saved["judge"] is None else _text(saved["judge"], "judge", 400),
            "time_limit": (None if saved["time_limit"] is None
                           else _number(saved["time_limit"], "time_limit", 1e-9, MAX_TIME_LIMIT)),
            "overrun_margin": _number(saved["overrun_margin"], "overrun_margin", 0.0, 3600.0),
            "max_plies": _whole(saved["max_plies"], "max_plies", 1, 10**6),
        }
        openings = first.get("openings")
        if not isinstance(openings, list):
            raise _Invalid(f"its openings must be a list of move lists, not {quote(openings)}")
        if len(openings) != run["openings"] + 1:
            raise _Invalid(f"it lists {len(openings)} openings where its run has {run['openings'] + 1} "
                           "(the start position and the balanced ones)")
        lines = [_texts(moves, f"opening {number}", MAX_OPENING_PLIES) for number, moves in enumerate(openings)]
    except _Invalid as problem:
        raise CheckpointError(f"has a header that does not fit the checkpoint schema: {problem}") from None
    return {"format": FORMAT, "version": VERSION, "game": game, "engines": engines, "run": run, "openings": lines}


@dataclass(frozen=True)
class RunShape:
    """What a record of this run may hold: the game cap, the number of openings, the ply cap."""

    games: int
    openings: int
    max_plies: int


_STAT_FIELDS = {item.name: item.type for item in fields(MoveStats)}
_RECORD_KEYS = {item.name for item in fields(GameRecord)}


def _move_stats(value: Any, who: str, shape: RunShape) -> MoveStats:
    if not isinstance(value, dict) or set(value) != set(_STAT_FIELDS):
        raise _Invalid(f"{who}'s statistics must be a table of {', '.join(_STAT_FIELDS)}, not {quote(value)}")
    checked: dict[str, Any] = {}
    for name, kind in _STAT_FIELDS.items():
        if kind in ("float", float):
            checked[name] = _number(value[name], f"{who}'s {name}", 0.0, 1e9)
        else:
            high = 2**62 if name in ("nodes", "depth_sum") else shape.max_plies
            checked[name] = _whole(value[name], f"{who}'s {name}", 0, high)
    return MoveStats(**checked)


def check_record(item: Any, shape: RunShape) -> GameRecord:
    """One line's ``{"record": {...}}`` as a ``GameRecord`` of this run; ``_Invalid`` naming what is wrong."""
    if not isinstance(item, dict) or set(item) != {"record"} or not isinstance(item["record"], dict):
        raise _Invalid('not a game record (a line is {"record": {...}})')
    record = item["record"]
    unknown = sorted(set(record) - _RECORD_KEYS)
    if unknown:
        raise _Invalid(f"unknown field {quote(unknown[0])}")
    missing = sorted(_RECORD_KEYS - {"forfeit", "moves"} - set(record))
    if missing:
        raise _Invalid(f"no {', '.join(missing)}")
    index = _whole(record["index"], "index", 0, 2**62)
    opening = _whole(record["opening"], "opening", 0, shape.openings - 1)
    if opening != (index // 2) % shape.openings:
        raise _Invalid(f"game {index} starts from opening {(index // 2) % shape.openings}, not {opening}")
    a_seat = _whole(record["a_seat"], "a_seat", 0, 1)
    if a_seat != index % 2:
        raise _Invalid(f"in game {index} engine A takes seat {index % 2}, not {a_seat}")
    winner = record["winner"]
    if winner not in ("A", "B", None):
        raise _Invalid(f"winner must be A, B or null (a draw), not {quote(winner)}")
    reason = _text(record["reason"], "reason", 200)
    scores = record["scores"]
    if not isinstance(scores, list) or len(scores) not in (0, 2):
        raise _Invalid(f"scores must be a list of two numbers (or empty), not {quote(scores)}")
    scores = [_whole(score, "a score", -(10**9), 10**9) for score in scores]
    plies = _whole(record["plies"], "plies", 0, shape.max_plies)
    stats = record["stats"]
    if not isinstance(stats, list) or len(stats) != 2:
        raise _Invalid(f"stats must be a list of two tables (A's, B's), not {quote(stats)}")
    move_stats = (_move_stats(stats[0], "A", shape), _move_stats(stats[1], "B", shape))
    if move_stats[0].moves + move_stats[1].moves != plies:
        raise _Invalid(f"A's and B's moves ({move_stats[0].moves} + {move_stats[1].moves}) are not its {plies} plies")
    forfeit = record.get("forfeit")
    if forfeit is not None:
        forfeit = _text(forfeit, "forfeit")
        if reason != "forfeit" or winner is None:
            raise _Invalid("a forfeited game must have reason forfeit and a winner")
    moves = _texts(record.get("moves", []), "moves", shape.max_plies + MAX_OPENING_PLIES)
    return GameRecord(index, opening, a_seat, winner, reason, tuple(scores), plies, move_stats, forfeit,
                      tuple(moves))


# -- recovery ---------------------------------------------------------------------------------------------------
@dataclass
class Recovery:
    """What ``recover`` found: the header, the valid records of this run under its game cap (the first of
    each index), and one message per line that was set aside (its game is played again)."""

    header: dict[str, Any]
    records: dict[int, GameRecord] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    beyond_cap: int = 0
    """Valid records of games at or past the cap (a smaller cap than before): kept in the file, not counted."""
    duplicates: int = 0
    cut_bytes: int = 0
    """Bytes of a torn last line cut off the file."""
    moved_to: Path | None = None
    """Where the invalid lines went (``set_aside_lines``): they are named once, not at every resume."""


def _read(path: Path) -> RecordLines | None:
    """The checkpoint's lines, or None when there is no file; ``CheckpointError`` when it is not a regular,
    readable file of a sane size (a FIFO, a device, a folder...)."""
    try:
        return read_lines(path)
    except FileNotFoundError:
        return None
    except FileProblem as problem:
        raise CheckpointError(f"cannot use {path} as a checkpoint: it {problem}") from None


def _header(path: Path, contents: RecordLines) -> dict[str, Any]:
    first_line = contents.lines[0] if contents.lines else contents.tail
    if first_line is None:
        raise CheckpointError(f"{path} is empty, not a stonecave compare checkpoint")
    try:
        first = parse_json_line(first_line.text)
    except _Invalid as problem:
        raise CheckpointError(f"{path} is not a stonecave compare checkpoint (its first line is {problem})") from None
    try:
        return check_header(first)
    except CheckpointError as error:
        raise CheckpointError(f"{path} {error}") from None


def has_header(path: Path) -> bool:
    """Whether ``path`` is a checkpoint that a run can resume (an interrupted run's message says so only then)."""
    try:
        read_header(path)
    except CheckpointError:
        return False
    return True


def read_header(path: Path) -> tuple[dict[str, Any], RecordLines]:
    """The checkpoint's checked header and its lines; ``CheckpointError`` when it cannot be resumed."""
    contents = _read(path)
    if contents is None:
        raise CheckpointError(f"no checkpoint at {path}")
    return _header(path, contents), contents


def recover(path: Path, shape: RunShape) -> Recovery:
    """Read the checkpoint at ``path`` for a run of ``shape``: validate every record, cut a torn last line off
    the file (at its first byte), and move each invalid line to a file beside it (``set_aside_lines``), naming
    it in ``problems`` this once."""
    header, contents = read_header(path)
    recovery = Recovery(header)
    invalid: list[Line] = []
    body = list(contents.lines[1:]) if contents.lines else []
    tail = contents.tail if contents.lines else None
    if tail is not None:
        body.append(tail)
    for line in body:
        if line.text is not None and not line.text.strip():
            continue
        try:
            record = check_record(parse_json_line(line.text), shape)
        except _Invalid as problem:
            if line is tail:  # a write cut short: that game is played again, and the line goes
                try:
                    cut(path, tail.start)
                except FileProblem as unwritable:
                    raise CheckpointError(f"cannot cut the torn last line off {path}: it {unwritable}") from None
                recovery.cut_bytes = tail.end - tail.start
            else:
                recovery.problems.append(f"line {line.number}: {problem}")
                invalid.append(line)
            continue
        if record.index >= shape.games:
            recovery.beyond_cap += 1
        elif record.index in recovery.records:
            recovery.duplicates += 1
        else:
            recovery.records[record.index] = record
    if invalid:
        recovery.moved_to = set_aside_lines(path, invalid)
    return recovery


def invalid_lines_path(path: Path) -> Path:
    """The file beside a checkpoint that keeps the lines set aside from it."""
    return path.with_name(path.name + ".invalid")


def set_aside_lines(path: Path, lines: Sequence[Line]) -> Path:
    """Move ``lines`` out of the checkpoint at ``path``, appended to ``invalid_lines_path(path)``: nothing is
    lost, and the next resume does not name them again.  The lines are written beside it first, then the
    checkpoint is rewritten without them, each atomically (a crash in between keeps a line in both places,
    never in neither)."""
    aside = invalid_lines_path(path)
    try:
        data = read_bytes(path, RECORDS_LIMIT)
        kept = read_bytes(aside, RECORDS_LIMIT) if exists(aside) else b""
        if kept and not kept.endswith((b"\n", b"\r")):
            kept += b"\n"
        moved = b"".join(data[line.start:line.end].rstrip(b"\r\n") + b"\n" for line in lines)
        write_atomically(aside, kept + moved)
        dropped = {(line.start, line.end) for line in lines}
        rest = b"".join(data[start:end] for start, end in _ranges_without(len(data), sorted(dropped)))
        write_atomically(path, rest)
    except (FileProblem, OSError) as problem:
        raise CheckpointError(f"cannot move the invalid lines of {path} to {aside}: {problem}") from None
    return aside


def _ranges_without(size: int, holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    ranges, at = [], 0
    for start, end in holes:
        ranges.append((at, start))
        at = end
    ranges.append((at, size))
    return ranges


def describe_problems(path: Path, problems: Sequence[str], moved_to: Path | None = None) -> str:
    """One message for the lines set aside: the first few named, the rest counted, and where they went."""
    shown = "; ".join(problems[:MAX_PROBLEMS_SHOWN])
    more = f"; and {len(problems) - MAX_PROBLEMS_SHOWN} more" if len(problems) > MAX_PROBLEMS_SHOWN else ""
    return (f"{path}: {len(problems)} line(s) are not valid game records of this run and are not counted "
            f"(their games are played again): {shown}{more}"
            + (f"; they are kept in {moved_to}" if moved_to is not None else ""))


# -- writing ----------------------------------------------------------------------------------------------------
def header(game: str, engines: tuple[str, str], run: dict[str, Any], openings: list[list[str]]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "game": game, "engines": list(engines),
            "run": {key: run[key] for key in RUN_KEYS}, "openings": openings}


def check_new(path: Path) -> None:
    """Refuse to start a checkpoint at ``path`` when it holds games of a run, is not a checkpoint, or is not a
    regular file (a FIFO, a device such as ``/dev/full``, a folder); ``CheckpointError`` says which.  An empty
    file, or a checkpoint with no game yet (a run that failed to start), may be replaced."""
    contents = _read(path)
    if contents is None or not contents.size:
        return
    try:
        _header(path, contents)
    except CheckpointError:
        raise CheckpointError(f"{path} already exists and is not a checkpoint; choose another file") from None
    after = list(contents.lines[1:]) + ([contents.tail] if contents.lines and contents.tail else [])
    if any(line.text is None or line.text.strip() for line in after):
        raise CheckpointError(f"{path} already exists; continue it with --resume {path}, or choose another file")


def check_writable(path: Path) -> None:
    """``check_new``, and a probe that a file can be written beside ``path`` (a read-only folder, a full disk),
    so a run that could not keep its checkpoint stops before the openings are chosen or a game is played."""
    check_new(path)
    problem = writable_problem(path)
    if problem:
        raise CheckpointError(f"cannot write the checkpoint {path}: {problem} (nothing was played)")


def start(path: Path, first_line: dict[str, Any]) -> RecordWriter:
    """Create a new checkpoint (after ``check_new``) holding ``first_line``, open for appending."""
    check_new(path)
    try:
        writer = RecordWriter(path, create=True)
    except FileProblem as problem:
        raise CheckpointError(f"cannot write the checkpoint {path}: it {problem}") from None
    try:
        writer.append(json.dumps(first_line))
    except OSError as error:
        writer.close()
        raise CheckpointError(f"cannot write the checkpoint {path}: {error.strerror or error}") from None
    return writer


def resume(path: Path) -> RecordWriter:
    """Open an existing checkpoint for appending."""
    try:
        return RecordWriter(path)
    except (FileProblem, FileNotFoundError) as problem:
        raise CheckpointError(f"cannot append to the checkpoint {path}: it {problem}") from None


def append(writer: RecordWriter, record: GameRecord) -> None:
    """Write one game's record and flush it to the disk, so an interruption loses at most the line being
    written (OSError when the disk is full)."""
    writer.append(json.dumps({"record": asdict(record)}))


def check_same_run(path: Path, first: dict[str, Any], game: str, engines: tuple[str, str],
                   run: dict[str, Any]) -> None:
    """Raise ``CheckpointError`` naming every difference between the checkpoint's run and this one."""
    differences = []
    if first["game"] != game:
        differences.append(f"game {first['game']} (now {game})")
    if tuple(first["engines"]) != tuple(engines):
        differences.append(f"engines {' vs '.join(first['engines'])} (now {' vs '.join(engines)})")
    saved = first["run"]
    for key in RUN_KEYS:
        if saved[key] != run[key]:
            differences.append(f"{key.replace('_', '-')} {saved[key]} (now {run[key]})")
    if differences:
        raise CheckpointError(f"{path} is a checkpoint of another run: " + "; ".join(differences))
