"""Static scenery as one mesh of vertex-coloured triangles: the board, the pit hollows, the cave, the panels.

Why not textures: on a software renderer (Mesa's llvmpipe, which CI and headless machines use) every textured
pixel costs about three times a plain one, and a frame is bounded by the pixels it fills.  Gradients come for
free from colours interpolated between vertices (a pit hollow is a fan, dark at its centre, lighter at its
rim), so the wooden board, fourteen hollows and their badges are one draw call filling each pixel about once.

``Mesh`` collects triangles; ``Mesh.build()`` gives an ``arcade.shape_list.ShapeElementList`` to keep and draw
every frame until the geometry changes (a resize).  Colours are RGBA tuples.
"""
from __future__ import annotations

import math
import random
from typing import Callable, Sequence

import arcade
from pyglet import gl
from pyglet.math import Mat4
from arcade.gl import Framebuffer
from arcade.gl.backends.opengl.framebuffer import OpenGLFramebuffer
from arcade.shape_list import ShapeElementList, create_triangles_filled_with_colors

Colour = tuple[int, int, int, int]
Point = tuple[float, float]


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]


def with_alpha(colour: Sequence[int], alpha: int) -> Colour:
    return int(colour[0]), int(colour[1]), int(colour[2]), alpha


class Mesh:
    """Triangles with a colour per vertex, drawn in the order they were added."""

    def __init__(self) -> None:
        self.points: list[Point] = []
        self.colours: list[Colour] = []

    def __len__(self) -> int:
        return len(self.points) // 3

    def triangle(self, a: Point, b: Point, c: Point, ca: Colour, cb: Colour | None = None,
                 cc: Colour | None = None) -> None:
        self.points += (a, b, c)
        self.colours += (ca, cb or ca, cc or ca)

    def quad(self, a: Point, b: Point, c: Point, d: Point, ca: Colour, cb: Colour | None = None,
             cc: Colour | None = None, cd: Colour | None = None) -> None:
        """The quadrilateral a-b-c-d (corners in order round it)."""
        cb, cc, cd = cb or ca, cc or ca, cd or ca
        self.triangle(a, b, c, ca, cb, cc)
        self.triangle(a, c, d, ca, cc, cd)

    def rectangle(self, left: float, bottom: float, width: float, height: float, colour: Colour,
                  top_colour: Colour | None = None) -> None:
        """An upright rectangle, optionally shaded from ``colour`` at the bottom to ``top_colour`` at the top."""
        top = top_colour or colour
        right, up = left + width, bottom + height
        self.quad((left, bottom), (right, bottom), (right, up), (left, up), colour, colour, top, top)

    def rounded_rectangle(self, left: float, bottom: float, width: float, height: float, radius: float,
                          colour: Colour, segments: int = 8) -> None:
        """A filled rectangle with round corners: three rectangles and four small corner fans.

        (No long thin triangles: a software renderer pays for every screen tile a triangle touches.)
        """
        r = max(0.0, min(radius, width / 2, height / 2))
        self.rectangle(left + r, bottom, width - 2 * r, height, colour)
        self.rectangle(left, bottom + r, r, height - 2 * r, colour)
        self.rectangle(left + width - r, bottom + r, r, height - 2 * r, colour)
        for cx, cy, start in ((left + width - r, bottom + r, -90), (left + width - r, bottom + height - r, 0),
                              (left + r, bottom + height - r, 90), (left + r, bottom + r, 180)):
            arc = [(cx + r * math.cos(math.radians(start + 90 * step / segments)),
                    cy + r * math.sin(math.radians(start + 90 * step / segments))) for step in range(segments + 1)]
            for a, b in zip(arc, arc[1:]):
                self.triangle((cx, cy), a, b, colour)

    def rounded_frame(self, left: float, bottom: float, width: float, height: float, radius: float,
                      thickness: float, colour: Colour, segments: int = 8) -> None:
        """The band ``thickness`` wide inside the edge of a round-cornered rectangle (fill the inside with
        ``rounded_rectangle`` inset by ``thickness``, radius less ``thickness``: no pixel is drawn twice)."""
        r = max(thickness, min(radius, width / 2, height / 2))
        t = thickness
        self.rectangle(left + r, bottom, width - 2 * r, t, colour)
        self.rectangle(left + r, bottom + height - t, width - 2 * r, t, colour)
        self.rectangle(left, bottom + r, t, height - 2 * r, colour)
        self.rectangle(left + width - t, bottom + r, t, height - 2 * r, colour)
        for cx, cy, start in ((left + width - r, bottom + r, -90), (left + width - r, bottom + height - r, 0),
                              (left + r, bottom + height - r, 90), (left + r, bottom + r, 180)):
            for step in range(segments):
                a1 = math.radians(start + 90 * step / segments)
                a2 = math.radians(start + 90 * (step + 1) / segments)
                self.quad((cx + (r - t) * math.cos(a1), cy + (r - t) * math.sin(a1)),
                          (cx + r * math.cos(a1), cy + r * math.sin(a1)),
                          (cx + r * math.cos(a2), cy + r * math.sin(a2)),
                          (cx + (r - t) * math.cos(a2), cy + (r - t) * math.sin(a2)), colour)

    def fan(self, centre: Point, outline: Sequence[Point], centre_colour: Colour, edge_colour: Colour) -> None:
        """A convex shape as a fan of triangles from ``centre`` round the closed ``outline``."""
        for index, point in enumerate(outline):
            following = outline[(index + 1) % len(outline)]
            self.triangle(centre, point, following, centre_colour, edge_colour, edge_colour)

    def ellipse(self, x: float, y: float, half_width: float, half_height: float, colours: Sequence[Colour],
                stops: Sequence[float] | None = None, segments: int = 28) -> None:
        """A filled ellipse shaded in rings: ``colours[0]`` at the centre ... ``colours[-1]`` at the edge.

        ``stops`` are the rings' fractions of the radius (evenly spaced when omitted).
        """
        if stops is None:
            stops = [index / (len(colours) - 1) for index in range(len(colours))]
        angles = [math.tau * index / segments for index in range(segments)]
        unit = [(math.cos(angle), math.sin(angle)) for angle in angles]
        first = [(x + half_width * stops[1] * c, y + half_height * stops[1] * s) for c, s in unit]
        self.fan((x, y), first, colours[0], colours[1])
        for ring in range(1, len(colours) - 1):
            inner_r, outer_r = stops[ring], stops[ring + 1]
            for index, (c, s) in enumerate(unit):
                c2, s2 = unit[(index + 1) % segments]
                self.quad((x + half_width * inner_r * c, y + half_height * inner_r * s),
                          (x + half_width * outer_r * c, y + half_height * outer_r * s),
                          (x + half_width * outer_r * c2, y + half_height * outer_r * s2),
                          (x + half_width * inner_r * c2, y + half_height * inner_r * s2),
                          colours[ring], colours[ring + 1], colours[ring + 1], colours[ring])

    def ring(self, x: float, y: float, half_width: float, half_height: float, thickness: float, colour: Colour,
             segments: int = 28, outer_colour: Colour | None = None) -> None:
        """An elliptical band ``thickness`` wide, inside the ellipse's edge."""
        outer = outer_colour or colour
        for index in range(segments):
            a1, a2 = math.tau * index / segments, math.tau * (index + 1) / segments
            points: list[Point] = []
            for angle, scale in ((a1, 0.0), (a1, 1.0), (a2, 1.0), (a2, 0.0)):
                hw, hh = half_width - thickness * (1 - scale), half_height - thickness * (1 - scale)
                points.append((x + hw * math.cos(angle), y + hh * math.sin(angle)))
            a, b, c, d = points
            self.quad(a, b, c, d, colour, outer, outer, colour)

    def polyline(self, points: Sequence[Point], width: float, colour: Colour) -> None:
        """A line through ``points``, ``width`` thick (one quad per segment)."""
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            dx, dy = x2 - x1, y2 - y1
            length = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / length * width / 2, dx / length * width / 2
            self.quad((x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny), colour)

    def frame(self, left: float, bottom: float, width: float, height: float, thickness: float,
              colour: Colour) -> None:
        """The outline of an upright rectangle, ``thickness`` wide, inside its edge."""
        t = thickness
        self.rectangle(left, bottom, width, t, colour)
        self.rectangle(left, bottom + height - t, width, t, colour)
        self.rectangle(left, bottom + t, t, height - 2 * t, colour)
        self.rectangle(left + width - t, bottom + t, t, height - 2 * t, colour)

    def build(self) -> ShapeElementList:
        """The triangles as a shape list: one draw call."""
        shapes: ShapeElementList = ShapeElementList()
        if self.points:
            shapes.append(create_triangles_filled_with_colors(self.points, self.colours))
        return shapes


