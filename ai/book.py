"""Opening books: the strong engine's moves for the first plies of a game, computed offline by deep search.

A book maps a position (its rules notation, ``game.to_text``) to the move a fixed-depth ``pvs`` search chose
there, with that search's score and depth.  A ``PVSEngine`` given a book (``engine.book = book_for(game)``;
off by default) plays the book move at once when a time-limited search meets a book position (never in a
depth- or node-limited search, which must stay exact), as if searched several plies deeper than the time per
move allows.  Measured against OpenSpiel's MCTS (``bench/bench_openspiel.py --book``), the Kalah book did
not help: as North its depth-18 replies scored 45% over 50 games, against 75% over 10 games for the 1 s
search's own (``python bench/bench_openspiel.py --game kalah --book``, 2026-11-22; not kept in BENCHMARKS.md,
which lists the engines as shipped).

Which positions: every position within the first ``plies`` plies in which the side to move has so far
played only book moves, whatever the opponent played.  Either side can use the book: as South it covers our
own line and every reply to it, as North every South opening and our replies.  The builder works ply by ply,
since the positions at one ply depend on the book moves chosen at the ones before.

Reproducible: every position is searched by a fresh engine at a fixed depth (no clock, no shared table), so
the same code gives the same book on any machine, whatever ``--jobs``.  A change to the search's move order
may choose differently between moves of *equal* value at that depth; rebuild the book after one::

    python -m ai.book --game kalah:pits=6,seeds=4,empty_capture=false --plies 5 --depth 19 --jobs 2

The file is plain text (``ai/data/<game>_book.txt``): a header of ``#`` lines saying how it was built, then
one line per position, tab-separated: notation, move (``game.format_move``), score (from the side to move,
the evaluator's units), depth.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import rules
from guarded import files
from rules import Game, Move, State

DATA = Path(__file__).resolve().parent / "data"
BOOK_FILES = {"kalah:pits=6,seeds=4,empty_capture=false": "kalah_6_4_no_empty_capture_book.txt"}
"""The books shipped, by the exact game spec they were built for."""
EVALUATOR = "default"
"""The evaluator the books were built with (``PVSEngine`` uses a book only with the same one)."""


class BookError(ValueError):
    """A malformed book file: names the file, the line and what is wrong."""


@dataclass(frozen=True, slots=True)
class BookEntry:
    """One position's book move, with the score and depth of the search that chose it."""

    move: Move
    score: float
    depth: int


class OpeningBook:
    """Book moves of one game variant, looked up by position."""

    def __init__(self, game: Game, entries: dict[str, BookEntry], header: tuple[str, ...] = ()) -> None:
        self.game = game
        self.entries = entries
        self.header = header

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, state: State) -> BookEntry | None:
        """The book entry of ``state``, or None when it is not in the book."""
        return self.entries.get(self.game.to_text(state))

    # -- the file format ---------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, game: Game, text: str, source: str = "<book>") -> "OpeningBook":
        """Read a book file's text; every move is checked to be legal in its position."""
        entries: dict[str, BookEntry] = {}
        header = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if line.startswith("#"):
                header.append(line[1:].strip())
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                raise BookError(f"{source}:{number}: expected 4 tab-separated fields (position, move, score, "
                                f"depth), found {len(fields)}: {line!r}")
            notation, move_text, score_text, depth_text = fields
            try:
                state = game.from_text(notation)
                move = game.parse_move(state, move_text)
                game.check_move(state, move)
                score, depth = float(score_text), int(depth_text)
            except ValueError as error:
                raise BookError(f"{source}:{number}: {error}") from None
            if notation in entries:
                raise BookError(f"{source}:{number}: position {notation!r} appears twice")
            entries[notation] = BookEntry(move, score, depth)
        return cls(game, entries, tuple(header))

    def to_text(self) -> str:
        lines = [f"# {line}" for line in self.header]
        for notation, entry in self.entries.items():
            state = self.game.from_text(notation)
            lines.append(f"{notation}\t{self.game.format_move(state, entry.move)}\t{entry.score:g}\t{entry.depth}")
        return "\n".join(lines) + "\n"


def book_for(game: Game) -> OpeningBook | None:
    """The shipped book of ``game``'s exact variant, or None (loaded once, then cached)."""
    return _load(game.spec)


