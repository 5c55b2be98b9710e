"""Physical stones: pymunk bodies that settle in bowl-shaped pits and fly between them.

The board is seen from above, so there is no gravity.  Each pit is a *bowl*: a resting stone feels a spring
force towards the pit's floor (a point for a round pit, a segment for a long store) and a strong push back
when it climbs past the rim, plus damping; stones collide with one another, so a pile spreads naturally and
comes to rest.  A stone in flight leaves the space, follows a short arc with a height (drawn as scale and
shadow) and rejoins the space where it lands, with a little bounce.

The physics only ever animates: which stone sits in which pit is decided by the caller (the rules state), and
``place`` can put any stone anywhere at once.  pymunk's ``Space`` is driven directly with a fixed step.

Cost.  Every call into pymunk releases the GIL, and with a search thread running each release can hand the
GIL away for a while, so a step reads every body's position and speed in one batched call
(``pymunk.batch``), computes the bowls' forces in Python and writes them back in one call: four calls a step
instead of three per stone.  The positions read are kept for drawing (``ground_positions``), at most a few
steps are taken per frame, and none once the stones have come to rest.
"""
from __future__ import annotations

import math
import random
from array import array
from dataclasses import dataclass, field

import pymunk
from pymunk import batch

Location = int
"""A place a stone can rest: the board's location index (``game.scenes.sowing_board``), -1 for the hand."""
STEP = 1 / 120
"""Fixed physics step in seconds."""
MAX_STEPS = 3
"""Most physics steps in one update: a slow frame slows the stones down instead of making the next frame slower
still (at 60 frames a second two steps are due)."""
REST_ENERGY = 1.0
"""Below this kinetic energy (sum of squared speeds, pixels per second) with nothing in the air, the stones are
at rest and the physics stops stepping until something moves them."""
CALM_UPDATES = 15
"""Updates in a row below ``REST_ENERGY`` before the stones count as resting."""
_READ = batch.BodyFields.BODY_ID | batch.BodyFields.POSITION | batch.BodyFields.VELOCITY


@dataclass
class Bowl:
    """A pit's hollow: floor from ``a`` to ``b`` (equal for a round pit), ``radius`` to the rim.  A long store
    drawn as an ellipse gives its ``half_height`` too: its rim is then that ellipse (``radius`` wide, across
    the floor), so a full store's stones stay inside the hollow drawn, not in the corners of a capsule."""

    a: tuple[float, float]
    b: tuple[float, float]
    radius: float
    half_height: float = 0.0

    def nearest_floor_point(self, x: float, y: float) -> tuple[float, float]:
        ax, ay = self.a
        bx, by = self.b
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        if length2 == 0:
            return ax, ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        return ax + t * dx, ay + t * dy

    def random_point(self, rng: random.Random, spread: float = 0.55) -> tuple[float, float]:
        """A point near the floor, for dropping a stone."""
        t = rng.random()
        fx = self.a[0] + t * (self.b[0] - self.a[0])
        fy = self.a[1] + t * (self.b[1] - self.a[1])
        angle = rng.uniform(0, math.tau)
        distance = self.radius * spread * math.sqrt(rng.random())
        return fx + distance * math.cos(angle), fy + distance * math.sin(angle)


@dataclass
class Flight:
    """A stone's arc from ``start`` to ``end`` over ``duration`` seconds, peaking at ``height`` (in radii)."""

    start: tuple[float, float]
    end: tuple[float, float]
    duration: float
    height: float
    elapsed: float = 0.0
    delay: float = 0.0

    @property
    def progress(self) -> float:
        if self.duration <= 0:
            return 1.0
        return max(0.0, min(1.0, (self.elapsed - self.delay) / self.duration))

    def position(self) -> tuple[float, float, float]:
        """(x, y, z): ground position eased in and out, z the height above the board (0 at both ends)."""
        t = self.progress
        eased = t * t * (3 - 2 * t)
        x = self.start[0] + (self.end[0] - self.start[0]) * eased
        y = self.start[1] + (self.end[1] - self.start[1]) * eased
        return x, y, self.height * 4 * t * (1 - t)


