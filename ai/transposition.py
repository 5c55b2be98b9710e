"""A transposition table of bounded size for the adversary searches.

Entries live in a plain dict keyed by the kernel's position key (a packed int or a rules state), so the hot
loop reads ``table.entries.get(key)`` with no method call.  The generic search stores tuples
``(depth, flag, value, move, resolved)``; the packed searches (``ai.fast.kalah``, ``ai.fast.oware``) store
the same five fields packed into one int (``pack_entry``): an int entry under an int key allocates nothing
the garbage collector tracks, so a table of millions of entries costs no collection pauses and about a third
of the memory.

- ``flag`` says what ``value`` is: ``EXACT``, a ``LOWER`` bound (the search failed high) or an ``UPPER``
  bound (it failed low).
- ``resolved`` is True when every line below the entry ended in a finished game before the depth limit:
  such a value is the true game value (within its bound) and holds for any greater depth.
- ``move`` is the best move found, tried first the next time the position is searched.

Size is bounded by a number of entries (about 150 to 250 bytes each in CPython).  When the table is full,
existing entries are still updated but new positions are not added; ``new_search`` empties a table that is
full before a search starts, so a long game never plays with a table frozen on old positions.
"""
from __future__ import annotations

from typing import Any, Hashable

EXACT, LOWER, UPPER = 0, 1, 2

NO_MOVE = 31
"""The move field of a packed entry that has no move (moves are small ints 0..30)."""


def pack_entry(depth: int, flag: int, value: int, move: int, resolved: bool) -> int:
    """Five fields in one int: ``value << 16 | depth << 8 | resolved << 7 | flag << 5 | move``.

    ``value`` is a (scaled) integer score and may be negative: ``entry >> 16`` gives it back, since the low
    16 bits never borrow from it.  ``depth`` is 0..255, ``move`` 0..30 or ``NO_MOVE``.
    """
    return (value << 16) | (depth << 8) | (128 if resolved else 0) | (flag << 5) | move


def unpack_entry(entry: int) -> tuple[int, int, int, int, bool]:
    """(depth, flag, value, move, resolved) of a packed entry (``move`` is ``NO_MOVE`` when none)."""
    return (entry >> 8) & 255, (entry >> 5) & 3, entry >> 16, entry & 31, bool(entry & 128)

BYTES_PER_ENTRY = 200
"""A rough CPython figure (dict slot, key, entry tuple), for turning a memory budget into entries."""


class TranspositionTable:
    """A bounded dict of search results keyed by position."""

    __slots__ = ("entries", "capacity")

    def __init__(self, capacity: int = 1_000_000) -> None:
        if capacity < 0:
            raise ValueError(f"a transposition table holds 0 or more entries, not {capacity}")
        self.entries: dict[Hashable, tuple] = {}
        self.capacity = capacity

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def is_full(self) -> bool:
        return len(self.entries) >= self.capacity

    def new_search(self) -> None:
        """Called before each search: a full table is emptied (old positions are mostly unreachable)."""
        if self.is_full:
            self.entries.clear()

    def clear(self) -> None:
        self.entries.clear()

    def store(self, key: Hashable, depth: int, flag: int, value: float, move: Any, resolved: bool) -> None:
        """Record a result (the searches inline this; it documents the rule they follow)."""
        entries = self.entries
        if key in entries or len(entries) < self.capacity:
            entries[key] = (depth, flag, value, move, resolved)

    def probe(self, key: Hashable) -> tuple | None:
        return self.entries.get(key)

    @staticmethod
    def capacity_for_megabytes(megabytes: float) -> int:
        return int(megabytes * 1_000_000 / BYTES_PER_ENTRY)
