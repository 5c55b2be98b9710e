"""What the sowing scene needs to know of a sowing game: where each pit is drawn and what a move does.

Locations.  Every place a stone can rest is a *location*: the pits in the canonical order of docs/rules/ (South's pits
then North's, each in its owner's numbering: ``0 .. pit_count-1``) and, for games with stores, South's store
(``pit_count``) and North's store (``pit_count + 1``).  A move ``m`` of player ``p`` starts at location
``p * per_player + m``.

``BoardSpec`` reads a game and a state: two rows of ``n`` with stores (Kalah, Oware), or Hus's four rows of
sixteen.  ``layout`` places every location in a rectangle, with the words a player reads: each pit's number
(``pit_number``: 1..n from its owner's own left, counter-clockwise: the rules' ``Place.number``) on its owner's
side, its count on the far side, the sides' names above and below the board, Hus's divider and the caption line
under the board; the strips between rows grow on small boards until the words fit.  ``plan_move`` turns the
rules' ``report(state, move)`` (a ``rules.events.MoveEvents``, the same shape for every game) into laps of sowing
and captures for the animation; whatever the report does not say is covered by reconciling the stones with the
new state, which is the truth.  ``preview_move`` reads the same plan for a move not yet played: what each place
receives, the last seed's place, what a capture takes, and a caption in words.
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


def pit_number(spec: BoardSpec, location: Location) -> int | None:
    """The number a player counts a pit by: 1..n counter-clockwise from the owner's leftmost pit as the owner
    sees it (the rules' index + 1; Hus 1..32 per player); None for a store.

    The same number as the rules' ``Place.number`` and ``move_label``."""
    if spec.is_store(location):
        return None
    return location % spec.per_player + 1


def pit_location(spec: BoardSpec, player: int, number: int) -> Location | None:
    """The location of ``player``'s pit numbered ``number`` as drawn (the inverse of ``pit_number``), or None."""
    if not 1 <= number <= spec.per_player:
        return None
    return spec.move_location(player, number - 1)


@dataclass(frozen=True)
class PitPlace:
    """Where a location is drawn: centre, half-width and half-height (a store is a tall well)."""

    x: float
    y: float
    half_width: float
    half_height: float


@dataclass(frozen=True)
class Layout:
    """Every location's place, the board's rectangle (left, bottom, width, height), the stone radius, and where
    the words go: each pit's number (on its owner's side), each count badge (on the far side), the two sides'
    names above and below the board, the divider between the sides (Hus) and the caption line under the board."""

    places: dict[Location, PitPlace]
    board: tuple[float, float, float, float]
    stone_radius: float
    pit_radius: float
    cell: float = 0.0
    numbers: dict[Location, tuple[float, float]] = field(default_factory=dict)
    """Where each pit's number is written, and each store's owner (stores are keyed by their location)."""
    badges: dict[Location, tuple[float, float]] = field(default_factory=dict)
    sides: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 0.0), (0.0, 0.0))
    """Where South's (below the board) and North's (above it) names are centred."""
    divider: tuple[float, float, float] | None = None
    """A line between the two sides' rows (left, right, y), for boards whose sides are not otherwise apart."""
    caption: tuple[float, float] = (0.0, 0.0)
    """Where the preview caption and the keys' hint line are centred, under South's name."""
    type_scale: float = 1.0
    """The window's type scale the words were sized for (``theme.type_scale``)."""


EDGE = 0.4
"""The strip between the outer rows and the board's rim, where the pit numbers are written (in cells)."""
GAP = 0.36
"""The strip between two rows of pits, where counts (and, in Hus, the inner rows' numbers) are written."""
DIVIDER = 0.34
"""The strip between the two sides of a four-row board, with the line that divides them."""
NAME_BAND = 0.5
"""Above and below the board, for the sides' names."""
CAPTION_BAND = 0.5
"""Under South's name, for the move preview's caption."""


def number_font(cell: float, scale: float = 1.0) -> int:
    """The pit numbers' font size on a board of this cell size, in a window of this type scale
    (``theme.type_scale``: the caps grow with the window, so a huge board's words are not left small)."""
    return int(min(18 * scale, max(10, cell * 0.21)))


