"""The options of ``stonecave compare``: its argument parser and the rule for each number it reads.

Every number follows the one rule of the command line (``rules.base.WHOLE_NUMBER``): ASCII digits only (no
``٣``, ``３``, ``²``, ``1_000``, ``+3`` or ``-0``), and every count has a bound that says how far it may go, so
``--openings 1000000`` is refused at once with a message instead of running for hours with no output.
"""
from __future__ import annotations

import argparse
import math
import re

from ai.sprt import SprtSettings
from rules.base import clip, read_whole_number

SPRT_GAME_CAP = 20_000
"""The default game cap of a sequential test (``--sprt`` without ``--games``)."""
MAX_GAMES = 1_000_000
"""Most games a ``compare`` plays (a million random-engine Kalah games take hours; more never ends)."""
MAX_JOBS = 256
"""Most parallel processes or local Dask workers."""
MAX_OPENINGS = 1_000
"""Most balanced openings (each is chosen from four candidates, each judged by a short search)."""
MAX_OPENING_PLIES = 40
"""Longest balanced opening, in plies."""
MAX_SEED = 999_999_999
"""Largest tournament seed (nine digits, as every number typed to StoneCave)."""
MAX_TIME_LIMIT = 3_600.0
"""Longest time per move, in seconds (an hour)."""
DECIMAL = re.compile(r"(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")
"""A positive decimal number under the one rule: ASCII digits, at most nine before and after the point."""


class UsageError(Exception):
    """A command line that ``stonecave compare`` cannot run; the message says what is wrong."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _whole(text: str, low: int, high: int, unit: str = "") -> int:
    value = read_whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number written with the digits 0-9, not {clip(text)!r}")
    if value < low:
        raise argparse.ArgumentTypeError(f"expected at least {low}, not {value}")
    if value > high:
        raise argparse.ArgumentTypeError(f"at most {high:,}{unit}, not {value:,}")
    return value


def games_count(text: str) -> int:
    return _whole(text, 1, MAX_GAMES, " games")


def jobs_count(text: str) -> int:
    return _whole(text, 1, MAX_JOBS, " processes")


def openings_count(text: str) -> int:
    return _whole(text, 0, MAX_OPENINGS, " balanced openings")


def opening_plies(text: str) -> int:
    return _whole(text, 1, MAX_OPENING_PLIES, " plies")


def seed(text: str) -> int:
    return _whole(text, 0, MAX_SEED)


def seconds(text: str) -> float:
    """A time per move: a positive decimal written with ASCII digits, at most ``MAX_TIME_LIMIT``."""
    stripped = text.strip()
    if not DECIMAL.fullmatch(stripped):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds written with the digits 0-9 "
                                         f"(such as 0.5), not {clip(text)!r}")
    value = float(stripped)
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {clip(text)!r}")
    if value > MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {MAX_TIME_LIMIT:g} seconds a move, not {clip(text)}")
    return value


def sprt(text: str) -> SprtSettings:
    try:
        return SprtSettings.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--sprt ")) from None


def parser() -> argparse.ArgumentParser:
    """The parser of ``stonecave compare``; its ``error`` raises ``UsageError`` instead of exiting."""
    result = _Parser(
        prog="stonecave compare",
        description="Play two engines against each other, both colours, and report wins, draws, losses, score "
                    "and the Elo difference with its 95% interval.",
        epilog="Example: stonecave compare --game oware --engine alphabeta:depth=8 --engine mcts:time=1 "
               "--games 100 --jobs 2.  `stonecave engines GAME` lists the engines and their parameters.",
    )
    result.add_argument("--game", required=True, help="game spec, e.g. kalah or kalah:pits=4,seeds=3")
    result.add_argument("--engine", action="append", default=[], metavar="SPEC",
                        help="engine spec, given twice: name or name:key=value,... (e.g. alphabeta:depth=8)")
    result.add_argument("--games", type=games_count, metavar="N",
                        help=f"number of games (default 100, at most {MAX_GAMES:,}); with --sprt, the cap "
                             f"(default {SPRT_GAME_CAP})")
    result.add_argument("--jobs", type=jobs_count, default=1,
                        help=f"parallel processes (default 1, at most {MAX_JOBS}); with --cluster local, Dask "
                             "workers")
    result.add_argument("--sprt", type=sprt, metavar="elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]",
                        help="a sequential test: play game pairs until the pentanomial LLR accepts H0 (A is not "
                             "stronger than B by more than elo0) or H1 (A is stronger by at least elo1), in "
                             "logistic Elo (model=normalized: fishtest's normalized Elo); alpha and beta "
                             "default to 0.05")
    result.add_argument("--cluster", metavar="ADDRESS",
                        help="run the games on Dask: a scheduler address such as tcp://host:8786, or 'local' "
                             'for a Dask cluster of --jobs workers on this machine (needs pip install -e ".[cluster]")')
    files = result.add_mutually_exclusive_group()
    files.add_argument("--checkpoint", metavar="FILE",
                       help="write each game's record to FILE (JSON lines) as it finishes")
    files.add_argument("--resume", metavar="FILE",
                       help="continue the run checkpointed in FILE (same arguments), playing only missing games")
    result.add_argument("--openings", type=openings_count, default=0, metavar="N",
                        help=f"also play from N balanced openings, each with both colours (default 0, at most "
                             f"{MAX_OPENINGS:,})")
    result.add_argument("--opening-plies", type=opening_plies, default=4, metavar="PLIES",
                        help=f"length of a balanced opening in plies (default 4, at most {MAX_OPENING_PLIES})")
    result.add_argument("--judge", metavar="SPEC", help="engine that judges candidate openings")
    result.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                        help=f"time per move for both engines (at most {MAX_TIME_LIMIT:g})")
    result.add_argument("--seed", type=seed, default=0, help="tournament seed: openings and engine seeds")
    output = result.add_mutually_exclusive_group()
    output.add_argument("--csv", metavar="FILE", help="also write the summary as CSV")
    output.add_argument("--json", metavar="FILE", help="also write the summary and every game as JSON")
    result.add_argument("--quiet", action="store_true", help="no progress line")
    return result
