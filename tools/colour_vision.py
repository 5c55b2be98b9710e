"""How StoneCave's colours look to players with red-green colour blindness, and how far apart they stay.

Simulates protanopia, deuteranopia and tritanopia with the matrices of Machado, Oliveira and Fernandes, "A
Physiologically-based Model for Simulation of Color Vision Deficiency" (IEEE TVCG 15(6), 2009), at severity 1.0,
applied to linear RGB; and measures colour differences as CIEDE2000 (Sharma, Wu and Dalal's formulation).

    python tools/colour_vision.py SCREENSHOT.png [--out FOLDER]

writes SCREENSHOT-protanopia.png, -deuteranopia.png, -tritanopia.png and a side-by-side -sheet.png, so a
screen can be checked by eye.  ``tests/game/test_colour_vision.py`` uses the same functions on the theme's
pairs of colours that must be told apart.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Sequence

RGB = tuple[float, float, float]

MACHADO: dict[str, tuple[RGB, RGB, RGB]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
"""Machado et al. 2009, severity 1.0: linear RGB in, linear RGB out."""
VISIONS = ("normal", *MACHADO)


def to_linear(channel: float) -> float:
    """An sRGB channel (0-255) as linear light (0-1)."""
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(value: float) -> float:
    """Linear light (0-1) as an sRGB channel (0-255), clipped to the gamut."""
    v = min(1.0, max(0.0, value))
    return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def simulate(rgb: Sequence[float], vision: str) -> RGB:
    """``rgb`` (0-255) as seen with ``vision`` ("normal" or a key of ``MACHADO``)."""
    if vision == "normal":
        return float(rgb[0]), float(rgb[1]), float(rgb[2])
    linear = [to_linear(c) for c in rgb[:3]]
    red, green, blue = (to_srgb(sum(m * c for m, c in zip(row, linear))) for row in MACHADO[vision])
    return red, green, blue


def over(colour: Sequence[float], alpha: float, ground: Sequence[float]) -> RGB:
    """``colour`` laid at opacity ``alpha`` over ``ground`` (as the GPU blends, in sRGB values)."""
    return tuple(alpha * c + (1 - alpha) * g for c, g in zip(colour[:3], ground[:3]))  # type: ignore[return-value]


def lab(rgb: Sequence[float]) -> RGB:
    """CIELAB (D65) of an sRGB colour (0-255)."""
    r, g, b = (to_linear(c) for c in rgb[:3])
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(first: Sequence[float], second: Sequence[float]) -> float:
    """CIEDE2000 difference between two sRGB colours (0-255): about 2 is just noticeable, 10+ is plain."""
    return ciede2000(lab(first), lab(second))


def ciede2000(first: Sequence[float], second: Sequence[float]) -> float:
    """CIEDE2000 difference between two CIELAB colours."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_mean = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = (-2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2 + rt * (dc / sc) * (dH / sh))


def seen_difference(first: Sequence[float], second: Sequence[float], vision: str) -> float:
    """CIEDE2000 between two colours as a player with ``vision`` sees them."""
    return delta_e(simulate(first, vision), simulate(second, vision))


def simulate_image(image, vision: str):  # type: ignore[no-untyped-def]
    """A PIL image as seen with ``vision`` (alpha kept)."""
    import numpy
    from PIL import Image

    rgba = numpy.asarray(image.convert("RGBA")).astype(float)
    c = rgba[..., :3] / 255
    linear = numpy.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    seen = numpy.clip(linear @ numpy.array(MACHADO[vision]).T, 0, 1)
    srgb = numpy.where(seen <= 0.0031308, 12.92 * seen, 1.055 * seen ** (1 / 2.4) - 0.055)
    out = numpy.concatenate([srgb * 255, rgba[..., 3:]], axis=-1)
    return Image.fromarray(numpy.round(out).astype("uint8"))


def main(argv: list[str] | None = None) -> int:
    from PIL import Image

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("screenshot", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, help="folder for the results (default: beside each screenshot)")
    args = parser.parse_args(argv)
    for path in args.screenshot:
        image = Image.open(path).convert("RGBA")
        folder = args.out or path.parent
        folder.mkdir(parents=True, exist_ok=True)
        views = [image] + [simulate_image(image, vision) for vision in MACHADO]
        for vision, view in zip(MACHADO, views[1:]):
            view.save(folder / f"{path.stem}-{vision}.png")
        sheet = Image.new("RGBA", (image.width * 2, image.height * 2))
        for index, view in enumerate(views):
            sheet.paste(view, ((index % 2) * image.width, (index // 2) * image.height))
        sheet.save(folder / f"{path.stem}-sheet.png")
        print(f"{folder / (path.stem + '-sheet.png')}  (normal, {', '.join(MACHADO)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
