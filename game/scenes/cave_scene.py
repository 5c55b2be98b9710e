"""The Magnetic Cave scene: the dark cave between two glowing magnetic walls, bricks that slide home.

``CaveScene`` meets ``game.scenes.contract.MatchScene``, the interface ``MatchView`` drives (``set_rect``,
``update``, ``finish``, ``is_animating``, ``speed``, ``location_at``, ``draw(highlights, outlines)``,
``announce``, ``on_sound``), with the 64 cells as its locations.  It is told positions (``show``) and moves (``place``); the rules state is the
truth and the bricks' physics (``game.scenes.cave_board``) only carries each new brick to the cell the rules
chose.  Once the position has a winner, the winning five (or more) pulse.

Look: cave ``#2B2D35`` with darker cell slots, walls ``#6C63FF`` with a slow pulsing
glow, Black bricks ``#1B1B1F`` with a gold edge, White ``#F4F4F6`` with a blue edge, column letters A..H under
the cave and row numbers 1..8 outside each wall.  Drawing is a few batched calls: the cave, walls and slots are
one mesh built on resize, the glows two small sprite lists whose alpha is changed, the bricks one sprite list
and the labels one text batch.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Iterable

import arcade
import pyglet
from PIL import Image, ImageDraw, ImageFilter

from game import theme
from game.scenes import meshes
from game.scenes.cave_board import (Brick, BrickPhysics, CaveLayout, CellPreview, caption_font, cave_layout,
                                    label_font)
from rules.magnetic_cave import COLUMN_LETTERS, SIZE, CaveState, MagneticCave

Cell = int
CAVE = theme.CAVE
SLOT = meshes.mix(CAVE, (16, 17, 22, 255), 0.45)
WALL = theme.CAVE_WALL
BRICKS = theme.BRICKS
EDGES = (theme.ACCENTS[0], theme.ACCENTS[1])
"""Black's bricks have a gold edge, White's a blue one (the players' accents)."""
WIN_GLOW = (255, 236, 140, 255)
BRICK_PIXELS = 64
PULSE_SECONDS = 2.4
"""One slow breath of the walls' glow."""


@lru_cache(maxsize=None)
def brick_texture(colour: int) -> arcade.Texture:
    """A brick seen from above: a rounded square in the player's colour, edged in the accent, lit from the top."""
    s = BRICK_PIXELS
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = EDGES[colour][:3] + (255,)
    draw.rounded_rectangle((1, 1, s - 2, s - 2), radius=s // 7, fill=edge)
    draw.rounded_rectangle((5, 5, s - 6, s - 6), radius=s // 9, fill=BRICKS[colour])
    light = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    shade = 60 if colour == 0 else 0
    ImageDraw.Draw(light).rounded_rectangle((8, s * 0.55, s - 9, s - 9), radius=s // 10,
                                            fill=(255, 255, 255, 40) if colour == 0 else (0, 0, 0, 22))
    ImageDraw.Draw(light).rectangle((9, 8, s - 10, 11), fill=(255, 255, 255, 50 + shade))
    image = Image.alpha_composite(image, light.filter(ImageFilter.GaussianBlur(2)))
    return arcade.Texture(image, hash=f"stonecave-brick-{colour}")


@lru_cache(maxsize=None)
def glow_texture(width: int, height: int, colour: tuple[int, int, int, int], fill: int = 0) -> arcade.Texture:
    """A soft rectangle of light (a wall's glow, a highlighted cell, the winning line), ``fill`` its inside's
    opacity."""
    pad = 14
    image = Image.new("RGBA", (width + 2 * pad, height + 2 * pad), colour[:3] + (0,))  # blur keeps the colour
    ImageDraw.Draw(image).rounded_rectangle((pad, pad, width + pad, height + pad), radius=6,
                                            outline=colour[:3] + (235,), width=6, fill=colour[:3] + (fill,))
    image = image.filter(ImageFilter.GaussianBlur(5))
    return arcade.Texture(image, hash=f"stonecave-cave-glow-{width}x{height}-{colour}-{fill}")


class CaveScene:
    """The cave, its walls and bricks; animates each placed brick and highlights cells."""

    def __init__(self, game: MagneticCave) -> None:
        self.game = game
        self.layout: CaveLayout | None = None
        self.physics: BrickPhysics | None = None
        self.state: CaveState | None = None
        self.winning: tuple[Cell, ...] = ()
        self.speed = 1.0
        self.clock = 0.0
        self.announce: Callable[[str], None] = lambda text: None
        self.on_sound: Callable[[str], None] = lambda name: None
        self._pending_labels: list[str] = []
        self._mesh: arcade.shape_list.ShapeElementList | None = None
        self._walls: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._glows: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._glow_key: tuple | None = None
        self._wins: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._win_key: tuple = ()
        self._bricks: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._sprites: dict[int, arcade.Sprite] = {}
        self._outline_key: tuple | None = None
        self._outline_shapes: arcade.shape_list.ShapeElementList | None = None
        self._labels = pyglet.graphics.Batch()
        self._label_texts: list[arcade.Text] = []
        self.preview: CellPreview | None = None
        """What the brick on the cell a player is looking at would do (drawn as its ghost and marks)."""
        self._ghost: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._ghost_key: tuple | None = None
        self.cursor: Cell | None = None
        """The keyboard's cell, framed (``set_cursor``)."""
        self._cursor_key: tuple | None = None
        self._cursor_shapes: arcade.shape_list.ShapeElementList | None = None
        self._caption = arcade.Text("", 0, 0, theme.TEXT, 12, font_name=theme.BODY_FONT, anchor_x="center",
                                    anchor_y="center")

    type_scale: float | None = None
    """How much larger than at 1280x720 the cave's words are drawn; None: the window's ``theme.type_scale`` when
    the cave is laid out (as the sowing boards do)."""

    def _type_scale(self) -> float:
        if self.type_scale is not None:
            return self.type_scale
        try:
            window = arcade.get_window()
        except RuntimeError:  # no window (a layout computed in a test): the design sizes
            return 1.0
        return theme.type_scale(window.width, window.height)

    def texts(self) -> list[arcade.Text]:
        """Every word the cave writes (the columns' letters, the rows' numbers on both sides, the caption), for the
        layout checks."""
        return [*self._label_texts, self._caption]

    def text_boxes(self) -> list[tuple[str, float, float, float, float]]:
        """Where the cave's words are drawn, as (what, left, bottom, right, top): the coordinate labels and the
        caption (when it says something).  The journeys check that they lie in the window and overlap neither
        one another nor the screen's widgets."""
        named = [(f"label {text.text}", text) for text in self._label_texts] + [("caption", self._caption)]
        return [(name, text.left, text.bottom, text.right, text.top) for name, text in named if text.text.strip()]

    # -- geometry ---------------------------------------------------------------------------------------------
    def set_rect(self, left: float, bottom: float, width: float, height: float) -> None:
        """Lay the cave out in a rectangle of the window (again on resize: a sliding brick is put home first,
        every brick keeps its cell)."""
        self.finish()
        self.layout = cave_layout(left, bottom, width, height)
        self.physics = BrickPhysics(self.layout)
        self.physics.on_snap = self._snapped
        self._sprites.clear()
        self._bricks.clear()
        self._build_mesh()
        self._build_labels()
        self._build_walls()
        self._glow_key = self._outline_key = None
        self._win_key = ()
        if self.state is not None:
            self.show(self.state)

    def _build_mesh(self) -> None:
        layout = self.layout
        assert layout is not None
        cell, wall = layout.cell, layout.wall
        mesh = meshes.Mesh()
        lip = cell * 0.12
        mesh.rectangle(layout.left, layout.bottom - lip, layout.right - layout.left,
                       layout.top - layout.bottom + 2 * lip, meshes.mix(CAVE, (0, 0, 0, 255), 0.15), top_colour=CAVE)
        inset = cell * 0.06
        for index in range(SIZE * SIZE):
            x, y = layout.centre(index)
            half = cell / 2 - inset
            mesh.rectangle(x - half, y - half, 2 * half, 2 * half, SLOT, top_colour=meshes.mix(SLOT, CAVE, 0.5))
        deep = meshes.mix(WALL, (0, 0, 0, 255), 0.35)
        for x0 in (layout.left - wall, layout.right):
            mesh.quad((x0, layout.bottom - lip), (x0 + wall, layout.bottom - lip), (x0 + wall, layout.top + lip),
                      (x0, layout.top + lip), deep, WALL, WALL, deep)
            mesh.rectangle(x0 + wall * 0.42, layout.bottom - lip, wall * 0.16, layout.top - layout.bottom + 2 * lip,
                           meshes.mix(WALL, (255, 255, 255, 255), 0.35))
        self._mesh = mesh.build()

    def _build_labels(self) -> None:
        layout = self.layout
        assert layout is not None
        self._labels = pyglet.graphics.Batch()
        size = label_font(layout.cell, self._type_scale())
        texts = []
        for column, letter in enumerate(COLUMN_LETTERS):
            x, _ = layout.centre(column)
            texts.append(arcade.Text(letter, x, layout.bottom - layout.cell * 0.42, theme.TEXT_DIM, size,
                                     font_name=theme.BODY_FONT, anchor_x="center", anchor_y="center", bold=True,
                                     batch=self._labels))
        for row in range(SIZE):
            _, y = layout.centre(row * SIZE)
            for x in (layout.left - layout.wall - layout.cell * 0.3, layout.right + layout.wall + layout.cell * 0.3):
                texts.append(arcade.Text(str(row + 1), x, y, theme.TEXT_DIM, size, font_name=theme.BODY_FONT,
                                         anchor_x="center", anchor_y="center", bold=True, batch=self._labels))
        self._label_texts = texts  # kept: a Text leaves its batch when collected
        self._caption.font_size = caption_font(layout.cell, self._type_scale())
        self._caption.position = (layout.left + layout.right) / 2, layout.bottom - layout.cell * 0.875
        self._ghost_key = None
        self._cursor_key = self._cursor_shapes = None  # built again at the new size by the next set_cursor

    def _build_walls(self) -> None:
        layout = self.layout
        assert layout is not None
        self._walls.clear()
        height = layout.top - layout.bottom + layout.cell * 0.24
        texture = glow_texture(40, 400, WALL)
        for x in (layout.left - layout.wall / 2, layout.right + layout.wall / 2):
            sprite = arcade.Sprite(texture, center_x=x, center_y=(layout.top + layout.bottom) / 2)
            sprite.width, sprite.height = layout.wall * 2.6, height * 1.08
            self._walls.append(sprite)

    def set_preview(self, preview: CellPreview | None, caption: str | None = None) -> None:
        """Show what a brick would do before it is placed (None: nothing): its ghost on the cell, a ring on each
        cell where it would threaten five (the mover's accent) or let the opponent make five (the warning
        colour), the five it would complete lit, and the caption under the cave (the preview's own unless
        ``caption`` is given)."""
        self.preview = preview
        if caption is None:
            caption = "" if preview is None else preview.caption
        if self._caption.text != caption:
            self._caption.text = caption

    def set_cursor(self, cell: Cell | None, legal: Iterable[Cell] = (), mover: int = 0) -> None:
        """The keyboard's cursor on ``cell`` (None: hidden): four corners in the mover's accent, drawn over any
        brick, so it never looks like one; while it is shown each cell of ``legal`` gets a small dot."""
        key = (cell, tuple(sorted(legal)) if cell is not None else (), mover, self.layout)
        if key == self._cursor_key:
            return
        self._cursor_key = key
        self.cursor = cell
        self._cursor_shapes = None
        layout = self.layout
        if cell is None or layout is None:
            return
        mesh = meshes.Mesh()
        accent = EDGES[mover][:3] + (255,)
        for dot in key[1]:
            x, y = layout.centre(dot)
            radius = layout.cell * 0.08
            mesh.ellipse(x, y, radius, radius, [accent[:3] + (220,), accent[:3] + (160,)])
        x, y = layout.centre(cell)
        half, arm, width = layout.cell * 0.5, layout.cell * 0.22, max(2.0, layout.cell * 0.06)
        for sx in (-1, 1):
            for sy in (-1, 1):
                corner = (x + sx * half, y + sy * half)
                mesh.polyline([(corner[0] - sx * arm, corner[1]), corner, (corner[0], corner[1] - sy * arm)],
                              width, (255, 255, 255, 235))
        self._cursor_shapes = mesh.build()

    def _ghosts(self) -> arcade.SpriteList:
        key = (self.preview, self.layout)
        if key != self._ghost_key:
            self._ghost.clear()
            layout, preview = self.layout, self.preview
            if preview is not None and layout is not None:
                marks = [(cell, glow_texture(64, 64, WIN_GLOW, fill=60)) for cell in preview.line]
                marks += [(cell, glow_texture(64, 64, EDGES[preview.player], fill=50)) for cell in preview.threats]
                marks += [(cell, glow_texture(64, 64, theme.PREVIEW_CAPTURE, fill=50)) for cell in preview.dangers]
                for cell, texture in marks:
                    x, y = layout.centre(cell)
                    mark = arcade.Sprite(texture, center_x=x, center_y=y)
                    mark.width = mark.height = layout.cell * 1.2
                    self._ghost.append(mark)
                x, y = layout.centre(preview.cell)
                sprite = arcade.Sprite(brick_texture(preview.player), center_x=x, center_y=y)
                sprite.width = sprite.height = layout.cell * 0.7  # smaller and fainter than a placed brick
                sprite.alpha = 110
                self._ghost.append(sprite)
            self._ghost_key = key
        return self._ghost

    def location_at(self, x: float, y: float) -> Cell | None:
        """The cell under the point, or None."""
        return None if self.layout is None else self.layout.cell_at(x, y)

    def centre(self, cell: Cell) -> tuple[float, float]:
        assert self.layout is not None
        return self.layout.centre(cell)

    # -- positions and moves ----------------------------------------------------------------------------------
    @property
    def bricks(self) -> dict[Cell, Brick]:
        return {} if self.physics is None else self.physics.bricks

    def show(self, state: CaveState) -> None:
        """Every brick of ``state`` at rest on its cell at once (a new game, a load, an undo)."""
        assert self.physics is not None, "set_rect first"
        self.state = state
        self.physics.clear()
        for cell in range(SIZE * SIZE):
            owner = state.at(cell)
            if owner:
                self.physics.rest(cell, owner - 1)
        self._pending_labels.clear()
        self._set_winning(state)

    def place(self, before: CaveState, move: Cell, after: CaveState, labels: list[str] | None = None) -> None:
        """Animate the brick of ``move`` (played in ``before``) sliding home; ``after`` is the rules' result."""
        assert self.physics is not None, "set_rect first"
        self.finish()
        if self.state != before:
            self.show(before)
        self.state = after
        self.winning = ()
        self._pending_labels = list(labels or ())
        self.physics.launch(move, before.to_move, before.black | before.white)
        if not self.physics.is_moving:
            self._arrived()

    def _snapped(self, brick: Brick) -> None:
        self.on_sound("brick")
        if self.physics is not None and not self.physics.is_moving:
            self._arrived()

    def _arrived(self) -> None:
        """The last brick is home: light the winning line, announce the move's events."""
        if self.state is not None:
            self._set_winning(self.state)
        for label in self._pending_labels:
            self.announce(label)
        self._pending_labels.clear()

    def _set_winning(self, state: CaveState) -> None:
        self.winning = self.game.winning_line(state)

    @property
    def is_animating(self) -> bool:
        return self.physics is not None and (self.physics.is_moving or any(
            brick.arrival < 1.0 for brick in self.physics.bricks.values()))

    def finish(self) -> None:
        """Every sliding brick home at once."""
        if self.physics is not None and self.physics.is_moving:
            self.physics.settle_all()
        elif self.physics is not None:
            for brick in self.physics.bricks.values():
                brick.arrival = 1.0

    def update(self, dt: float) -> None:
        """Advance the slides (time scaled by ``speed``) and the glows' pulse."""
        self.clock += dt
        if self.physics is not None:
            self.physics.update(dt * self.speed)

    # -- drawing ----------------------------------------------------------------------------------------------
    def draw(self, highlights: dict[Cell, tuple[int, int, int, int]] | None = None,
             outlines: dict[Cell, tuple[int, int, int, int]] | None = None) -> None:
        """Draw the cave; ``highlights`` glow (a legal cell under the mouse, a hint), ``outlines`` ring (last move)."""
        if self.layout is None or self._mesh is None:
            return
        breath = 0.5 + 0.5 * math.sin(self.clock * math.tau / PULSE_SECONDS)
        self._walls.alpha = int(110 + 120 * breath)
        self._walls.draw()
        self._mesh.draw()
        if highlights:
            self._highlights(highlights).draw()
        self._sync_bricks()
        self._bricks.draw()
        if self.preview is not None and not self.is_animating and self.preview.cell not in self.bricks:
            self._ghosts().draw()
        if outlines:
            self._outlines(outlines).draw()
        if self._cursor_shapes is not None and self.cursor is not None:
            self._cursor_shapes.draw()
        if self.winning and not self.is_animating:
            wins = self._win_glows()
            wins.alpha = int(150 + 105 * (0.5 + 0.5 * math.sin(self.clock * math.tau / 0.9)))
            wins.draw()
        self._labels.draw()
        if self._caption.text:
            self._caption.draw()

    def _sync_bricks(self) -> None:
        layout = self.layout
        assert layout is not None
        size = layout.cell * 0.9
        live = set()
        for cell, brick in self.bricks.items():
            key = id(brick)
            live.add(key)
            sprite = self._sprites.get(key)
            if sprite is None:
                sprite = self._sprites[key] = arcade.Sprite(brick_texture(brick.colour))
                self._bricks.append(sprite)
            sprite.position = brick.position
            grow = 1.0 + 0.25 * (1.0 - brick.arrival) ** 2
            sprite.width = sprite.height = size * grow
            sprite.alpha = int(255 * min(1.0, 0.35 + brick.arrival))
        for key in [key for key in self._sprites if key not in live]:
            self._sprites.pop(key).remove_from_sprite_lists()

    def _highlights(self, highlights: dict[Cell, tuple[int, int, int, int]]) -> arcade.SpriteList:
        key = tuple(sorted(highlights.items()))
        if key != self._glow_key:
            layout = self.layout
            assert layout is not None
            self._glows.clear()
            for cell, colour in highlights.items():
                x, y = layout.centre(cell)
                sprite = arcade.Sprite(glow_texture(64, 64, colour), center_x=x, center_y=y)
                sprite.width = sprite.height = layout.cell * 1.3
                self._glows.append(sprite)
            self._glow_key = key
        return self._glows

    def _win_glows(self) -> arcade.SpriteList:
        if self.winning != self._win_key:
            layout = self.layout
            assert layout is not None
            self._wins.clear()
            for cell in self.winning:
                x, y = layout.centre(cell)
                sprite = arcade.Sprite(glow_texture(64, 64, WIN_GLOW, fill=110), center_x=x, center_y=y)
                sprite.width = sprite.height = layout.cell * 1.3
                self._wins.append(sprite)
            self._win_key = self.winning
        return self._wins

    def _outlines(self, outlines: dict[Cell, tuple[int, int, int, int]]) -> arcade.shape_list.ShapeElementList:
        key = tuple(sorted(outlines.items()))
        if key != self._outline_key or self._outline_shapes is None:
            layout = self.layout
            assert layout is not None
            mesh = meshes.Mesh()
            half = layout.cell * 0.5
            for cell, colour in outlines.items():
                x, y = layout.centre(cell)
                mesh.frame(x - half, y - half, 2 * half, 2 * half, 2.5, colour)
            self._outline_key, self._outline_shapes = key, mesh.build()
        return self._outline_shapes
