"""Solitaire Mancala levels: curated deals in ``levels/solitaire/*.yaml``, read into validated ``Level`` objects.

One file per level::

    id: dose-01
    name: Gentle Start
    variant: dose                  # or lewis
    holes: [4, 5, 3, 2, 6, 4, 3, 5, 4, 4, 5, 3]   # hole01..hole12, 48 stones, at least one each
    solution:
      goal: 46                     # stones a goal line stores (46 dose, 48 = a win under lewis)
      best: 46                     # the most the solver found (proven when it equals the goal)
      length: 180                  # rounds of the line
      line: "1 cw, ccw, cw, ..."   # the rounds, as typed at the console
    difficulty:
      measure: random-playout mean stored
      value: 21.4                  # higher is easier; levels are ordered by it, easiest first
      playouts: 400

``load_levels()`` returns every valid level and the problems of the files it refused; a malformed file never
stops the others from loading.  The generator is ``bench/make_solitaire_levels.py``.

Levels come in two sets, one per variant, named for players in ``SETS`` (what to do, and whose rules they
are): the winnable ``lewis`` deals first, then the ``dose`` deals, which cannot be cleared and take about 200
rounds.  Within a set the levels are ordered by ``effort``, easy and short first: the rounds of the solution
per stone a careful random player stores (``difficulty.value``, higher is easier).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guarded import files
from guarded.files import FileProblem, quote

LEVEL_DIR = Path(__file__).with_name("solitaire")
VARIANTS = ("dose", "lewis")


@dataclass(frozen=True)
class LevelSet:
    """How the levels of one variant are shown to a player: a name in words, the goal, and the rules' source."""

    variant: str
    name: str
    goal: str
    credit: str


SETS = (
    LevelSet("lewis", "Clear the board", "Winnable deals: empty every hole into the stores.",
             "Rules after Evan Lewis's solitaire (1979)."),
    LevelSet("dose", "Store the most", "Long deals that cannot be cleared: store all the stones you can, 46 is "
             "perfect.", "Rules of the DOSE 2015 Mancala game."),
)
"""The sets in the order the puzzle list shows them: winnable, shorter deals first."""


def level_set(variant: str) -> LevelSet:
    """The set of ``variant``'s levels."""
    return next(item for item in SETS if item.variant == variant)


class LevelError(ValueError):
    """A level file that cannot be used; the message names the file, the key and what is expected."""


@dataclass(frozen=True)
class Level:
    """One curated deal, its solved outcome and its measured difficulty."""

    id: str
    name: str
    variant: str
    holes: tuple[int, ...]
    goal: int
    best: int
    length: int
    line: tuple[str, ...]
    difficulty: float
    measure: str
    path: Path

    @property
    def effort(self) -> float:
        """Rounds of the solution per stone a careful random player stores: lower is easier and shorter."""
        return self.length / max(self.difficulty, 0.01)


def _require(data: dict, key: str, kind: type | tuple[type, ...], source: Path, expected: str) -> Any:
    if key not in data:
        raise LevelError(f"{source.name}: missing key {key!r} ({expected})")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise LevelError(f"{source.name}: {key} must be {expected}, not {quote(value)}")
    return value


def read_level(path: Path) -> Level:
    """Read and validate one level file; LevelError names the file, the key and what is expected."""
    try:
        data = files.load_yaml(path)
    except FileNotFoundError:
        raise LevelError(f"{path.name}: no such file") from None
    except FileProblem as error:
        raise LevelError(f"{path.name}: {error}") from None
    if not isinstance(data, dict):
        raise LevelError(f"{path.name}: expected a mapping with id, name, variant, holes, solution, difficulty")
    level_id = _require(data, "id", str, path, "a short text id such as dose-01")
    name = _require(data, "name", str, path, "the level's name as text")
    variant = _require(data, "variant", str, path, "dose or lewis")
    if variant not in VARIANTS:
        raise LevelError(f"{path.name}: variant must be dose or lewis, not {quote(variant)}")
    holes = _require(data, "holes", list, path, "a list of 12 hole counts, hole01..hole12")
    if len(holes) != 12 or any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in holes):
        raise LevelError(f"{path.name}: holes must be 12 whole numbers of at least 1 (hole01..hole12), not {quote(holes)}")
    if sum(holes) != 48:
        raise LevelError(f"{path.name}: holes must hold 48 stones in all, not {sum(holes)}")
    solution = _require(data, "solution", dict, path, "a mapping with goal, best, length and line")
    goal = _require(solution, "goal", int, path, "solution.goal: the stones a goal line stores")
    best = _require(solution, "best", int, path, "solution.best: the most stones the line stores")
    length = _require(solution, "length", int, path, "solution.length: the rounds of the line")
    line_text = _require(solution, "line", str, path, "solution.line: the rounds as text, split by commas")
    line = tuple(part.strip() for part in line_text.split(",") if part.strip())
    if len(line) != length:
        raise LevelError(f"{path.name}: solution.length says {length} rounds but solution.line has {len(line)}")
    difficulty = _require(data, "difficulty", dict, path, "a mapping with measure and value")
    measure = _require(difficulty, "measure", str, path, "difficulty.measure: what was measured")
    value = _require(difficulty, "value", (int, float), path, "difficulty.value: the measured number")
    return Level(level_id, name, variant, tuple(holes), goal, best, length, line, float(value), measure, path)


def load_levels(directory: Path = LEVEL_DIR) -> tuple[list[Level], list[str]]:
    """Every valid level, set by set as ``SETS`` orders them, easiest first within each (``Level.effort``), and one
    message per refused file."""
    levels: list[Level] = []
    problems: list[str] = []
    ids: set[str] = set()
    for path in sorted(directory.glob("*.yaml")):
        try:
            level = read_level(path)
        except LevelError as error:
            problems.append(str(error))
            continue
        if level.id in ids:
            problems.append(f"{path.name}: id {quote(level.id)} is used by another level")
            continue
        ids.add(level.id)
        levels.append(level)
    order = [item.variant for item in SETS]
    levels.sort(key=lambda lv: (order.index(lv.variant), lv.effort, lv.id))
    return levels, problems


def find_level(level_id: str, directory: Path = LEVEL_DIR) -> Level:
    """The level with ``level_id``; LevelError listing the valid ids otherwise."""
    levels, problems = load_levels(directory)
    for level in levels:
        if level.id == level_id:
            return level
    valid = ", ".join(level.id for level in levels) or "none"
    raise LevelError(f"no level {quote(level_id)} (valid: {valid})")
