"""What differs between the games that have endgame tables, one description per game (``TABLE_GAMES``).

A ``TableGame`` holds everything the files, the builder and the look-up need to know of a game: its files'
names, the words that describe a variant, the compiled tables object and layer builder, the build rate the
estimate uses, how a rules object maps to a variant, the most seeds its boards hold, and its value rule (a
position's exact margin from the stores and the table's entry).  Adding a game's tables
is adding one entry here (and its compiled ``*_tables.pxi``); nothing else in ``ai.tables`` names a game.

A ``Variant`` is one game variant's tables: ``game`` (the entry's name), ``pits`` and ``rule`` (the code stored
in each file's header).  Kalah: ``rule`` 1 is the empty capture.  Oware: ``rule`` is the grand slam rule
(0 no-capture, 1 capture, 2 forbidden) plus 4 when sowing does not skip the starting house.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import ai.core as core
from ai.tables import solvers

OWARE_SLAM_NAMES = {"no-capture": "abapa", "capture": "slamcaptures", "forbidden": "slamforbidden"}
"""Oware's grand slam rule in a file name (the default rule, abapa's, names the variant)."""

KALAH_BUILD_RATE = 5_000_000
"""Kalah entries solved per second on one core (measured on 2 cores: 6 pits, 0..18 seeds' 86.5 M entries in 8 s,
0..20's 222 M in 22 s, the moves played first and their entries prefetched); for the estimate only."""
OWARE_BUILD_RATES = ((14, 800_000), (16, 500_000), (60, 250_000))
"""Oware boards solved per second on one core, passes included, for layers up to each seed count (measured on
the loaded 2-core VM: 0..14 in 11.9 s on one core; 16 seeds 0.49 M/s and 18..20 0.3-0.5 M/s on two); for the
estimate only."""


def compiled() -> Any:
    """The compiled core (the tables are built and read by it); RuntimeError saying why when it is missing."""
    module = core.module()
    if module is None:
        raise RuntimeError(f"endgame tables need the compiled core: {core.status().why}")
    return module


def rule_name(empty_capture: bool) -> str:
    return "emptycapture" if empty_capture else "standard"


@dataclass(frozen=True)
class TableGame:
    """One game's tables: every way its variants differ, as functions of (pits, rule)."""

    name: str
    stem: Callable[[int, int], str]
    """The files' common name, e.g. ``kalah-p6-emptycapture`` or ``oware-abapa``."""
    describe: Callable[[int, int], str]
    """The variant in words, as the commands print it."""
    cache_key: Callable[[int, int], tuple[Any, Any]]
    """The key of the variant's loaded tables (after the folder) in ``ai.tables``' cache."""
    layer_size: Callable[[int, int], int]
    """(pits, seeds) -> entries of a layer; ValueError past the largest layer the core holds."""
    new_tables: Callable[[int, int], Any]
    """(pits, rule) -> an empty compiled tables object (``add_layer``, ``lookup``, ``top``)."""
    build_layer: solvers.LayerBuilder
    """Solves one layer into a buffer: (tables, layer, out, size, threads, progress) -> (passes, evaluated)."""
    fill: int
    """The byte a layer's buffer starts filled with (Kalah: 0x80, "unknown"; Oware: 0, value iteration's start)."""
    build_rate: Callable[[int], float]
    """Entries of the layer of ``seeds`` solved per second on one core (for the estimate)."""
    variant_of: Callable[[Any], "Variant"]
    """The variant of a rules object of this game."""
    board_seeds: Callable[[Any], int]
    """The seeds a rules object's board holds in all (the most any layer of its game can need)."""
    is_rule: Callable[[int, int], bool]
    """Whether a header's (pits, rule) names a variant of this game (for a readable message)."""
    value: Callable[[Any, Any, Any], "int | None"]
    """(rules, tables, state) -> the exact final margin for the side to move from the tables, or None."""
    grown_bytes: int = 0
    """The bigger set the first use goes on to build once the first-use set is done, in the same background
    thread on one core: every layer up to the largest seed count whose layers take at most this many bytes (0: no
    second stage).  The engines play with the first-use set meanwhile, and with the bigger one from the search after
    it is done."""
    grown_steps: tuple[int, ...] = ()
    """Smaller budgets (bytes) whose sets the first use builds on its way to ``grown_bytes``'s, each a stage of its
    own: the engines play with each as soon as it is done, rather than waiting for the biggest."""


@dataclass(frozen=True)
class Variant:
    """One game variant's tables (see the module's docstring); every difference is its ``kind``'s."""

    game: str
    pits: int
    rule: int

    @property
    def kind(self) -> TableGame:
        return TABLE_GAMES[self.game]

    @property
    def stem(self) -> str:
        return self.kind.stem(self.pits, self.rule)

    @property
    def describe(self) -> str:
        return self.kind.describe(self.pits, self.rule)

    @property
    def cache_key(self) -> tuple[Any, Any]:
        return self.kind.cache_key(self.pits, self.rule)

    def layer_size(self, seeds: int) -> int:
        return int(self.kind.layer_size(self.pits, seeds))

    def new_tables(self) -> Any:
        return self.kind.new_tables(self.pits, self.rule)

    def build_rate(self, seeds: int) -> float:
        return self.kind.build_rate(seeds)


def kalah_variant(pits: int, empty_capture: bool) -> Variant:
    return Variant("kalah", pits, int(bool(empty_capture)))


def oware_variant(grand_slam: str = "no-capture", skip_start: bool = True) -> Variant:
    """The Oware tables of a grand slam rule and sowing rule (the parameters of ``rules.oware.Oware`` that
    change the board's play; the others, the repetition and no-capture rules, are applied by the search)."""
    if grand_slam not in OWARE_SLAM_NAMES:
        raise ValueError(f"Oware tables know the grand slam rules {', '.join(OWARE_SLAM_NAMES)}, not {grand_slam!r}")
    return Variant("oware", 6, tuple(OWARE_SLAM_NAMES).index(grand_slam) + (0 if skip_start else 4))


def variant_of(game: Any) -> Variant | None:
    """The tables' variant of a rules object (a game with tables), or None for a game without them."""
    kind = TABLE_GAMES.get(getattr(game, "name", None))  # type: ignore[arg-type]
    return None if kind is None else kind.variant_of(game)


def describe_header(game: bytes, pits: int, rule: int) -> str:
    """The variant a layer's header names, in words (a readable message for a file of another variant)."""
    name = game.rstrip(b"\0").decode("ascii", "replace")
    kind = TABLE_GAMES.get(name)
    if kind is not None and kind.is_rule(pits, rule):
        return kind.describe(pits, rule)
    return f"{name} pits={pits} rule={rule}"


def two_row_value(game: Any, tables: Any, state: Any) -> int | None:
    """The value rule of the two-row sowing games (Kalah, Oware): the stores' difference plus the table's margin
    of the seeds still on the board, seen from the side to move (its own row first); None when the game is
    over, the tables do not hold the board, or the tables have no ``lookup``."""
    lookup = getattr(tables, "lookup", None)
    pits = getattr(state, "pits", None)
    stores = getattr(state, "stores", None)
    if lookup is None or pits is None or stores is None or game.is_terminal(state):
        return None
    top = getattr(tables, "top", None)
    if isinstance(top, int) and sum(pits) > top:
        return None
    half = len(pits) // 2
    mover = game.to_move(state)
    own, other = (pits[:half], pits[half:]) if mover == 0 else (pits[half:], pits[:half])
    try:
        rest = lookup(tuple(own), tuple(other))
    except (ValueError, IndexError, TypeError, KeyError):  # tables that do not hold this board after all
        return None
    if rest is None:
        return None
    return int(stores[mover] - stores[1 - mover] + rest)


def _oware_slam(rule: int) -> str:
    return tuple(OWARE_SLAM_NAMES)[rule & 3]


def _oware_tables(pits: int, rule: int) -> Any:
    slam = rule & 3
    return compiled().OwareTables(slam == 1, slam == 2, rule < 4)


GROWN_BYTES = 250_000_000
"""The second stage of Kalah's (6 pits) and Oware's first use: layers 0..20, 225.8 MB, built after the first-use
set on one core (layers 15..20 on one thread beside other work: Kalah 45 s, Oware 516 s).  Each accepted by SPRT
against the first-use set (0..14), the same search at 0.05 s a move from 100 balanced openings with both colours
(``pvs:table_seeds=14``): Oware 64.3% (+103 Elo, H1 after 136 games; at 0.25 s a move +99, H1 after 108), Kalah
54.9% (+34 Elo, H1 after 144 games); BENCHMARKS.md, "Endgame tables in play"."""

OWARE_GROWN_BYTES = 600_000_000
"""Oware's first use goes on past 0..20 to layers 0..22, 548.4 MB (layers 21 and 22 took 768 s on one thread at
nice 19, as the first use builds them, beside other work: 13 minutes more after 0..20's 9).  Accepted by SPRT
against 0..20, the same search from 100 balanced openings with both colours (``pvs:table_seeds=20``): at 0.05 s a
move 59.4% (+66 Elo, H1 after 122 games), at 0.25 s 61.5% (+82 Elo, H1 after 130); BENCHMARKS.md, "Endgame tables
in play".  Kalah stays at 0..20: its 0..22 set was not measured in play."""

KALAH = TableGame(
    name="kalah",
    stem=lambda pits, rule: f"kalah-p{pits}-{rule_name(bool(rule))}",
    describe=lambda pits, rule: f"kalah pits={pits} empty_capture={str(bool(rule)).lower()}",
    cache_key=lambda pits, rule: (pits, bool(rule)),
    layer_size=lambda pits, seeds: int(compiled().kalah_layer_size(pits, seeds)),
    new_tables=lambda pits, rule: compiled().KalahTables(pits, bool(rule)),
    build_layer=solvers.build_kalah_layer,
    fill=0x80,
    build_rate=lambda seeds: KALAH_BUILD_RATE,
    variant_of=lambda game: kalah_variant(game.pits, bool(game.empty_capture)),
    board_seeds=lambda game: 2 * game.pits * game.seeds,
    is_rule=lambda pits, rule: rule in (0, 1),
    value=two_row_value,
    grown_bytes=GROWN_BYTES,
)

OWARE = TableGame(
    name="oware",
    stem=lambda pits, rule: f"oware-{OWARE_SLAM_NAMES[_oware_slam(rule)]}" + ("" if rule < 4 else "-keepstart"),
    describe=lambda pits, rule: f"oware grand_slam={_oware_slam(rule)} skip_start={str(rule < 4).lower()}",
    cache_key=lambda pits, rule: ("oware", rule),
    layer_size=lambda pits, seeds: int(compiled().oware_layer_size(seeds)),
    new_tables=_oware_tables,
    build_layer=solvers.build_oware_layer,
    fill=0,
    build_rate=lambda seeds: next(rate for top, rate in OWARE_BUILD_RATES if seeds <= top),
    variant_of=lambda game: oware_variant(game.grand_slam, game.skip_start),
    board_seeds=lambda game: 12 * game.seeds,
    is_rule=lambda pits, rule: pits == 6 and rule in (0, 1, 2, 4, 5, 6),
    value=two_row_value,
    grown_bytes=OWARE_GROWN_BYTES,
    grown_steps=(GROWN_BYTES,),
)

TABLE_GAMES: dict[str, TableGame] = {entry.name: entry for entry in (KALAH, OWARE)}
"""Every game with endgame tables, by its rules' name."""


def as_variant(pits: "int | Variant", empty_capture: bool | None) -> Variant:
    """The Kalah API's (pits, empty_capture), or a Variant passed in their place."""
    return pits if isinstance(pits, Variant) else kalah_variant(pits, bool(empty_capture))
