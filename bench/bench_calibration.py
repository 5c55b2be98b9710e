"""Fit and measure the calibration of the search's scores (``ai.calibration``) on positions of known value.

    nice -n 5 python bench/bench_calibration.py --fit --tables DIR [--samples DIR2] [--record]  # fit, write, measure
    nice -n 5 python bench/bench_calibration.py --tables DIR [--record]         # measure the shipped curves only

``DIR`` holds the Kalah tables of both capture rules and Oware's (``stonecave tables build kalah --seeds 16
--folder DIR``, the same with ``kalah:empty_capture=false``, and ``oware --seeds 14``).  The positions and their
values come from ``bench/calibration_data.py`` (seeded playouts; tables, the prover, the cave's solver, or games
played on by a strong engine).  The fit uses the seeds ``0..fit-1`` of each game, the measuring run the held-out
seeds from ``HELD_OUT`` on, so no position of the measure was seen by the fit.

Measured per game, before (the raw score read as seeds, the cave's placeholder logistic) and after calibration:
the mean absolute error of the expected margin against the exact value, overall and by move number, and how
often its sign is right (a margin within 0.5 of 0 reads as even); for the cave the Brier score of the three
chances and how often the most likely outcome is the true one.  Positions the search itself proved pass
through exactly in both readings; the figures are over the others (the heuristic scores).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai import calibration  # noqa: E402
from ai.tables import ENV  # noqa: E402
from bench import calibration_data as data  # noqa: E402
from bench.record import RESULTS, add_flag, record  # noqa: E402
import rules  # noqa: E402

HELD_OUT = 100_000
"""The first seed of the measuring run: far from the fit's seeds."""
STAGE_EDGES = {"board seeds": (8, 14, 20, 26, 32, 40, 48), "turns": (4, 8, 14, 22, 34, 5000),
               "empty cells": (12, 20, 28, 36, 44, 52, 64)}
"""The stages a game's curves are fitted for (the upper end of each): seeds on the board (Kalah, Oware),
turns (Hus), empty cells (the cave)."""
MIN_STAGE = 16
"""A stage with fewer fitted positions is merged into the next."""
MOVE_BUCKETS = (0, 10, 20, 30, 40, 60, 1000)
"""The move numbers (plies from the start) the measure is reported by."""


# -- the fit -------------------------------------------------------------------------------------------------------
SHRINK = 20
"""A stage's fitted slope is pulled toward the raw reading's (1 seed per score unit) as if this many positions
read raw: a stage with few positions stays near the raw reading."""
SATURATIONS = (None, 96.0, 64.0, 48.0, 32.0, 24.0, 16.0, 12.0, 8.0)
"""The margins a stage's curve may level off toward (None: a straight line), for games whose true margins
cluster at the game's result (Hus: nearly all the seeds)."""
SLOPES = tuple(round(calibration.MIN_SLOPE + 0.05 * step, 2)
               for step in range(int(round((calibration.MAX_SLOPE - calibration.MIN_SLOPE) / 0.05)) + 1))


def smooth_margin(score: float, slope: float, level: float | None) -> float:
    """The smooth curve: ``level * tanh(slope * score / level)`` (a straight line ``slope * score`` without a
    level): through 0 at a score of 0, steepest there, never steeper than ``slope``."""
    if level is None:
        return slope * score
    return level * math.tanh(slope * score / level)


def curve_of(points: list[tuple[float, float]], upto: int) -> dict[str, Any]:
    """The smooth curve through ``points`` with the least absolute error: a slope within the band
    ``calibration.MIN_SLOPE..MAX_SLOPE`` (shrunk toward 1 where the stage has few positions) and a level it
    tends to, as knots (the shipped format: piecewise-linear, so a chord is never steeper than the slope)."""
    def error(slope: float, level: float | None) -> float:
        return sum(abs(smooth_margin(score, slope, level) - value) for score, value in points)

    _, slope, level = min((error(slope, level), slope, level) for level in SATURATIONS for slope in SLOPES)
    count = len(points)
    slope = 1.0 + (slope - 1.0) * count / (count + SHRINK)
    return curve_stage(upto, slope, level)


