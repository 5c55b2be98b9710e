"""What the sowing scene needs to know of a sowing game: where each pit is drawn and what a move does.

Locations.  Every place a stone can rest is a *location*: the pits in the canonical order of docs/rules/ (South's pits
then North's, each in its owner's numbering: ``0 .. pit_count-1``) and, for games with stores, South's store
(``pit_count``) and North's store (``pit_count + 1``).  A move ``m`` of player ``p`` starts at location
``p * per_player + m``.

``BoardSpec`` reads a game and a state: two rows of ``n`` with stores (Kalah, Oware), or Hus's four rows of
sixteen.  ``layout`` places every location in a rectangle.  ``plan_move`` turns the rules' ``report(state, move)``
(a ``rules.events.MoveEvents``, the same shape for every game) into laps of sowing and captures for the
animation; whatever the report does not say is covered by reconciling the stones with the new state, which is
the truth.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules import Game, Move, Reason, State
from rules.events import LapKind, Place

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
        if not isinstance(move, int):
            raise TypeError(f"a sowing move is a pit index, not {move!r}")
        return player * self.per_player + move

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


ANNOUNCED_ENDS = frozenset({Reason.CANNOT_FEED, Reason.REPETITION, Reason.NO_CAPTURE_LIMIT})
"""Endings a player cannot see on the board, so the animation names them (an empty side needs no label)."""


def plan_move(game: Game, state: State, move: Move, after: State, spec: BoardSpec) -> MovePlan:
    """The animation of ``move`` from ``state`` to ``after`` (which the rules computed: the truth), read from
    the rules' ``report``: one ``rules.events.MoveEvents`` shape for every sowing game."""
    plan = MovePlan(after=spec.counts(after))
    events = game.report(state, move)

    def location(place: Place) -> Location:
        return spec.store(place.owner) if place.store else place.owner * spec.per_player + place.index

    for index, lap in enumerate(events.laps):
        label = None
        if index and lap.kind is LapKind.RELAY:
            label = "Relay"
        elif lap.kind is LapKind.CAPTURE:
            label = f"Capture {lap.seeds}"
        taken = tuple((location(place), seeds) for place, seeds in lap.taken if seeds)
        plan.laps.append(Lap(taken, tuple(location(place) for place in lap.drops), label))
    if events.relays:
        plan.labels.append(f"Relay x{events.relays}" if events.relays > 1 else "Relay")
    for capture in events.captures:
        if capture.store is not None and spec.has_stores:
            taken = tuple((location(place), seeds) for place, seeds in capture.taken if seeds)
            plan.captures.append(Capture(taken, location(capture.store), f"Capture {events.captured}"))
            plan.labels.append(f"Capture {events.captured}")
    if events.captured and all(capture.store is None for capture in events.captures):
        plan.labels.append(f"Captured {events.captured}")  # sown on as laps (Hus)
    if events.grand_slam:
        plan.labels.append("Grand slam: capture" if events.captured else "Grand slam: no capture")
    if events.fed:
        plan.labels.append("Must feed: fed")
    if events.extra_turn:
        plan.labels.append("Extra turn")
    if events.end_reason in ANNOUNCED_ENDS:
        plan.labels.append(str(events.end_reason.value).capitalize())
    if game.is_terminal(after):
        plan.labels.append("Game over")
    return plan
