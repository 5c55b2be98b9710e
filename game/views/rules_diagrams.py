"""The rules screens' board diagrams, drawn with arcade's primitives: one function per kind of board (the
sowing direction and a capture for Kalah and Oware, the two private rings and a capture for Hus, the legal row
ends of the Magnetic Cave, the two directions and a store drop for Solitaire Mancala); ``Illustration`` draws
the one a page names in a rectangle."""
from __future__ import annotations

import math
from functools import partial
from typing import Callable

import arcade

from game import theme

DIAGRAMS = ("sowing", "oware", "hus", "cave", "solitaire")
ARROW = theme.ACCENTS[0]
CAPTURE = theme.WARNING
Op = Callable[[], None]


# -- drawing helpers ---------------------------------------------------------------------------------------------
def _arrow(ops: list[Op], points: list[tuple[float, float]], colour: theme.Color = ARROW,
           width: float = 3) -> None:
    """A polyline ending in an arrow head at its last point."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    angle = math.atan2(y2 - y1, x2 - x1)
    size = 5 + 3 * width
    left = (x2 - size * math.cos(angle - 0.45), y2 - size * math.sin(angle - 0.45))
    right = (x2 - size * math.cos(angle + 0.45), y2 - size * math.sin(angle + 0.45))
    shaft = list(points[:-1]) + [(x2 - 0.7 * size * math.cos(angle), y2 - 0.7 * size * math.sin(angle))]
    ops.append(lambda: arcade.draw_line_strip(shaft, colour, width))
    ops.append(lambda: arcade.draw_triangle_filled(x2, y2, *left, *right, colour))


def _curve(start: tuple[float, float], end: tuple[float, float], bend: float, steps: int = 16
           ) -> list[tuple[float, float]]:
    """Points along a quadratic curve from ``start`` to ``end`` bulging ``bend`` pixels to the left."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1
    cx, cy = (x1 + x2) / 2 - bend * (y2 - y1) / length, (y1 + y2) / 2 + bend * (x2 - x1) / length
    return [((1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2, (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2)
            for t in (i / steps for i in range(steps + 1))]


def _pit(ops: list[Op], texts: list[arcade.Text], x: float, y: float, radius: float, count: int | None,
         colour: theme.Color = theme.HOLLOW, ring: theme.Color | None = None) -> None:
    ops.append(lambda: arcade.draw_circle_filled(x, y, radius, colour))
    if ring is not None:
        ops.append(lambda: arcade.draw_circle_outline(x, y, radius + 2, ring, 3))
    if count is not None:
        texts.append(arcade.Text(str(count), x, y, theme.TEXT, max(8, radius * 0.8), font_name=theme.BODY_FONT,
                                 anchor_x="center", anchor_y="center"))


def _label(texts: list[arcade.Text], text: str, x: float, y: float, colour: theme.Color = theme.TEXT_DIM,
           style: theme.TypeStyle = theme.SMALL, anchor_x: str = "center") -> None:
    texts.append(theme.text(text, style, colour, x, y, anchor_x=anchor_x, anchor_y="center"))


def _board(ops: list[Op], left: float, bottom: float, width: float, height: float) -> None:
    ops.append(lambda: arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, theme.WOOD_RIM))
    ops.append(lambda: arcade.draw_lbwh_rectangle_filled(left + 5, bottom + 5, width - 10, height - 10, theme.WOOD))


# -- the illustrations -------------------------------------------------------------------------------------------
def _two_rows(ops: list[Op], texts: list[arcade.Text], rect: tuple[float, float, float, float], kalah: bool) -> None:
    """Kalah (stores in the ring) or Oware (score houses outside it): a sowing ring and a capture."""
    left, bottom, width, height = rect
    board_h = min(height * 0.55, width * 0.32)
    board_b = bottom + (height - board_h) / 2
    _board(ops, left, board_b, width, board_h)
    step = width / 8
    radius = min(step * 0.36, board_h * 0.17)
    south_y, north_y = board_b + board_h * 0.3, board_b + board_h * 0.7
    xs = [left + step * (i + 1.5) for i in range(6)]
    if kalah:
        south = [4, 4, 1, 5, 5, 5]  # pit 2 was empty: the last seed has just landed in it
        north = [5, 5, 4, 4, 4, 4]  # North's pits as seen from above, left to right
        stores = (0, 1)
        south_ring = {2: theme.ACCENTS[0]}
    else:
        south = [4, 4, 4, 0, 5, 5]
        north = [4, 4, 4, 3, 2, 5]
        stores = (0, 0)
        south_ring = {}
    for i, x in enumerate(xs):
        _pit(ops, texts, x, south_y, radius, south[i], ring=south_ring.get(i))
        ring = CAPTURE if (not kalah and north[i] in (2, 3) and i in (3, 4)) else None
        _pit(ops, texts, x, north_y, radius, north[i], ring=ring)
    store_w, store_h = step * 0.62, board_h * 0.8
    for index, x in enumerate((left + step * 0.55, left + width - step * 0.55)):
        colour = theme.HOLLOW
        ops.append(partial(arcade.draw_lbwh_rectangle_filled,
                           x - store_w / 2, board_b + (board_h - store_h) / 2, store_w, store_h, colour))
        count = stores[1 - index]
        texts.append(arcade.Text(str(count), x, board_b + board_h / 2, theme.TEXT, radius * 0.8,
                                 font_name=theme.BODY_FONT, anchor_x="center", anchor_y="center"))
    # The counter-clockwise sowing ring: along South's row to the right, up, along North's row to the left.
    gap = radius + 14
    ring_colour = ARROW
    _arrow(ops, [(xs[0], south_y - gap), (xs[-1] + (step * 0.7 if kalah else 0), south_y - gap)], ring_colour)
    right_x = left + width + 16 if not kalah else left + width - step * 0.55
    if kalah:
        _arrow(ops, [(xs[-1] + step * 0.7, south_y - gap + 8), (right_x + store_w / 2 + 10, board_b + board_h / 2),
                     (xs[-1] + step * 0.7, north_y + gap)], ring_colour)
    else:
        _arrow(ops, _curve((xs[-1] + radius, south_y - gap), (xs[-1] + radius, north_y + gap), -step * 0.5),
               ring_colour)
    _arrow(ops, [(xs[-1], north_y + gap), (xs[0], north_y + gap)], ring_colour)
    _label(texts, "South", left + width / 2, board_b - 36, theme.ACCENTS[0], theme.BODY)
    _label(texts, "North", left + width / 2, board_b + board_h + 36, theme.ACCENTS[1], theme.BODY)
    if kalah:
        _label(texts, "South's store", left + width - step * 0.55, board_b - 14, theme.TEXT_DIM, theme.SMALL)
        # Capture: the last seed lands in South's empty pit 2; it and North's pit opposite go to the store.
        _arrow(ops, [(xs[2], north_y - radius), (xs[2], south_y + radius + 2)], CAPTURE, 2)
        _arrow(ops, _curve((xs[2] + radius, south_y), (left + width - step * 0.55, board_b + board_h * 0.35),
                           step * 0.6), CAPTURE)
        _label(texts, "capture", xs[2] + step * 0.55, board_b + board_h / 2, CAPTURE, theme.SMALL)
    else:
        _label(texts, "score houses stay out of the ring", left + width / 2, board_b + board_h + 14,
               theme.TEXT_DIM, theme.SMALL)
        # Capture: the last seed makes North's house 4 a three, the house before it a two: both are taken.
        _arrow(ops, _curve((xs[3], north_y - radius - 4), (xs[4] - radius, north_y - radius + 4), 10), CAPTURE, 2)
        _arrow(ops, _curve((xs[4], north_y + radius), (left + width - step * 0.55, board_b + board_h * 0.6),
                           -step * 0.6), CAPTURE)
        _label(texts, "2 or 3: capture", (xs[3] + xs[4]) / 2, board_b + board_h / 2, CAPTURE, theme.SMALL)


def _hus(ops: list[Op], texts: list[arcade.Text], rect: tuple[float, float, float, float]) -> None:
    left, bottom, width, height = rect
    board_h = min(height * 0.6, width * 0.36)
    board_b = bottom + (height - board_h) / 2
    _board(ops, left, board_b, width, board_h)
    step = (width - 20) / 16
    radius = min(step * 0.36, board_h / 10)
    rows = [board_b + board_h * f for f in (0.14, 0.38, 0.62, 0.86)]  # South outer, South inner, North inner, outer
    # At the start pits 0..23 hold two: each outer row, and the inner pits 16..23 at the owner's right end.
    counts = [[2] * 16, [0] * 8 + [2] * 8, [2] * 8 + [0] * 8, [2] * 16]
    counts[1][10] = 3
    counts[2][10], counts[3][10] = 4, 2
    for row, y in enumerate(rows):
        for i in range(16):
            x = left + 10 + step * (i + 0.5)
            ring = None
            if i == 10 and row == 1:
                ring = theme.ACCENTS[0]
            elif i == 10 and row >= 2:
                ring = CAPTURE
            _pit(ops, texts, x, y, radius, counts[row][i] if radius >= 9 else None, ring=ring)
    # South's private ring: the outer row left to right, up, the inner row right to left, down.
    gap = board_h * 0.12
    x0, x1 = left + 10 + step * 0.5, left + 10 + step * 15.5
    _arrow(ops, [(x0, rows[0] - gap * 0.9), (x1, rows[0] - gap * 0.9)])
    _arrow(ops, _curve((x1 + radius + 2, rows[0]), (x1 + radius + 2, rows[1]), -step * 0.5))
    _arrow(ops, [(x1, (rows[1] + rows[2]) / 2), (x0, (rows[1] + rows[2]) / 2)])
    _arrow(ops, _curve((x0 - radius - 2, rows[1]), (x0 - radius - 2, rows[0]), -step * 0.5))
    x = left + 10 + step * 10.5
    _arrow(ops, _curve((x + radius, rows[3]), (x + radius, rows[1] + radius), -step * 1.2), CAPTURE)
    _label(texts, "capture: both facing pits", x + step * 2.3, rows[3] + gap * 1.4, CAPTURE, theme.SMALL)
    _label(texts, "South sows round its own two rows only", left + width / 2, board_b - 28, theme.ACCENTS[0])
    _label(texts, "North", left + width * 0.25, board_b + board_h + 14, theme.ACCENTS[1], theme.SMALL)


def _cave(ops: list[Op], texts: list[arcade.Text], rect: tuple[float, float, float, float]) -> None:
    left, bottom, width, height = rect
    size = min(width * 0.8, height * 0.9)
    cell = size / 8
    x0, y0 = left + (width - size) / 2, bottom + (height - size) / 2
    ops.append(lambda: arcade.draw_lbwh_rectangle_filled(x0, y0, size, size, theme.CAVE))
    for wall_x in (x0 - 12, x0 + size):
        ops.append(partial(arcade.draw_lbwh_rectangle_filled, wall_x, y0, 12, size, theme.CAVE_WALL))
    for i in range(9):
        ops.append(partial(arcade.draw_line, x0 + i * cell, y0, x0 + i * cell, y0 + size, theme.PANEL_EDGE, 1))
        ops.append(partial(arcade.draw_line, x0, y0 + i * cell, x0 + size, y0 + i * cell, theme.PANEL_EDGE, 1))
    bricks = {(0, 0): 0, (1, 0): 1, (7, 0): 0, (0, 2): 1, (7, 3): 1, (6, 3): 0, (5, 3): 0, (0, 5): 0}
    for (column, row), colour in bricks.items():
        bx, by = x0 + column * cell, y0 + row * cell
        ops.append(partial(arcade.draw_lbwh_rectangle_filled, bx + 3, by + 3, cell - 6, cell - 6, theme.BRICKS[colour]))
        ops.append(partial(arcade.draw_lbwh_rectangle_outline,
                           bx + 3, by + 3, cell - 6, cell - 6, theme.ACCENTS[colour], 2))
    for row in range(8):
        filled = [column for (column, r) in bricks if r == row]
        ends = set()
        column = 0
        while column in filled:
            column += 1
        ends.add(column)
        column = 7
        while column in filled:
            column -= 1
        ends.add(column)
        for column in ends:
            cx, cy = x0 + (column + 0.5) * cell, y0 + (row + 0.5) * cell
            glow = theme.ACCENTS[0][:3] + (110,)
            ops.append(partial(arcade.draw_circle_filled, cx, cy, cell * 0.22, glow))
    for row in (1, 4):
        y = y0 + (row + 0.5) * cell
        _arrow(ops, [(x0 - 50, y), (x0 + cell * 0.25, y)], theme.CAVE_WALL, 3)
        _arrow(ops, [(x0 + size + 50, y), (x0 + size - cell * 0.25, y)], theme.CAVE_WALL, 3)
    _label(texts, "legal cells glow: each row fills inwards from both walls", left + width / 2, y0 - 18, ARROW)


def _solitaire(ops: list[Op], texts: list[arcade.Text], rect: tuple[float, float, float, float]) -> None:
    left, bottom, width, height = rect
    board_h = min(height * 0.5, width * 0.3)
    board_b = bottom + (height - board_h) / 2
    _board(ops, left, board_b, width, board_h)
    step = width / 8
    radius = min(step * 0.36, board_h * 0.17)
    top_y, low_y = board_b + board_h * 0.7, board_b + board_h * 0.3
    xs = [left + step * (i + 1.5) for i in range(6)]
    top = [5, 3, 4, 6, 2, 1]
    low = [4, 3, 5, 4, 6, 5]
    for i, x in enumerate(xs):
        _pit(ops, texts, x, top_y, radius, top[i], ring=CAPTURE if i == 5 else None)
        _pit(ops, texts, x, low_y, radius, low[i])
        _label(texts, f"{i + 1:02d}", x, top_y + radius + 10, theme.TEXT_DIM, theme.SMALL)
        _label(texts, f"{i + 7:02d}", x, low_y - radius - 10, theme.TEXT_DIM, theme.SMALL)
    store_w, store_h = step * 0.62, board_h * 0.8
    for x in (left + step * 0.55, left + width - step * 0.55):
        ops.append(partial(arcade.draw_lbwh_rectangle_filled, x - store_w / 2, board_b + (board_h - store_h) / 2,
                           store_w, store_h, theme.HOLLOW))
    gap = board_h * 0.5 + 24
    middle = board_b + board_h / 2
    _arrow(ops, [(xs[0], middle + gap), (xs[-1], middle + gap)])
    _label(texts, "clockwise", left + width / 2, middle + gap + 16, ARROW, theme.SMALL)
    # Anti-clockwise runs the other way along the top row (and left to right along the bottom one).
    _arrow(ops, [(xs[-1], middle + gap + 40), (xs[0], middle + gap + 40)], theme.ACCENTS[1])
    _label(texts, "anti-clockwise", left + width / 2, middle + gap + 56, theme.ACCENTS[1], theme.SMALL)
    _arrow(ops, [(xs[0], middle - gap), (xs[-1], middle - gap)], theme.ACCENTS[1])
    store_x = left + width - step * 0.55
    _arrow(ops, _curve((xs[5] + radius, top_y), (store_x, middle + store_h * 0.2), -step * 0.4), CAPTURE)
    _label(texts, "one stone left: store it", store_x - step * 0.4, board_b + board_h + 14, CAPTURE, theme.SMALL)


class Illustration:
    """The drawing of one page, built for a rectangle and then drawn each frame."""

    def __init__(self, diagram: str, rect: tuple[float, float, float, float]) -> None:
        self.ops: list[Op] = []
        self.texts: list[arcade.Text] = []
        if diagram in ("sowing", "oware"):
            _two_rows(self.ops, self.texts, rect, kalah=diagram == "sowing")
        elif diagram == "hus":
            _hus(self.ops, self.texts, rect)
        elif diagram == "cave":
            _cave(self.ops, self.texts, rect)
        else:
            _solitaire(self.ops, self.texts, rect)

    def draw(self) -> None:
        for op in self.ops:
            op()
        for text in self.texts:
            text.draw()