def curve_stage(upto: int, slope: float, level: float | None) -> dict[str, Any]:
    if level is None:
        xs = [-1.0, 1.0]
        tail = slope
    else:
        reach = 3.0 * level / slope  # tanh(3) = 0.995: the curve has levelled off
        xs = [reach * (index / 12.0 - 1.0) for index in range(25)]
        tail = 0.0
    return {"upto": upto, "knots": [[round(x, 3), round(smooth_margin(x, slope, level), 3)] for x in xs],
            "tail": round(tail, 4), "slope": round(slope, 3), "level": level}


def as_stage(stage: dict[str, Any]) -> calibration.MarginStage:
    return calibration.MarginStage(stage["upto"], tuple(x for x, _ in stage["knots"]),
                                   tuple(y for _, y in stage["knots"]), stage["tail"], 1.0)


def fit_margin(points: list[tuple[float, float]], upto: int) -> dict[str, Any]:
    """One sowing stage: the fitted curve when it beats the raw reading in a two-fold cross-validation on the
    fit's own positions (absolute error), else the raw reading; and the spread of the margins around it."""
    folds = (points[0::2], points[1::2])
    fitted_error = raw_error = 0.0
    for train, test in (folds, folds[::-1]):
        if len(train) < 4 or not test:
            fitted_error = float("inf")
            break
        curve = as_stage(curve_of(train, upto))
        fitted_error += sum(abs(curve.margin(score) - value) for score, value in test)
        raw_error += sum(abs(score - value) for score, value in test)
    stage = curve_of(points, upto) if fitted_error < raw_error else curve_stage(upto, 1.0, None)
    curve = as_stage(stage)
    residual = sum((value - curve.margin(score)) ** 2 for score, value in points) / len(points)
    stage["spread"] = round(max(0.5, residual ** 0.5), 3)
    return stage


def brier(chances: tuple[float, float, float], value: float) -> float:
    truth = (float(value > 0), float(value == 0), float(value < 0))
    return sum((p - t) ** 2 for p, t in zip(chances, truth))


def fit_chances(points: list[tuple[float, float]], upto: int) -> dict[str, Any]:
    """One cave stage: the ordered logistic with the least Brier score, by a coarse then a fine grid; its offset
    stays 0, so a positive score never reads as the other side winning (the sign of the score is the sign of
    the reading, as for the sowing games' margins)."""
    def loss(offset: float, scale: float, draw: float) -> float:
        stage = calibration.ChanceStage(upto, offset, scale, draw)
        return sum(brier(stage.chances(score), value) for score, value in points)

    best = (float("inf"), 0.0, 200.0, 0.5)
    scales = [10 * 1.25 ** k for k in range(28)]
    for offset in (0,):
        for scale in scales:
            for draw in (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0):
                best = min(best, (loss(offset, scale, draw), float(offset), scale, draw))
    _, offset, scale, draw = best
    for step in (10.0, 3.0):
        for d_offset in (0,):
            for factor in (0.8, 0.9, 1.0, 1.1, 1.25):
                for d_draw in (-0.2, -0.1, 0.0, 0.1, 0.2):
                    candidate = (offset + d_offset * step, scale * factor, max(0.0, draw + d_draw))
                    best = min(best, (loss(*candidate), *candidate))
        _, offset, scale, draw = best
    return {"upto": upto, "offset": round(offset, 2), "scale": round(scale, 2), "draw": round(draw, 3)}


def fit_game(game: Any, samples: list[data.Sample]) -> dict[str, Any]:
    """A game's entry of the calibration file from its fit samples."""
    measure = calibration.measure_name(game)
    usable = [sample for sample in samples if not sample.proven]
    stages: list[dict[str, Any]] = []
    waiting: list[data.Sample] = []
    edges = STAGE_EDGES[measure]
    for position, edge in enumerate(edges):
        low = edges[position - 1] if position else -1
        waiting += [sample for sample in usable if low < sample.stage <= edge]
        if len(waiting) < MIN_STAGE and position < len(edges) - 1:
            continue
        if len(waiting) < MIN_STAGE and stages:  # the last stage is small: fold it into the one before
            stages[-1]["upto"] = edge
            continue
        if len(waiting) < 2:
            break
        points = [(sample.score, sample.value) for sample in waiting]
        stages.append(fit_chances(points, edge) if measure == "empty cells" else fit_margin(points, edge))
        waiting = []
    entry: dict[str, Any] = {"measure": measure, "depth": data.SEARCH_DEPTHS[game.name],
                             "positions": len(usable), "stages": stages}
    if calibration.has_seeds(game):
        entry["draw_width"] = 1.0 if game.name == "kalah" else 0.5
    return entry


