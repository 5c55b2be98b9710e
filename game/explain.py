"""What the match screen says in words: moves, scores, hints, the computer's reasoning and the result.

Window-free, and it never re-implements a rule: what a move does comes from the rules' ``report`` (or
``apply`` and ``outcome``), and the engines' scores are read through ``ai.evaluators`` (a proven win or loss
lies beyond ``HEURISTIC_BOUND``).  Pits are numbered as the player sees them, 1..n from each player's leftmost
pit counter-clockwise (the internal index + 1); the cave's cells as the board labels them (A1..H8).  What
differs from game to game in words (a pit or a cell, seeds or no unit) is the game's registration's ``Words``
(``game/catalogue.py``), never a test of its name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ai import registry
from ai.base import EngineError, SearchResult
from ai.evaluators import HEURISTIC_BOUND, WIN
from game import catalogue
from game.analysis_words import CAVE_SAME, EVEN_SEEDS, expectation_of, seeds, side_words, value_phrase, whole
from game.catalogue import Words
from game.move_words import move_words
from rules import Game, Move, Reason, State
from rules.events import Place

if TYPE_CHECKING:
    from game.session import Session

QUICK_DEPTH = 2
"""A search this shallow (or less) is only "a quick look"."""


def words_of(game: Game) -> Words:
    """How the screens speak of ``game`` (its registration's ``Words``)."""
    return catalogue.registration(game).words


def plural(count: int, word: str) -> str:
    """``1 seed``, ``2 seeds``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def move_name(game: Game, state: State, move: Move) -> str:
    """A move as the player sees it on the board: ``pit 3`` (the rules' ``move_label``) or a cell such as ``D4``."""
    label = game.move_label(state, move)
    prefix = words_of(game).move_prefix
    return f"{prefix} {label}" if prefix else label


def scores(game: Game, state: State) -> tuple[int, int]:
    """(South's or Black's, North's or White's) score in ``state``: the stores, Hus's seeds on each side,
    or the cave's bricks on the board."""
    stores = getattr(state, "stores", None)
    if stores is not None:
        return stores[0], stores[1]
    if hasattr(state, "bricks"):
        return state.bricks
    pits = state.pits  # type: ignore[attr-defined]
    half = len(pits) // 2
    return sum(pits[:half]), sum(pits[half:])


# -- what a move does ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveFacts:
    """What one move does, as the rules report it."""

    seeds: int = 0
    """Seeds taken from the pit (0 for a brick)."""
    captured: int = 0
    extra_turn: bool = False
    relays: int = 0
    fed: bool = False
    grand_slam: bool = False
    ends_game: bool = False
    winner: int | None = None
    """Who the move makes the winner, when it ends the game."""


def facts(game: Game, state: State, move: Move) -> MoveFacts:
    """What ``move`` does in ``state``: the rules' ``report`` (a ``MoveEvents``), and ``outcome`` after it."""
    after = game.apply(state, move)
    outcome = game.outcome(after)
    winner = None if outcome is None else outcome.winner
    details = game.report(state, move)
    return MoveFacts(seeds=details.seeds, captured=details.captured, extra_turn=details.extra_turn and outcome is None,
                     relays=details.relays, fed=details.fed, grand_slam=details.grand_slam,
                     ends_game=outcome is not None, winner=winner)


def _effects(game: Game, mover: int, what: MoveFacts, you: bool) -> list[str]:
    """The notable things a move does, as short phrases (second person when ``you``)."""
    names = game.player_names
    phrases = []
    if what.captured:
        phrases.append(f"captures {plural(what.captured, 'seed')}")
    if what.grand_slam and not what.captured:
        phrases.append("would take every seed (a grand slam), so captures nothing")
    if what.fed:
        phrases.append(f"feeds {names[1 - mover]}")
    if what.relays:
        phrases.append(f"relays {plural(what.relays, 'time')}")
    if what.extra_turn:
        phrases.append("your last seed lands in your store: play again" if you else "plays again")
    if what.ends_game:
        if what.winner is None:
            phrases.append("ends the game in a draw")
        elif what.winner == mover:
            words = words_of(game)
            phrases.append(words.you_win if you else words.wins)
        else:
            phrases.append("ends the game and " + ("you lose" if you else "loses"))
    return phrases


def move_text(game: Game, state: State, move: Move) -> str:
    """The top bar's line on a move played: ``South sows pit 3 (4 seeds): captures 5 seeds``."""
    mover = game.to_move(state)
    who = game.player_names[mover]
    what = facts(game, state, move)
    head = words_of(game).played.format(who=who, move=move_name(game, state, move), seeds=plural(what.seeds, 'seed'))
    effects = _effects(game, mover, what, you=False)
    return head + (": " + ", ".join(effects) if effects else "")


def move_list(game: Game, states: Sequence[State], moves: Sequence[Move]) -> list[str]:
    """The move list: number, the mover's initial and the move as the board names it (``  3. S pit 4``)."""
    lines = []
    for number, (before, move) in enumerate(zip(states, moves), start=1):
        who = game.player_names[game.to_move(before)]
        lines.append(f"{number:>3}. {who[0]} {move_name(game, before, move)}")
    return lines


def trim_list(lines: list[str], room: int) -> list[str]:
    """The last lines that fit in ``room`` lines, the first of them saying how many earlier ones are hidden."""
    if len(lines) <= room:
        return lines
    shown = lines[len(lines) - (room - 1):] if room > 1 else []
    return [f"  ... {len(lines) - len(shown)} earlier"] + shown


# -- the engines' scores in words ------------------------------------------------------------------------------
# Every value goes through ``game.analysis_words`` (``ai.calibration.expect``): seeds of final margin for the
# sowing games, outcomes for the cave; how deep a search went is said only with the Details setting on.
def is_proven(score: float) -> bool:
    return abs(score) >= HEURISTIC_BOUND


def expectation(game: Game, score: float, state: State | None = None) -> str:
    """What a score from the mover's side means, to follow "expects": ``to win by 4, proven``, ``to be about 2
    seeds ahead``, ``an even game``; the cave's ``to be winning``, ``to win, proven``."""
    phrase = value_phrase(game, score, is_proven(score), True, state)
    if phrase in ("about even", "even"):
        return "an even game"
    if is_proven(score):
        verb = phrase.split(" ", 1)
        tail = f" {verb[1]}" if len(verb) > 1 else ""
        return {"wins": "to win", "loses": "to lose", "draws": "to draw"}.get(verb[0], verb[0]) + tail + ", proven"
    return f"to be {phrase}"


def hint_text(game: Game, state: State, result: SearchResult, alternatives: dict[Move, float] | None = None,
              details: bool = False) -> str:
    """The hint in words: first the verdict (``Pit 4 wins by 6, proven.``, ``Pit 3: you can expect to be about
    3 seeds ahead.``), then what the move does (the rules' report; for Hus its laps, captures and what it leaves
    open, for the cave what the brick makes or stops) and how it compares with the next best move.  Never a raw
    score, and the search's depth only with ``details``."""
    move = result.move
    mover = game.to_move(state)
    what = facts(game, state, move)
    said_of_board = move_words(game, state, move)
    effects = _effects(game, mover, what, you=True) if what.ends_game or not said_of_board else said_of_board
    details_said = []
    if effects:
        said = ", ".join(effects)
        details_said.append((said[0].upper() + said[1:]) if said.startswith("your") else f"It {said}")
        details_said[-1] += "."
    if proof(result) is None and result.depth > QUICK_DEPTH:
        details_said.append(strength(game, state, result, alternatives))
    text = verdict(game, state, result, details)
    return text + ("\n" + " ".join(details_said) if details_said else "")


def proof(result: SearchResult) -> tuple[int, str] | None:
    """What a search proved about its move, as (margin for the side to move, kind): kind ``exact`` (the margin
    is the position's value), ``at least`` (the move secures at least it) or ``at most`` (a loss by at least
    the margin, i.e. the value is at most it); None when nothing is proven."""
    info = result.info or {}
    score = result.score
    if info.get("proven") and isinstance(info.get("value"), int):
        return info["value"], "exact"
    if isinstance(info.get("bound"), int):
        return info["bound"], "at least"
    if result.exhaustive:
        margin = score - WIN if score >= HEURISTIC_BOUND else score + WIN if score <= -HEURISTIC_BOUND else score
        return int(round(margin)), "exact"
    if score >= HEURISTIC_BOUND:
        return int(round(score - WIN)), "at least"
    if score <= -HEURISTIC_BOUND:
        return int(round(score + WIN)), "at most"
    return None


def verdict(game: Game, state: State, result: SearchResult, details: bool = False) -> str:
    """The hint's first sentence: the proven result of the move, or what the player can expect after it in the
    game's units (``about 3 seeds ahead``; the cave's ``Black is slightly better``); ``details`` adds the
    search's depth for engine developers."""
    name = move_name(game, state, result.move)
    title = name[0].upper() + name[1:]
    proven = proof(result)
    if proven is not None:
        margin, kind = proven
        if not words_of(game).has_margin:  # the cave: a result, no margin a player counts
            return f"{title} wins, proven." if margin > 0 else (
                f"Every move loses; {name} holds out longest." if margin < 0 else f"{title} draws, proven.")
        if kind == "at least" and margin <= 0:
            return f"{title} draws at least, proven." if margin == 0 else \
                f"{title} loses by at most {-margin}, proven."
        least = " at least" if kind != "exact" else ""
        if margin > 0:
            return f"{title} wins by{least} {margin}, proven."
        if margin < 0:
            return f"Every move loses; {name} loses least (by{least} {-margin}, proven)."
        return f"{title} draws, proven."
    depth = f" ({result.depth} {'ply' if result.depth == 1 else 'plies'})" if details else ""
    if result.depth <= QUICK_DEPTH:
        return f"{title}: a quick look only{depth}."
    if not words_of(game).has_margin:
        mover = game.to_move(state)
        south_view = result.score if mover == 0 else -result.score
        outlook = side_words(game, south_view, False, True, state)
        return f"{title}: {'an even game' if outlook == 'even' else outlook}{depth}."
    phrase = value_phrase(game, result.score, False, True, state)
    if phrase == "about even":
        return f"{title}: about even{depth}."
    return f"{title}: you can expect to be {phrase}{depth}."


def strength(game: Game, state: State, result: SearchResult, alternatives: dict[Move, float] | None) -> str:
    """How the advised move compares with the next best one, in the game's units; equal values are equal."""
    score = result.score
    if score >= HEURISTIC_BOUND:
        return f"It expects {expectation(game, score, state)}."
    if score <= -HEURISTIC_BOUND:
        return "Every move loses against best play; this one holds out best."
    if result.depth <= QUICK_DEPTH:
        return "A quick look only."
    others = {move: value for move, value in (alternatives or {}).items() if move != result.move}
    if not others:
        return "The only sensible move." if len(game.legal_moves(state)) > 1 else "The only move."
    runner, value = max(others.items(), key=lambda item: item[1])
    runner_name = move_name(game, state, runner)
    first, second = expectation_of(game, score, False, True, state), expectation_of(game, value, is_proven(value),
                                                                                  True, state)
    if words_of(game).has_margin and first.margin is not None and second.margin is not None:
        gap = first.margin - second.margin
        if gap < EVEN_SEEDS or value_phrase(game, score, False, True, state) == \
                value_phrase(game, value, is_proven(value), True, state):
            return f"As good as {runner_name}."
        grade = "A little better" if gap < 2.5 else "Better"
        return f"{grade} than {runner_name}, the next best (by about {seeds(max(1, whole(gap)), words_of(game).unit)})."
    gap = (first.win - first.loss) - (second.win - second.loss)
    if gap < CAVE_SAME:
        return f"As good as {runner_name}."
    return f"{'A little better' if gap < 0.3 else 'Better' if gap < 0.7 else 'Much better'} than {runner_name}, " \
           "the next best."


def thinking_text(game: Game, state: State, result: SearchResult, who: str, details: bool = False) -> str:
    """The computer's thinking line while it searches: what it likes so far (with ``details``, how far it has
    looked, for engine developers)."""
    looked = f" ({result.depth} {'ply' if result.depth == 1 else 'plies'})" if details else ""
    if result.move is None:
        return f"{who} is thinking{looked}..."
    return f"{who} is thinking: {move_name(game, state, result.move)} looks best so far{looked}."


def reasoning_text(game: Game, state: State, result: SearchResult, who: str, details: bool = False) -> str:
    """What the computer did and why, kept after it moved: ``The computer played pit 3 and captured 4 seeds;
    it expects to be about 2 seeds ahead.``"""
    move = result.move
    what = facts(game, state, move)
    done = f"{who} played {move_name(game, state, move)}"
    if what.captured:
        done += f" and captured {plural(what.captured, 'seed')}"
    if what.extra_turn:
        done += ", which earns another turn"
    if result.depth == 0 and not result.exhaustive:
        return done + "."
    looked = f" ({result.depth} {'ply' if result.depth == 1 else 'plies'})" if details else ""
    if not words_of(game).has_margin and not is_proven(result.score):
        mover = game.to_move(state)
        south_view = result.score if mover == 0 else -result.score
        outlook = side_words(game, south_view, False, True, state)
        return f"{done}; it thinks {'the game is even' if outlook == 'even' else outlook}{looked}."
    outlook = expectation(game, result.score, state)
    return f"{done}; it {'expects' if outlook.startswith('to') else 'sees'} {outlook}{looked}."


def engine_words(game: Game, spec: str | None) -> str:
    """An engine as a player names it: its preset (``Medium``) when the spec is one, else the engine's title."""
    if spec is None:
        return "human"
    for level, preset in registry.presets(game).items():
        if preset == spec:
            return level
    try:
        return registry.parse_engine_spec(spec)[0].title
    except EngineError:
        return spec


# -- the result ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """The result panel's words: a headline, the winner it names (None: a draw) and the reason."""

    headline: str
    winner: int | None
    reason: str


def result(session: Session) -> Result:
    """The finished game's result as it speaks to the players: ``You won 26 – 22`` against the computer, the
    winning seat in hot-seat, the winning engine when computers played; then why the game ended."""
    game = session.game
    outcome = session.outcome
    assert outcome is not None
    names = game.player_names
    winner = outcome.winner
    humans = [player for player, seat in enumerate(session.seats) if seat.is_human]
    first = humans[0] if len(humans) == 1 else (winner if winner is not None else 0)
    score = f" {outcome.scores[first]} – {outcome.scores[1 - first]}" if words_of(game).has_margin else ""
    if len(humans) == 1:
        headline = ("A draw" if winner is None else "You won" if winner == first else "You lost") + score
    elif winner is None:
        headline = "A draw" + score
    elif not humans:
        headline = f"{names[winner]} ({engine_words(game, session.seat(winner).engine)}) won" + score
    else:
        headline = f"{names[winner]} wins" + score
    return Result(headline, winner, f"{end_reason(session)} The game lasted {plural(len(session.moves), 'move')}.")


def end_reason(session: Session) -> str:
    """Why the game ended, in words, naming the sides."""
    game, outcome = session.game, session.outcome
    assert outcome is not None
    final = session.state
    names = game.player_names
    reason = outcome.reason
    if reason is Reason.FIVE_IN_A_ROW:
        line = game.winning_line(final)  # type: ignore[attr-defined]
        cells = f" ({game.format_move(final, line[0])} to {game.format_move(final, line[-1])})" if line else ""
        return f"{names[outcome.winner]} made five in a row{cells}."  # type: ignore[index]
    if reason is Reason.BOARD_FULL:
        return f"The cave is full and no one made five in a row."
    if reason is Reason.SIDE_EMPTY:
        return _side_empty(session) + f"."
    if reason is Reason.MAJORITY:
        total = int(getattr(game, "total", sum(outcome.scores)))  # Oware: every seed of the game
        if outcome.winner is None:
            return f"Each player captured half the seeds ({total // 2} of {total})."
        return (f"{names[outcome.winner]} captured more than half the seeds ({outcome.scores[outcome.winner]} "
                f"of {total}).")
    mover = game.to_move(final)
    if reason is Reason.REPETITION:
        return f"A position repeated: each player took the seeds on their own side."
    if reason is Reason.NO_CAPTURE_LIMIT:
        limit = game.parameters.get("no_capture_limit", "")
        return f"{limit} moves passed without a capture: the seeds left on the board count for no one."
    if reason is Reason.CANNOT_FEED:
        return (f"{names[1 - mover]} had no seeds and {names[mover]} could not give them any: each player took "
                f"the seeds on their own side.")
    if reason is Reason.NO_LEGAL_MOVE:
        return words_of(game).no_legal_move.format(mover=names[mover], other=names[1 - mover])
    if reason is Reason.TURN_LIMIT:
        return f"The turn limit was reached: a draw."
    return f"The game ended: {reason.value}."


def _side_empty(session: Session) -> str:
    """Kalah's end: whose side ran out, and who took the seeds left.  The seeds each player took at the end
    are their store's growth less what the last move itself put there (its sown seeds and its capture)."""
    game = session.game
    before, after, move = session.states[-2], session.state, session.moves[-1]
    names = game.player_names
    report = game.report(before, move)
    taken = []
    for player in (0, 1):
        store = Place(player, 0, store=True)
        gained = after.stores[player] - before.stores[player]
        gained -= report.drops.count(store) + (report.captured if player == report.player else 0)
        taken.append(gained)
    for empty, keeper in ((1, 0), (0, 1)):
        if taken[keeper] and not taken[empty]:
            left = taken[keeper]
            return (f"{names[empty]}'s side is empty: the {plural(left, 'seed')} left "
                    f"{'goes' if left == 1 else 'go'} to {names[keeper]}")
    return "Both sides are empty"
