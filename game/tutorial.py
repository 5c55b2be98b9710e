"""The guided first games: a few steps per game, each a real position, what to read and the move to make.

Window-free data, drawn by ``game.views.tutorial_view``.  A step names its position in the game's own notation
(``Game.from_text``), the move the player must make (the rules' move: a pit number in the mover's own numbering
counted from 0, or a cave cell's index), the rule that move shows (``effect``, checked against the rules in
``tests/game/test_tutorial.py``), and the places to mark.  Text counts pits as the board shows them, from 1.
A step without a move is read and continued with Enter.  A step may carry the opponent's ``answer``, played
(and animated) after the player's move; a step whose position is the board as the previous step left it
continues on the same board, so the guided game reads as one game rather than a series of fresh boards.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from rules.solitaire import Round

Mark = tuple[int, int]
"""A place to ring on the board: (player, pit) for a sowing board (pit ``STORE`` is that player's store), or
(0, cell) in the cave, or (0, hole index 0..11) in Solitaire Mancala."""
STORE = -1

EFFECTS = ("sow", "extra turn", "capture", "must feed", "grand slam", "relay", "capture both rows", "wall",
           "beside a brick", "five in a row", "store", "game end")
"""What a step's move can be there to show; each has its check against the rules in the tests."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a guided game."""

    text: str
    """What the player reads before acting."""
    position: str
    """The board, in the game's notation."""
    move: Hashable | None = None
    """The move the player must make (an int, or a ``Round`` in Solitaire Mancala); None: read, then Enter
    continues."""
    effect: str = ""
    """The rule the move shows (one of ``EFFECTS``)."""
    done: str = ""
    """What is said once the move has played."""
    marks: tuple[Mark, ...] = ()
    """Places ringed on the board besides the move's own pit or cell."""
    answer: Hashable | None = None
    """The opponent's reply, played after ``move`` (``done`` says what it did); None: no reply."""


@dataclass(frozen=True, slots=True)
class Tutorial:
    """A guided first game of one game."""

    game: str
    """The game's registry name (``rules.get_game``)."""
    title: str
    steps: tuple[Step, ...]


KALAH_START = "pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S"
OWARE = "since_capture=0 seen=-"

KALAH = Tutorial("kalah", "Kalah", (
    Step("You are South: the six pits nearest you and the store, the long well on your right. North owns the top "
         "row and the store on the left. Whoever ends with more seeds in their store wins.",
         KALAH_START, marks=tuple((0, pit) for pit in range(6)) + ((0, STORE),)),
    Step("Sowing: take every seed from one of your pits and drop them one at a time, counter-clockwise: along "
         "your row to the right, into your store, then along North's row. Click pit 1, on the left.",
         KALAH_START, move=0, effect="sow", answer=3,
         done="Pit 1's four seeds went one each into pits 2, 3, 4 and 5. North answered with its pit 4: one seed "
              "into its store and the last one round into your pit 1."),
    Step("Extra turn: your pit 2 now holds five seeds, just enough to reach your store. When your last seed lands "
         "in your own store you play again. Click pit 2.",
         "pits=1,5,5,5,5,4/4,4,4,0,5,5 stores=0,1 move=S", move=1, effect="extra turn", marks=((0, STORE),),
         done="Your last seed landed in your store, so it is your turn again."),
    Step("Capture: when your last seed lands in an empty pit of yours, it and all the seeds in North's pit "
         "opposite go into your store. Pit 1 holds one seed and pit 2 is empty now. Click pit 1.",
         "pits=1,0,6,6,6,5/4,4,4,0,5,5 stores=1,1 move=S", move=0, effect="capture", marks=((0, 1), (1, 4)),
         done="You captured six seeds: the five opposite and your own."),
    Step("Near the end: the game ends when one side's pits are all empty; the other side's seeds then go to "
         "their owner's store, and the fuller store wins. Your last seed is in pit 6. Click pit 6.",
         "pits=0,0,0,0,0,1/2,0,1,1,0,0 stores=25,18 move=S", move=5, effect="game end",
         marks=((0, STORE), (1, STORE)),
         done="Your side is empty, so North's four seeds went to North's store: you won 26 – 22. "
              "Now play a game from Play."),
))

OWARE_TUTORIAL = Tutorial("oware", "Oware", (
    Step("Oware (abapa): two rows of six houses, four seeds in each; yours is the bottom row. Sow counter-"
         "clockwise as in every mancala, but only into houses: the stores just keep what you capture. Click "
         "house 6, on your right.",
         f"pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S {OWARE}", move=5, effect="sow",
         done="Your seeds went round into North's row. Captures happen there."),
    Step("Capture: if your last seed lands in North's row and makes a house hold 2 or 3 seeds, you take them, "
         "and the houses before it too while they hold 2 or 3. Click house 6: its two seeds reach North's "
         "houses holding 1 and 2.",
         f"pits=4,4,4,4,4,2/1,2,4,4,4,4 stores=3,4 move=S {OWARE}", move=5, effect="capture",
         marks=((1, 0), (1, 1)), done="Three and then two: you captured five seeds."),
    Step("Must feed: North has no seeds left, so you must play a house whose seeds reach North. House 1 would "
         "keep them all on your side and is not allowed. Click house 6.",
         f"pits=3,0,0,0,0,1/0,0,0,0,0,0 stores=22,22 move=S {OWARE}", move=5, effect="must feed",
         marks=((0, 0),), done="North has a seed to play again. Starving your opponent is never allowed."),
    Step("Grand slam: a move that would take every seed North has takes nothing at all. House 6 would make "
         "2 and 3 in North's only houses. Click it and watch.",
         f"pits=4,4,4,0,0,2/1,2,0,0,0,0 stores=16,15 move=S {OWARE}", move=5, effect="grand slam",
         marks=((1, 0), (1, 1)), done="Nothing was captured: North keeps its seeds. The first to 25 wins."),
))


def _hus(south: dict[int, int], north: dict[int, int]) -> str:
    """A Hus position with South to move after the first turns (so captures count)."""
    rows = []
    for side in (south, north):
        rows.append(",".join(str(side.get(pit, 0)) for pit in range(32)))
    return f"pits={rows[0]}/{rows[1]} move=S turn=3"


HUS = Tutorial("hus", "Hus", (
    Step("Hus: four rows of sixteen pits; your two rows are the bottom two. You only ever sow round your own "
         "two rows: right along the outer row, then left along the inner row, and round again. A pit needs two "
         "or more seeds to be played.",
         "pits=" + ",".join(["2"] * 24 + ["0"] * 8) + "/" + ",".join(["2"] * 24 + ["0"] * 8) + " move=S turn=0",
         marks=((0, 0), (0, 15), (0, 16), (0, 31))),
    Step("Relay: if your last seed lands on a pit that already held seeds, you pick them all up and sow on. "
         "Click the glowing pit: its two seeds end on a pit holding one.",
         _hus({0: 2, 2: 1, 10: 6, 20: 3}, {0: 2, 5: 4, 20: 3}), move=0, effect="relay", marks=((0, 2),),
         done="The two seeds relayed on and stopped in an empty pit: your turn ends there."),
    Step("Capture: when your last seed lands on an occupied pit of your inner row and North's inner pit facing "
         "it holds seeds, you take the seeds of both North's pits facing it, inner and outer, and sow them on. "
         "Click the glowing pit.",
         _hus({15: 2, 17: 1, 5: 3, 26: 2}, {1: 2, 30: 3, 8: 4}), move=15, effect="capture both rows",
         marks=((0, 17), (1, 30), (1, 1)), done="You took five seeds from North's two rows and sowed them on."),
    Step("A player who cannot move (no pit with two seeds) loses. Press Enter to finish.",
         _hus({3: 2, 9: 4, 18: 3, 25: 2}, {4: 1, 12: 1, 30: 1})),
))


def _cave(rows_from_top: str, to_move: str) -> str:
    return f"rows={rows_from_top} move={to_move}"


EMPTY_ROW = "........"
CAVE = Tutorial("magnetic-cave", "Magnetic Cave", (
    Step("Magnetic Cave: the walls on the left and right pull the bricks. Each brick must touch a wall or "
         "another brick, so in each row only the outermost empty cells can be filled. You play Black: click "
         "A4, against the left wall.",
         _cave("/".join([EMPTY_ROW] * 8), "B"), move=24, effect="wall", answer=31,
         done="Your brick clings to the left wall. White answered on H4, against the right wall."),
    Step("Bricks build inwards from the walls: B4 touches your brick on A4, so it may be filled; D4 touches "
         "nothing and may not. Click B4.",
         _cave("/".join([EMPTY_ROW] * 4 + ["B......W"] + [EMPTY_ROW] * 3), "B"), move=25, effect="beside a brick",
         marks=((0, 24),), done="B4 holds on to A4."),
    Step("A few moves later. Five in a row wins: across, up or diagonally. You have four up the left wall. Click A5 to make five.",
         _cave("/".join([EMPTY_ROW] * 3 + [".......W", "B......W", "B......W", "B......W", "B......."]), "B"),
         move=32, effect="five in a row", marks=((0, 0), (0, 8), (0, 16), (0, 24)),
         done="Five in a row: Black wins."),
))

SOLITAIRE = Tutorial("solitaire", "Solitaire Mancala", (
    Step("Solitaire Mancala is a puzzle for one. Pick a hole and a direction: its stones are sown one per hole. "
         "Clockwise runs right along the top row and left along the bottom one. Click hole 1 to sow clockwise.",
         "holes=3,3,5,5,2,2/3,5,6,6,5,3 stores=0,0 select=free", move=Round(1, "cw"), effect="sow",
         done="Three stones went to holes 2, 3 and 4. The next round starts where the last one fell: hole 4."),
    Step("From now on you only choose the direction. Anti-clockwise runs left along the top row, past store01 "
         "(stores are skipped) and right along the bottom row. Click hole 4 to sow anti-clockwise.",
         "holes=0,4,6,6,2,2/3,5,6,6,5,3 stores=0,0 select=4", move=Round(None, "ccw"), effect="sow",
         done="Six stones went round to hole 9: the next round starts there."),
    Step("Storing: when exactly one stone is left in hand just after dropping into an end hole (hole 6, going "
         "clockwise), it goes into the store beside it. Hole 4's three stones do just that. Click hole 4 to sow "
         "clockwise.",
         "holes=0,4,6,3,2,2/3,5,6,6,5,3 stores=2,1 select=4", move=Round(None, "cw"), effect="store",
         marks=((0, 5),), done="One stone went into store02, and the next round starts again from hole 6."),
    Step("A round whose last stone falls into an empty hole ends the game. Store all the stones you can: under "
         "the source rules 46 is a perfect game; in Lewis's variant you can clear the board. Press Enter to "
         "finish, then choose a deal from Puzzles.",
         "holes=0,4,6,0,3,3/3,5,6,6,5,3 stores=2,2 select=6"),
))

TUTORIALS: tuple[Tutorial, ...] = (KALAH, OWARE_TUTORIAL, HUS, CAVE, SOLITAIRE)


def tutorial(game: str) -> Tutorial:
    """The guided game of ``game`` (its registry name)."""
    for entry in TUTORIALS:
        if entry.game == game:
            return entry
    raise KeyError(f"no guided game for {game!r}; there are: {', '.join(t.game for t in TUTORIALS)}")