def wood_grain(mesh: Mesh, left: float, bottom: float, width: float, height: float, dark: Colour, light: Colour,
               seed: int = 7) -> None:
    """Faint wavy grain lines across a board (the same lines for the same seed and size)."""
    rng = random.Random(seed)
    lines = max(4, int(height / 16))
    step = max(8.0, width / 24)
    for _ in range(lines):
        y = rng.uniform(bottom + 4, bottom + height - 4)
        amplitude = rng.uniform(0.5, 3.0) * height / 300
        phase = rng.uniform(0, math.tau)
        wavelength = rng.uniform(60, 160) * width / 1000
        colour = rng.choice((dark, light))
        thickness = rng.choice((1.0, 1.6))
        points = []
        x = left
        while x <= left + width:
            points.append((x, y + amplitude * math.sin((x - left) / wavelength + phase)))
            x += step
        mesh.polyline(points, thickness, colour)



class Picture:
    """Opaque static scenery drawn once into an offscreen image and copied onto the window every frame.

    On llvmpipe a copy of finished pixels (``glBlitFramebuffer`` of the same size, no scaling) is a memory copy,
    several times cheaper than rasterising the layered, blended triangles again.  The picture covers the
    window rectangle ``rect`` (left, bottom, width, height), is painted over ``background`` and then ``draw()``
    (which draws in window coordinates); it is exact pixel for pixel because its corners sit on whole pixels.
    """

    def __init__(self, window: arcade.Window, rect: tuple[float, float, float, float], background: Sequence[int],
                 draw: Callable[[], None]) -> None:
        self.ratio = window.get_pixel_ratio()
        left, bottom, width, height = rect
        x0, y0 = math.floor(left * self.ratio), math.floor(bottom * self.ratio)
        x1, y1 = math.ceil((left + width) * self.ratio), math.ceil((bottom + height) * self.ratio)
        self.pixels = (x0, y0, max(1, x1 - x0), max(1, y1 - y0))
        ctx = window.ctx
        self.framebuffer = ctx.framebuffer(color_attachments=[ctx.texture(self.pixels[2:], components=4)])
        saved_projection, saved_view = ctx.projection_matrix, ctx.view_matrix
        with self.framebuffer.activate():
            self.framebuffer.clear(color=(background[0], background[1], background[2], 255))
            ctx.view_matrix = Mat4()
            ctx.projection_matrix = Mat4.orthogonal_projection(
                x0 / self.ratio, x1 / self.ratio, y0 / self.ratio, y1 / self.ratio, -100, 100)
            with ctx.enabled(ctx.BLEND):
                draw()
        ctx.projection_matrix, ctx.view_matrix = saved_projection, saved_view

    def draw(self, ctx: arcade.ArcadeContext) -> None:
        """Copy the picture onto the framebuffer being drawn (the window)."""
        target = ctx.active_framebuffer
        x, y, w, h = self.pixels
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, _gl_name(self.framebuffer))
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, _gl_name(target))
        gl.glBlitFramebuffer(0, 0, w, h, x, y, x + w, y + h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, _gl_name(target))


def _gl_name(framebuffer: Framebuffer) -> gl.GLuint:
    """A framebuffer's OpenGL name, for the raw GL blit above (only arcade's OpenGL backend has one)."""
    if not isinstance(framebuffer, OpenGLFramebuffer):
        raise TypeError(f"copying a picture needs arcade's OpenGL backend, not {type(framebuffer).__name__}")
    return framebuffer.glo
