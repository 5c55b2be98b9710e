"""The sequential probability ratio test on game pairs, as fishtest runs it: "is engine A stronger?"

A test asks which of two hypotheses the games support: H0, A is ``elo0`` points stronger than B (usually 0),
or H1, A is ``elo1`` points stronger (a small gain, say 5 or 10).  Games are played in colour-swapped pairs
from the same opening, and each pair gives A 0, 1/2, 1, 3/2 or 2 points: the *pentanomial* counts.  A pair's
two games share an opening, so they are correlated; counting pairs, not games, takes that into account and
gives a smaller variance, hence shorter tests, than the win/draw/loss (trinomial) counts.

The statistic is the generalized log-likelihood ratio (GLLR) of Michel Van den Bergh's notes that fishtest
uses (``LLRcalc.py``): for each hypothesis, the maximum-likelihood pentanomial distribution whose expected
pair score is that hypothesis's score, given the observed frequencies; then

    LLR = N * sum_i p_i * log(q1_i / q0_i)

over the five outcomes, where ``p`` are the observed frequencies over ``N`` pairs and ``q0``, ``q1`` the two
constrained maximum-likelihood distributions.  The test accepts H1 when the LLR reaches
``log((1 - beta) / alpha)`` and H0 when it falls to ``log(beta / (1 - alpha))`` (Wald's bounds): with these,
the chance of accepting H1 when H0 is true is about ``alpha``, and of accepting H0 when H1 is true about
``beta``.  Fishtest's overshoot correction of the bounds is not applied (its effect is a slightly smaller error
rate than nominal, see the tests).

Elo models.  By default **logistic Elo**, the model of ``ai.elo`` and of fishtest's ``elo_model =
"logistic"``: ``elo0`` and ``elo1`` become expected scores per game ``1 / (1 + 10 ** (-elo / 400))`` and the
constraint is on the mean pair score (the pair's points divided by 2, on the same 0..1 scale); these are the
numbers cutechess-cli and ``stonecave compare`` print.  With ``model=normalized``, fishtest's current default,
the bounds are **normalized Elo** (nElo): the constraint is on the t-value ``(mean - 1/2) / sigma`` of the
pair score, with ``t = nelo * sqrt(2) / (800 / ln 10)`` for pairs (sigma per game is sqrt(2) times sigma per
pair); nElo does not depend on the draw rate, so bounds such as ``elo0=0,elo1=2`` mean the same at every
time control.  Both LLRs are checked against values published by fishtest (``tests/ai/test_ai_sprt.py``).

A count of zero is replaced by 1e-3 before the maximum-likelihood step, as fishtest does, so that the test is
defined from the first pair on.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Sequence

from ai.elo import elo_from_score, expected_score, format_elo

SIGNED_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")
"""How ``--sprt`` reads a number: ASCII digits (no ``٥`` or ``５``), an optional sign and decimal point."""
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A's score per game in a pair, by pentanomial outcome: 0, 1/2, 1, 3/2 or 2 points out of 2."""
ELO_MODELS = ("logistic", "normalized")
REGULARIZE = 1e-3
"""What a zero count becomes before the maximum-likelihood step (fishtest's value)."""

Pentanomial = tuple[int, int, int, int, int]


def pair_outcome(points: float) -> int:
    """The pentanomial outcome (0..4) of a pair in which A scored ``points`` (0, 0.5, 1, 1.5 or 2)."""
    index = round(2 * points)
    if not (0 <= index <= 4 and math.isclose(index, 2 * points)):
        raise ValueError(f"a game pair scores 0, 0.5, 1, 1.5 or 2 points, not {points}")
    return index


def _check_counts(counts: Sequence[float]) -> None:
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts have five entries (pairs scoring 0, 1/2, 1, 3/2, 2), not {len(counts)}")
    if min(counts) < 0:
        raise ValueError(f"counts cannot be negative: {tuple(counts)}")


