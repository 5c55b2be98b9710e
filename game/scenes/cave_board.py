"""The Magnetic Cave on screen: where the cells and walls are drawn, and bricks pulled by the walls (pymunk).

Geometry.  ``cave_layout`` fits the 8x8 cave, its two magnetic walls and the labels (column letters A..H
under the cave, row numbers 1..8 outside each wall) into a rectangle, cells square.  A cell is the rules'
index ``row * 8 + column`` (A1 = 0, bottom left).

Magnetism.  ``BrickPhysics`` keeps a pymunk space in which every brick at rest is a static box exactly one
cell wide and each wall is a static segment, so a new brick is stopped by real contact.  A placed brick is a
dynamic body held on its row by a groove joint; it appears a little way out in the open part of the row and
the wall that holds it (the one its chain of bricks touches) pulls it with a force that grows as it comes
closer, like a magnet.  It strikes its neighbour or the wall, bounces a little, and once it is slow and home
it *snaps*: the same body becomes static at exactly the cell's centre.  The rules decided the cell; the
physics only moves the brick there, and ``settle_all`` ends every slide at once (a click during an
animation, or skipped animations).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pymunk

from rules.magnetic_cave import SIZE, CaveState, MagneticCave, cell_name, completes_five, legal_mask, mask_cells

Cell = int
STEP = 1 / 240
"""Physics step in seconds of animation time (short: bricks move fast and boxes must not tunnel)."""
MAX_STEPS = 24
"""Most steps in one update; beyond that the slide slows down rather than a frame growing."""
PULL = 30.0
"""The wall's pull far away, in cells per second squared; it grows as the brick comes closer."""
CLOSE_PULL = 3.0
"""How many times stronger the pull is at contact than where the brick appeared."""
SLIDE_CELLS = 2.5
"""How far out in the open row a brick appears (less when the row's gap is narrower)."""
SNAP_SPEED = 0.3
"""Cells per second below which a brick touching home snaps into place."""
SNAP_DISTANCE = 0.03
"""Fraction of a cell within which a slow brick counts as home."""
GIVE_UP = 2.5
"""Seconds of animation time after which a brick snaps home whatever it is doing."""


def winning_cells(bits: int, occupied: int) -> tuple[Cell, ...]:
    """The cells a brick may go on now (``occupied`` the bricks on the board) that would complete five for the
    colour whose bricks are ``bits``: its playable threats, by the rules' own win test."""
    return tuple(cell for cell in mask_cells(legal_mask(occupied)) if completes_five(bits | 1 << cell, cell))


@dataclass(frozen=True)
class CellPreview:
    """What a brick on ``cell`` would do: the caption, the mover's threats it makes (cells where the mover would
    complete five next), the opponent's fives it leaves or opens, and the line it would complete."""

    cell: Cell
    player: int
    caption: str
    threats: tuple[Cell, ...] = ()
    dangers: tuple[Cell, ...] = ()
    line: tuple[Cell, ...] = ()


def preview_cell(game: MagneticCave, state: CaveState, cell: Cell) -> CellPreview:
    """The preview of a brick on ``cell``, by the rules (``apply``, ``winning_line``, ``completes_five``)."""
    mover, names = state.to_move, game.player_names
    other = names[1 - mover]
    name = cell_name(cell)
    after = game.apply(state, cell)
    if after.winner == mover:
        return CellPreview(cell, mover, f"{name}: five in a row, {names[mover]} wins", line=game.winning_line(after))
    mine, theirs = (after.black, after.white) if mover == 0 else (after.white, after.black)
    parts = []
    their_fives = winning_cells(theirs, state.occupied)
    if cell in their_fives:
        parts.append(f"blocks {other}'s five")
    threats = winning_cells(mine, after.occupied)
    names_of = [cell_name(c) for c in threats]
    if len(threats) == 1:
        parts.append(f"threatens five on {names_of[0]}")
    elif threats:
        parts.append(f"threatens five on {' and '.join(names_of)}: {other} cannot block both")
    dangers = winning_cells(theirs, after.occupied)
    left_open = [cell_name(c) for c in dangers if c in their_fives]
    opened = [cell_name(c) for c in dangers if c not in their_fives]
    if left_open:
        parts.append(f"leaves {other}'s five on {' and '.join(left_open)} open")
    if opened:
        parts.append(f"opens {' and '.join(opened)} for {other}'s five")
    if game.is_terminal(after):
        parts.append("fills the cave: a tie")
    caption = f"{name}: " + (", ".join(parts) if parts else "no five in reach either way")
    return CellPreview(cell, mover, caption, threats, dangers)