def badge_font(cell: float, scale: float = 1.0) -> int:
    """The count badges' font size on a board of this cell size (never under 9 pt, the readable floor)."""
    return int(min(16 * scale, max(9, cell * 0.2)))


def badge_half_size(cell: float, scale: float = 1.0) -> tuple[float, float]:
    """Half the width and height of a count badge's plate."""
    size = badge_font(cell, scale)
    return size * 1.15, size * 0.85


def name_font(cell: float, scale: float = 1.0) -> int:
    """The sides' names' font size."""
    return int(min(20 * scale, max(11, cell * 0.24)))


def caption_font(cell: float, scale: float = 1.0) -> int:
    """The font size of the line under the board (the preview's caption, the keys' hint)."""
    return int(min(16 * scale, max(10, cell * 0.2)))


LINE = 1.65
"""A line of text's height in font sizes (what arcade measures for Liberation Sans bold, with a little room)."""


def _strips(spec: BoardSpec, cell: float, words: bool = True, scale: float = 1.0) -> list[float]:
    """The heights in pixels of the strips under each row and the edge strip over the top row.

    Each is its share of a cell, or more where the words in it need more on a small board: an edge strip holds a
    row's numbers; a gap between two rows of one side (Hus) holds the lower row's counts and the upper row's
    numbers, which must clear each other; the middle strip holds both sides' counts."""
    if not words:  # rows side by side, a quarter cell of wood at each edge (the solitaire writes its own words)
        return [cell * 0.25] + [0.0] * (spec.rows - 1) + [cell * 0.25]
    pit_r = cell * 0.42
    number_h = LINE * number_font(cell, scale)
    badge_h = 2 * badge_half_size(cell, scale)[1]
    edge = max(EDGE * cell, number_h + 4)
    # Counts facing each other across a strip: each reaches 0.8 r + half a badge from its pit's centre.
    facing = max(0.0, 1.6 * pit_r + badge_h + 3 - cell)
    # A row's counts under the next row's numbers (centred in the strip): the strip must hold both.
    stacked = max(0.0, 2 * (1.8 * pit_r - cell) + badge_h + number_h + 4)
    if spec.rows == 2:
        return [edge, max(GAP * cell, facing), edge]
    return [edge, max(GAP * cell, stacked), max(DIVIDER * cell, facing), max(GAP * cell, stacked), edge]


