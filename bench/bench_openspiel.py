"""Strength against an outside peer: our strongest engine against OpenSpiel's C++ MCTS bot.

    pip install -e '.[bench]'                          # open_spiel from PyPI (the pyspiel module)
    python bench/bench_openspiel.py --verify 300       # check the translation only
    python bench/bench_openspiel.py --game kalah --games 100 --time 1 --jobs 2
    python bench/bench_openspiel.py --game kalah --openings 50 --time 1 --jobs 2   # balanced openings, both colours
    python bench/bench_openspiel.py --game oware --games 100 --time 1 --jobs 2

The peer is ``pyspiel.MCTSBot``, OpenSpiel's C++ MCTS (UCT, c = 2, one random rollout per leaf, MCTS-Solver
on, as in OpenSpiel's own examples), given ``max_wall_clock_time`` equal to our engine's time per move.
Games come in pairs with the colours swapped; the bot's seed differs per game, so the games differ.

The rules the two programs share, and where they differ (read from OpenSpiel's ``mancala.cc`` and
``oware.cc``, and checked by replaying random games in both, comparing boards, legal moves and results):

- Kalah: OpenSpiel's "mancala" is Kalah(6,4) and captures only when the opposite pit holds seeds, i.e. our
  ``kalah`` with ``empty_capture=false``; the game ends when either side is empty, each side keeping its
  own seeds, as ours does.  OpenSpiel also calls a game drawn after 1000 moves; Kalah games never get near.
  Its board is ``[North store, South pits 1..6, South store, North pits 8..13]``: our ring index + 1.
- Oware: OpenSpiel's "oware" has the same sowing (the starting house skipped), 2-3 captures, grand slam
  capturing nothing, feeding, and the end at 25 seeds (or 24 each).  Where it differs the game is ended by
  our rules, which the referee here applies: OpenSpiel has no 100-moves-without-capture rule (ours ends the
  game, the stores deciding), and it ends on a repeated position only when the same player is to move,
  where ours ends on a repeated board whoever is to move.  Both differences only make our games end
  earlier, so the OpenSpiel state is never finished before ours; the verification counts the endings that
  only our rules produce.
  At 25 seeds OpenSpiel also sweeps the seeds left on the board into each side's score; the winner is
  the same, only the reported figures differ.

The referee is our rules object; the OpenSpiel state is kept in step (every move applied to both, the
boards compared after each move), so the bot always searches the true position with its full history.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from ai import registry  # noqa: E402
from ai.base import CancelToken, Limits, SearchAborted  # noqa: E402
from ai.book import book_for  # noqa: E402
from ai.elo import elo_estimate  # noqa: E402
from ai.worker import fallback_result  # noqa: E402

try:
    import pyspiel
except ImportError:  # pragma: no cover - the message is the point
    pyspiel = None


# -- translating positions and moves ---------------------------------------------------------------------------------
class Bridge:
    """One game as both programs see it: our rules object, OpenSpiel's game, and the translation between them."""

    name: str
    ours_spec: str
    open_spiel_name: str

    def __init__(self) -> None:
        self.ours = rules.parse_game_spec(self.ours_spec)
        self.theirs = pyspiel.load_game(self.open_spiel_name)

    def to_action(self, state: Any, move: Any) -> int:
        raise NotImplementedError

    def to_move(self, state: Any, action: int) -> Any:
        raise NotImplementedError

    def our_board(self, state: Any) -> tuple[int, ...]:
        """Our position in OpenSpiel's board layout."""
        raise NotImplementedError

    def their_board(self, os_state: Any) -> tuple[int, ...]:
        raise NotImplementedError

    def their_final_scores(self, os_state: Any) -> tuple[int, int]:
        """The final scores OpenSpiel's result is decided by (South, North)."""
        raise NotImplementedError

    def scores_comparable(self, outcome: rules.Outcome) -> bool:
        """Whether both programs count the final scores alike for a game that ended this way."""
        return True

    def check_same(self, state: Any, os_state: Any, where: str) -> None:
        """Raise AssertionError naming the difference when the two positions differ."""
        mine, theirs = self.our_board(state), self.their_board(os_state)
        if mine != theirs:
            raise AssertionError(f"{self.name}: boards differ {where}: ours {mine} vs OpenSpiel {theirs}\n"
                                 f"ours: {self.ours.to_text(state)}\nOpenSpiel:\n{os_state}")
        if not self.ours.is_terminal(state) and not os_state.is_terminal():
            if os_state.current_player() != self.ours.to_move(state):
                raise AssertionError(f"{self.name}: the player to move differs {where}")
            legal = sorted(self.to_action(state, m) for m in self.ours.legal_moves(state))
            if legal != sorted(os_state.legal_actions()):
                raise AssertionError(f"{self.name}: legal moves differ {where}: ours {legal} vs OpenSpiel "
                                     f"{sorted(os_state.legal_actions())}")