def describe_cell(game: MagneticCave, state: CaveState, cell: Cell) -> str:
    """What a brick on ``cell`` would do, in words, before it is placed: a win, a block of the opponent's five,
    the threats it makes, and whether it leaves or opens a five for the opponent."""
    return preview_cell(game, state, cell).caption


@dataclass(frozen=True)
class CaveLayout:
    """Cell size, the cave's grid origin (bottom left of A1) and the walls' thickness."""

    cell: float
    left: float
    bottom: float
    wall: float

    def centre(self, cell: Cell) -> tuple[float, float]:
        row, column = divmod(cell, SIZE)
        return self.left + (column + 0.5) * self.cell, self.bottom + (row + 0.5) * self.cell

    @property
    def right(self) -> float:
        return self.left + SIZE * self.cell

    @property
    def top(self) -> float:
        return self.bottom + SIZE * self.cell

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell under a point, or None outside the cave."""
        column = math.floor((x - self.left) / self.cell)
        row = math.floor((y - self.bottom) / self.cell)
        if 0 <= column < SIZE and 0 <= row < SIZE:
            return row * SIZE + column
        return None


CAPTION_CELLS = 0.55
"""The line under the column letters for the preview's caption, in cells."""


def label_font(cell: float, scale: float = 1.0) -> int:
    """The coordinate labels' font size on a cave of this cell size, in a window of this type scale
    (``theme.type_scale``: the cap grows with the window, as the sowing boards' words do; never under 9 pt)."""
    return int(min(16 * scale, max(9, cell * 0.26)))


def caption_font(cell: float, scale: float = 1.0) -> int:
    """The font size of the line under the cave (the preview's caption)."""
    return int(min(16 * scale, max(10, cell * 0.24)))


def cave_layout(left: float, bottom: float, width: float, height: float) -> CaveLayout:
    """Fit the cave, walls, labels and the caption line into the rectangle, centred."""
    wall_cells, label_cells = 0.5, 0.6
    across = SIZE + 2 * wall_cells + 2 * label_cells
    up = SIZE + label_cells + 0.3 + CAPTION_CELLS
    cell = min(width / across, height / up)
    grid_left = left + (width - SIZE * cell) / 2
    grid_bottom = bottom + (height - up * cell) / 2 + (label_cells + CAPTION_CELLS) * cell
    return CaveLayout(cell, grid_left, grid_bottom, wall_cells * cell)


def pull_side(occupied: int, cell: Cell) -> int:
    """-1 when the left wall holds a brick placed on ``cell`` (it touches column A or a brick on its left),
    +1 for the right wall.  A lone gap touches both: the nearer wall wins (the left at the middle)."""
    row, column = divmod(cell, SIZE)
    left_held = column == 0 or bool(occupied >> (row * SIZE + column - 1) & 1)
    right_held = column == SIZE - 1 or bool(occupied >> (row * SIZE + column + 1) & 1)
    if left_held and right_held:
        return -1 if column < SIZE / 2 else 1
    return -1 if left_held else 1


def open_run(occupied: int, cell: Cell, side: int) -> int:
    """Empty cells beyond ``cell`` on the side away from its wall (how far the brick can appear from home)."""
    row, column = divmod(cell, SIZE)
    count = 0
    column -= side
    while 0 <= column < SIZE and not occupied >> (row * SIZE + column) & 1:
        count += 1
        column -= side
    return count


@dataclass(eq=False)
class Brick:
    """One brick: its cell, colour (0 Black, 1 White), pymunk body and whether it is still sliding."""

    cell: Cell
    colour: int
    body: pymunk.Body
    shape: pymunk.Poly
    target: tuple[float, float]
    side: int = -1
    start_distance: float = 0.0
    elapsed: float = 0.0
    joint: pymunk.GrooveJoint | None = None
    arrival: float = 1.0
    """0 when the brick has just been set down, 1 once it has (drawn as a small drop)."""

    @property
    def is_moving(self) -> bool:
        return self.joint is not None

    @property
    def position(self) -> tuple[float, float]:
        position = self.body.position
        return position.x, position.y


