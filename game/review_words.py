"""A review in words (``game.review``): each turning point as a sentence, each player's accuracy, the whole
review as lines for a console.  Values in the game's units: seeds of final margin for the sowing games ("a win
by 4", "a lead of about 3 seeds"), outcomes and chances for the cave ("a win", "chances of about 40%")."""
from __future__ import annotations

from ai.calibration import Expectation, has_seeds
from game.review import Judged, PlayerSummary, Review, points
from rules import Game


def seeds(count: float) -> str:
    whole = max(1, round(count))
    return f"{whole} seed" + ("" if whole == 1 else "s")


def value_words(game: Game, value: Expectation) -> str:
    """A value of the mover's: ``a win by 4``, ``a draw``, ``a lead of about 3 seeds``, ``about a 40% chance``."""
    if value.proven:
        if value.margin is None or not has_seeds(game):
            return "a win" if value.win >= 1 else ("a loss" if value.loss >= 1 else "a draw")
        margin = round(value.margin)
        bound = "" if value.exact else "at least "
        if margin > 0:
            return f"a win by {bound}{margin}"
        if margin < 0:
            return f"a loss by {bound}{-margin}"
        return "a draw"
    if value.margin is not None and has_seeds(game):
        if abs(value.margin) < 0.5:
            return "an even game"
        if value.margin > 0:
            return f"a lead of about {seeds(value.margin)}"
        return f"a deficit of about {seeds(-value.margin)}"
    return f"chances of about {round(100 * points(value))}%"


def cost_words(game: Game, judged: Judged) -> str:
    """What the move gave away: ``6 seeds``, ``about 3 seeds``, ``30% of a win``."""
    if has_seeds(game):
        if judged.proven:
            return seeds(judged.loss)
        return f"about {seeds(judged.loss)}"
    return f"{round(100 * judged.loss)}% of a win"


def turning_words(game: Game, judged: Judged) -> str:
    """``pit 3 turned a win by 4 into a loss by 2, proven; pit 5 was best (6 seeds)``."""
    proven = ", proven" if judged.proven else ""
    return (f"{judged.name} turned {value_words(game, judged.best)} into {value_words(game, judged.played)}"
            f"{proven}; {judged.best_name} was best ({cost_words(game, judged)})")


def headline(game: Game, judged: Judged) -> str:
    """``Move 14, South, blunder: pit 3 turned ...``."""
    who = game.player_names[judged.player]
    return f"Move {judged.index + 1}, {who}, {judged.grade}: {turning_words(game, judged)}"


def move_words(game: Game, judged: Judged) -> str:
    """Any judged move in a sentence: a turning point's ``headline``, or ``Move 12, South: pit 3, the best move
    (a lead of about 2 seeds)`` / ``... pit 3 (a draw); pit 5 was a little better (1 seed)``."""
    if judged.grade is not None:
        return headline(game, judged)
    who = game.player_names[judged.player]
    start = f"Move {judged.index + 1}, {who}: {judged.name}"
    if judged.choices == 1:
        return f"{start}, the only legal move ({value_words(game, judged.played)})"
    if judged.loss <= 1e-9:
        return f"{start}, the best move ({value_words(game, judged.best)})"
    return (f"{start} ({value_words(game, judged.played)}); {judged.best_name} was a little better "
            f"({cost_words(game, judged)})")


def accuracy_words(game: Game, summary: PlayerSummary) -> str:
    """``South: accuracy 87%, 1 inaccuracy, 1 blunder (12 moves judged, 0.9 seeds lost a move)``."""
    if summary.accuracy is None:
        return f"{summary.name}: no move with a choice to judge"
    counts = [f"{count} {one if count == 1 else many}" for count, one, many in
              zip(summary.counts, ("inaccuracy", "mistake", "blunder"), ("inaccuracies", "mistakes", "blunders"))
              if count]
    marks = ", ".join(counts) if counts else "no inaccuracy, mistake or blunder"
    average = summary.average_loss or 0.0
    lost = (f"{average:.1f} seeds lost a move" if has_seeds(game) else f"{round(100 * average)}% of a win lost a move")
    moves = f"{summary.judged} move{'' if summary.judged == 1 else 's'} judged"
    return f"{summary.name}: accuracy {round(summary.accuracy)}%, {marks} ({moves}, {lost})"


def review_lines(review: Review) -> list[str]:
    """The whole review for a console: the turning points, then each player's accuracy."""
    game = review.game
    lines = [headline(game, judged) for judged in review.turning_points]
    done = sum(1 for judged in review.judged if judged is not None)
    if not lines and review.complete:
        lines.append("No turning points: every move kept the game's value (within an inaccuracy).")
    elif not lines:
        lines.append(f"No turning points in the {done} move{'' if done == 1 else 's'} reviewed.")
    lines.extend(accuracy_words(game, summary) for summary in review.players)
    if not review.complete:
        lines.append(f"(Stopped after {done} of {len(review.moves)} moves: the rest is not reviewed.)")
    return lines