class KalahBridge(Bridge):
    name = "kalah"
    ours_spec = "kalah:pits=6,seeds=4,empty_capture=false"
    open_spiel_name = "mancala"

    def to_action(self, state, move):
        return state.to_move * 7 + move + 1  # the ring index of the pit, + 1

    def to_move(self, state, action):
        return action - 1 - state.to_move * 7

    def our_board(self, state):
        ring = state.ring
        return tuple(ring[(i - 1) % 14] for i in range(14))

    def their_board(self, os_state):
        return tuple(int(round(v)) for v in os_state.observation_tensor(0)[:14])

    def their_final_scores(self, os_state):
        board = self.their_board(os_state)  # each side keeps the seeds on its own side
        return sum(board[1:8]), sum(board[8:]) + board[0]


class OwareBridge(Bridge):
    name = "oware"
    ours_spec = "oware"
    open_spiel_name = "oware"

    def to_action(self, state, move):
        return move

    def to_move(self, state, action):
        return action

    def our_board(self, state):
        return tuple(state.pits) + tuple(state.stores)

    def their_board(self, os_state):
        total = 48
        return tuple(int(round(v * total)) for v in os_state.observation_tensor(0))

    def their_final_scores(self, os_state):
        board = self.their_board(os_state)
        return board[12], board[13]

    def scores_comparable(self, outcome):
        # At 25 seeds OpenSpiel also sweeps the seeds left on the board into each side's score (its
        # "no legal move" check runs on the finished game); the winner is the same, the figures are not.
        return outcome.reason is not rules.Reason.MAJORITY


BRIDGES = {"kalah": KalahBridge, "oware": OwareBridge}


def verify(bridge: Bridge, games: int, seed: int = 0) -> dict[str, Any]:
    """Replay ``games`` random games in both programs, checking boards, legal moves and results throughout."""
    rng = random.Random(seed)
    plies = 0
    ours_only: Counter[str] = Counter()
    for number in range(games):
        state, os_state = bridge.ours.initial_state(), bridge.theirs.new_initial_state()
        bridge.check_same(state, os_state, f"at the start of game {number}")
        while not bridge.ours.is_terminal(state):
            if os_state.is_terminal():
                raise AssertionError(f"{bridge.name}: OpenSpiel ended game {number} first, at "
                                     f"{bridge.ours.to_text(state)}")
            move = rng.choice(bridge.ours.legal_moves(state))
            os_state.apply_action(bridge.to_action(state, move))
            state = bridge.ours.apply(state, move)
            plies += 1
            if not bridge.ours.is_terminal(state):
                bridge.check_same(state, os_state, f"after ply {plies} of game {number}")
        outcome = bridge.ours.outcome(state)
        if os_state.is_terminal():
            if bridge.scores_comparable(outcome) and bridge.their_final_scores(os_state) != tuple(outcome.scores):
                raise AssertionError(f"{bridge.name}: game {number}: final scores {outcome.scores} vs "
                                     f"OpenSpiel's {bridge.their_final_scores(os_state)}")
            returns = os_state.returns()
            their_winner = None if returns[0] == returns[1] else (0 if returns[0] > returns[1] else 1)
            if their_winner != outcome.winner:
                raise AssertionError(f"{bridge.name}: game {number}: winner {outcome.winner} vs OpenSpiel's "
                                     f"{their_winner}")
        else:
            ours_only[outcome.reason.value] += 1
    return {"games": games, "plies": plies, "ended_by_our_rules_only": dict(ours_only)}


# -- playing --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    game: str
    index: int
    engine: str
    seconds: float
    our_seat: int
    uct_c: float
    rollouts: int
    seed: int
    book: bool = False
    """True: our engine plays the variant's opening book (``--book``, ``ai.book``; off by default)."""
    opening: tuple = ()
    """Moves played before the engines take over (``--openings``: a balanced opening, each with both colours)."""


@dataclass(frozen=True)
class Record:
    index: int
    our_seat: int
    result: float
    """1, 1/2 or 0 for our engine."""
    reason: str
    plies: int
    scores: tuple[int, ...]
    our_times: tuple[float, ...]
    their_times: tuple[float, ...]
    our_depths: tuple[int, ...]
    """Depth completed by each searched move (book moves are not searched and not counted here)."""
    book_moves: int = 0
    moves: tuple = ()
    """The game's moves in our notation (``--record``)."""