@dataclass(eq=False)
class Stone:
    """One stone: its pymunk body, colour, the location it belongs to, and its flight if it is in the air."""

    body: pymunk.Body
    shape: pymunk.Circle
    colour: int
    location: Location
    flight: Flight | None = None
    lift: float = 0.0
    """Height above the board while held (picked up, waiting to be sown)."""

    @property
    def x(self) -> float:
        return self.flight.position()[0] if self.flight else self.body.position.x

    @property
    def y(self) -> float:
        return self.flight.position()[1] if self.flight else self.body.position.y

    @property
    def z(self) -> float:
        return self.flight.position()[2] if self.flight else self.lift


@dataclass
class StoneField:
    """All the stones on a board and the bowls they rest in."""

    stone_radius: float
    seed: int = 1
    spring: float = 60.0
    """Pull towards a bowl's floor, per second squared per unit of distance."""
    damping: float = 0.02
    """Fraction of velocity kept after one second (pymunk's space damping)."""
    bowls: dict[Location, Bowl] = field(default_factory=dict)
    stones: list[Stone] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.space = pymunk.Space()
        self.space.damping = self.damping
        self.space.iterations = 8
        self.rng = random.Random(self.seed)
        self._accumulator = 0.0
        self._in_space: set[Stone] = set()
        self._calm = 0
        self.resting = False
        """True once the stones have come to rest (no steps are taken until something moves them)."""
        self.version = 0
        """Goes up whenever a resting stone may have moved (for drawing only what changed)."""
        self._by_body: dict[int, Stone] = {}
        self._read = batch.Buffer()
        self._write = batch.Buffer()
        self._positions: dict[int, tuple[float, float]] | None = None
        self._energy = 0.0

    # -- building ---------------------------------------------------------------------------------------------
    def set_bowls(self, bowls: dict[Location, Bowl], stone_radius: float) -> None:
        """New geometry (the window was resized): move every resting stone to the same spot in its new bowl."""
        old = self.bowls
        scale = stone_radius / self.stone_radius if self.stone_radius else 1.0
        self.bowls = dict(bowls)
        self.stone_radius = stone_radius
        for stone in self.stones:
            new = self.bowls.get(stone.location)
            if new is None:
                # A stone with no bowl (held in the sower's hand, or in flight to be placed by the caller) keeps
                # its place and its flight: the next drop or ``place`` puts it in the new geometry.
                self._resize(stone)
                continue
            stone.flight = None
            previous = old.get(stone.location)
            if previous is not None:
                fx, fy = previous.nearest_floor_point(stone.body.position.x, stone.body.position.y)
                offset = (stone.body.position.x - fx) * scale, (stone.body.position.y - fy) * scale
                nx, ny = new.nearest_floor_point(*new.a) if new.a == new.b else self._map_floor(previous, new, fx, fy)
                stone.body.position = nx + offset[0], ny + offset[1]
            else:
                stone.body.position = new.random_point(self.rng)
            stone.body.velocity = (0, 0)
            self._resize(stone)
        self.wake()

    @staticmethod
    def _map_floor(old: Bowl, new: Bowl, x: float, y: float) -> tuple[float, float]:
        ax, ay = old.a
        bx, by = old.b
        length2 = (bx - ax) ** 2 + (by - ay) ** 2
        t = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length2 if length2 else 0.0
        return new.a[0] + t * (new.b[0] - new.a[0]), new.a[1] + t * (new.b[1] - new.a[1])

    def _resize(self, stone: Stone) -> None:
        if stone in self._in_space:
            self.space.remove(stone.body, stone.shape)
        stone.shape = pymunk.Circle(stone.body, self.stone_radius)
        self._style(stone.shape)
        if stone in self._in_space:
            self.space.add(stone.body, stone.shape)

    @staticmethod
    def _style(shape: pymunk.Circle) -> None:
        shape.elasticity = 0.35
        shape.friction = 0.4

    def add_stone(self, location: Location, colour: int) -> Stone:
        """A new stone resting at a random spot in ``location``'s bowl."""
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, self.stone_radius))
        body.position = self.bowls[location].random_point(self.rng)
        shape = pymunk.Circle(body, self.stone_radius)
        self._style(shape)
        stone = Stone(body, shape, colour, location)
        self.stones.append(stone)
        self._enter(stone)
        return stone

    def clear(self) -> None:
        for stone in list(self._in_space):
            self._leave(stone)
        self.stones.clear()

    def wake(self) -> None:
        """Something moved: step the physics again until the stones rest."""
        self.resting = False
        self._calm = 0
        self._moved()

    def _moved(self) -> None:
        self.version += 1
        self._positions = None

    def _enter(self, stone: Stone) -> None:
        self.wake()
        if stone not in self._in_space:
            self.space.add(stone.body, stone.shape)
            self._in_space.add(stone)
            self._by_body[stone.body.id] = stone

    def _leave(self, stone: Stone) -> None:
        if stone in self._in_space:
            self.space.remove(stone.body, stone.shape)
            self._in_space.discard(stone)
            self._by_body.pop(stone.body.id, None)
            self._moved()

    # -- queries ----------------------------------------------------------------------------------------------
    def at(self, location: Location) -> list[Stone]:
        """Stones that belong to ``location`` (resting there or flying to it)."""
        return [stone for stone in self.stones if stone.location == location]

    def counts(self) -> dict[Location, int]:
        result: dict[Location, int] = {}
        for stone in self.stones:
            result[stone.location] = result.get(stone.location, 0) + 1
        return result

    @property
    def is_flying(self) -> bool:
        return any(stone.flight is not None for stone in self.stones)

    def kinetic_energy(self) -> float:
        """Sum of the squared speeds of the stones on the board (as of the last read of the bodies)."""
        if self._positions is None:
            self._read_bodies()
        return self._energy

    def ground_positions(self) -> dict[int, tuple[float, float]]:
        """``id(stone) -> (x, y)`` of every stone resting on the board (not in the air), read in one call."""
        if self._positions is None:
            self._read_bodies()
        assert self._positions is not None
        return self._positions

    def _read_bodies(self) -> tuple[memoryview[int], memoryview[float]]:
        """Body ids and (x, y, vx, vy) of every body in one pymunk call; refreshes the positions kept."""
        buffer = self._read
        buffer.clear()
        batch.get_space_bodies(self.space, _READ, buffer)
        ids = memoryview(buffer.int_buf()).cast("B").cast("P")
        values = memoryview(buffer.float_buf()).cast("B").cast("d")
        positions = {}
        energy = 0.0
        by_body = self._by_body
        for index, body_id in enumerate(ids):
            x, y, vx, vy = values[4 * index: 4 * index + 4]
            positions[id(by_body[body_id])] = (x, y)
            energy += vx * vx + vy * vy
        self._positions, self._energy = positions, energy
        return ids, values

    # -- motion -----------------------------------------------------------------------------------------------
    def lift(self, stone: Stone, height: float) -> None:
        """Hold a stone above its spot (picked up): it leaves the physics until it flies."""
        self._leave(stone)
        stone.lift = height

    def fly(self, stone: Stone, destination: Location, duration: float, height: float = 2.5,
            delay: float = 0.0) -> None:
        """Send ``stone`` on an arc to a random spot in ``destination``'s bowl; it belongs there from now on."""
        self._leave(stone)
        start = (stone.x, stone.y)
        end = self.bowls[destination].random_point(self.rng)
        stone.flight = Flight(start, end, duration, height + stone.lift, delay=delay)
        stone.lift = 0.0
        stone.location = destination

    def place(self, stone: Stone, destination: Location) -> None:
        """Put ``stone`` in ``destination`` at once (skipping any flight)."""
        self._leave(stone)
        stone.flight = None
        stone.lift = 0.0
        stone.location = destination
        stone.body.position = self.bowls[destination].random_point(self.rng)
        stone.body.velocity = (0, 0)
        self._enter(stone)

    def land_all(self) -> None:
        """End every flight at once (each stone lands at its flight's end point)."""
        for stone in self.stones:
            if stone.flight is not None:
                stone.flight.elapsed = stone.flight.delay + stone.flight.duration
                self._land(stone)
            elif stone.lift and stone not in self._in_space:
                stone.lift = 0.0
                self._enter(stone)

    def _land(self, stone: Stone) -> None:
        flight = stone.flight
        assert flight is not None
        stone.body.position = flight.end
        # A little bounce: keep some of the flight's horizontal speed.
        dx, dy = flight.end[0] - flight.start[0], flight.end[1] - flight.start[1]
        speed = 0.8 / max(flight.duration, 1e-3)
        stone.body.velocity = (dx * speed * 0.15 + self.rng.uniform(-20, 20), dy * speed * 0.15 + self.rng.uniform(-20, 20))
        stone.flight = None
        self._enter(stone)

    def update(self, dt: float) -> None:
        """Advance flights and the physics by ``dt`` seconds.

        Fixed steps, at most ``MAX_STEPS`` per call (time beyond that is dropped), and none while the stones
        rest: the cost of a frame stays bounded however slow the previous one was.
        """
        for stone in self.stones:
            if stone.flight is not None:
                stone.flight.elapsed += dt
                if stone.flight.elapsed >= stone.flight.delay + stone.flight.duration:
                    self._land(stone)
        if self.resting:
            self._accumulator = 0.0
            return
        self._accumulator = min(self._accumulator + dt, MAX_STEPS * STEP)
        while self._accumulator >= STEP:
            self._accumulator -= STEP
            self._step()
        if self.kinetic_energy() < REST_ENERGY and not self.is_flying:
            self._calm += 1
            self.resting = self._calm >= CALM_UPDATES
        else:
            self._calm = 0

    def settle(self, seconds: float = 1.5) -> None:
        """Run the physics with nothing drawn until the stones rest (used after placing stones at once)."""
        self.land_all()
        for _ in range(int(seconds / STEP)):
            self._step()
            if self.kinetic_energy() < REST_ENERGY:
                break

    def _step(self) -> None:
        spring = self.spring
        rim_spring = spring * 12
        radius = self.stone_radius
        ids, values = self._read_bodies()
        forces = array("d", bytes(16 * len(ids)))
        by_body, bowls = self._by_body, self.bowls
        for index, body_id in enumerate(ids):
            bowl = bowls[by_body[body_id].location]
            x, y = values[4 * index], values[4 * index + 1]
            fx, fy = bowl.nearest_floor_point(x, y)
            dx, dy = fx - x, fy - y
            force_x, force_y = dx * spring, dy * spring
            distance = math.hypot(dx, dy)
            limit = bowl.radius - radius
            if bowl.half_height > 0 and limit > 0:  # an elliptical rim, pushing back towards the middle
                cx, cy = (bowl.a[0] + bowl.b[0]) / 2, (bowl.a[1] + bowl.b[1]) / 2
                ex, ey = x - cx, y - cy
                reach = math.sqrt((ex / limit) ** 2 + (ey / max(limit, bowl.half_height - radius)) ** 2)
                if reach > 1:
                    over = (reach - 1) / reach
                    force_x -= ex * over * rim_spring
                    force_y -= ey * over * rim_spring
            elif distance > limit > 0:
                over = (distance - limit) / distance
                force_x += dx * over * rim_spring
                force_y += dy * over * rim_spring
            forces[2 * index] = force_x
            forces[2 * index + 1] = force_y
        if ids:
            self._write.set_float_buf(forces)
            batch.set_space_bodies(self.space, batch.BodyFields.FORCE, self._write)
        self.space.step(STEP)
        self._moved()
