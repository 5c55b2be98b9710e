"""The SPRT statistics (``ai.sprt``): the constrained maximum-likelihood step, the pentanomial LLR against its
normal approximation and its symmetries, hand-computed cases, the Elo interval of pairs, the ``--sprt`` text,
and a simulation: engines of known Elo difference, hundreds of simulated tests, error rates near alpha and beta.
"""
from __future__ import annotations

import math
import random

import pytest

from ai.elo import elo_from_score, expected_score
from ai.sprt import (
    H0, H1, PAIR_SCORES, SprtSettings, constrained_mle, constrained_t_mle, normal_llr, pair_elo, pair_outcome,
    pentanomial_llr, pentanomial_llr_normalized, sprt_state,
)


# -- the maximum-likelihood step --------------------------------------------------------------------------------------
def test_constrained_mle_meets_its_constraints_and_beats_every_nearby_distribution():
    rng = random.Random(5)
    for _ in range(50):
        frequencies = [rng.uniform(0.01, 1.0) for _ in range(5)]
        total = sum(frequencies)
        frequencies = [f / total for f in frequencies]
        mean = rng.uniform(0.05, 0.95)
        q = constrained_mle(frequencies, PAIR_SCORES, mean)
        assert sum(q) == pytest.approx(1.0, abs=1e-12)
        assert sum(qi * v for qi, v in zip(q, PAIR_SCORES)) == pytest.approx(mean, abs=1e-12)
        best = sum(p * math.log(qi) for p, qi in zip(frequencies, q))
        # Any move that keeps the total and the mean (a direction orthogonal to (1,...) and to the values)
        # lowers the likelihood: q is the constrained maximum, not just a feasible point.
        for _ in range(20):
            direction = [rng.gauss(0, 1) for _ in range(5)]
            for basis in ([1.0] * 5, [v - 0.5 for v in PAIR_SCORES]):
                norm = sum(b * b for b in basis)
                dot = sum(d * b for d, b in zip(direction, basis))
                direction = [d - dot / norm * b for d, b in zip(direction, basis)]
            step = 1e-3
            moved = [qi + step * d for qi, d in zip(q, direction)]
            if min(moved) > 0:
                assert sum(p * math.log(m) for p, m in zip(frequencies, moved)) < best


def test_constrained_mle_of_two_values_is_fixed_by_its_mean():
    # On two values a distribution is determined by its mean, whatever was observed.
    assert constrained_mle([0.9, 0.1], [0.0, 1.0], 0.3) == pytest.approx([0.7, 0.3])
    # When the observed mean already is the constraint, the observed distribution is the answer.
    assert constrained_mle([0.1, 0.2, 0.4, 0.2, 0.1], PAIR_SCORES, 0.5) == pytest.approx([0.1, 0.2, 0.4, 0.2, 0.1])
    with pytest.raises(ValueError, match="strictly inside"):
        constrained_mle([0.5, 0.5], [0.0, 1.0], 1.0)


# -- the log-likelihood ratio ------------------------------------------------------------------------------------
def test_llr_matches_the_normal_approximation_for_small_elo_differences():
    for counts in ([100, 200, 400, 250, 50], [30, 500, 900, 520, 50], [5, 10, 30, 12, 3]):
        for elo0, elo1 in ((0, 5), (-2, 3), (0, 2)):
            exact, approx = pentanomial_llr(counts, elo0, elo1), normal_llr(counts, elo0, elo1)
            assert exact == pytest.approx(approx, rel=0.03, abs=0.02), (counts, elo0, elo1)


def test_llr_symmetries():
    counts = [10, 20, 40, 25, 5]
    mirrored = counts[::-1]  # B's counts: A's pairs seen from the other side
    assert pentanomial_llr(mirrored, -10, 0) == pytest.approx(-pentanomial_llr(counts, 0, 10), abs=1e-12)
    # Swapping the hypotheses flips the sign.
    assert pentanomial_llr(counts, 10, 0) == pytest.approx(-pentanomial_llr(counts, 0, 10), abs=1e-12)
    # Balanced results sit exactly halfway between symmetric hypotheses.
    assert pentanomial_llr([3, 7, 20, 7, 3], -10, 10) == pytest.approx(0.0, abs=1e-12)
    # It grows with the evidence: the same frequencies over ten times the pairs, ten times the LLR.
    assert pentanomial_llr([100, 200, 400, 250, 50], 0, 10) == pytest.approx(
        10 * pentanomial_llr([10, 20, 40, 25, 5], 0, 10), rel=1e-3)