def play(task: Task) -> Record:
    """One game of our engine against the MCTS bot, refereed by our rules."""
    bridge = BRIDGES[task.game]()
    engine = registry.make_engine(bridge.ours, task.engine)
    if task.book:
        engine.book = book_for(bridge.ours)
    bot = pyspiel.MCTSBot(bridge.theirs, pyspiel.RandomRolloutEvaluator(task.rollouts, task.seed), task.uct_c,
                          10**9, 2000, True, task.seed, False, pyspiel.ChildSelectionPolicy.UCT, task.seconds)
    state, os_state = bridge.ours.initial_state(), bridge.theirs.new_initial_state()
    ours, theirs, depths = [], [], []
    book_moves = 0
    moves = []
    plies = 0
    for move in task.opening:
        moves.append(bridge.ours.format_move(state, move))
        os_state.apply_action(bridge.to_action(state, move))
        state = bridge.ours.apply(state, move)
        plies += 1
    while not bridge.ours.is_terminal(state):
        if os_state.is_terminal():
            raise AssertionError(f"OpenSpiel ended the game first at {bridge.ours.to_text(state)}")
        started = time.perf_counter()
        if bridge.ours.to_move(state) == task.our_seat:
            try:
                found = engine.search(state, Limits(time=task.seconds), CancelToken(started + task.seconds))
            except SearchAborted:
                found = None
            result = fallback_result(bridge.ours, state, found)
            move = result.move
            ours.append(time.perf_counter() - started)
            if result.info.get("book"):
                book_moves += 1
            else:
                depths.append(result.depth)
        else:
            move = bridge.to_move(state, bot.step(os_state))
            theirs.append(time.perf_counter() - started)
        bridge.ours.check_move(state, move)
        moves.append(bridge.ours.format_move(state, move))
        os_state.apply_action(bridge.to_action(state, move))
        state = bridge.ours.apply(state, move)
        plies += 1
        if not bridge.ours.is_terminal(state):
            bridge.check_same(state, os_state, f"after ply {plies}")
    outcome = bridge.ours.outcome(state)
    score = 0.5 if outcome.winner is None else float(outcome.winner == task.our_seat)
    return Record(task.index, task.our_seat, score, outcome.reason.value, plies, tuple(outcome.scores),
                  tuple(ours), tuple(theirs), tuple(depths), book_moves, tuple(moves))


def strongest_engine(game: rules.Game) -> str:
    preset = registry.presets(game).get("Strongest")
    if preset:
        return preset
    names = [info.name for info in registry.engines(game)]
    return "pvs" if "pvs" in names else names[0]


def prepare_tables(game: Any, engine: str, folder: Path | None, threads: int) -> None:
    """An engine that asks for endgame tables (the Kalah and Oware Strongest presets) gets the first-use set built
    before the games, not during them: built or completed in ``folder`` (default: the settings folder, where the game
    keeps them), which the game processes then read through ``$STONECAVE_TABLES``."""
    from ai import tables

    variant = tables.variant_of(game)
    if not registry.parse_engine_spec(engine)[1].get("tables") or variant is None:
        return
    if folder is None:
        from game.tables_command import tables_folder

        folder = tables_folder()
    seeds = tables.game_auto_seeds(game)
    started = time.perf_counter()
    while True:
        result = tables.build_claimed(folder, variant, None, seeds, threads=threads)
        if result is not None:
            break
        time.sleep(1.0)  # the game (or another bench) is building them: wait for it
    loaded, built = result
    os.environ[tables.ENV] = str(folder)
    print(f"endgame tables: every board of 0..{loaded.top} seeds in {folder} "
          f"({f'{len(built)} layers built in {time.perf_counter() - started:.1f} s' if built else 'already built'})",
          flush=True)


