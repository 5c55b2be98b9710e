"""The sowing board on screen: wooden board, pit hollows, physical stones and their animation, and highlights.

``SowingScene`` draws one board and animates moves on it.  It is told positions (``show``) and moves
(``animate``) by its view; the rules state is the truth, so every animation ends by reconciling the stones with
the counts of the new state, and ``finish`` completes any animation at once (a click during a move does it).
The view also tells it the sides' names (``set_sides``), the move preview (``set_preview``: +n and -n tags and a
ring of dots round the last seed's place) and the line under the board (``set_caption``); while a Hus move's
laps are sown a tag by the pit being emptied says which lap it is, and ``side_totals`` counts each side's seeds
with the hand's stones for the mover, so a score never dips while a lap is in the air.

Drawing is a handful of batched calls, so a frame stays cheap on a software renderer: the wooden board and the
hollows are one mesh of vertex-coloured triangles built when the layout changes
(``game.scenes.meshes``) and painted once into an offscreen picture that each frame copies onto the window
(``meshes.Picture``: a plain pixel copy, a third of the cost of rasterising the layers again), stones are sprites
in one list moved from their pymunk bodies (with a second list for stones in the air and their shadows, which are
kept, not rebuilt), and the badges (plates as a small mesh of their own, drawn over the highlights so a count
stays readable; counts as one pyglet batch of texts changed only when a count changes) come last, with the pit
numbers and names in one more batch: what the board writes is ``game.scenes.sowing_words``, the base class that
draws the words.  Highlights, the last-move ring and the preview are cached until they
change.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import arcade

from game import theme
from game.physics import Bowl, Stone, StoneField
from game.scenes import meshes, textures
from game.scenes.sowing_board import BoardSpec, Capture, Lap, Layout, Location, MovePlan, layout
from game.scenes.sowing_words import BoardWords

HAND = -1
"""The location of stones held in the sower's hand (picked up, not yet sown)."""
SOW_INTERVAL = 0.11
"""Seconds between two stones leaving the hand, at animation speed 1."""
FLIGHT_TIME = 0.26
"""Seconds a stone spends in the air, at animation speed 1."""


@dataclass
class _Event:
    time: float
    action: Callable[[], None]


@dataclass
class Animation:
    """A timeline of actions (lift, fly, capture) run by the scene; ``labels`` are announced on the way."""

    events: list[_Event] = field(default_factory=list)
    clock: float = 0.0

    @property
    def is_done(self) -> bool:
        return not self.events