def test_llr_of_a_case_solved_the_other_way_round():
    # Ten pairs of each outcome: observed pair score 0.5, so the H0 distribution at elo0 = 0 is the observed one.
    # For H1, pick the Lagrange multiplier x = -0.8 first and find by bisection the mean s it belongs to (the
    # mean at which sum p (v - s) / (1 + x (v - s)) = 0); then q1 = p / (1 + x (v - s)) and the LLR is
    # -N * sum p log(1 + x (v - s)) with N = 50: the code, which solves for x given s, must agree.
    x = -0.8
    secular = lambda s: sum(0.2 * (v - s) / (1 + x * (v - s)) for v in PAIR_SCORES)  # noqa: E731
    low, high = 0.5, 0.99
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if secular(middle) > 0 else (low, middle)
    s1 = (low + high) / 2
    assert 0.55 < s1 < 0.6  # x < 0 moves the mean up
    by_hand = -50 * sum(0.2 * math.log(1 + x * (v - s1)) for v in PAIR_SCORES)
    assert pentanomial_llr([10] * 5, 0.0, elo_from_score(s1)) == pytest.approx(by_hand, rel=1e-9)
    assert by_hand < 0  # the data (score 0.5) favour H0


def test_zero_counts_are_regularized_as_fishtest_does():
    # A perfect run of pairs is strong evidence for H1, finite (zeros become 1e-3), and grows with the pairs.
    first, later = (pentanomial_llr([0, 0, 0, 0, n], 0, 10) for n in (5, 50))
    assert 0 < first < later < math.inf


# Finished Stockfish tests on fishtest (tests.stockfishchess.org), with the LLR fishtest showed, to two
# decimals.  Fishtest's bounds are normalized Elo; "live_elo" and "view" pages give the pentanomial counts.
FISHTEST_NORMALIZED = [
    # (pentanomial, nelo0, nelo1, LLR shown), test id
    (([19, 4020, 10316, 4215, 24], -1.75, 0.25, 2.94)),   # 69675ab9d5a3b5895b50fb44
    (([103, 3851, 8316, 3728, 98], 0.0, 2.0, -2.03)),     # 6984bbe6473df9d1d24a937b
    (([291, 10353, 21899, 10175, 306], 0.0, 2.0, -3.08)),  # 6983867b473df9d1d24a9148
    (([99, 3323, 8399, 3606, 109], 0.0, 2.0, 2.98)),      # 698432f5473df9d1d24a926d
    (([2, 40, 72, 14, 0], 0.0, 2.0, -0.36)),              # 6984bb68473df9d1d24a9378
    (([326, 12015, 26044, 12357, 362], 0.0, 2.0, 2.93)),  # 69839ed7473df9d1d24a91ae
    (([328, 12094, 26412, 11964, 338], 0.0, 2.0, -2.93)),  # 69840701473df9d1d24a924f
    (([900, 30596, 67292, 30899, 809], 0.0, 2.0, -2.96)),  # 697e32ae5f56030af97b59c9
    (([45, 8506, 25934, 8883, 57], 0.5, 2.5, 2.94)),      # 6983946d473df9d1d24a916d
    (([105, 19880, 51075, 20005, 108], 0.5, 2.5, -2.94)),  # 697f19db5f56030af97b5b01
    (([41, 5118, 12924, 5334, 31], -1.75, 0.25, 2.94)),   # 69827c6beb87369ff4d0c7d5
]


@pytest.mark.parametrize("counts, nelo0, nelo1, shown", FISHTEST_NORMALIZED)
def test_normalized_llr_matches_what_fishtest_published(counts, nelo0, nelo1, shown):
    # The same GLLR machinery (regularized counts, the secular equation, pairs) with fishtest's other
    # constraint: agreement to the two decimals fishtest prints checks the machinery against the reference.
    assert pentanomial_llr_normalized(counts, nelo0, nelo1) == pytest.approx(shown, abs=0.006)
    assert SprtSettings(nelo0, nelo1, model="normalized").llr(counts) == pentanomial_llr_normalized(
        counts, nelo0, nelo1)


