"""Procedural textures: glossy glass stones, pit hollows, store wells and the wooden board.

Drawn once with Pillow and cached, so a frame is a few sprite-list draws rather than hundreds of shapes.
Everything is derived from the palette in ``game.theme``; no image files are needed.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

import arcade
from PIL import Image, ImageDraw, ImageFilter

from game import theme

STONE_PIXELS = 48


def _radial(size: tuple[int, int], inner: tuple[int, ...], outer: tuple[int, ...], power: float = 1.0) -> Image.Image:
    """An ellipse filled with a radial gradient from ``inner`` (centre) to ``outer`` (edge), transparent outside."""
    width, height = size
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    pixels = image.load()
    if pixels is None:  # Pillow types load() as optional; a new in-memory image always has its pixels
        raise RuntimeError("Pillow gave no pixel access to a new image")
    cx, cy = (width - 1) / 2, (height - 1) / 2
    for y in range(height):
        for x in range(width):
            d = math.hypot((x - cx) / (width / 2), (y - cy) / (height / 2))
            if d <= 1.0:
                t = d ** power
                pixels[x, y] = tuple(int(a + (b - a) * t) for a, b in zip(inner, outer))
    return image


@lru_cache(maxsize=None)
def stone(colour_index: int) -> arcade.Texture:
    """A glass pebble: the colour with a darker rim, a soft inner glow and a small white highlight."""
    base = theme.STONE_COLOURS[colour_index % len(theme.STONE_COLOURS)]
    light = tuple(min(255, int(c * 1.25 + 20)) for c in base[:3]) + (255,)
    dark = tuple(int(c * 0.55) for c in base[:3]) + (255,)
    image = _radial((STONE_PIXELS, STONE_PIXELS), light, dark, power=1.6)
    highlight = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(highlight)
    s = STONE_PIXELS
    draw.ellipse((s * 0.22, s * 0.16, s * 0.48, s * 0.36), fill=(255, 255, 255, 170))
    highlight = highlight.filter(ImageFilter.GaussianBlur(s / 24))
    image = Image.alpha_composite(image, highlight)
    return arcade.Texture(image, hash=f"stonecave-stone-{colour_index}")


@lru_cache(maxsize=None)
def shadow() -> arcade.Texture:
    """A soft round shadow drawn under stones in flight."""
    image = _radial((STONE_PIXELS, STONE_PIXELS), (0, 0, 0, 110), (0, 0, 0, 0), power=1.2)
    return arcade.Texture(image, hash="stonecave-shadow")


@lru_cache(maxsize=None)
def hollow(width: int, height: int) -> arcade.Texture:
    """A pit or store well: a dark hollow, deepest at its centre, with a lit lower lip."""
    inner = tuple(int(c * 0.7) for c in theme.HOLLOW[:3]) + (255,)
    image = _radial((width, height), inner, theme.HOLLOW, power=0.8)
    lip = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(lip)
    draw.ellipse((1, 1, width - 2, height - 2), outline=theme.WOOD_RIM[:3] + (200,), width=max(2, width // 30))
    lip = lip.filter(ImageFilter.GaussianBlur(1))
    return arcade.Texture(Image.alpha_composite(image, lip), hash=f"stonecave-hollow-{width}x{height}")


@lru_cache(maxsize=None)
def glow(width: int, height: int, colour: tuple[int, int, int, int]) -> arcade.Texture:
    """A ring of light for highlighting a pit: a bright core in ``colour`` over a soft dark halo, so that it stands
    out on the light wood as well as in the dark hollow (a light colour alone melts into the wood)."""
    image = Image.new("RGBA", (width + 24, height + 24), (0, 0, 0, 0))
    # Each layer starts from its own colour at zero opacity, so blurring softens only the opacity: a fringe
    # blurred from transparent black would darken the wood into a pit's brown.
    halo = Image.new("RGBA", image.size, theme.HIGHLIGHT_HALO[:3] + (0,))
    ImageDraw.Draw(halo).ellipse((7, 7, width + 16, height + 16), outline=theme.HIGHLIGHT_HALO, width=11)
    image = Image.alpha_composite(image, halo.filter(ImageFilter.GaussianBlur(3)))
    core = Image.new("RGBA", image.size, colour[:3] + (0,))
    ImageDraw.Draw(core).ellipse((10, 10, width + 13, height + 13), outline=colour[:3] + (colour[3],), width=5)
    image = Image.alpha_composite(image, core.filter(ImageFilter.GaussianBlur(1.2)))
    return arcade.Texture(image, hash=f"stonecave-glow-{width}x{height}-{colour}")


@lru_cache(maxsize=4)
def board(width: int, height: int) -> arcade.Texture:
    """The wooden board: a rounded slab with faint grain and a lighter rim (drawn at a fixed size, scaled)."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = height // 5
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=theme.WOOD_RIM)
    draw.rounded_rectangle((6, 6, width - 7, height - 7), radius=radius - 5, fill=theme.WOOD)
    grain = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    grain_draw = ImageDraw.Draw(grain)
    rng = random.Random(7)
    for _ in range(height // 3):
        y = rng.uniform(8, height - 8)
        amplitude = rng.uniform(1, 5)
        phase = rng.uniform(0, math.tau)
        shade = rng.choice((theme.WOOD_DARK[:3] + (50,), theme.WOOD_RIM[:3] + (40,)))
        points = [(x, y + amplitude * math.sin(x / rng.uniform(60, 160) + phase)) for x in range(8, width - 8, 8)]
        grain_draw.line(points, fill=shade, width=rng.choice((1, 2)))
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((6, 6, width - 7, height - 7), radius=radius - 5, fill=255)
    image.paste(Image.alpha_composite(image, grain), (0, 0), mask)
    return arcade.Texture(image, hash=f"stonecave-board-{width}x{height}")