class SowingScene(BoardWords):
    """One sowing board: geometry, stones and their animation, drawing and hit-testing."""

    def __init__(self, spec: BoardSpec, seed: int = 2024, words: bool = False) -> None:
        self.spec = spec
        self.words = words
        """Write the pit numbers, the sides' names and the caption line (a board with words of its own, such as
        the solitaire's hole names, leaves them off)."""
        self.seed = seed
        self.layout: Layout | None = None
        self.field = StoneField(stone_radius=8.0, seed=seed)
        self.counts: dict[Location, int] = {location: 0 for location in spec.locations}
        self.animation = Animation()
        self.speed = 1.0
        self.announce: Callable[[str], None] = lambda text: None
        self.on_sound: Callable[[str], None] = lambda name: None
        self._sprites: dict[int, arcade.Sprite] = {}
        self._shadows: dict[int, arcade.Sprite] = {}
        self._stone_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._air_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._shadow_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._glow_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._glow_key: tuple | None = None
        self._synced_version = -1
        self._outline_key: tuple | None = None
        self._outline_shapes: arcade.shape_list.ShapeElementList | None = None
        self._board_shapes: arcade.shape_list.ShapeElementList | None = None
        self._board_bounds = (0.0, 0.0, 0.0, 0.0)
        self._board_picture: meshes.Picture | None = None
        self._colour_rng = random.Random(seed)
        self.hand_owner = 0
        """Whose stones are in the hand (the mover of the move being animated)."""
        self._init_words()

    type_scale: float | None = None
    """How much larger than at 1280x720 the board's words are drawn; None: the window's ``theme.type_scale`` when
    the board is laid out (every screen that shows a sowing board: games, puzzles, the tutorial)."""

    def _type_scale(self) -> float:
        if self.type_scale is not None:
            return self.type_scale
        try:
            window = arcade.get_window()
        except RuntimeError:  # no window (a layout computed in a test): the design sizes
            return 1.0
        return theme.type_scale(window.width, window.height)

    # -- geometry ---------------------------------------------------------------------------------------------
    def set_rect(self, left: float, bottom: float, width: float, height: float) -> None:
        """Lay the board out in a rectangle of the window (call again on resize)."""
        self.layout = layout(self.spec, left, bottom, width, height, self.words, self._type_scale())
        bowls = {}
        for location, place in self.layout.places.items():
            reach = place.half_height - place.half_width
            bowls[location] = Bowl((place.x, place.y - reach), (place.x, place.y + reach), place.half_width * 0.92,
                                   place.half_height * 0.96 if reach > 0 else 0.0)  # a store: its ellipse
        self.field.set_bowls(bowls, self.layout.stone_radius)
        self._build_board_mesh()
        self._build_badges()
        self._glow_key = self._outline_key = self._preview_key = None
        self._lap_shapes = None
        self._synced_version = -1
        for stone in self.field.stones:
            self._sprite_for(stone).scale = 2 * self.layout.stone_radius / textures.STONE_PIXELS

    def _build_board_mesh(self) -> None:
        """The board, the hollows and the badges' plates as one mesh (rebuilt only when the layout changes)."""
        assert self.layout is not None
        mesh = meshes.Mesh()
        x0, y0, w, h = self.layout.board
        radius = h / 5
        rim = max(3.0, w * 0.006)
        mesh.rounded_frame(x0, y0, w, h, radius, rim, theme.WOOD_RIM)
        mesh.rounded_rectangle(x0 + rim, y0 + rim, w - 2 * rim, h - 2 * rim, radius - rim, theme.WOOD)
        meshes.wood_grain(mesh, x0 + radius * 0.5, y0 + rim * 2, w - radius, h - rim * 4,
                          meshes.with_alpha(theme.WOOD_DARK, 50), meshes.with_alpha(theme.WOOD_RIM, 40))
        deep = meshes.with_alpha([int(c * 0.7) for c in theme.HOLLOW[:3]], 255)
        stops = (0.0, 0.45, 1.0)
        shades = [meshes.mix(deep, theme.HOLLOW, stop ** 0.8) for stop in stops]
        for place in self.layout.places.values():
            mesh.ellipse(place.x, place.y, place.half_width, place.half_height, shades, stops)
            lip = max(2.0, place.half_width * 0.06)
            mesh.ring(place.x, place.y, place.half_width, place.half_height, lip,
                      meshes.with_alpha(theme.WOOD_RIM, 90), outer_colour=meshes.with_alpha(theme.WOOD_RIM, 210))
        if self.layout.divider is not None:
            # A groove across the board between the two sides' rows: a dark cut with a light lower lip.
            left, right, y = self.layout.divider
            groove = max(2.0, self.layout.cell * 0.05)
            mesh.rectangle(left, y - groove / 2, right - left, groove, theme.BOARD_DIVIDER)
            mesh.rectangle(left, y - groove / 2 - 1.5, right - left, 1.5, meshes.with_alpha(theme.WOOD_RIM, 200))
        self._board_shapes = mesh.build()
        xs, ys = [p[0] for p in mesh.points], [p[1] for p in mesh.points]
        self._board_bounds = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        self._board_picture = None
        self._build_plates()

    def location_at(self, x: float, y: float) -> Location | None:
        """The pit or store under the point, or None."""
        if self.layout is None:
            return None
        for location, place in self.layout.places.items():
            dx = (x - place.x) / place.half_width
            dy = (y - place.y) / place.half_height
            if dx * dx + dy * dy <= 1.05:
                return location
        return None

    # -- stones -----------------------------------------------------------------------------------------------
    def _sprite_for(self, stone: Stone) -> arcade.Sprite:
        sprite = self._sprites.get(id(stone))
        if sprite is None:
            sprite = arcade.Sprite(textures.stone(stone.colour))
            assert self.layout is not None
            sprite.scale = 2 * self.layout.stone_radius / textures.STONE_PIXELS
            self._sprites[id(stone)] = sprite
            self._stone_list.append(sprite)
        return sprite

    def show(self, counts: dict[Location, int]) -> None:
        """Put the stones for ``counts`` on the board at once (a new game, a load, an undo)."""
        assert self.layout is not None, "set_rect first"
        self.animation = Animation()
        self._show_lap(None, None)  # a move cut short leaves no lap tag behind
        self.field.land_all()
        for stone in self.field.stones:
            if stone.location == HAND:
                stone.location = self._first_deficit(counts) if counts else 0
        self._reconcile(counts, instant=True)
        self.field.settle(0.8)
        self._refresh_counts()

    def _first_deficit(self, counts: dict[Location, int]) -> Location:
        have = self.field.counts()
        for location, want in counts.items():
            if have.get(location, 0) < want:
                return location
        return next(iter(counts))

    def _reconcile(self, target: dict[Location, int], instant: bool, stagger: float = 0.0) -> None:
        """Move, add or remove stones until each location holds ``target``'s count (the rules' truth)."""
        have = self.field.counts()
        surplus: list[Stone] = []
        for location in list(have):
            extra = have[location] - target.get(location, 0)
            if extra > 0:
                surplus += self.field.at(location)[-extra:]
        deficits = [(location, want - have.get(location, 0)) for location, want in target.items()
                    if want > have.get(location, 0)]
        # Prefer sending a stone to a location of the same owner (seeds left at the end go to their store).
        delay = 0.0
        for location, missing in deficits:
            for _ in range(missing):
                if surplus:
                    same = [s for s in surplus if s.location != HAND and s.location in self.spec.locations
                            and self.spec.owner(s.location) == self.spec.owner(location)]
                    stone = (same or surplus)[0]
                    surplus.remove(stone)
                    if instant:
                        self.field.place(stone, location)
                    else:
                        self.field.fly(stone, location, FLIGHT_TIME * 1.6 / self.speed, delay=delay)
                        delay += stagger
                else:
                    stone = self.field.add_stone(location, self._colour_rng.randrange(len(theme.STONE_COLOURS)))
                    self._sprite_for(stone)
        for stone in surplus:
            self._remove_stone(stone)

    def _remove_stone(self, stone: Stone) -> None:
        self.field._leave(stone)
        self.field.stones.remove(stone)
        for sprites in (self._sprites, self._shadows):
            sprite = sprites.pop(id(stone), None)
            if sprite is not None:
                sprite.remove_from_sprite_lists()

    def _refresh_counts(self) -> None:
        counts = {location: 0 for location in self.spec.locations}
        for stone in self.field.stones:
            if stone.flight is None and stone.location in counts:
                counts[stone.location] += 1
        for location, count in counts.items():
            if self.counts.get(location) != count and location in self._badges:
                self._badges[location].text = str(count)
        self.counts = counts

    # -- animation --------------------------------------------------------------------------------------------
    @property
    def is_animating(self) -> bool:
        return not self.animation.is_done or self.field.is_flying

    @property
    def is_moving(self) -> bool:
        """True while anything on the board moves: an animation, or stones still settling in their pits."""
        return self.is_animating or not self.field.resting

    def animate(self, plan: MovePlan) -> None:
        """Start the animation of a move (finishing any animation still running first)."""
        self.finish()
        interval = SOW_INTERVAL / self.speed
        flight = FLIGHT_TIME / self.speed
        events: list[_Event] = []
        t = 0.0
        self.hand_owner = plan.player
        laps = len(plan.laps)
        for index, lap in enumerate(plan.laps):
            if index:
                t += flight + interval
            events.append(_Event(t, partial(self._pick_up, lap)))
            if laps > 1 and lap.taken:
                # Which lap is being sown, written by the pit being emptied (a relay or a capture goes on).
                text = f"Lap {index + 1} of {laps}" + (f": {lap.kind}" if lap.kind != "sow" else "")
                events.append(_Event(t, partial(self._show_lap, text, lap.taken[0][0])))
            if lap.label and lap.kind != "relay":  # relays are told by the lap tag on the board
                events.append(_Event(t, partial(self._announce, lap.label)))
            t += interval * 1.5
            for drop in lap.drops:
                events.append(_Event(t, partial(self._drop, drop, flight)))
                t += interval
        t += flight
        for capture in plan.captures:
            events.append(_Event(t, partial(self._capture, capture, flight)))
            t += flight * 1.8
        for label in plan.labels:
            if not any(lap.label == label for lap in plan.laps):
                events.append(_Event(t if "Capture" not in label else t - flight, partial(self._announce, label)))
        events.append(_Event(t, partial(self._reconcile, dict(plan.after), instant=False, stagger=0.03)))
        events.append(_Event(t, lambda: self._show_lap(None, None)))
        events.sort(key=lambda event: event.time)
        self.animation = Animation(events)

    def _announce(self, text: str) -> None:
        """Say ``text`` through whatever ``announce`` is when the event fires (the view may set it later)."""
        self.announce(text)

    def side_totals(self) -> tuple[int, int]:
        """The seeds each side owns as the board shows them: those resting in or flying to its pits and store,
        and the stones in the hand for the mover (sowing never leaves the mover's side in Hus, so a side's total
        changes only when a capture lifts the opponent's seeds, never while a lap is in the air)."""
        totals = [0, 0]
        for location, count in self.field.counts().items():
            if location == HAND:
                totals[self.hand_owner] += count
            elif location in self.counts:
                totals[self.spec.owner(location)] += count
        return totals[0], totals[1]

    def _pick_up(self, lap: Lap) -> None:
        for location, count in lap.taken:
            stones = self.field.at(location)[-count:] if count else []
            for stone in stones:
                if stone.flight is not None:
                    x, y, _ = stone.flight.position()
                    stone.flight = None
                    stone.body.position = x, y
                self.field.lift(stone, 1.5)
                stone.location = HAND
        self.on_sound("pick")

    def _drop(self, location: Location, flight: float) -> None:
        hand = self.field.at(HAND)
        if hand:
            self.field.fly(hand[0], location, flight, height=1.5)
            self.on_sound("drop")

    def _capture(self, capture: Capture, flight: float) -> None:
        delay = 0.0
        for location, count in capture.taken:
            for stone in self.field.at(location)[-count:] if count else []:
                if capture.store is None:
                    continue
                self.field.fly(stone, capture.store, flight * 1.6, height=3.0, delay=delay)
                delay += 0.02
        self.on_sound("capture")

    def finish(self) -> None:
        """Complete the running animation at once: every stone goes where the new position puts it."""
        if self.animation.events:
            events, self.animation.events = self.animation.events, []
            saved_speed = self.speed
            self.speed = 1e6
            for event in events:
                event.action()
            self.speed = saved_speed
        self.field.land_all()
        self._refresh_counts()

    def update(self, dt: float) -> None:
        """Advance the animation clock, the flights and the physics."""
        animation = self.animation
        if animation.events:
            animation.clock += dt
            while animation.events and animation.events[0].time <= animation.clock:
                animation.events.pop(0).action()
        self.field.update(dt)
        self._refresh_counts()

    # -- drawing ----------------------------------------------------------------------------------------------
    def draw(self, highlights: dict[Location, tuple[int, int, int, int]] | None = None,
             outlines: dict[Location, tuple[int, int, int, int]] | None = None) -> None:
        """Draw the board; ``highlights`` glow (legal pit under the mouse, hint), ``outlines`` ring (last move)."""
        assert self.layout is not None
        if self._board_shapes is not None:
            if self._board_picture is None:
                self._board_picture = meshes.Picture(arcade.get_window(), self._board_bounds, theme.TABLE,
                                                     self._board_shapes.draw)
            self._board_picture.draw(arcade.get_window().ctx)
        if outlines:
            self._outlines(outlines).draw()
        if highlights:
            self._glows(highlights).draw()
        self._sync_sprites()
        self._stone_list.draw()
        if self._air_list:
            self._shadow_list.draw()
            self._air_list.draw()
        self.draw_words(self.is_animating)

    def _outlines(self, outlines: dict[Location, tuple[int, int, int, int]]) -> arcade.shape_list.ShapeElementList:
        key = tuple(sorted(outlines.items()))
        if key != self._outline_key or self._outline_shapes is None:
            assert self.layout is not None
            mesh = meshes.Mesh()
            for location, colour in outlines.items():
                place = self.layout.places[location]
                mesh.ring(place.x, place.y, place.half_width + 4.5, place.half_height + 4.5, 3, colour)
            self._outline_key, self._outline_shapes = key, mesh.build()
        return self._outline_shapes

    def _glows(self, highlights: dict[Location, tuple[int, int, int, int]]) -> arcade.SpriteList:
        key = tuple(sorted(highlights.items()))
        if key != self._glow_key:
            assert self.layout is not None
            self._glow_list.clear()
            for location, colour in highlights.items():
                place = self.layout.places[location]
                w, h = int(2 * place.half_width), int(2 * place.half_height)
                sprite = arcade.Sprite(textures.glow(96, 96 if h <= w * 1.2 else 260, colour),
                                       center_x=place.x, center_y=place.y)
                sprite.width, sprite.height = w * 1.25, h + w * 0.25  # the same margin all round: a true ring
                self._glow_list.append(sprite)
            self._glow_key = key
        return self._glow_list

    def _sync_sprites(self) -> None:
        """Move each stone's sprite to its body (or its flight, lifted, over a kept shadow sprite)."""
        assert self.layout is not None
        field = self.field
        if field.version == self._synced_version and not self._air_list and not field.is_flying:
            return  # nothing moved since the last frame
        self._synced_version = field.version
        radius = self.layout.stone_radius
        base = 2 * radius / textures.STONE_PIXELS
        ground = field.ground_positions()
        for stone in field.stones:
            sprite = self._sprite_for(stone)
            z = stone.z
            if z > 0.01:
                if sprite.sprite_lists and sprite.sprite_lists[0] is not self._air_list:
                    sprite.remove_from_sprite_lists()
                    self._air_list.append(sprite)
                shadow = self._shadows.get(id(stone))
                if shadow is None:
                    shadow = self._shadows[id(stone)] = arcade.Sprite(textures.shadow())
                    self._shadow_list.append(shadow)
                x, y = stone.x, stone.y
                shadow.position = x + z * radius * 0.35, y - z * radius * 0.5
                shadow.scale = base * 1.1
                sprite.position = x, y + z * radius * 0.6
                sprite.scale = base * (1 + 0.12 * z)
            else:
                if sprite.sprite_lists and sprite.sprite_lists[0] is not self._stone_list:
                    sprite.remove_from_sprite_lists()
                    self._stone_list.append(sprite)
                    shadow = self._shadows.pop(id(stone), None)
                    if shadow is not None:
                        shadow.remove_from_sprite_lists()
                position = ground.get(id(stone))
                sprite.position = position if position is not None else (stone.x, stone.y)
                sprite.scale = base