def layout(spec: BoardSpec, left: float, bottom: float, width: float, height: float, words: bool = True,
           scale: float = 1.0) -> Layout:
    """Fit the board, its numbers, the sides' names and the caption into the rectangle, centred, pits round
    (``words=False``: no bands for the names and the caption, for a board that writes its own words).

    Seen from South: South's pits run left to right along the bottom row (Hus: the outer row, then back right to
    left along the inner row), North's from the right along the top, so each side counts 1.. from its own left.
    """
    columns = spec.columns + (2 if spec.has_stores else 0)
    rows = spec.rows
    units = (CAPTION_BAND + 2 * NAME_BAND + rows + (2 * EDGE + GAP if rows == 2 else 2 * EDGE + 2 * GAP + DIVIDER)
             if words else rows + 0.5)
    cell = min(width / (columns + 0.4), height / units)

    def bands(cell: float) -> tuple[float, float]:
        """The heights of the band of a side's name and of the caption's band."""
        if not words:
            return 0.0, 0.0
        return (max(NAME_BAND * cell, LINE * name_font(cell, scale) + 2),
                max(CAPTION_BAND * cell, LINE * caption_font(cell, scale) + 2))

    for _ in range(4):  # small boards widen their strips for the words: shrink the cell until all fits
        name_h, caption_h = bands(cell)
        needed = cell * rows + sum(_strips(spec, cell, words, scale)) + 2 * name_h + caption_h
        if needed <= height + 0.5:
            break
        cell *= height / needed
    strip_px = _strips(spec, cell, words, scale)
    strips, top_edge = strip_px[:-1], strip_px[-1]
    name_h, caption_h = bands(cell)
    board_h = cell * rows + sum(strip_px)
    board_w = cell * (columns + 0.4)
    x0 = left + (width - board_w) / 2
    stack_h = board_h + 2 * name_h + caption_h
    y0 = bottom + (height - stack_h) / 2 + caption_h + name_h
    pit_r = cell * 0.42
    first_x = x0 + cell * 0.2 + (cell if spec.has_stores else 0) + cell / 2
    row_y = []
    y = y0
    for row in range(rows):
        y += strips[row]
        row_y.append(y + cell / 2)
        y += cell

    def centre(column: int, row: int) -> tuple[float, float]:
        return first_x + column * cell, row_y[row]

    places: dict[Location, PitPlace] = {}
    rows_of: dict[Location, int] = {}
    n = spec.columns
    if rows == 2:
        for i in range(n):
            places[i], rows_of[i] = PitPlace(*centre(i, 0), pit_r, pit_r), 0
            places[n + i], rows_of[n + i] = PitPlace(*centre(n - 1 - i, 1), pit_r, pit_r), 1
    else:
        for i in range(16):
            places[i], rows_of[i] = PitPlace(*centre(i, 0), pit_r, pit_r), 0                 # South outer, L to R
            places[16 + i], rows_of[16 + i] = PitPlace(*centre(15 - i, 1), pit_r, pit_r), 1   # South inner, R to L
            places[48 + i], rows_of[48 + i] = PitPlace(*centre(i, 2), pit_r, pit_r), 2        # North inner, L to R
            places[32 + i], rows_of[32 + i] = PitPlace(*centre(15 - i, 3), pit_r, pit_r), 3   # North outer, R to L
    numbers: dict[Location, tuple[float, float]] = {}
    badges: dict[Location, tuple[float, float]] = {}
    for location, row in rows_of.items():
        place = places[location]
        toward_owner = -1 if spec.owner(location) == 0 else 1
        strip = strips[row] if toward_owner < 0 else (strips[row + 1] if row + 1 < rows else top_edge)
        if rows == 4 and row in (1, 2):
            # An inner row's number shares the gap with the outer row's counts: it sits against its own pit, so
            # it is plain which pit it names (centred in the gap it stood as near the outer pit as its own).
            hug = pit_r + LINE * number_font(cell, scale) / 2 + 1
            numbers[location] = place.x, place.y + toward_owner * min(hug, pit_r + strip / 2)
        else:
            numbers[location] = place.x, place.y + toward_owner * (pit_r + strip / 2)
        # Without numbers the count sits on the owner's side, where the solitaire's hole names expect it.
        facing = -toward_owner if words else toward_owner
        badges[location] = place.x + pit_r * (0.86 if words else 0.8), place.y + facing * pit_r * 0.8
    if spec.has_stores:
        mid_y = (row_y[0] + row_y[-1]) / 2
        store_half_h = (row_y[-1] - row_y[0]) / 2 + pit_r
        for player, x in ((0, first_x + n * cell), (1, first_x - cell)):
            store = spec.store(player)
            places[store] = PitPlace(x, mid_y, pit_r, store_half_h)
            toward_owner = -1 if player == 0 else 1
            numbers[store] = x, mid_y + toward_owner * (store_half_h + strips[0] / 2)
            badges[store] = ((x, mid_y - toward_owner * (store_half_h + strips[0] / 2)) if words
                             else (x, mid_y - store_half_h - 12))
    divider = None
    if rows == 4:
        divider = (x0 + cell * 0.3, x0 + board_w - cell * 0.3, (row_y[1] + row_y[2]) / 2)
    sides = ((x0 + board_w / 2, y0 - name_h / 2), (x0 + board_w / 2, y0 + board_h + name_h / 2))
    caption = (x0 + board_w / 2, y0 - name_h - caption_h / 2)
    stone_r = pit_r * (0.2 if rows == 2 else 0.27)
    return Layout(places, (x0, y0, board_w, board_h), stone_r, pit_r, cell, numbers, badges, sides, divider, caption,
                  scale)


# -- what a move does ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Lap:
    """One lap of sowing: stones taken from some locations into the hand, then dropped one per location."""

    taken: tuple[tuple[Location, int], ...]
    drops: tuple[Location, ...]
    label: str | None = None
    kind: str = "sow"
    """``sow`` (a move's only or first lap), ``relay`` or ``capture`` (Hus's later laps)."""


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
    player: int = 0
    """The mover: the stones in the hand are theirs (a side's score counts them)."""