@dataclass
class BrickPhysics:
    """The cave's bricks as pymunk bodies: static at rest, dynamic while the wall pulls them home."""

    layout: CaveLayout
    bricks: dict[Cell, Brick] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.space = pymunk.Space()
        self.space.iterations = 20
        self._accumulator = 0.0
        self.on_snap = lambda brick: None
        layout = self.layout
        for x in (layout.left, layout.right):
            wall = pymunk.Segment(self.space.static_body, (x, layout.bottom), (x, layout.top), 0)
            wall.elasticity = 0.6
            self.space.add(wall)

    # -- building ---------------------------------------------------------------------------------------------
    def _box(self, body: pymunk.Body) -> pymunk.Poly:
        cell = self.layout.cell
        # Exactly one cell wide, so a brick resting against its neighbour sits exactly on its own cell.
        shape = pymunk.Poly.create_box(body, (cell, cell * 0.9))
        shape.elasticity = 0.5  # a small bounce off the neighbour before the pull settles it
        shape.friction = 0.0
        return shape

    def rest(self, cell: Cell, colour: int) -> Brick:
        """A brick at rest on ``cell`` (a static box)."""
        self.remove(cell)
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        body.position = self.layout.centre(cell)
        shape = self._box(body)
        self.space.add(body, shape)
        brick = Brick(cell, colour, body, shape, self.layout.centre(cell))
        self.bricks[cell] = brick
        return brick

    def remove(self, cell: Cell) -> None:
        brick = self.bricks.pop(cell, None)
        if brick is not None:
            self.space.remove(*(item for item in (brick.body, brick.shape, brick.joint) if item is not None))

    def clear(self) -> None:
        for cell in list(self.bricks):
            self.remove(cell)

    def launch(self, cell: Cell, colour: int, occupied: int) -> Brick:
        """A new brick on ``cell``'s row, out in the open, pulled towards the wall that holds ``cell``.

        ``occupied`` is the bitboard of bricks before this one.
        """
        self.remove(cell)
        layout = self.layout
        side = pull_side(occupied, cell)
        distance = min(SLIDE_CELLS, open_run(occupied, cell, side)) * layout.cell
        tx, ty = layout.centre(cell)
        body = pymunk.Body(1.0, float("inf"))  # no rotation: a brick slides flat along its row
        body.position = tx - side * distance, ty
        shape = self._box(body)
        joint = pymunk.GrooveJoint(self.space.static_body, body, (layout.left, ty), (layout.right, ty), (0, 0))
        self.space.add(body, shape, joint)
        brick = Brick(cell, colour, body, shape, (tx, ty), side, distance, joint=joint, arrival=0.0)
        self.bricks[cell] = brick
        if distance == 0:
            self._snap(brick)
        return brick

    # -- motion -----------------------------------------------------------------------------------------------
    @property
    def is_moving(self) -> bool:
        return any(brick.is_moving for brick in self.bricks.values())

    def update(self, dt: float) -> None:
        """Advance the slides by ``dt`` seconds of animation time (fixed steps, a bounded number per call)."""
        for brick in self.bricks.values():
            if brick.arrival < 1.0:
                brick.arrival = min(1.0, brick.arrival + dt / 0.12)
        if not self.is_moving:
            self._accumulator = 0.0
            return
        self._accumulator = min(self._accumulator + dt, MAX_STEPS * STEP)
        while self._accumulator >= STEP and self.is_moving:
            self._accumulator -= STEP
            self._step()

    def _step(self) -> None:
        cell = self.layout.cell
        moving = [brick for brick in self.bricks.values() if brick.is_moving]
        for brick in moving:
            x = brick.body.position.x
            remaining = abs(brick.target[0] - x)
            closeness = 1.0 - min(1.0, remaining / brick.start_distance) if brick.start_distance else 1.0
            pull = PULL * cell * (1.0 + (CLOSE_PULL - 1.0) * closeness)
            brick.body.force = (brick.side * pull * brick.body.mass, 0.0)
        self.space.step(STEP)
        for brick in moving:
            brick.elapsed += STEP
            x = brick.body.position.x
            speed = abs(brick.body.velocity.x)
            home = abs(x - brick.target[0]) <= SNAP_DISTANCE * cell
            past = (x - brick.target[0]) * brick.side > 0.25 * cell  # through the neighbour: never, but be safe
            if (home and speed <= SNAP_SPEED * cell) or past or brick.elapsed >= GIVE_UP:
                self._snap(brick)

    def _snap(self, brick: Brick) -> None:
        """The brick is home: the same body becomes static at exactly its cell's centre."""
        if brick.joint is not None:
            self.space.remove(brick.body, brick.shape, brick.joint)
            brick.joint = None
            brick.body.body_type = pymunk.Body.STATIC
            brick.body.position = brick.target
            self.space.add(brick.body, brick.shape)
        brick.body.position = brick.target
        self.on_snap(brick)

    def settle_all(self) -> None:
        """Every sliding brick home at once."""
        for brick in list(self.bricks.values()):
            brick.arrival = 1.0
            if brick.is_moving:
                self._snap(brick)
