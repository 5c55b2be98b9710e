"""Symmetries of a game's rules, so the analysis values moves to positions that are mirror images once, and
names them equal (``GameSupport.symmetry`` names a game's ``canonical`` key function, ``module:function``).

Magnetic Cave's rules are symmetric under mirroring the columns (the two walls are alike) and the rows (the rows
are independent, and a five counts in every direction): its four mirror images of a position have the same value.
"""
from __future__ import annotations

from typing import Any, Hashable

_REVERSED = tuple(int(f"{byte:08b}"[::-1], 2) for byte in range(256))
"""Each byte with its 8 bits in reverse order (a row's columns mirrored: bit ``c`` to ``7 - c``)."""


def mirror_columns(bits: int) -> int:
    """A cave bitboard (cell ``row * 8 + column``) with every row's columns mirrored (A <-> H)."""
    return int.from_bytes(bytes(_REVERSED[byte] for byte in bits.to_bytes(8, "little")), "little")


def mirror_rows(bits: int) -> int:
    """A cave bitboard with its rows in reverse order (1 <-> 8)."""
    return int.from_bytes(bits.to_bytes(8, "little"), "big")


def cave_key(state: Any) -> Hashable:
    """The same key for a cave position and its mirror images: the least of their two bitboards (which fix the
    side to move and the winner)."""
    black, white = state.black, state.white
    images = [(black, white), (mirror_columns(black), mirror_columns(white))]
    images += [(mirror_rows(b), mirror_rows(w)) for b, w in images]
    return min(images)