ANNOUNCED_ENDS = frozenset({Reason.CANNOT_FEED, Reason.REPETITION, Reason.NO_CAPTURE_LIMIT})
"""Endings a player cannot see on the board, so the animation names them (an empty side needs no label)."""


def plan_move(game: Game, state: State, move: Move, after: State, spec: BoardSpec) -> MovePlan:
    """The animation of ``move`` from ``state`` to ``after`` (which the rules computed: the truth), read from
    the rules' ``report``: one ``rules.events.MoveEvents`` shape for every sowing game."""
    plan = MovePlan(after=spec.counts(after), player=game.to_move(state))
    events = game.report(state, move)

    def location(place: Place) -> Location:
        return spec.store(place.owner) if place.store else place.owner * spec.per_player + place.index

    for index, lap in enumerate(events.laps):
        label, kind = None, "sow"
        if index and lap.kind is LapKind.RELAY:
            label, kind = "Relay", "relay"
        elif index and lap.kind is LapKind.CAPTURE:
            label, kind = f"Capture {lap.seeds}", "capture"
        taken = tuple((location(place), seeds) for place, seeds in lap.taken if seeds)
        plan.laps.append(Lap(taken, tuple(location(place) for place in lap.drops), label, kind))
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


# -- what a move would do (the preview) -------------------------------------------------------------------------
@dataclass(frozen=True)
class Preview:
    """What playing the pit at ``location`` would do, shown before the player commits: how many seeds each
    location receives (sown, or brought to a store by a capture), where the last one lands, what a capture takes
    from each place, and a caption in words."""

    location: Location
    player: int
    receives: dict[Location, int]
    last: Location | None
    captured: dict[Location, int]
    caption: str


def place_name(spec: BoardSpec, location: Location, player: int, names: tuple[str, ...]) -> str:
    """A location as the mover says it: "your store", "North's pit 3"."""
    owner = spec.owner(location)
    whose = "your" if owner == player else f"{names[owner]}'s"
    number = pit_number(spec, location)
    return f"{whose} store" if number is None else f"{whose} pit {number}"


def preview_move(game: Game, state: State, move: Move, spec: BoardSpec) -> Preview:
    """The preview of ``move``: computed by the rules (``apply`` and ``report`` on the position, which is a value
    and is not changed), read through the same plan the animation plays."""
    player = game.to_move(state)
    after = game.apply(state, move)
    plan = plan_move(game, state, move, after, spec)
    receives: dict[Location, int] = {}
    for lap in plan.laps:
        for drop in lap.drops:
            receives[drop] = receives.get(drop, 0) + 1
    last = next((lap.drops[-1] for lap in reversed(plan.laps) if lap.drops), None)
    captured: dict[Location, int] = {}
    taken = [pair for capture in plan.captures for pair in capture.taken]
    taken += [pair for lap in plan.laps if lap.kind == "capture" for pair in lap.taken]
    for location, count in taken:
        captured[location] = captured.get(location, 0) + count
    for capture in plan.captures:  # what a capture takes lands in the mover's store: its gain shows there too
        if capture.store is not None:
            receives[capture.store] = receives.get(capture.store, 0) + sum(count for _, count in capture.taken)
    names = tuple(game.player_names)
    source = spec.move_location(player, move)
    parts = []
    laps = len(plan.laps)
    if laps > 1:
        relays = sum(lap.kind == "relay" for lap in plan.laps)
        parts.append(f"{laps} laps" + (f" ({relays} relay{'s' if relays != 1 else ''})" if relays else ""))
    if last is not None:
        parts.append(f"last seed in {place_name(spec, last, player, names)}")
    if captured:
        parts.append(f"captures {sum(captured.values())}")
    parts += [label[0].lower() + label[1:] for label in plan.labels
              if label.startswith(("Grand slam", "Must feed"))]
    if game.is_terminal(after):
        parts.append("ends the game")
    elif game.to_move(after) == player:
        parts.append("play again")
    caption = f"Pit {pit_number(spec, source)}: " + ", ".join(parts)
    return Preview(source, player, receives, last, captured, caption)