def constrained_mle(frequencies: Sequence[float], values: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``values`` nearest ``frequencies`` (maximum likelihood) whose expectation is ``mean``.

    Maximising ``sum p_i log q_i`` subject to ``sum q_i = 1`` and ``sum q_i v_i = mean`` gives, with a Lagrange
    multiplier ``x``, ``q_i = p_i / (1 + x (v_i - mean))``, where ``x`` solves the secular equation
    ``sum p_i (v_i - mean) / (1 + x (v_i - mean)) = 0``.  Its left side decreases in ``x`` on the interval that
    keeps every ``q_i`` positive, so a Newton step guarded by bisection finds the root.  Every frequency must be
    positive and ``mean`` must lie strictly between the smallest and the largest value.
    """
    deviations = [v - mean for v in values]
    low_dev, high_dev = min(deviations), max(deviations)
    if not low_dev < 0 < high_dev:
        raise ValueError(f"the mean {mean} must lie strictly inside the values {tuple(values)}")
    if min(frequencies) <= 0:
        raise ValueError("every frequency must be positive (regularize zero counts first)")
    low, high = -1.0 / high_dev, -1.0 / low_dev  # 1 + x * d > 0 for every d inside this interval
    x = 0.0
    for _ in range(200):
        total = slope = 0.0
        for p, d in zip(frequencies, deviations):
            term = d / (1.0 + x * d)
            total += p * term
            slope -= p * term * term
        if total > 0:  # the root lies to the right (the function decreases)
            low = x
        else:
            high = x
        if abs(total) < 1e-15:
            break
        step = x - total / slope
        x = step if low < step < high else (low + high) / 2.0
        if high - low < 1e-15:
            break
    return [p / (1.0 + x * d) for p, d in zip(frequencies, deviations)]


def pentanomial_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Fishtest's generalized log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``), logistic Elo.

    ``counts`` are the pairs in which A scored 0, 1/2, 1, 3/2 and 2 points.  Positive values favour H1.
    """
    _check_counts(counts)
    regular = [c if c > 0 else REGULARIZE for c in counts]
    pairs = sum(regular)
    frequencies = [c / pairs for c in regular]
    q0 = constrained_mle(frequencies, PAIR_SCORES, expected_score(elo0))
    q1 = constrained_mle(frequencies, PAIR_SCORES, expected_score(elo1))
    return pairs * sum(p * math.log(b / a) for p, a, b in zip(frequencies, q0, q1))


NELO_PER_T = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value per game (fishtest's ``nelo_divided_by_nt``, about 347.4)."""


def constrained_t_mle(frequencies: Sequence[float], values: Sequence[float], reference: float,
                      t_value: float) -> list[float]:
    """The maximum-likelihood distribution on ``values`` whose t-value ``(mean - reference) / sigma`` is ``t_value``.

    The stationarity condition has the same form as for a fixed mean, ``q_i = p_i / (1 + x g_i)``, with
    ``g_i = v_i - reference - t sigma (1 + ((v_i - mean) / sigma) ** 2) / 2`` evaluated at the solution; so
    ``g`` is recomputed from the current estimate and the secular equation solved again until ``q`` settles
    (a fixed point, as in fishtest's ``MLE_t_value``).
    """
    q = list(frequencies)
    for _ in range(100):
        mean = sum(qi * v for qi, v in zip(q, values))
        sigma = math.sqrt(sum(qi * (v - mean) ** 2 for qi, v in zip(q, values)))
        weights = [v - reference - t_value * sigma * (1.0 + ((v - mean) / sigma) ** 2) / 2.0 for v in values]
        updated = constrained_mle(frequencies, weights, 0.0)
        settled = max(abs(a - b) for a, b in zip(updated, q)) < 1e-12
        q = updated
        if settled:
            break
    return q


def pentanomial_llr_normalized(counts: Sequence[float], nelo0: float, nelo1: float) -> float:
    """Fishtest's generalized log-likelihood ratio for bounds in normalized Elo (its ``LLR_normalized``)."""
    _check_counts(counts)
    regular = [c if c > 0 else REGULARIZE for c in counts]
    pairs = sum(regular)
    frequencies = [c / pairs for c in regular]
    t0, t1 = (nelo * math.sqrt(2.0) / NELO_PER_T for nelo in (nelo0, nelo1))
    q0 = constrained_t_mle(frequencies, PAIR_SCORES, 0.5, t0)
    q1 = constrained_t_mle(frequencies, PAIR_SCORES, 0.5, t1)
    return pairs * sum(p * math.log(b / a) for p, a, b in zip(frequencies, q0, q1))


def normal_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The normal approximation of the same ratio, ``N (s1 - s0) (2 s - s0 - s1) / (2 var)``.

    ``s`` and ``var`` are the mean and variance of the pair score; close to ``pentanomial_llr`` when ``elo0`` and
    ``elo1`` are near each other and near the observed Elo (a check, and what fishtest's ``LLR_alt2`` computes).
    """
    _check_counts(counts)
    regular = [c if c > 0 else REGULARIZE for c in counts]
    pairs = sum(regular)
    mean = sum(c * v for c, v in zip(regular, PAIR_SCORES)) / pairs
    variance = sum(c * (v - mean) ** 2 for c, v in zip(regular, PAIR_SCORES)) / pairs
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


@dataclass(frozen=True)
class PairElo:
    """The Elo difference from pentanomial counts, its interval and the likelihood of superiority."""

    pairs: int
    score: float
    """A's points per game, 0..1."""
    difference: float
    low: float
    high: float
    los: float
    """The probability that A is stronger at all (normal approximation), 0..1."""
    confidence: float = 0.95

    def format(self) -> str:
        """``+12 [-3, +27]``, or ``n/a`` before the first pair."""
        if math.isnan(self.difference):
            return "n/a"
        return f"{format_elo(self.difference)} [{format_elo(self.low)}, {format_elo(self.high)}]"


def pair_elo(counts: Sequence[int], confidence: float = 0.95) -> PairElo:
    """Elo from game pairs: the mean pair score +/- z standard errors of the pair score, converted to Elo.

    This is the interval fishtest prints for pentanomial results: a pair's two games are one sample, so the
    correlation of games from one opening is counted.  NaN everywhere when no pair has been played.
    """
    _check_counts(counts)
    pairs = int(sum(counts))
    if pairs == 0:
        return PairElo(0, math.nan, math.nan, math.nan, math.nan, math.nan, confidence)
    mean = sum(c * v for c, v in zip(counts, PAIR_SCORES)) / pairs
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, PAIR_SCORES)) / pairs
    error = math.sqrt(variance / pairs)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    clamp = lambda s: min(1.0, max(0.0, s))  # noqa: E731 - a one-line local helper
    if error > 0:
        los = NormalDist().cdf((mean - 0.5) / error)
    else:
        los = 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    return PairElo(pairs, mean, elo_from_score(mean), elo_from_score(clamp(mean - z * error)),
                   elo_from_score(clamp(mean + z * error)), los, confidence)


# -- the test -------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (logistic Elo of A over B) and the error rates of one test."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds (a false "stronger")."""
    beta: float = 0.05
    """The chance of accepting H0 when H1 holds (a missed gain)."""
    model: str = "logistic"
    """The Elo model of ``elo0`` and ``elo1``: ``logistic`` or ``normalized`` (see the module text)."""

    def __post_init__(self) -> None:
        if self.model not in ELO_MODELS:
            raise ValueError(f"model must be one of {', '.join(ELO_MODELS)}, not {self.model!r}")
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise ValueError(f"elo0 and elo1 must be finite numbers, not {self.elo0} and {self.elo1}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1 (got elo0={self.elo0:g}, elo1={self.elo1:g})")
        if not abs(self.elo0) < 2000 > abs(self.elo1):
            raise ValueError("elo0 and elo1 must lie within +/-2000")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must lie strictly between 0 and 0.5, not {value:g}")

    @property
    def lower_bound(self) -> float:
        """Accept H0 at or below this LLR: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """Accept H1 at or above this LLR: ``log((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    @classmethod
    def parse(cls, text: str) -> "SprtSettings":
        """``elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=logistic]``, the form of ``--sprt`` (as cutechess-cli's)."""
        values: dict[str, Any] = {}
        for item in text.split(","):
            if not item.strip():
                continue
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise ValueError(f"--sprt takes elo0=,elo1=[,alpha=,beta=,model=], not {item.strip()!r}")
            if key in values:
                raise ValueError(f"--sprt gives {key} twice")
            if key == "model":
                values[key] = value.strip()
                continue
            if not SIGNED_DECIMAL.fullmatch(value.strip()):  # the one rule for numbers: ASCII digits only
                raise ValueError(f"--sprt {key} must be a number written with the digits 0-9 (such as 5 or "
                                 f"-1.5), not {value.strip()[:40]!r}")
            values[key] = float(value)
        missing = [key for key in ("elo0", "elo1") if key not in values]
        if missing:
            raise ValueError(f"--sprt needs {' and '.join(missing)} (e.g. elo0=0,elo1=10)")
        return cls(**values)

    def describe(self) -> str:
        """``elo0=0 elo1=10 alpha=0.05 beta=0.05 (logistic Elo)``."""
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} ({self.model} Elo)"

    def llr(self, counts: Sequence[float]) -> float:
        """The LLR of ``counts`` for these bounds, in this model."""
        if self.model == "normalized":
            return pentanomial_llr_normalized(counts, self.elo0, self.elo1)
        return pentanomial_llr(counts, self.elo0, self.elo1)


H0 = "H0"
H1 = "H1"


@dataclass(frozen=True)
class SprtState:
    """Where a test stands after some pairs: the counts, the LLR, its bounds and the verdict (None: go on)."""

    settings: SprtSettings
    counts: Pentanomial
    llr: float
    verdict: str | None

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def elo(self) -> PairElo:
        return pair_elo(self.counts)

    def verdict_text(self) -> str:
        """The verdict in words (also what the JSON's ``sprt.verdict_text`` holds)."""
        s = self.settings
        unit = " nElo" if s.model == "normalized" else ""
        if self.verdict == H1:
            return f"H1 accepted: A is stronger than B by at least elo1={s.elo1:g}{unit} (alpha={s.alpha:g})"
        if self.verdict == H0:
            return f"H0 accepted: A is not stronger than B by more than elo0={s.elo0:g}{unit} (beta={s.beta:g})"
        return "no verdict: the game cap came first (LLR between its bounds)"

    def line(self) -> str:
        """``LLR +1.23 [-2.94, +2.94]``: the statistic against its bounds."""
        s = self.settings
        return f"LLR {self.llr:+.2f} [{s.lower_bound:+.2f}, {s.upper_bound:+.2f}]"

    def to_dict(self) -> dict:
        elo = self.elo()
        finite = lambda v: v if isinstance(v, float) and math.isfinite(v) else None  # noqa: E731
        s = self.settings
        return {
            "elo_model": s.model,
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "lower_bound": s.lower_bound, "upper_bound": s.upper_bound,
            "pairs": self.pairs, "pentanomial": list(self.counts), "llr": self.llr,
            "elo": finite(elo.difference), "elo_low": finite(elo.low), "elo_high": finite(elo.high),
            "los": finite(elo.los),
            "verdict": self.verdict, "verdict_text": self.verdict_text(),
        }


def sprt_state(settings: SprtSettings, counts: Sequence[int]) -> SprtState:
    """The test after ``counts`` (pentanomial), with H0 or H1 accepted once the LLR reaches a bound."""
    counts = tuple(int(c) for c in counts)
    llr = settings.llr(counts) if sum(counts) else 0.0
    verdict = H1 if llr >= settings.upper_bound else H0 if llr <= settings.lower_bound else None
    return SprtState(settings, counts, llr, verdict)  # type: ignore[arg-type]