# -- the measure ---------------------------------------------------------------------------------------------------
def sign(value: float) -> int:
    return 0 if abs(value) < 0.5 else (1 if value > 0 else -1)


def most_likely(chances: tuple[float, float, float]) -> int:
    return (1, 0, -1)[max(range(3), key=lambda index: chances[index])]


def measure(game: Any, samples: list[data.Sample], fitted: calibration.Calibration) -> dict[str, Any]:
    """Before and after: overall and by move number."""
    rows: list[tuple[int, float, float, float, float]] = []  # (ply, error or brier before, after, right before, after)
    for sample in samples:
        if sample.proven:
            continue
        state = game.from_text(sample.text)
        before = calibration.expect(game, state, sample.score, calibration=calibration.PLACEHOLDER)
        after = calibration.expect(game, state, sample.score, calibration=fitted)
        if before.margin is not None and after.margin is not None:
            raw = data.raw_margin(sample.score)
            rows.append((sample.ply, abs(raw - sample.value), abs(after.margin - sample.value),
                         float(sign(raw) == sign(sample.value)), float(sign(after.margin) == sign(sample.value))))
        else:
            chances_before = (before.win, before.draw, before.loss)
            chances_after = (after.win, after.draw, after.loss)
            rows.append((sample.ply, brier(chances_before, sample.value), brier(chances_after, sample.value),
                         float(most_likely(chances_before) == sample.value),
                         float(most_likely(chances_after) == sample.value)))

    def summary(part: list[tuple[int, float, float, float, float]]) -> dict[str, Any]:
        count = len(part)
        return {"positions": count, **{key: round(sum(row[i] for row in part) / count, 3) if count else None
                                       for i, key in enumerate(("before", "after", "right_before", "right_after"), 1)}}

    buckets = []
    for low, high in zip(MOVE_BUCKETS, MOVE_BUCKETS[1:]):
        buckets.append({"moves": f"{low}-{high - 1}" if high < 1000 else f"{low}+",
                        **summary([row for row in rows if low <= row[0] < high])})
    sources: dict[str, int] = {}
    for sample in samples:
        sources[sample.source] = sources.get(sample.source, 0) + 1
    return {"all": summary(rows), "by_move": buckets, "proven": sum(sample.proven for sample in samples),
            "sources": sources}


# -- the run -------------------------------------------------------------------------------------------------------
REUSED: list[str] = []
"""The sample files this run read back instead of finding the positions' values again."""