def test_constrained_t_mle_meets_its_t_value():
    frequencies = [0.05, 0.2, 0.5, 0.2, 0.05]
    for t_value in (-0.3, 0.0, 0.1, 0.4):
        q = constrained_t_mle(frequencies, PAIR_SCORES, 0.5, t_value)
        mean = sum(qi * v for qi, v in zip(q, PAIR_SCORES))
        sigma = math.sqrt(sum(qi * (v - mean) ** 2 for qi, v in zip(q, PAIR_SCORES)))
        assert sum(q) == pytest.approx(1.0) and (mean - 0.5) / sigma == pytest.approx(t_value, abs=1e-9)


# Pentanomial logistic-Elo estimates with their 95% intervals as published in the test suite of racetrack
# (MortenLohne/racetrack, src/tests): (counts, (low, Elo, high)).
PUBLISHED_PAIR_ELO = [
    ([485, 1923, 2942, 1937, 594], (1.21, 5.11, 9.02)),
    ([261, 739, 2683, 737, 253], (-5.00, -0.67, 3.66)),
    ([63, 252, 385, 250, 74], (-7.38, 3.39, 14.17)),
    ([527, 1007, 1932, 933, 511], (-9.16, -3.75, 1.66)),
    ([175, 305, 694, 291, 157], (-14.57, -5.36, 3.85)),
]


@pytest.mark.parametrize("counts, expected", PUBLISHED_PAIR_ELO)
def test_pair_elo_matches_published_values(counts, expected):
    elo = pair_elo(counts)
    assert (elo.low, elo.difference, elo.high) == pytest.approx(expected, abs=0.006)


def test_pair_outcomes_and_input_checks():
    assert [pair_outcome(p) for p in (0, 0.5, 1, 1.5, 2)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="0, 0.5, 1, 1.5 or 2"):
        pair_outcome(0.75)
    with pytest.raises(ValueError, match="five entries"):
        pentanomial_llr([1, 2, 3], 0, 10)
    with pytest.raises(ValueError, match="negative"):
        pentanomial_llr([1, -2, 3, 0, 0], 0, 10)


# -- Elo of pairs -----------------------------------------------------------------------------------------------------
def test_pair_elo_of_a_known_result():
    # 100 pairs: 10 x 0, 20 x 1/2, 40 x 1, 20 x 3/2, 10 x 2 points.  Mean pair score 0.5, variance per pair
    # (10*.25 + 20*.0625 + 0 + 20*.0625 + 10*.25) / 100 = 0.075, standard error sqrt(0.075/100) = 0.027386.
    elo = pair_elo([10, 20, 40, 20, 10])
    error = math.sqrt(0.075 / 100)
    assert elo.score == 0.5 and elo.difference == 0.0 and elo.los == pytest.approx(0.5)
    assert elo.low == pytest.approx(elo_from_score(0.5 - 1.959964 * error), abs=1e-3)
    # 400 log10(0.55368 / 0.44632) = +37.44
    assert elo.high == pytest.approx(-elo.low) and elo.high == pytest.approx(37.44, abs=0.01)
    stronger = pair_elo([5, 10, 40, 30, 15])
    assert stronger.difference > 0 and stronger.los > 0.99 and stronger.low < stronger.difference < stronger.high
    assert math.isnan(pair_elo([0] * 5).difference)


# -- settings and states ---------------------------------------------------------------------------------------------
def test_settings_parse_and_bounds():
    settings = SprtSettings.parse("elo0=0,elo1=10")
    assert (settings.elo0, settings.elo1, settings.alpha, settings.beta) == (0, 10, 0.05, 0.05)
    assert settings.lower_bound == pytest.approx(-2.944439, abs=1e-6)  # log(0.05 / 0.95)
    assert settings.upper_bound == pytest.approx(2.944439, abs=1e-6)
    assert settings.model == "logistic" and "(logistic Elo)" in settings.describe()
    assert SprtSettings.parse("elo0=0,elo1=2,model=normalized").model == "normalized"
    unequal = SprtSettings.parse("elo0=-1, elo1=4, alpha=0.1, beta=0.02")
    assert unequal.lower_bound == pytest.approx(math.log(0.02 / 0.9))
    assert unequal.upper_bound == pytest.approx(math.log(0.98 / 0.1))


