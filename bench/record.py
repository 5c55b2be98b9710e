"""What a kept benchmark measured, written to ``bench/results/<area>.json`` for ``tools/benchmarks.py``.

A benchmark run with ``--record`` calls ``record`` once per figure.  Each entry carries everything a reader
needs to trust or repeat it: the figure, its value and unit, the target, the same-run yardstick and the
ratio to it, the command, the date, the machine, its load average and the commit.  An entry replaces the
one with the same figure in its area (BENCHMARKS.md shows the current figures; their history is in git).
Then ``python tools/benchmarks.py`` regenerates BENCHMARKS.md from the files.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"

FIELDS = ("figure", "value", "unit", "target", "yardstick", "ratio", "command", "date", "machine", "load",
          "commit")
"""Every entry has all of these; ``ratio`` is a number or null (no same-run yardstick), the rest are text
except ``value``, a number or text."""

_LOAD_AT_START = os.getloadavg()[0]
"""The load average when the benchmark began (this module is imported at its start)."""


def add_flag(parser: argparse.ArgumentParser) -> None:
    """The ``--record [CONDITION]`` option every kept benchmark offers (``args.record``: None when not given)."""
    parser.add_argument("--record", nargs="?", const="", default=None, metavar="CONDITION",
                        help="also write the figures to bench/results/ (then: python tools/benchmarks.py); "
                             "CONDITION, e.g. quiet or loaded, is added to each figure's name")


def machine() -> str:
    """Cores, processor and Python, e.g. '2 cores, AMD EPYC 7B13, Python 3.11.7'."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, Python {platform.python_version()}"


def commit() -> str:
    """The commit measured, with '-dirty' when the working tree had changes."""
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not recorded"


def command(condition: str = "") -> str:
    """The command line that ran, as typed from the repository root, without ``--record [CONDITION]``."""
    script = Path(sys.argv[0]).resolve()
    try:
        script_name = str(script.relative_to(ROOT))
    except ValueError:
        script_name = sys.argv[0]
    words, skip = [], False
    for word in sys.argv[1:]:
        if skip:
            skip = False
            if word == condition:
                continue
        if word == "--record":
            skip = bool(condition)
            continue
        if word.startswith("--record="):
            continue
        words.append(word)
    return shlex.join(["python", script_name, *words])


def check(entry: dict[str, Any]) -> list[str]:
    """What is wrong with one entry (empty when nothing is)."""
    problems = [f"missing {field}" for field in FIELDS if field not in entry]
    problems += [f"unknown field {field}" for field in entry if field not in FIELDS]
    for field in FIELDS:
        value = entry.get(field)
        if field == "ratio":
            if value is not None and not isinstance(value, (int, float)):
                problems.append("ratio is neither a number nor null")
        elif field == "value":
            if not isinstance(value, (int, float, str)) or value == "":
                problems.append("value is empty")
        elif field == "unit":
            if not isinstance(value, str):
                problems.append("unit is not text")
        elif field in entry and (not isinstance(value, str) or not value.strip()):
            problems.append(f"{field} is empty")
    return problems


def record(condition: str | None, area: str, figure: str, value: float | str, unit: str = "", *,
           target: str = "none", yardstick: str = "none", ratio: float | None = None) -> Path | None:
    """Write one figure of ``area`` (the file ``bench/results/<area>.json``), replacing the same figure.

    ``condition`` is ``args.record``: None (not asked: nothing is written), "" or a word such as "quiet" that
    is added to the figure's name, so a quiet and a loaded run of the same measurement keep a row each.
    """
    from guarded.files import write_atomically

    if condition is None:
        return None
    if condition:
        figure = f"{figure} ({condition})"

    path = RESULTS / f"{area}.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {
        "title": area.replace("_", " ").capitalize(), "order": 99, "about": "", "entries": []}
    entry = {
        "figure": figure, "value": value, "unit": unit, "target": target, "yardstick": yardstick,
        "ratio": None if ratio is None else round(ratio, 3), "command": command(condition),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(),
        "load": f"{_LOAD_AT_START:.1f} at the start, {os.getloadavg()[0]:.1f} at the end", "commit": commit(),
    }
    problems = check(entry)
    if problems:
        raise ValueError(f"{figure}: {', '.join(problems)}")
    entries = [old for old in data["entries"] if old.get("figure") != figure]
    places = [index for index, old in enumerate(data["entries"]) if old.get("figure") == figure]
    entries.insert(places[0] if places else len(entries), entry)
    data["entries"] = entries
    write_atomically(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"recorded in {path.relative_to(ROOT)}: {figure}")
    return path


def game_label(game: Any) -> str:
    """How the tables name a game: 'Kalah(6,4)' (pits, seeds) for Kalah, else its title."""
    return f"Kalah({game.pits},{game.seeds})" if game.name == "kalah" else game.title