def collect(spec: str, seeds: range, label: str, cache: Path | None = None) -> list[data.Sample]:
    """The samples of ``seeds``, from ``cache`` (a folder) when an earlier run kept them there."""
    game = rules.parse_game_spec(spec)
    depth = data.SEARCH_DEPTHS[game.name]
    name = f"{game.name}-{zlib.crc32(spec.encode()) % 10**6}-{seeds.start}-{seeds.stop}-d{depth}.jsonl"
    kept = None if cache is None else cache / name
    if kept is not None and kept.is_file():
        REUSED.append(str(kept))
        found = [data.Sample(**json.loads(line)) for line in kept.read_text(encoding="utf-8").splitlines()]
        print(f"{label}: {len(found)} positions from {kept}", flush=True)
        return found
    started = time.process_time()
    found = list(data.samples(spec, seeds))
    print(f"{label}: {len(found)} positions in {time.process_time() - started:.0f} CPU s", flush=True)
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text("".join(json.dumps(sample.__dict__) + "\n" for sample in found), encoding="utf-8")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", action="store_true", help="fit the curves and write ai/data/calibration.json")
    parser.add_argument("--tables", required=True, help="the folder of the Kalah and Oware tables")
    parser.add_argument("--games", type=int, default=200, help="playouts per game for the fit (3 positions each)")
    parser.add_argument("--held-out", type=int, default=100, help="playouts per game for the measure")
    parser.add_argument("--only", default=None, help="one game's label (e.g. Hus): a quick look, never recorded")
    parser.add_argument("--output", type=Path, default=calibration.DATA_FILE)
    parser.add_argument("--samples", type=Path, default=None,
                        help="a folder keeping the positions and values found, reused by a later run (a refit)")
    add_flag(parser)
    args = parser.parse_args(argv)
    os.environ[ENV] = args.tables
    started = time.process_time()
    chosen = {label: spec for label, spec in data.GAMES.items() if args.only in (None, label)}
    if not chosen:
        raise SystemExit(f"--only names one of {', '.join(data.GAMES)}, not {args.only!r}")
    if args.fit:
        entries = {}
        for label, spec in chosen.items():
            game = rules.parse_game_spec(spec)
            entries[game.spec] = fit_game(game, collect(spec, range(args.games), f"{label}, fit", args.samples))
        if args.only is None:
            text = json.dumps({"format": calibration.FORMAT, "about": (
                "Fitted by python bench/bench_calibration.py --fit: score of the search at the fixed depth -> final "
                "margin (a smooth curve through 0, its slope within a band, as knots) or chances (ordered logistic), "
                "per stage of the game. See "
                "docs/engines.md."), "games": entries}, indent=1)
            from guarded.files import write_atomically

            write_atomically(args.output, text + "\n")
            print(f"wrote {args.output}")
        fitted = calibration.parse({"format": calibration.FORMAT, "games": entries})
    else:
        fitted, problem = calibration.load(args.output)
        if problem:
            raise SystemExit(problem)
    results = {}
    for label, spec in chosen.items():
        game = rules.parse_game_spec(spec)
        held = collect(spec, range(HELD_OUT, HELD_OUT + args.held_out), f"{label}, held out", args.samples)
        results[label] = measure(game, held, fitted)
        print(label, json.dumps(results[label]), flush=True)
    cpu = time.process_time() - started
    print(f"{cpu:.0f} CPU s in all")
    if args.record is not None and args.only is None:
        write_record(args.record, results, cpu)
    return 0


def write_record(condition: str, results: dict[str, dict[str, Any]], cpu: float) -> None:
    for label, result in results.items():
        overall = result["all"]
        cave = label == "Magnetic Cave"
        what = "Brier score of win/draw/loss" if cave else "mean absolute error of the expected margin"
        unit = "" if cave else "seeds"
        record(condition, "calibration", f"{label}: {what}, {overall['positions']} held-out positions",
               overall["after"], unit, yardstick=f"uncalibrated reading: {overall['before']}",
               ratio=overall["after"] / overall["before"] if overall["before"] else None)
        right = "most likely outcome right" if cave else "sign of the margin right"
        record(condition, "calibration", f"{label}: {right}", round(100 * overall["right_after"], 1), "%",
               yardstick=f"uncalibrated reading: {100 * overall['right_before']:.1f}%")
    path = RESULTS / "calibration.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    stored.update({
        "title": "Calibration: the search's score in the game's own units", "order": 4.8,
        "about": (
            "How close the value a player is shown (ai/calibration.py: the expected final seed margin, or the "
            "chances of each outcome in Magnetic Cave) is to the exact value, on held-out positions from seeded "
            "playouts (other seeds than the fit's), before calibration (the search's score read as seeds; the "
            "cave's placeholder logistic) and after. Score: the compiled PVS search at a fixed depth (Kalah and "
            "Oware 16, Hus 8, the cave 8), no tables. Exact values: Kalah's and Oware's endgame tables (0..16 and "
            "0..14 seeds), the Kalah prover, the cave's endgame solver; positions beyond them are played on by a "
            "strong engine until the tables or the solver answer (Hus: to the end of the game, a weaker ground "
            "truth). Positions the search proved itself pass through exactly and are left out. "
            + (f"The whole run (fit and measure) took {cpu / 60:.1f} CPU minutes." if not REUSED else
               "This run refitted on the positions and values an earlier run kept (--samples), so the time to "
               f"find them is not in it: the fit and measure took {cpu:.0f} CPU s.")),
        "by_move": [{"label": label, **result} for label, result in results.items()]})
    from guarded.files import write_atomically

    write_atomically(path, json.dumps(stored, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
