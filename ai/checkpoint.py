"""A tournament's checkpoint: a JSON-lines file written as games finish, from which a run resumes.

The first line describes the run (game, engines, the settings that decide what each game is, and the
openings as move text); each following line is one game's record, appended and flushed as soon as the game
finishes, in the order games finish.  ``stonecave compare ... --resume FILE`` reads it back, checks that the
run is the same one, and plays only the games that are missing; a line cut short by an interruption is
dropped and its game played again.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

FORMAT = "stonecave-compare-checkpoint"
VERSION = 1
RUN_KEYS = ("seed", "openings", "opening_plies", "judge", "time_limit", "overrun_margin", "max_plies")
"""Settings that decide what each game is: a resumed run must repeat them (the game cap, jobs, cluster and
SPRT bounds may change)."""


class CheckpointError(ValueError):
    """A checkpoint that cannot be read, or that belongs to another run."""


def header(game: str, engines: tuple[str, str], run: dict[str, Any], openings: list[list[str]]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "game": game, "engines": list(engines),
            "run": {key: run[key] for key in RUN_KEYS}, "openings": openings}


def start(path: Path, first_line: dict[str, Any]) -> IO[str]:
    """Create a new checkpoint (refusing to overwrite one that holds games) and return it open for appending.

    A checkpoint with no game yet (a run that failed to start, say an unreachable scheduler) is replaced.
    """
    if path.exists() and path.stat().st_size > 0:
        try:
            _, records = load(path)
        except CheckpointError:
            raise CheckpointError(f"{path} already exists and is not a checkpoint; choose another file") from None
        if records:
            raise CheckpointError(f"{path} already exists; continue it with --resume {path}, or choose another file")
    stream = path.open("w", encoding="utf-8")
    stream.write(json.dumps(first_line) + "\n")
    stream.flush()
    return stream


def append(stream: IO[str], record: Any) -> None:
    """Write one game's record and flush it, so that an interruption loses at most the line being written."""
    stream.write(json.dumps({"record": asdict(record)}) + "\n")
    stream.flush()


def load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the game records (as dicts) of a checkpoint; a torn last line is cut off the file."""
    if not path.is_file():
        raise CheckpointError(f"no checkpoint at {path}")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    try:
        first = json.loads(lines[0])
    except json.JSONDecodeError:
        raise CheckpointError(f"{path} is not a stonecave compare checkpoint (its first line is not JSON)") from None
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not a stonecave compare checkpoint")
    if first.get("version") != VERSION:
        raise CheckpointError(f"{path} has checkpoint version {first.get('version')}, this program reads {VERSION}")
    records: list[dict[str, Any]] = []
    kept = len(lines[0]) + 1
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            kept += len(line) + 1
            continue
        try:
            item = json.loads(line)
            records.append(item["record"])
        except (json.JSONDecodeError, KeyError, TypeError):
            if number == len(lines) or (number == len(lines) - 1 and not lines[-1]):
                break  # the last line, cut short when the run was interrupted: that game is played again
            raise CheckpointError(f"{path} line {number} is not a game record") from None
        kept += len(line) + 1
    if kept < len(text):
        with path.open("r+", encoding="utf-8") as stream:  # drop the torn line before appending after it
            stream.truncate(kept)
    return first, records


def check_same_run(path: Path, first: dict[str, Any], game: str, engines: tuple[str, str],
                   run: dict[str, Any]) -> None:
    """Raise ``CheckpointError`` naming every difference between the checkpoint's run and this one."""
    differences = []
    if first.get("game") != game:
        differences.append(f"game {first.get('game')} (now {game})")
    if tuple(first.get("engines", ())) != tuple(engines):
        differences.append(f"engines {' vs '.join(first.get('engines', []))} (now {' vs '.join(engines)})")
    saved = first.get("run", {})
    for key in RUN_KEYS:
        if saved.get(key) != run[key]:
            differences.append(f"{key.replace('_', '-')} {saved.get(key)} (now {run[key]})")
    if differences:
        raise CheckpointError(f"{path} is a checkpoint of another run: " + "; ".join(differences))


def resume(path: Path) -> IO[str]:
    """Open an existing checkpoint for appending."""
    return path.open("a", encoding="utf-8")