def report(records: list[Record], engine: str, seconds: float, target: float) -> str:
    wins = sum(r.result == 1.0 for r in records)
    draws = sum(r.result == 0.5 for r in records)
    losses = len(records) - wins - draws
    estimate = elo_estimate(wins, draws, losses)
    our_times = [t for r in records for t in r.our_times]
    their_times = [t for r in records for t in r.their_times]
    depths = [d for r in records for d in r.our_depths]
    south = [r.result for r in records if r.our_seat == 0]
    north = [r.result for r in records if r.our_seat == 1]
    reasons = Counter(r.reason for r in records)
    lines = [
        f"{engine} vs OpenSpiel MCTSBot at {seconds:g} s per move: {len(records)} games",
        f"  +{wins} ={draws} -{losses}  score {100 * estimate.score:.1f}%  Elo {estimate.format()}"
        f"  (target {100 * target:.0f}%: {'met' if estimate.score >= target else 'not met'})",
        f"  as South {100 * statistics.mean(south):.1f}% ({len(south)} games), "
        f"as North {100 * statistics.mean(north):.1f}% ({len(north)} games)" if south and north else "",
        f"  time per move: ours mean {statistics.mean(our_times):.3f} s max {max(our_times):.3f} s; "
        f"theirs mean {statistics.mean(their_times):.3f} s max {max(their_times):.3f} s" if our_times and their_times else "",
        f"  our mean depth {statistics.mean(depths):.1f} over {len(depths)} searched moves "
        f"({sum(r.book_moves for r in records)} book moves); mean plies per game "
        f"{statistics.mean(r.plies for r in records):.0f}" if depths else "",
        f"  our moves more than 10 ms over the limit: {sum(t > seconds + 0.010 for t in our_times)} "
        f"of {len(our_times)}" if our_times else "",
        "  endings: " + ", ".join(f"{reason} {count}" for reason, count in reasons.most_common()),
    ]
    return "\n".join(line for line in lines if line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Our strongest engine against OpenSpiel's C++ MCTS bot.")
    parser.add_argument("--game", choices=sorted(BRIDGES), default="kalah")
    parser.add_argument("--engine", help="our engine spec (default: the Strongest preset, else pvs)")
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20; 100+ for the target)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move for both (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--uct-c", type=float, default=2.0, help="the bot's exploration constant (default 2)")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--book", action="store_true", help="our engine plays its opening book (ai.book)")
    parser.add_argument("--openings", type=int, default=0, metavar="N",
                        help="play from N balanced 4-ply openings (ai.tournament.balanced_openings), each with both "
                             "colours: --games is then 2N (default 0: the start position only)")
    parser.add_argument("--judge", default="pvs:depth=14",
                        help="engine that judges candidate openings, nearest 0 kept (default pvs:depth=14)")
    parser.add_argument("--tables", type=Path, metavar="DIR",
                        help="where an engine with tables=true finds them, built first if missing "
                             "(default: the settings folder)")
    parser.add_argument("--record", metavar="FILE", help="write every game's moves as JSON lines")
    parser.add_argument("--verify", type=int, default=200, metavar="GAMES",
                        help="random games replayed in both programs first (default 200; 0 to skip)")
    parser.add_argument("--verify-only", action="store_true", help="check the translation and stop")
    args = parser.parse_args(argv)
    if pyspiel is None:
        print("bench_openspiel: OpenSpiel is not installed; run: pip install -e '.[bench]'  "
              "(or: pip install open_spiel)", file=sys.stderr)
        return 2
    bridge = BRIDGES[args.game]()
    if args.verify:
        started = time.perf_counter()
        checked = verify(bridge, args.verify, args.seed)
        print(f"translation verified for {bridge.ours.spec} against OpenSpiel's {bridge.open_spiel_name}: "
              f"{checked['games']} random games, {checked['plies']} plies, boards, legal moves and results "
              f"identical ({time.perf_counter() - started:.1f} s); "
              f"ended by our rules only: {checked['ended_by_our_rules_only'] or 'none'}")
    if args.verify_only:
        return 0
    engine = args.engine or strongest_engine(bridge.ours)
    prepare_tables(bridge.ours, engine, args.tables, args.jobs)
    openings = [()]
    if args.openings:
        from ai.tournament import balanced_openings

        openings = balanced_openings(bridge.ours, args.openings, plies=4, seed=args.seed, judge=args.judge)
        print(f"{len(openings)} balanced openings of 4 plies (judged by {args.judge}), each played with both colours")
        args.games = 2 * len(openings)
    tasks = [Task(args.game, i, engine, args.time, i % 2, args.uct_c, args.rollouts, args.seed * 100_003 + i,
                  args.book, openings[(i // 2) % len(openings)]) for i in range(args.games)]
    records: list[Record] = []
    started = time.perf_counter()
    print(f"{engine} on {bridge.ours.spec} vs OpenSpiel MCTSBot(uct_c={args.uct_c:g}, rollouts={args.rollouts}, "
          f"solve) at {args.time:g} s per move, {args.games} games, {args.jobs} job(s) (shared, noisy machine)",
          flush=True)
    if args.jobs == 1:
        results = map(play, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("spawn").Pool(args.jobs)
        results = pool.imap_unordered(play, tasks)
    try:
        for record in results:
            records.append(record)
            score = sum(r.result for r in records) / len(records)
            print(f"game {len(records)}/{args.games}: {'win' if record.result == 1 else 'draw' if record.result else 'loss'}"
                  f" as {'South' if record.our_seat == 0 else 'North'} {record.scores}, running score "
                  f"{100 * score:.1f}% ({time.perf_counter() - started:.0f} s)", flush=True)
    finally:
        if pool is not None:
            pool.terminate()
    target = 0.90 if args.game == "kalah" else 0.95
    print(report(sorted(records, key=lambda r: r.index), engine, args.time, target))
    if args.record:
        with open(args.record, "w", encoding="utf-8") as out:
            for r in sorted(records, key=lambda r: r.index):
                out.write(json.dumps({"index": r.index, "our_seat": r.our_seat, "result": r.result,
                                      "scores": r.scores, "moves": r.moves}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
