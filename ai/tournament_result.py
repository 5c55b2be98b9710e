"""A tournament's result: every game's record and the summary of each engine, as a table, CSV or JSON."""
from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from ai.elo import EloEstimate, elo_estimate, format_elo
from ai.game_play import GameRecord
from ai.openings import opening_text
from ai.sprt import SprtState, pair_elo
from rules import Move, parse_game_spec


@dataclass(frozen=True)
class EngineSummary:
    """One engine's line of the result table."""

    engine: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    """Points per game, 0..1."""
    elo: float
    elo_low: float
    elo_high: float
    moves: int
    mean_move_time: float
    max_move_time: float
    overruns: int
    fallbacks: int
    mean_depth: float
    forfeits: int


@dataclass
class TournamentResult:
    """The games of a tournament so far, and their summary (complete once ``compare`` returns)."""

    game: str
    specs: tuple[str, str]
    games_planned: int
    openings: list[tuple[Move, ...]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    records: list[GameRecord] = field(default_factory=list)
    pentanomial: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """Colour-swapped pairs in which A scored 0, 1/2, 1, 3/2 and 2 points (see ``ai.sprt``)."""
    sprt: SprtState | None = None
    """The SPRT's LLR and verdict, when the run was a sequential test."""

    def elo(self, side: int = 0) -> EloEstimate:
        """Engine A's (side 0) or B's (side 1) Elo difference over the other, with its 95% interval."""
        wins, draws, losses = self._results(side)
        return elo_estimate(wins, draws, losses)

    def _results(self, side: int) -> tuple[int, int, int]:
        me = "AB"[side]
        wins = sum(r.winner == me for r in self.records)
        draws = sum(r.winner is None for r in self.records)
        return wins, draws, len(self.records) - wins - draws

    def summary(self, side: int) -> EngineSummary:
        wins, draws, losses = self._results(side)
        games = len(self.records)
        stats = [r.stats[side] for r in self.records]
        moves = sum(s.moves for s in stats)
        estimate = elo_estimate(wins, draws, losses) if games else None
        return EngineSummary(
            engine=self.specs[side],
            games=games,
            wins=wins,
            draws=draws,
            losses=losses,
            score=estimate.score if estimate else math.nan,
            elo=estimate.difference if estimate else math.nan,
            elo_low=estimate.low if estimate else math.nan,
            elo_high=estimate.high if estimate else math.nan,
            moves=moves,
            mean_move_time=sum(s.total_time for s in stats) / moves if moves else 0.0,
            max_move_time=max((s.max_time for s in stats), default=0.0),
            overruns=sum(s.overruns for s in stats),
            fallbacks=sum(s.fallbacks for s in stats),
            mean_depth=sum(s.depth_sum for s in stats) / moves if moves else 0.0,
            forfeits=sum(r.forfeit is not None and r.winner != "AB"[side] for r in self.records),
        )

    def summaries(self) -> list[EngineSummary]:
        return [self.summary(0), self.summary(1)]

    def first_player_score(self) -> float:
        """Points per game of whoever moved first (a check on how balanced the openings are)."""
        points = 0.0
        for record in self.records:
            if record.winner is None:
                points += 0.5
            elif (record.winner == "A") == (record.a_seat == 0):
                points += 1.0
        return points / len(self.records) if self.records else math.nan

    # -- output -------------------------------------------------------------------------------------------------
    def table(self) -> str:
        """The result as an aligned text table."""
        rows = self.summaries()
        labels = [f"{side} {row.engine}" for side, row in zip("AB", rows)]
        width = max(len("engine"), *(len(label) for label in labels))
        header = (f"{'engine':<{width}}  {'W':>4} {'D':>4} {'L':>4}  {'score':>6}  {'Elo [95% interval]':<22}"
                  f"  {'s/move':>7} {'max s':>7} {'overruns':>8}")
        lines = [f"{self.game}: {len(self.records)} games, {len(self.openings)} opening(s)"
                 + (f", {self.settings['time_limit']:g} s per move" if self.settings.get("time_limit") else ""),
                 header, "-" * len(header)]
        for label, row in zip(labels, rows):
            elo = f"{format_elo(row.elo)} [{format_elo(row.elo_low)}, {format_elo(row.elo_high)}]"
            lines.append(
                f"{label:<{width}}  {row.wins:>4} {row.draws:>4} {row.losses:>4}  {100 * row.score:>5.1f}%"
                f"  {elo:<22}  {row.mean_move_time:>7.3f} {row.max_move_time:>7.3f} {row.overruns:>8}"
            )
        if self.records:
            lines.append(f"first player scored {100 * self.first_player_score():.1f}%")
        forfeits = [r for r in self.records if r.forfeit]
        for record in forfeits[:3]:
            lines.append(f"game {record.index} forfeited: {(record.forfeit or '').splitlines()[0]}")
        if len(forfeits) > 3:
            lines.append(f"... and {len(forfeits) - 3} more forfeits")
        if any(self.pentanomial):
            lines.append(f"pairs {sum(self.pentanomial)}: pentanomial {list(self.pentanomial)} "
                         f"(A scored 0, 1/2, 1, 3/2, 2 points), Elo {pair_elo(self.pentanomial).format()}")
        if self.sprt is not None:
            lines.append(f"SPRT {self.sprt.settings.describe()}: {self.sprt.line()}")
            lines.append(self.sprt.verdict_text())
        return "\n".join(lines)

    def to_csv(self) -> str:
        """One row per engine, every column of ``EngineSummary`` (infinite Elo written as inf / -inf)."""
        out = io.StringIO()
        names = list(EngineSummary.__dataclass_fields__)
        writer = csv.DictWriter(out, fieldnames=["game", *names], lineterminator="\n")
        writer.writeheader()
        for row in self.summaries():
            writer.writerow({"game": self.game, **asdict(row)})
        return out.getvalue()

    def to_json(self) -> str:
        """Summary, settings, openings and every game's record (infinite or undefined Elo written as null)."""
        game = parse_game_spec(self.game)
        document = {
            "game": self.game,
            "engines": list(self.specs),
            "settings": self.settings,
            "summary": [_finite(asdict(row)) for row in self.summaries()],
            "first_player_score": _finite_value(self.first_player_score()),
            "pentanomial": list(self.pentanomial),
            "pair_elo": _finite(asdict(pair_elo(self.pentanomial))),
            "sprt": None if self.sprt is None else self.sprt.to_dict(),
            "openings": [opening_text(game, moves) for moves in self.openings],
            "games": [asdict(record) for record in self.records],
        }
        return json.dumps(document, indent=2)


def _finite_value(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _finite(row: dict[str, Any]) -> dict[str, Any]:
    return {key: _finite_value(value) for key, value in row.items()}

