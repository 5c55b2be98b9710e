"""What the sowing scene needs to know of a sowing game: where each pit is drawn and what a move does.

Locations.  Every place a stone can rest is a *location*: the pits in the canonical order of docs/rules/ (South's pits
then North's, each in its owner's numbering: ``0 .. pit_count-1``) and, for games with stores, South's store
(``pit_count``) and North's store (``pit_count + 1``).  A move ``m`` of player ``p`` starts at location
``p * per_player + m``.

``BoardSpec`` reads a game and a state: two rows of ``n`` with stores (Kalah, Oware), or Hus's four rows of
sixteen.  ``layout`` places every location in a rectangle.  ``plan_move`` turns a rules module's
``report(state, move)`` into laps of sowing and captures for the animation; whatever the report does not say
(or a game without ``report``) is covered by reconciling the stones with the new state, which is the truth.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import Game, Move, State

Location = int


@dataclass(frozen=True)
class BoardSpec:
    """The shape of a sowing board: ``rows`` of ``columns`` pits, stores or not, pits per player."""

    rows: int
    columns: int
    has_stores: bool
    per_player: int

    @property
    def pit_count(self) -> int:
        return 2 * self.per_player

    def store(self, player: int) -> Location:
        if not self.has_stores:
            raise ValueError("this board has no stores")
        return self.pit_count + player

    @property
    def locations(self) -> range:
        return range(self.pit_count + (2 if self.has_stores else 0))

    def is_store(self, location: Location) -> bool:
        return location >= self.pit_count

    def owner(self, location: Location) -> int:
        if self.is_store(location):
            return location - self.pit_count
        return location // self.per_player

    def move_location(self, player: int, move: Move) -> Location:
        return player * self.per_player + int(move)  # type: ignore[arg-type]

    def counts(self, state: State) -> dict[Location, int]:
        """Stones per location in ``state`` (the truth the stones must match)."""
        pits = state.pits  # type: ignore[attr-defined]
        result = {index: count for index, count in enumerate(pits)}
        if self.has_stores:
            stores = state.stores  # type: ignore[attr-defined]
            result[self.pit_count] = stores[0]
            result[self.pit_count + 1] = stores[1]
        return result

    @classmethod
    def of(cls, game: Game, state: State) -> BoardSpec:
        pits = getattr(state, "pits", None)
        if pits is None:
            raise ValueError(f"{game.title} is not a sowing game the board scene can draw")
        has_stores = getattr(state, "stores", None) is not None
        if len(pits) == 64 and not has_stores:
            return cls(rows=4, columns=16, has_stores=False, per_player=32)
        return cls(rows=2, columns=len(pits) // 2, has_stores=has_stores, per_player=len(pits) // 2)


@dataclass(frozen=True)
class PitPlace:
    """Where a location is drawn: centre, half-width and half-height (a store is a tall well)."""

    x: float
    y: float
    half_width: float
    half_height: float


@dataclass(frozen=True)
class Layout:
    """Every location's place, the board's rectangle (left, bottom, width, height) and the stone radius."""

    places: dict[Location, PitPlace]
    board: tuple[float, float, float, float]
    stone_radius: float
    pit_radius: float


def layout(spec: BoardSpec, left: float, bottom: float, width: float, height: float) -> Layout:
    """Fit the board into the rectangle, centred, keeping the pits round."""
    columns = spec.columns + (2 if spec.has_stores else 0)
    rows = spec.rows
    cell = min(width / (columns + 0.4), height / (rows + 0.5))
    board_w, board_h = cell * (columns + 0.4), cell * (rows + 0.5)
    x0 = left + (width - board_w) / 2
    y0 = bottom + (height - board_h) / 2
    pit_r = cell * 0.42
    places: dict[Location, PitPlace] = {}
    first_x = x0 + cell * 0.2 + (cell if spec.has_stores else 0) + cell / 2

    def centre(column: int, row: int) -> tuple[float, float]:
        return first_x + column * cell, y0 + cell * 0.25 + (row + 0.5) * cell

    n = spec.columns
    if rows == 2:
        for i in range(n):
            places[i] = PitPlace(*centre(i, 0), pit_r, pit_r)
            places[n + i] = PitPlace(*centre(n - 1 - i, 1), pit_r, pit_r)
    else:
        for i in range(16):
            places[i] = PitPlace(*centre(i, 0), pit_r, pit_r)                 # South outer, left to right
            places[16 + i] = PitPlace(*centre(15 - i, 1), pit_r, pit_r)       # South inner, right to left
            places[32 + 16 + i] = PitPlace(*centre(i, 2), pit_r, pit_r)       # North inner, left to right
            places[32 + i] = PitPlace(*centre(15 - i, 3), pit_r, pit_r)       # North outer, right to left
    if spec.has_stores:
        mid_y = y0 + board_h / 2
        store_half_h = cell * rows / 2 - cell * 0.08
        places[spec.store(0)] = PitPlace(first_x + n * cell, mid_y, pit_r, store_half_h)
        places[spec.store(1)] = PitPlace(first_x - cell, mid_y, pit_r, store_half_h)
    stone_r = pit_r * (0.2 if rows == 2 else 0.27)
    return Layout(places, (x0, y0, board_w, board_h), stone_r, pit_r)


# -- what a move does ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Lap:
    """One lap of sowing: stones taken from some locations into the hand, then dropped one per location."""

    taken: tuple[tuple[Location, int], ...]
    drops: tuple[Location, ...]
    label: str | None = None


@dataclass(frozen=True)
class Capture:
    """Stones lifted from some locations and flown together to ``store`` (None: they leave the board)."""

    taken: tuple[tuple[Location, int], ...]
    store: Location | None
    label: str


@dataclass
class MovePlan:
    """The animation script of one move; ``after`` holds the counts the stones must end with."""

    laps: list[Lap] = field(default_factory=list)
    captures: list[Capture] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    after: dict[Location, int] = field(default_factory=dict)


def plan_move(game: Game, state: State, move: Move, after: State, spec: BoardSpec) -> MovePlan:
    """The animation of ``move`` from ``state`` to ``after`` (which the rules computed: the truth)."""
    plan = MovePlan(after=spec.counts(after))
    player = game.to_move(state)
    source = spec.move_location(player, move)
    report = getattr(game, "report", None)
    details: Any = report(state, move) if callable(report) else None
    if details is not None and hasattr(details, "laps"):
        _plan_laps(plan, details, spec)
    elif details is not None and hasattr(details, "path") and game.name == "kalah":
        _plan_kalah(plan, details, spec, source)
    elif details is not None and hasattr(details, "path"):
        _plan_path(plan, details, spec, source, state)
    else:
        seeds = spec.counts(state)[source]
        plan.laps.append(Lap(((source, seeds),), ()))
    if game.is_terminal(after):
        plan.labels.append("Game over")
    return plan


def _kalah_location(spec: BoardSpec, ring_index: int) -> Location:
    n = spec.per_player
    if ring_index < n:
        return ring_index
    if ring_index == n:
        return spec.store(0)
    if ring_index <= 2 * n:
        return ring_index - 1
    return spec.store(1)


def _plan_kalah(plan: MovePlan, report: Any, spec: BoardSpec, source: Location) -> None:
    drops = tuple(_kalah_location(spec, index) for index in report.path)
    plan.laps.append(Lap(((source, report.seeds),), drops))
    if report.captured:
        last = drops[-1]
        opposite = _kalah_location(spec, report.capture_pit)
        taken = ((last, 1), (opposite, report.captured - 1))
        plan.captures.append(Capture(tuple(t for t in taken if t[1]), spec.store(report.player),
                                     f"Capture {report.captured}"))
        plan.labels.append(f"Capture {report.captured}")
    if report.extra_turn and not report.game_over:
        plan.labels.append("Extra turn")


def _plan_laps(plan: MovePlan, report: Any, spec: BoardSpec) -> None:
    """Hus-style reports: laps with the pits they took from (owner, pit, seeds) and the mover's path."""
    per = spec.per_player
    for index, lap in enumerate(report.laps):
        kind = getattr(getattr(lap, "kind", None), "value", "")
        taken = tuple((owner * per + pit, seeds) for owner, pit, seeds in lap.taken if seeds)
        label = None
        if index and kind == "relay":
            label = "Relay"
        elif kind == "capture":
            label = f"Capture {lap.seeds}"
        plan.laps.append(Lap(taken, tuple(report.player * per + pit for pit in lap.path), label))
    relays = getattr(report, "relays", 0)
    if relays:
        plan.labels.append(f"Relay x{relays}" if relays > 1 else "Relay")
    if getattr(report, "captured", 0):
        plan.labels.append(f"Captured {report.captured}")