@lru_cache(maxsize=None)
def _load(spec: str) -> OpeningBook | None:
    name = BOOK_FILES.get(spec)
    path = DATA / name if name else None
    if path is None or not files.is_regular(path):
        return None
    return OpeningBook.parse(rules.parse_game_spec(spec), files.read_text(path, 16 * 1024 * 1024), str(path))


# -- building a book -------------------------------------------------------------------------------------------------
def _search(job: tuple[str, str, int, float]) -> tuple[str, Move, float, int, int, float]:
    """One position searched by a fresh engine to a fixed depth: (notation, move, score, depth, nodes, seconds)."""
    from ai.search import PVSEngine

    spec, notation, depth, memory = job
    game = rules.parse_game_spec(spec)
    started = time.perf_counter()
    result = PVSEngine(game, time=None, depth=depth, memory=memory, eval=EVALUATOR).search(game.from_text(notation))
    return notation, result.move, result.score, result.depth, result.nodes, time.perf_counter() - started


def build_book(game: Game, plies: int, depth: int, jobs: int = 1, memory: float = 256,
               log: Callable[[str], None] | None = print) -> OpeningBook:
    """Search every book position of the first ``plies`` plies to ``depth`` (see the module docstring)."""
    # Each frontier state carries, per player, whether that player has so far played only book moves.
    frontier: dict[str, tuple[State, list[bool]]] = {game.to_text(game.initial_state()): (game.initial_state(),
                                                                                            [True, True])}
    entries: dict[str, BookEntry] = {}
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        for ply in range(plies):
            wanted = [text for text, (state, on_book) in frontier.items()
                      if not game.is_terminal(state) and on_book[game.to_move(state)]]
            jobs_at_ply = [(game.spec, text, depth, memory) for text in wanted]
            started = time.perf_counter()
            results = pool.imap(_search, jobs_at_ply) if pool else map(_search, jobs_at_ply)
            for notation, move, score, reached, nodes, seconds in results:
                entries[notation] = BookEntry(move, score, reached)
                if log:
                    log(f"ply {ply}: {notation}  move {move}  score {score:g}  depth {reached}  "
                        f"{nodes:,} nodes  {seconds:.1f} s")
            if log:
                log(f"ply {ply}: {len(wanted)} positions in {time.perf_counter() - started:.0f} s")
            frontier = _expand(game, frontier, entries)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return OpeningBook(game, entries)


def _expand(game: Game, frontier: dict[str, tuple[State, list[bool]]],
            entries: dict[str, BookEntry]) -> dict[str, tuple[State, list[bool]]]:
    """The next ply's states, each with who is still on book (a mover leaves it by playing a non-book move)."""
    following: dict[str, tuple[State, list[bool]]] = {}
    for text, (state, on_book) in frontier.items():
        if game.is_terminal(state):
            continue
        mover = game.to_move(state)
        book = entries.get(text)
        for move in game.legal_moves(state):
            flags = list(on_book)
            flags[mover] = flags[mover] and book is not None and move == book.move
            if not any(flags):
                continue
            child = game.apply(state, move)
            child_text = game.to_text(child)
            if child_text in following:
                merged = following[child_text][1]
                following[child_text] = (child, [a or b for a, b in zip(merged, flags)])
            else:
                following[child_text] = (child, flags)
    return following


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.book", description="Build an opening book by deep search.")
    parser.add_argument("--game", default="kalah:pits=6,seeds=4,empty_capture=false")
    parser.add_argument("--plies", type=int, default=5, help="book positions within this many plies (default 5)")
    parser.add_argument("--depth", type=int, default=19, help="search depth per position (default 19)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (the result does not depend on it)")
    parser.add_argument("--memory", type=float, default=256, help="table MB per search (default 256)")
    parser.add_argument("--output", help="file to write (default: the game's book file under ai/data/)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    game = rules.parse_game_spec(args.game)
    output = Path(args.output) if args.output else DATA / BOOK_FILES.get(game.spec, f"{game.name}_book.txt")
    started = time.perf_counter()
    book = build_book(game, args.plies, args.depth, args.jobs, args.memory)
    book.header = (
        f"Opening book for {game.spec}: {len(book)} positions, pvs with the {EVALUATOR} evaluator",
        f"Built by: python -m ai.book --game {game.spec} --plies {args.plies} --depth {args.depth} --memory {args.memory:g}",
        "Fields: position (rules notation), move, score (side to move), depth",
    )
    files.write_atomically(output, book.to_text())
    print(f"{len(book)} positions written to {output} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
