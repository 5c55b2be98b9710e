"""How much of real games the endgame tables answer: board seeds ply by ply in engine-against-engine games.

    python bench/bench_table_reach.py play --game kalah --engine Hard --engine Strongest --games 40 \\
        --openings 20 --time-limit 0.2 --out bench/data/table_reach_kalah.json
    python bench/bench_table_reach.py reach [--records FILE ...] [--every 5] [--record]

A table answers a position exactly when the seeds still in the pits (not the stores) are at most its top
seed count; sowing never adds seeds to the board, so once a game is inside it stays inside.  ``play`` runs an
``ai.tournament.compare`` tournament (both colours, balanced openings; an engine is a spec or a preset name)
and writes its JSON (``stonecave compare --json``'s document, whose game records keep every move, plus how the
games were played).  ``reach`` replays those records and reports,
for each threshold, the share of the positions still in play at ply 0, 5, 10, ... (Oware: 0, 10, 20, ...)
whose board seeds are within it, the mean board seeds, and the first ply by which half of the games have
been inside.  Plies count from the start position, the opening's included.  Without ``--records`` it reads
the committed sets in ``bench/data/``; ``--record`` writes the figures to ``bench/results/table_reach.json``
(then ``python tools/benchmarks.py``).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai import registry  # noqa: E402
from ai.base import EngineError  # noqa: E402
from ai.tournament import compare  # noqa: E402
from bench import record as recorder  # noqa: E402
from rules import Game, RulesError, parse_game_spec  # noqa: E402

DATA = ROOT / "bench" / "data"
RECORD_SETS = ("table_reach_kalah.json", "table_reach_kalah_standard.json", "table_reach_oware.json")
"""The committed game records ``reach`` reads when no ``--records`` is given."""
THRESHOLDS = {"kalah": (18, 22), "oware": (12, 16, 18, 20)}
"""Top seed counts per game: Kalah's first-use tables (18) and the largest measured (22); Oware's 12
(Aalina's), 16 (built), 18 and 20 (aimed at)."""
EVERY = {"kalah": 5, "oware": 10}
"""Plies between the reported columns: a Kalah(6,4) game lasts about 40 plies, an Oware game several times that."""
AREA = "table_reach"
AREA_TITLE = "Endgame tables in real games"
AREA_ORDER = 4.5
"""Right after "Kalah endgame tables and proofs" (order 4)."""
AREA_ABOUT = (
    "How much of a real game the endgame tables answer. A table answers a position exactly when the seeds "
    "left in the pits (not the stores) are at most its top seed count; sowing never adds seeds to the board, "
    "so a game that is inside stays inside. The games are engine against engine at a fixed time per move, "
    "both colours from balanced openings (ai.tournament.compare), kept with every move in bench/data/ so the "
    "figures can be recomputed without replaying them. A share counts the positions still in play at that "
    "ply (games that have ended drop out); 'half the games inside by ply' counts every game, a game that "
    "ended before reaching the threshold as never inside."
)


def resolve_engine(game: Game, name: str) -> str:
    """A preset name (Hard, Strongest: ``ai/data/presets.yaml``) as its engine spec; any other text as is."""
    return registry.presets(game).get(name, name)


def play(args: argparse.Namespace) -> None:
    if len(args.engine) != 2:
        raise SystemExit(f"give exactly two --engine options (got {len(args.engine)}), e.g. --engine Hard "
                         "--engine Strongest")
    load_at_start = os.getloadavg()[0]
    started = time.perf_counter()

    def progress(done: int, total: int, partial: Any) -> None:
        print(f"game {done}/{total}: {partial.records[-1].plies} plies", file=sys.stderr, flush=True)

    try:
        game = parse_game_spec(args.game)
        specs = [resolve_engine(game, name) for name in args.engine]
        if any(registry.parse_engine_spec(spec)[1].get("tables") for spec in specs):
            from bench.bench_openspiel import prepare_tables

            for spec in specs:  # built before the games (as the game would on first use), not during them
                prepare_tables(game, spec, None, threads=1)
        result = compare(game, specs[0], specs[1], games=args.games, jobs=args.jobs, openings=args.openings,
                         opening_plies=args.opening_plies, seed=args.seed, time_limit=args.time_limit,
                         progress=progress)
    except (RulesError, EngineError, ValueError) as error:  # a bad game, spec, time limit: say which
        raise SystemExit(f"bench_table_reach.py play: {error}") from None
    document = json.loads(result.to_json())
    document["played"] = {
        "command": recorder.command(), "engines as named": list(args.engine),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "machine": recorder.machine(),
        "load": f"{load_at_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
        "seconds": round(time.perf_counter() - started), "commit": recorder.commit(),
    }
    from guarded.files import write_atomically

    write_atomically(Path(args.out), json.dumps(document, indent=1) + "\n")
    print(result.table())
    print(f"records written to {args.out}")


# -- reading records and counting ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RecordSet:
    """The games of one records file, each as the board seeds of the positions where a move was chosen."""

    label: str
    game: str
    """The game's name (``kalah``, ``oware``): it chooses the default thresholds."""
    seeds: tuple[tuple[int, ...], ...]
    """Per game, the seeds in the pits before ply 0, 1, ... (the final position, with no move, left out)."""
    played: dict[str, Any]


def game_label(game: Any) -> str:
    """'Kalah(6,4), empty capture', 'Kalah(6,4), standard rule', 'Oware abapa' ..."""
    if game.name == "kalah":
        return f"{recorder.game_label(game)}, {'empty capture' if game.empty_capture else 'standard rule'}"
    return "Oware abapa" if game.name == "oware" else game.title


def board_seeds(game: Game, moves: Sequence[str]) -> tuple[int, ...]:
    """The seeds in the pits before each of ``moves`` (parsed and checked as they are replayed)."""
    state = game.initial_state()
    seeds = []
    for text in moves:
        seeds.append(sum(state.pits))  # Kalah and Oware states: South's pits then North's
        state = game.apply(state, game.parse_move(state, text))
    return tuple(seeds)


def read_records(path: Path) -> RecordSet:
    """A ``play`` records file, replayed; a clear error for a file that is not one, or has no moves."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SystemExit(f"cannot read the records {path}: {error}") from None
    if not isinstance(document, dict) or "game" not in document or not isinstance(document.get("games"), list):
        raise SystemExit(f"{path} is not a tournament's JSON (expected the keys game and games, as "
                         "bench_table_reach.py play writes)")
    game = parse_game_spec(document["game"])
    if not hasattr(game.initial_state(), "pits"):
        raise SystemExit(f"{path}: {game.title} has no pits to count seeds in (expected Kalah or Oware)")
    seeds = []
    for item in document["games"]:
        if "moves" not in item:
            raise SystemExit(f"{path}: game {item.get('index', '?')} has no moves (a file written before "
                             "game records kept them); make the records with bench_table_reach.py play")
        try:
            seeds.append(board_seeds(game, item["moves"]))
        except Exception as error:  # noqa: BLE001 - any unreadable move: name the game and the reason
            raise SystemExit(f"{path}: game {item.get('index', '?')} does not replay: {error}") from None
    return RecordSet(game_label(game), game.name, tuple(seeds), document.get("played", {}))


@dataclass(frozen=True)
class Reach:
    """One threshold's figures over a set of games."""

    threshold: int
    plies: tuple[int, ...]
    """The plies reported (0, every, 2 every, ...)."""
    in_play: tuple[int, ...]
    """Games still in play at each of those plies."""
    shares: tuple[float, ...]
    """Of those games, the share whose board seeds are at most the threshold."""
    mean_seeds: tuple[float, ...]
    half_inside: int | None
    """The first ply by which half of all the games have been inside (None: never)."""
    inside_at_end: int
    """Games that were inside before they ended."""
    overall: float
    """The share of all the positions where a move was chosen that were inside."""


def entry_ply(seeds: Sequence[int], threshold: int) -> int | None:
    """The first ply whose board seeds are at most ``threshold`` (None when the game ended before)."""
    return next((ply for ply, count in enumerate(seeds) if count <= threshold), None)


def reach(games: Sequence[Sequence[int]], threshold: int, every: int = 10, min_games: int = 1) -> Reach:
    """Count ``games`` (each its board seeds ply by ply) against ``threshold``, at plies 0, every, ...,
    as long as at least ``min_games`` games are still in play."""
    if not games:
        raise ValueError("no games to count")
    if every < 1 or min_games < 1:
        raise ValueError(f"every and min_games must be at least 1, not {every} and {min_games}")
    plies, in_play, shares, means = [], [], [], []
    ply = 0
    while True:
        counts = [seeds[ply] for seeds in games if len(seeds) > ply]
        if len(counts) < min_games or not counts:
            break
        plies.append(ply)
        in_play.append(len(counts))
        shares.append(sum(count <= threshold for count in counts) / len(counts))
        means.append(sum(counts) / len(counts))
        ply += every
    entries = sorted(math.inf if (first := entry_ply(seeds, threshold)) is None else first for seeds in games)
    half = entries[math.ceil(len(games) / 2) - 1]
    positions = sum(len(seeds) for seeds in games)
    inside = sum(count <= threshold for seeds in games for count in seeds)
    return Reach(threshold, tuple(plies), tuple(in_play), tuple(shares), tuple(means),
                 None if half == math.inf else int(half), sum(entry != math.inf for entry in entries),
                 inside / positions if positions else 0.0)


def describe(records: RecordSet, reaches: Sequence[Reach]) -> str:
    lengths = [len(seeds) for seeds in records.seeds]
    lines = [f"{records.label}: {len(lengths)} games, {sum(lengths) / len(lengths):.1f} plies on average "
             f"({min(lengths)}..{max(lengths)})"]
    first = reaches[0]
    lines.append("ply            " + " ".join(f"{ply:>5}" for ply in first.plies))
    lines.append("in play        " + " ".join(f"{count:>5}" for count in first.in_play))
    lines.append("mean seeds     " + " ".join(f"{mean:>5.1f}" for mean in first.mean_seeds))
    for item in reaches:
        lines.append(f"<= {item.threshold:>2} seeds    " + " ".join(f"{100 * s:>4.0f}%" for s in item.shares)
                     + f"   half the games inside by ply {item.half_inside if item.half_inside is not None else '-'}"
                     f"; {item.inside_at_end}/{len(lengths)} games ever; {100 * item.overall:.0f}% of positions")
    return "\n".join(lines)


def record_figures(condition: str | None, records: RecordSet, reaches: Sequence[Reach], source: str) -> None:
    """The headline figures as rows of ``bench/results/table_reach.json``, and the ply-by-ply table beside them."""
    if condition is None:
        return
    from guarded.files import write_atomically

    path = recorder.RESULTS / f"{AREA}.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"entries": []}
    data.update(title=AREA_TITLE, order=AREA_ORDER, about=AREA_ABOUT)
    write_atomically(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    lengths = [len(seeds) for seeds in records.seeds]
    games = len(lengths)
    yardstick = f"games of {sum(lengths) / games:.0f} plies on average ({min(lengths)}..{max(lengths)})"
    for item in reaches:
        half = "never" if item.half_inside is None else f"ply {item.half_inside}"
        recorder.record(condition, AREA, f"{records.label}, {games} games, tables of up to {item.threshold} seeds: "
                        "half the games inside by", f"{half}; {100 * item.overall:.0f}% of all positions played "
                        f"inside; {item.inside_at_end} of {games} games ever", yardstick=yardstick)
    data = json.loads(path.read_text(encoding="utf-8"))
    shares = {str(item.threshold): [round(100 * share, 1) for share in item.shares] for item in reaches}
    table = {"label": records.label, "games": games, "source": source, "played": records.played,
             "plies": list(reaches[0].plies), "in_play": list(reaches[0].in_play),
             "mean_seeds": [round(mean, 1) for mean in reaches[0].mean_seeds], "shares_percent": shares,
             "half_inside": {str(item.threshold): item.half_inside for item in reaches}}
    data["by_ply"] = [old for old in data.get("by_ply", []) if old.get("label") != records.label] + [table]
    data["by_ply"].sort(key=lambda old: old["label"])
    write_atomically(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def reach_command(args: argparse.Namespace) -> None:
    paths = [Path(path) for path in args.records] or [DATA / name for name in RECORD_SETS]
    for path in paths:
        records = read_records(path)
        thresholds = args.thresholds or THRESHOLDS.get(records.game)
        if not thresholds:
            raise SystemExit(f"{path}: no default thresholds for {records.game}; give --thresholds 12,16")
        every = args.every or EVERY.get(records.game, 10)
        reaches = [reach(records.seeds, threshold, every, args.min_games) for threshold in thresholds]
        print(describe(records, reaches) + "\n")
        try:
            source = str(path.resolve().relative_to(ROOT))
        except ValueError:
            source = str(path)
        record_figures(args.record, records, reaches, source)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def _thresholds(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seed counts separated by commas, such as 18,22, not {text!r}")
    if any(value < 0 for value in values):
        raise argparse.ArgumentTypeError(f"seed counts are 0 or more, not {text!r}")
    return values


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="what", required=True)
    playing = commands.add_parser("play", help="play a tournament whose records keep the moves")
    playing.add_argument("--game", required=True, help="kalah, kalah:empty_capture=false, oware ...")
    playing.add_argument("--engine", action="append", default=[], help="a preset name (Hard) or an engine spec; twice")
    playing.add_argument("--games", type=_positive, default=40)
    playing.add_argument("--openings", type=int, default=20, help="balanced openings (each played both colours)")
    playing.add_argument("--opening-plies", type=_positive, default=4)
    playing.add_argument("--time-limit", type=float, default=None, help="seconds per move for both engines")
    playing.add_argument("--seed", type=int, default=0)
    playing.add_argument("--jobs", type=_positive, default=1)
    playing.add_argument("--out", required=True, help="the records file to write (JSON)")
    counting = commands.add_parser("reach", help="count the board seeds in played games")
    counting.add_argument("--records", action="append", default=[], metavar="FILE",
                          help="a records file from play (repeatable; default: the sets in bench/data/)")
    counting.add_argument("--thresholds", type=_thresholds, default=None,
                          help="top seed counts, e.g. 18,22 (default: Kalah 18,22; Oware 12,16,18,20)")
    counting.add_argument("--every", type=_positive, default=None,
                          help="report every this many plies (default: Kalah 5, Oware 10)")
    counting.add_argument("--min-games", type=_positive, default=10,
                          help="stop the ply columns when fewer games are still in play (default 10)")
    recorder.add_flag(counting)
    args = parser.parse_args(argv)
    play(args) if args.what == "play" else reach_command(args)


if __name__ == "__main__":
    main()