@pytest.mark.parametrize("text, message", [
    ("elo1=10", "needs elo0"),
    ("elo0=0", "needs elo1"),
    ("elo0=10,elo1=0", "elo0 must be below elo1"),
    ("elo0=0,elo1=x", "elo1 must be a number"),
    ("elo0=0,elo1=10,gamma=1", "not 'gamma=1'"),
    ("elo0=0,elo1=10,alpha=0.7", "alpha must lie strictly between 0 and 0.5"),
    ("elo0=0,elo0=1,elo1=10", "gives elo0 twice"),
    ("elo0=0,elo1=10,model=bayesian", "model must be one of logistic, normalized"),
])
def test_settings_errors(text, message):
    with pytest.raises(ValueError, match=message):
        SprtSettings.parse(text)


def test_state_verdicts_and_json():
    settings = SprtSettings(0, 10)
    assert sprt_state(settings, [0] * 5).verdict is None and sprt_state(settings, [0] * 5).llr == 0.0
    strong = sprt_state(settings, [20, 60, 200, 120, 60])
    assert strong.llr >= settings.upper_bound and strong.verdict == H1 and "H1 accepted" in strong.verdict_text()
    weak = sprt_state(settings, [60, 120, 200, 60, 20])
    assert weak.llr <= settings.lower_bound and weak.verdict == H0 and "H0 accepted" in weak.verdict_text()
    document = strong.to_dict()
    assert document["elo_model"] == "logistic" and document["verdict"] == "H1"
    normalized = sprt_state(SprtSettings(0, 2, model="normalized"), [103, 3851, 8316, 3728, 98])
    assert normalized.verdict is None and normalized.to_dict()["elo_model"] == "normalized"
    accepted = sprt_state(SprtSettings(0, 2, model="normalized"), [99, 3323, 8399, 3606, 109])
    assert accepted.verdict == H1 and "elo1=2 nElo" in accepted.verdict_text()
    assert document["pentanomial"] == [20, 60, 200, 120, 60] and document["pairs"] == 460
    assert "LLR +" in strong.line() and "[-2.94, +2.94]" in strong.line()


# -- simulation: the error rates ----------------------------------------------------------------------------------
def _pair_probabilities(elo: float, draw: float) -> list[float]:
    """Pentanomial probabilities of two independent games at logistic ``elo`` with draw rate ``draw``."""
    score = expected_score(elo)
    win, loss = score - draw / 2, 1 - score - draw / 2
    game = [loss, draw, win]
    pair = [0.0] * 5
    for i in range(3):
        for j in range(3):
            pair[i + j] += game[i] * game[j]
    return pair


def _simulate(settings: SprtSettings, elo: float, runs: int, rng: random.Random) -> tuple[float, float]:
    """The fraction of ``runs`` simulated tests that accept H1, and their mean number of pairs."""
    cumulative, total = [], 0.0
    for p in _pair_probabilities(elo, draw=0.3):
        total += p
        cumulative.append(total)
    accepted = pairs_played = 0
    for _ in range(runs):
        counts = [0] * 5
        while True:
            draw = rng.random()
            outcome = next((i for i, edge in enumerate(cumulative) if draw < edge), 4)
            counts[outcome] += 1
            state = sprt_state(settings, counts)
            if state.verdict is not None:
                accepted += state.verdict == H1
                pairs_played += state.pairs
                break
    return accepted / runs, pairs_played / runs


def test_simulated_error_rates_are_near_alpha_and_beta():
    # Wide hypotheses (0 vs 40 Elo) keep each simulated test to ~150 pairs, so 400 tests per hypothesis take
    # about two seconds.  With 400 runs the standard error of a 5% rate is 1.1 points.
    settings = SprtSettings(0, 40, alpha=0.05, beta=0.05)
    rng = random.Random(2026)
    false_positive, pairs_h0 = _simulate(settings, 0.0, 400, rng)
    power, pairs_h1 = _simulate(settings, 40.0, 400, rng)
    assert 0.02 <= false_positive <= 0.08, false_positive
    assert 0.02 <= 1 - power <= 0.08, 1 - power
    # Far from both hypotheses the test is quick and right.
    clear_gain, pairs_far = _simulate(settings, 100.0, 100, rng)
    assert clear_gain == 1.0 and pairs_far < pairs_h1 / 2
    # And unequal error rates are honoured: alpha=0.2 gives many more false positives than alpha=0.02.
    loose = SprtSettings(0, 40, alpha=0.2, beta=0.05)
    strict = SprtSettings(0, 40, alpha=0.02, beta=0.05)
    assert _simulate(loose, 0.0, 200, rng)[0] > 0.1 > 0.04 > _simulate(strict, 0.0, 200, rng)[0]