def _plan_path(plan: MovePlan, report: Any, spec: BoardSpec, source: Location, state: State) -> None:
    """Oware-style reports: a path of canonical pit indices, the captured houses, and named events."""
    seeds = getattr(report, "seeds", spec.counts(state)[source])
    path = tuple(int(location) for location in report.path)
    plan.laps.append(Lap(((source, seeds),), path))
    captured_pits = tuple(getattr(report, "captured_houses", None) or getattr(report, "capture_pits", ()) or ())
    if captured_pits and spec.has_stores and getattr(report, "captured", 0):
        # Counts are taken from the board after sowing; reconciliation fixes any difference.
        counts = spec.counts(state)
        counts[source] = 0
        for location in path:
            counts[location] = counts.get(location, 0) + 1
        taken = tuple((pit, counts.get(pit, 0)) for pit in captured_pits if counts.get(pit, 0))
        plan.captures.append(Capture(taken, spec.store(report.player), f"Capture {report.captured}"))
        plan.labels.append(f"Capture {report.captured}")
    if getattr(report, "grand_slam", False):
        plan.labels.append("Grand slam: capture" if getattr(report, "captured", 0) else "Grand slam: no capture")
    if getattr(report, "fed", False):
        plan.labels.append("Must feed: fed")
    reason = getattr(report, "end_reason", None)
    if reason is not None and getattr(reason, "name", "") in ("CANNOT_FEED", "REPETITION", "NO_CAPTURE_LIMIT"):
        plan.labels.append(str(reason.value).capitalize())
