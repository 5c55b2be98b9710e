"""A transposition table of bounded size for the adversary searches.

Entries live in a plain dict keyed by the kernel's position key (a packed int or a rules state), so the hot
loop reads ``table.entries.get(key)`` with no method call.  The Python search stores tuples
``(depth, flag, value, move, resolved)`` (the compiled core keeps its own table in C memory).

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
