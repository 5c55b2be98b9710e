"""The Perfect level (``ai.perfect``) for Kalah: its results against the Strongest preset and OpenSpiel's MCTS, the
share of its moves played proven by move number, and how many seeds on the board it proves within its time.

    python bench/bench_perfect.py strongest --openings 10 --time 1 --tables DIR [--record]
    python bench/bench_perfect.py openspiel --openings 10 --time 1 --tables DIR [--record]
    python bench/bench_perfect.py reach --games 6 --time 2 --tables DIR [--record]
    python bench/bench_perfect.py proofs --games 2 --time 1 --tables DIR [--rules empty-capture,standard]
        [--positions 6] [--opponents strongest,mcts,random,greedy,erratic] [--proof-file FILE --game SPEC] [--record]

``strongest`` and ``openspiel`` play each of N balanced 4-ply openings (``ai.tournament.balanced_openings``) with
both colours, one game at a time in this process (the machine is shared; ``nice`` it).  ``strongest`` plays
Kalah(6,4) with empty capture (the game's default); ``openspiel`` the standard rule, OpenSpiel's ``mancala``
(the translation and the bot are ``bench/bench_openspiel.py``'s).  Both report the score, the share of
Perfect's moves played proven (from the tables or the prover) in each band of move numbers, and the mean
time per move.  ``reach`` takes the positions of Strongest self-play games (from balanced openings) and asks a
fresh prover (a cold table, nothing proved before: what Perfect meets on its first proof of a game) to prove
each within ``--time``: the share proved by seeds on the board, and the most seeds at which at least 90% are.
``proofs`` checks the opening proofs (``ai.kalah_proofs``) in play: for each rule with a proof, Perfect plays as
South and as North from the start, and as the side to move from ``--positions`` entries of the proof 2-8 plies
deep (sampled with ``--seed``), ``--games`` games each against Strongest, MCTS, random, greedy and an erratic
player (Strongest's move, a random one 30% of the time); a game that ends below the proven value of its start
is a violation, named (the exit status is then 1).  ``--proof-file FILE --game SPEC`` plays from FILE instead of
the shipped proof of the game it proves (a small Kalah's, say).
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from ai import perfect, registry, tables  # noqa: E402
from ai.base import CancelToken, Limits  # noqa: E402
from ai.elo import elo_estimate  # noqa: E402
from ai.tournament import balanced_openings  # noqa: E402
from ai.worker import fallback_result  # noqa: E402
from bench.record import add_flag, game_label, record  # noqa: E402
from guarded import files  # noqa: E402

AREA = "perfect"
BANDS = (0, 10, 20, 30, 40, 60)
"""Move numbers (plies from the start, the opening included) are counted in bands starting at these."""

Player = Callable[[Any, Any], Any]
"""``player(state, extra)``: a move; ``extra`` carries what a player needs beside the state (OpenSpiel's)."""


def band(ply: int) -> str:
    starts = [start for start in BANDS if start <= ply]
    start = starts[-1]
    following = [b for b in BANDS if b > start]
    return f"{start}-{following[0] - 1}" if following else f"{start}+"


class Tally:
    """Perfect's games: results, its moves by band (proven or not), its times."""

    def __init__(self) -> None:
        self.results: list[float] = []
        self.margins: list[int] = []
        self.by_band: dict[str, list[bool]] = defaultdict(list)
        self.times: list[float] = []
        self.sources: dict[str, int] = defaultdict(int)

    def move(self, ply: int, info: dict[str, Any], seconds: float) -> None:
        proven = bool(info.get("proven"))
        self.by_band[band(ply)].append(proven)
        self.times.append(seconds)
        self.sources[str(info.get("source", "?"))] += 1

    def shares(self) -> str:
        ordered = sorted(self.by_band, key=lambda name: int(name.split("-")[0].rstrip("+")))
        return ", ".join(f"plies {name}: {100 * sum(self.by_band[name]) / len(self.by_band[name]):.0f}%"
                         f" of {len(self.by_band[name])}" for name in ordered)

    def source_words(self) -> str:
        """Where the moves came from, e.g. ``94 from the tables, 134 proved, 77 searched``."""
        names = {"tables": "from the tables", "prover": "proved", "search": "searched"}
        return ", ".join(f"{count} {names.get(source, source)}" for source, count in self.sources.items())

    def summary(self) -> str:
        wins = sum(r == 1.0 for r in self.results)
        draws = sum(r == 0.5 for r in self.results)
        losses = len(self.results) - wins - draws
        estimate = elo_estimate(wins, draws, losses)
        proven = sum(sum(v) for v in self.by_band.values()) / max(1, sum(len(v) for v in self.by_band.values()))
        return (f"+{wins} ={draws} -{losses}, score {100 * estimate.score:.1f}% (Elo {estimate.format()}); "
                f"mean margin {statistics.mean(self.margins):+.1f}; {100 * proven:.0f}% of its moves proven "
                f"({self.source_words()}); mean {statistics.mean(self.times):.2f} s, max {max(self.times):.2f} s a move")


def perfect_player(game: Any, seconds: float, tally: Tally | ProofTally) -> Callable[[Any, int], Any]:
    engine = registry.make_engine(game, f"perfect:time={seconds:g}")

    def play(state: Any, ply: int) -> Any:
        started = time.perf_counter()
        found = engine.search(state, Limits(time=seconds), CancelToken(started + seconds))
        tally.move(ply, found.info, time.perf_counter() - started)
        return fallback_result(game, state, found).move

    return play


def engine_player(game: Any, spec: str, seconds: float) -> Callable[[Any, int], Any]:
    engine = registry.make_engine(game, spec)

    def play(state: Any, ply: int) -> Any:
        started = time.perf_counter()
        return fallback_result(game, state, engine.search(state, Limits(time=seconds),
                                                          CancelToken(started + seconds))).move

    return play


def use_tables(folder: Path | None) -> None:
    if folder is not None:
        import os

        os.environ[tables.ENV] = str(folder)
    tables.forget()
    perfect.forget()


def against_strongest(args: argparse.Namespace) -> None:
    use_tables(args.tables)
    game = rules.get_game("kalah")
    strongest = registry.presets(game)["Strongest"]
    openings = balanced_openings(game, args.openings, plies=4, seed=args.seed, judge="pvs:depth=14")
    tally = Tally()
    started = time.perf_counter()
    for index, opening in enumerate(openings):
        for side in (0, 1):
            perfect.forget()  # each game starts with nothing proved
            players = {side: perfect_player(game, args.time, tally), 1 - side: engine_player(game, strongest, args.time)}
            state, ply = game.initial_state(), 0
            for move in opening:
                state, ply = game.apply(state, move), ply + 1
            while not game.is_terminal(state):
                state, ply = game.apply(state, players[game.to_move(state)](state, ply)), ply + 1
            outcome = game.outcome(state)
            tally.results.append(0.5 if outcome.winner is None else float(outcome.winner == side))
            tally.margins.append(int(outcome.margin(side)))
            print(f"opening {index + 1}/{len(openings)} as {'South' if side == 0 else 'North'}: {outcome.scores}, "
                  f"{len(tally.results)} games, {time.perf_counter() - started:.0f} s", flush=True)
    print(f"Perfect vs Strongest ({strongest}) at {args.time:g} s a move, {len(tally.results)} games: {tally.summary()}")
    print(f"  moves proven by move number: {tally.shares()}")
    games = len(tally.results)
    score = sum(tally.results) / games
    record(args.record, AREA, f"Perfect vs the Strongest preset, Kalah(6,4), {games} games at {args.time:g} s a move",
           round(100 * score, 1), "%", yardstick=f"{tally.summary()}")
    record(args.record, AREA, f"moves played proven by move number, against Strongest at {args.time:g} s",
           tally.shares())


def against_openspiel(args: argparse.Namespace) -> None:
    from bench import bench_openspiel

    if bench_openspiel.pyspiel is None:
        print("bench_perfect: OpenSpiel is not installed (pip install open_spiel)", file=sys.stderr)
        raise SystemExit(2)
    pyspiel = bench_openspiel.pyspiel
    use_tables(args.tables)
    bridge = bench_openspiel.KalahBridge()
    game = bridge.ours
    openings = balanced_openings(game, args.openings, plies=4, seed=args.seed, judge="pvs:depth=14")
    tally = Tally()
    started = time.perf_counter()
    for index, opening in enumerate(openings):
        for side in (0, 1):
            perfect.forget()
            seed = args.seed * 100_003 + 2 * index + side
            bot = pyspiel.MCTSBot(bridge.theirs, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, 10**9, 2000, True,
                                  seed, False, pyspiel.ChildSelectionPolicy.UCT, args.time)
            ours = perfect_player(game, args.time, tally)
            state, os_state, ply = game.initial_state(), bridge.theirs.new_initial_state(), 0
            for move in opening:
                os_state.apply_action(bridge.to_action(state, move))
                state, ply = game.apply(state, move), ply + 1
            while not game.is_terminal(state):
                if game.to_move(state) == side:
                    move = ours(state, ply)
                else:
                    move = bridge.to_move(state, bot.step(os_state))
                game.check_move(state, move)
                os_state.apply_action(bridge.to_action(state, move))
                state, ply = game.apply(state, move), ply + 1
                if not game.is_terminal(state):
                    bridge.check_same(state, os_state, f"after ply {ply}")
            outcome = game.outcome(state)
            tally.results.append(0.5 if outcome.winner is None else float(outcome.winner == side))
            tally.margins.append(int(outcome.margin(side)))
            print(f"opening {index + 1}/{len(openings)} as {'South' if side == 0 else 'North'}: {outcome.scores}, "
                  f"{len(tally.results)} games, {time.perf_counter() - started:.0f} s", flush=True)
    print(f"Perfect vs OpenSpiel MCTSBot at {args.time:g} s a move, {len(tally.results)} games: {tally.summary()}")
    print(f"  moves proven by move number: {tally.shares()}")
    games = len(tally.results)
    record(args.record, AREA, f"Perfect vs OpenSpiel's MCTS, Kalah(6,4) standard rule, {games} games at "
           f"{args.time:g} s a move", round(100 * sum(tally.results) / games, 1), "%",
           target="90% (the Strongest level's target against MCTS)", yardstick=tally.summary())
    record(args.record, AREA, f"moves played proven by move number, against OpenSpiel's MCTS at {args.time:g} s",
           tally.shares())


def reach(args: argparse.Namespace) -> None:
    from ai.kalah_solve import KalahProver

    use_tables(args.tables)
    game = rules.get_game("kalah")
    loaded = tables.tables_for(game)
    top = -1 if loaded is None else loaded.top
    openings = balanced_openings(game, args.games, plies=4, seed=args.seed, judge="pvs:depth=14")
    player = engine_player(game, "pvs:time=0.2,memory=64,tables=true", 0.2)
    positions = []
    for opening in openings:
        state = game.initial_state()
        for move in opening:
            state = game.apply(state, move)
        while not game.is_terminal(state):
            if top < sum(state.pits) <= args.most:
                positions.append(state)
            state = game.apply(state, player(state, 0))
    by_seeds: dict[int, list[bool]] = defaultdict(list)
    times: dict[int, list[float]] = defaultdict(list)
    for state in positions:
        prover = KalahProver(game, loaded, 64)
        started = time.perf_counter()
        bounds = prover.prove_within(state, started + args.time)
        seconds = time.perf_counter() - started
        seeds = sum(state.pits)
        by_seeds[seeds // 4 * 4].append(bounds.is_exact)
        times[seeds // 4 * 4].append(seconds)
    lines, reached = [], None
    for low in sorted(by_seeds):
        proved = by_seeds[low]
        share = sum(proved) / len(proved)
        lines.append(f"{low}-{low + 3} seeds: {100 * share:.0f}% of {len(proved)} (median {statistics.median(times[low]):.2f} s)")
        if share >= 0.9:
            reached = low + 3
    print(f"positions of {len(openings)} Strongest self-play games with {top + 1}..{args.most} seeds on the board, "
          f"a cold prover with the 0..{top}-seed tables, {args.time:g} s each:")
    for line in lines:
        print("  " + line)
    print(f"at least 90% proved up to {reached} seeds on the board")
    record(args.record, AREA, f"seeds on the board at which a cold prover proves 90% of positions within {args.time:g} s",
           reached if reached is not None else "none", "seeds", yardstick="; ".join(lines))


# -- proofs: Perfect never finishes below the proven value ----------------------------------------------------------
RULES = {"empty-capture": True, "standard": False}
OPPONENTS = ("strongest", "mcts", "random", "greedy", "erratic")
ERRATIC_SHARE = 0.3
"""The erratic opponent plays a uniformly random legal move this often, else Strongest's move."""
SIDES = ("South", "North")


@dataclass(frozen=True)
class Start:
    """A position a game starts from, the side Perfect plays there and the position's proven value for that side."""

    state: Any
    side: int
    value: int
    label: str


class ProofTally:
    """Perfect's games against one opponent under one rule: the margins above the proven value, the violations
    (games that finished below it, named), where its moves came from and its longest move."""

    def __init__(self) -> None:
        self.above: list[int] = []
        self.violations: list[str] = []
        self.sources: Counter[str] = Counter()
        self.longest = 0.0

    def move(self, ply: int, info: dict[str, Any], seconds: float) -> None:  # the Tally protocol of perfect_player
        self.sources[str(info.get("source", "?"))] += 1
        self.longest = max(self.longest, seconds)

    def game(self, margin: int, value: int, name: str) -> bool:
        """Count a finished game; True (and the game named among the violations) when it ended below ``value``."""
        self.above.append(margin - value)
        if margin < value:
            self.violations.append(f"{name}: finished {margin:+d}, below the proven {value:+d}")
        return margin < value

    def summary(self, seconds: float) -> str:
        moves = sum(self.sources.values())
        shares = ", ".join(f"{100 * count / moves:.0f}% {source}" for source, count in self.sources.most_common())
        mean = f"{statistics.mean(self.above):+.1f}" if self.above else "-"
        violations = plural(len(self.violations), "violation")
        return (f"{len(self.above)} games, {violations}, mean margin {mean} above the proven value; Perfect's"
                f" {moves} moves: {shares or 'none'}; longest move {self.longest:.2f} s "
                f"(limit {seconds:g} s)")


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def proof_positions(proof: Any, most_plies: int) -> list[tuple[int, Any]]:
    """Every position of the proof's two trees within ``most_plies`` plies of the start where the proving side is
    to move and the proof holds it, as (plies from the start, position), each at its shallowest ply: South's tree
    from the start along its proven moves and every reply, North's from every South first move."""
    game = proof.game
    start = game.initial_state()
    frontier = deque([(start, 0, 0), (start, 0, 1)])  # (position, ply, proving side)
    seen: set[tuple[Any, int]] = set()
    found: list[tuple[int, Any]] = []
    while frontier:
        state, ply, prover = frontier.popleft()
        if (state, prover) in seen or ply > most_plies or game.is_terminal(state):
            continue
        seen.add((state, prover))
        if game.to_move(state) != prover:
            frontier.extend((game.apply(state, move), ply + 1, prover) for move in game.legal_moves(state))
            continue
        entry = proof.lookup(state)
        if entry is None:  # within the tables, or beyond a leaf: the tree ends here
            continue
        found.append((ply, state))
        if not entry.leaf:
            frontier.append((game.apply(state, entry.move), ply + 1, prover))
    return found


def proof_starts(proof: Any, positions: int, rng: random.Random, plies: tuple[int, int] = (2, 8)) -> list[Start]:
    """The start with Perfect on either side, then ``positions`` positions of the proof ``plies`` deep (half from
    each side's tree, sampled with ``rng``), each with Perfect as the side to move and the entry's value."""
    game = proof.game
    start = game.initial_state()
    starts = [Start(start, 0, proof.value, "the start"), Start(start, 1, -proof.value, "the start")]
    deep = [(ply, state) for ply, state in proof_positions(proof, plies[1]) if ply >= plies[0]]
    for side, count in ((0, (positions + 1) // 2), (1, positions // 2)):
        pool = [(ply, state) for ply, state in deep if game.to_move(state) == side]
        for ply, state in rng.sample(pool, min(count, len(pool))):
            starts.append(Start(state, side, proof.lookup(state).value, f"{game.to_text(state)} ({ply} plies in)"))
    return starts


def opponent_player(game: Any, kind: str, seconds: float, seed: int) -> Callable[[Any, int], Any]:
    """One of ``OPPONENTS`` at ``seconds`` a move, seeded where it draws."""
    if kind == "erratic":
        strongest = opponent_player(game, "strongest", seconds, seed)
        rng = random.Random(seed)

        def erratic(state: Any, ply: int) -> Any:
            if rng.random() < ERRATIC_SHARE:
                return rng.choice(game.legal_moves(state))
            return strongest(state, ply)

        return erratic
    return engine_player(game, opponent_spec(game, kind, seconds, seed), seconds)


def opponent_spec(game: Any, kind: str, seconds: float, seed: int | None = None) -> str:
    """The engine spec of an opponent (with ``seed``), or what the report calls it (without)."""
    if kind == "strongest":
        return re.sub(r"time=[0-9.]+", f"time={seconds:g}", registry.presets(game)["Strongest"])
    seeded = "a seed a game" if seed is None else f"seed={seed}"
    return {"mcts": f"mcts:time={seconds:g},{seeded}", "random": f"random:{seeded}", "greedy": "greedy",
            "erratic": f"erratic (Strongest, a random move {100 * ERRATIC_SHARE:.0f}% of the time, {seeded})"}[kind]


def rule_games(args: argparse.Namespace) -> dict[str, Any]:
    """The game of each rule asked (``--game``'s pits and seeds), after ``--proof-file`` replaced the shipped
    proofs in ``ai.kalah_proofs.proof_for`` (so Perfect plays from them); SystemExit with a line on bad input."""
    from ai import kalah_proofs

    try:
        base: Any = rules.parse_game_spec(args.game)
    except ValueError as error:
        raise SystemExit(f"bench_perfect: --game {args.game}: {error}") from None
    if base.name != "kalah":
        raise SystemExit(f"bench_perfect: --game {args.game} is not Kalah (try kalah:pits=4,seeds=4)")
    replaced: dict[str, Any] = {}
    for path in args.proof_file:
        try:
            proof = kalah_proofs.parse(files.read_text(path, kalah_proofs.SIZE_LIMIT), str(path))
        except (OSError, ValueError) as error:
            raise SystemExit(f"bench_perfect: --proof-file {path}: {error}") from None
        if (proof.game.pits, proof.game.seeds) != (base.pits, base.seeds):
            raise SystemExit(f"bench_perfect: {path} proves {proof.game.spec}, not a rule of --game {args.game} "
                             f"(give --game kalah:pits={proof.game.pits},seeds={proof.game.seeds})")
        replaced[proof.game.spec] = proof
    if args.rules is not None:
        names = [name.strip() for name in args.rules.split(",") if name.strip()]
    elif replaced:
        names = [rule for rule, flag in RULES.items() if any(p.game.empty_capture == flag for p in replaced.values())]
    else:
        names = list(RULES)
    unknown = [name for name in names if name not in RULES]
    if unknown or not names:
        raise SystemExit(f"bench_perfect: --rules {args.rules}: the rules are {', '.join(RULES)} (comma-separated)")
    if replaced:
        shipped = kalah_proofs.proof_for
        def proof_for(game: Any) -> Any:
            spec = getattr(game, "spec", "")
            return replaced[spec] if spec in replaced else shipped(game)

        kalah_proofs.proof_for = proof_for  # Perfect reads it afresh each move (ai.perfect.opening_proof)
    return {name: rules.parse_game_spec(f"kalah:pits={base.pits},seeds={base.seeds},"
                                        f"empty_capture={str(RULES[name]).lower()}") for name in names}


def against_proofs(args: argparse.Namespace) -> int:
    from ai import kalah_proofs

    use_tables(args.tables)
    kinds = [kind.strip() for kind in args.opponents.split(",") if kind.strip()]
    if not kinds or any(kind not in OPPONENTS for kind in kinds):
        raise SystemExit(f"bench_perfect: --opponents {args.opponents}: choose from {', '.join(OPPONENTS)}")
    games_by_rule = rule_games(args)
    rng = random.Random(args.seed)
    seed = args.seed * 100_003
    violations: list[str] = []
    played = 0
    started = time.perf_counter()
    for rule, game in games_by_rule.items():
        try:
            proof = kalah_proofs.proof_for(game)
        except ValueError as error:
            raise SystemExit(f"bench_perfect: {error}") from None
        label = f"{game_label(game)} {rule}"
        if proof is None:
            print(f"{label}: no opening proof (ai/data/{kalah_proofs.PROOF_FILES.get(game.spec, '-')}): skipped")
            continue
        played += 1
        starts = proof_starts(proof, args.positions, rng)
        print(f"{label}: the proof's {len(proof):,} entries, {proof.value:+d} for South; {len(starts)} starts "
              f"({len(starts) - 2} positions 2-8 plies in), {plural(args.games, 'game')} each against each opponent", flush=True)
        for kind in kinds:
            tally = ProofTally()
            for start in starts:
                for number in range(args.games):
                    seed += 1
                    perfect.forget()  # each game starts with nothing proved
                    players = {start.side: perfect_player(game, args.time, tally),
                               1 - start.side: opponent_player(game, kind, args.time, seed)}
                    state, ply = start.state, 0
                    while not game.is_terminal(state):
                        state, ply = game.apply(state, players[game.to_move(state)](state, ply)), ply + 1
                    margin = int(game.outcome(state).margin(start.side))
                    name = f"{label}, Perfect as {SIDES[start.side]} vs {kind} from {start.label}, game {number + 1}"
                    below = tally.game(margin, start.value, name)
                    print(f"  {name}: {margin:+d} (proven {start.value:+d}){'  VIOLATION' if below else ''}, "
                          f"{time.perf_counter() - started:.0f} s", flush=True)
            violations += tally.violations
            summary = tally.summary(args.time)
            print(f"{label}, Perfect vs {opponent_spec(game, kind, args.time)}: {summary}", flush=True)
            # the figure's name leaves out how many positions it starts from (they change as the proofs
            # grow), so a new run replaces the last one's row instead of standing beside it
            record(args.record, AREA, f"games below the proven value, Perfect vs {kind} from the start and "
                   f"positions in the opening proof, {label}, at {args.time:g} s a move",
                   len(tally.violations), f"of {len(tally.above)} games (from the start and {len(starts) - 2} "
                   "positions in the proof)", target="0", yardstick=summary)
    if not played:
        raise SystemExit(f"bench_perfect: no opening proof of {args.game} under {', '.join(games_by_rule)}: "
                         "nothing to play (give --proof-file FILE, or wait for ai/data/ to hold the proofs)")
    print(plural(len(violations), "violation") + "".join(f"\n  {line}" for line in violations))
    return 1 if violations else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("strongest", "openspiel", "reach", "proofs"))
    parser.add_argument("--openings", type=int, default=10, help="balanced openings, each played with both colours")
    parser.add_argument("--games", type=int, default=None,
                        help="reach: self-play games whose positions are proved (default 6); proofs: games from each "
                             "start against each opponent (default 2)")
    parser.add_argument("--most", type=int, default=48, help="reach: the most seeds on the board of a position tried")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move (reach: a proof)")
    parser.add_argument("--tables", type=Path, default=None, help="the tables' folder (else $STONECAVE_TABLES)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default=None, help="proofs: empty-capture, standard or both, comma-separated "
                        "(default: both, or the rules of the --proof-file files)")
    parser.add_argument("--positions", type=int, default=6,
                        help="proofs: positions 2-8 plies deep in the proof to start games from, besides the start")
    parser.add_argument("--opponents", default=",".join(OPPONENTS), help=f"proofs: any of {', '.join(OPPONENTS)}")
    parser.add_argument("--proof-file", type=Path, action="append", default=[],
                        help="proofs: an opening proof replacing the shipped one of the game it proves (repeatable)")
    parser.add_argument("--game", default="kalah:pits=6,seeds=4",
                        help="proofs: the game whose rules are played (its pits and seeds; default Kalah(6,4))")
    add_flag(parser)
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = 2 if args.what == "proofs" else 6
    if args.what == "proofs":
        return against_proofs(args)
    {"strongest": against_strongest, "openspiel": against_openspiel, "reach": reach}[args.what](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
