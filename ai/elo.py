"""Elo differences from match results, with a confidence interval.

The logistic Elo model: a player rated ``d`` points above the opponent is expected to score
``1 / (1 + 10 ** (-d / 400))`` per game.  Inverting it turns a match score into a rating difference.

The interval is the one cutechess-cli and most engine testers print: the per-game score is treated as a
random variable taking 1, 1/2 or 0 with the observed frequencies; its mean plus or minus ``z`` standard
errors (``z`` = 1.96 for 95%) is converted to Elo at both ends.  With a perfect or a zero score the
difference is infinite, and so is one end of the interval.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


def score_fraction(wins: int, draws: int, losses: int) -> float:
    """Points per game: (wins + draws / 2) / games."""
    games = wins + draws + losses
    if games <= 0:
        raise ValueError("no games played: a score needs at least one result")
    return (wins + 0.5 * draws) / games


def elo_from_score(score: float) -> float:
    """The Elo difference that predicts ``score`` points per game (+inf at 1, -inf at 0)."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score per game lies between 0 and 1, not {score}")
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(elo_difference: float) -> float:
    """Points per game expected of a player ``elo_difference`` points stronger (the inverse of elo_from_score)."""
    return 1.0 / (1.0 + 10.0 ** (-elo_difference / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and its confidence interval, from one side's wins, draws and losses."""

    wins: int
    draws: int
    losses: int
    difference: float
    low: float
    high: float
    confidence: float = 0.95

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return score_fraction(self.wins, self.draws, self.losses)

    @property
    def margin(self) -> float:
        """Half the interval's width (infinite when either end is)."""
        return (self.high - self.low) / 2.0

    def format(self) -> str:
        """``+70 [+1, +142]``: the difference and its interval, rounded to whole points."""
        return f"{format_elo(self.difference)} [{format_elo(self.low)}, {format_elo(self.high)}]"


def format_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def elo_estimate(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """The Elo difference implied by a match result and its ``confidence`` interval (see the module text)."""
    if min(wins, draws, losses) < 0:
        raise ValueError(f"results cannot be negative: {wins} wins, {draws} draws, {losses} losses")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence lies strictly between 0 and 1, not {confidence}")
    games = wins + draws + losses
    score = score_fraction(wins, draws, losses)
    variance = (
        wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * (0.0 - score) ** 2
    ) / games
    error = math.sqrt(variance / games)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    low = elo_from_score(min(1.0, max(0.0, score - z * error)))
    high = elo_from_score(min(1.0, max(0.0, score + z * error)))
    return EloEstimate(wins, draws, losses, elo_from_score(score), low, high, confidence)
