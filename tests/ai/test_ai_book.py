"""Opening books: the file format is checked, the builder is reproducible, and the engine plays book moves
only in time-limited searches."""
from __future__ import annotations

import pytest

from ai.base import Limits
from ai.book import BOOK_FILES, DATA, BookEntry, BookError, OpeningBook, _expand, book_for, build_book
from ai.search import PVSEngine
from rules import parse_game_spec

SPEC = "kalah:pits=6,seeds=4,empty_capture=false"
GAME = parse_game_spec(SPEC)


def test_a_small_book_is_the_same_whatever_the_jobs_and_matches_fixed_depth_searches():
    serial = build_book(GAME, plies=3, depth=4, jobs=1, log=None)
    parallel = build_book(GAME, plies=3, depth=4, jobs=2, log=None)
    assert serial.to_text() == parallel.to_text()
    assert len(serial) >= 6
    for notation, entry in list(serial.entries.items())[:6]:
        result = PVSEngine(GAME, time=None, depth=4).search(GAME.from_text(notation))
        assert (entry.move, entry.score, entry.depth) == (result.move, result.score, 4)
    assert OpeningBook.parse(GAME, serial.to_text()).entries == serial.entries


def test_the_book_covers_every_opponent_reply_and_only_book_lines():
    book = build_book(GAME, plies=4, depth=2, log=None)
    start = GAME.initial_state()
    # Whatever North replies to South's book opening, North's position is in the book (and vice versa).
    south_move = book.lookup(start).move
    after = GAME.apply(start, south_move)
    if GAME.to_move(after) == 0:  # an extra turn: South's follow-up is a book position too
        assert book.lookup(after) is not None
    # A South move off the book leaves South off it, but North's reply position is still covered.
    other = next(move for move in GAME.legal_moves(start) if move != south_move)
    off = GAME.apply(start, other)
    assert GAME.to_move(off) == 1 and book.lookup(off) is not None
    for move in GAME.legal_moves(off):
        child = GAME.apply(off, move)
        if GAME.to_move(child) == 0 and move != book.lookup(off).move:
            assert book.lookup(child) is None  # South left the book, North left it too: nobody is on it


def test_the_engine_plays_the_book_only_when_limited_by_time():
    state = GAME.initial_state()
    legal = GAME.legal_moves(state)
    engine = PVSEngine(GAME, time=0.5)
    assert engine.book is None  # off by default
    book_move = legal[-1]
    engine.book = OpeningBook(GAME, {GAME.to_text(state): BookEntry(book_move, 1.25, 21)})
    timed = engine.search(state)
    assert (timed.move, timed.score, timed.depth, timed.info.get("book")) == (book_move, 1.25, 21, True)
    exact = engine.search(state, Limits(depth=3))
    assert not exact.info.get("book") and exact.depth == 3
    assert not engine.search(state, Limits(nodes=500)).info.get("book")


@pytest.mark.parametrize("text, complaint", [
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S\t2\t1.5", "expected 4 tab-separated fields"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S\tnine\t1.5\t8", ":2: .nine. is not a legal move"),
    ("pits=4,4,4,4,0,4/4,4,4,4,4,4 stores=0,0 move=S\t4\t1.5\t8", ":2:"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S\t2\t1.5\t8\n"
     "pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S\t3\t1.5\t8", "appears twice"),
])
def test_a_malformed_book_names_the_line_and_the_fault(text, complaint):
    with pytest.raises(BookError, match=complaint):
        OpeningBook.parse(GAME, "# a header\n" + text, "test-book")


def test_the_shipped_book_holds_exactly_the_book_positions_of_its_plies():
    book = book_for(GAME)
    assert book is not None and book is book_for(GAME)  # loaded once
    assert (DATA / BOOK_FILES[SPEC]).exists()
    plies = int(book.header[1].split("--plies ")[1].split()[0])
    depth = int(book.header[1].split("--depth ")[1].split()[0])
    assert plies >= 4 and depth >= 16 and all(entry.depth == depth for entry in book.entries.values())
    wanted = set()
    frontier = {GAME.to_text(GAME.initial_state()): (GAME.initial_state(), [True, True])}
    for _ in range(plies):
        wanted |= {text for text, (state, on_book) in frontier.items()
                   if not GAME.is_terminal(state) and on_book[GAME.to_move(state)]}
        frontier = _expand(GAME, frontier, book.entries)
    assert wanted == set(book.entries)
    assert book_for(parse_game_spec("kalah")) is None  # the empty-capture variant has no book


def test_a_shipped_book_entry_is_what_the_builder_computes_today():
    """The cheapest entry, re-searched: a change to the search's move order that picks another move among
    equals (or changes a value) makes this fail, and the book must be rebuilt (command in the header)."""
    book = book_for(GAME)
    notation = "pits=5,0,2,6,6,1/5,5,5,5,4,0 stores=3,1 move=S"  # 506,338 nodes at depth 18
    entry = book.entries[notation]
    result = PVSEngine(GAME, time=None, depth=entry.depth, memory=256).search(GAME.from_text(notation))
    assert (result.move, result.score) == (entry.move, entry.score)
