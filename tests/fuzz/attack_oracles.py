"""The right answers the fuzz can know, to catch a wrong value and not only a crash.

``check_compare``: the summary's games add up (each engine's wins, draws and losses sum to the games played,
A's wins are B's losses) and no more games are counted than were asked for.  ``check_solve``: the value
``solve`` proves for the small Kalah of ``guarded.kinds.TABLE_GAME`` is its minimax value, found here by a
plain memoised search over the rules, and the best move it names (counted from 1, as the board, the console
and every screen count) is one of the optimal moves.
"""
from __future__ import annotations

import functools
import re

from guarded.kinds import TABLE_GAME
from attack_runner import Result

_ROW = re.compile(r"^([AB]) .*?\s(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+%", re.MULTILINE)


def _asked_games(words: list[str]) -> int | None:
    for index, word in enumerate(words[:-1]):
        if word == "--games" and words[index + 1].isascii() and words[index + 1].isdigit():
            return int(words[index + 1])
    return None


def check_compare(result: Result) -> list[str]:
    """Whether a finished compare's table adds up."""
    if result.returncode != 0 or result.interrupted:
        return []
    rows = {name: tuple(map(int, numbers)) for name, *numbers in _ROW.findall(result.stdout)}
    header = re.search(r": (\d+) games?,", result.stdout)
    if "A" not in rows or "B" not in rows or header is None:
        if "--sprt" in result.case.argv:
            return []
        return ["wrong value: compare ended with 0 but printed no summary table"]
    games = int(header.group(1))
    (a_won, a_drawn, a_lost), (b_won, b_drawn, b_lost) = rows["A"], rows["B"]
    problems = []
    if (a_won, a_drawn, a_lost) != (b_lost, b_drawn, b_won):
        problems.append(f"wrong value: A +{a_won} ={a_drawn} -{a_lost} against B +{b_won} ={b_drawn} -{b_lost}")
    if a_won + a_drawn + a_lost != games:
        problems.append(f"wrong value: {a_won + a_drawn + a_lost} results counted for {games} games")
    asked = _asked_games(result.case.argv)
    openings = "--openings" in result.case.argv
    if asked is not None and games > asked and not openings:
        problems.append(f"wrong value: {games} games counted where --games {asked} was asked")
    return problems


@functools.lru_cache(maxsize=None)
def reference() -> tuple[int, frozenset[int]]:
    """The minimax value (store margin for the side to move) of ``TABLE_GAME``'s start, and its optimal moves
    counted from 1."""
    import rules

    game = rules.parse_game_spec(TABLE_GAME)

    @functools.lru_cache(maxsize=None)
    def value(state) -> int:  # type: ignore[no-untyped-def]
        if game.is_terminal(state):
            outcome = game.outcome(state)
            mover = game.to_move(state)
            return outcome.scores[mover] - outcome.scores[1 - mover]
        mover = game.to_move(state)
        best = None
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            score = value(child) if game.to_move(child) == mover else -value(child)
            best = score if best is None or score > best else best
        return best

    start = game.initial_state()
    best = value(start)
    moves = set()
    for move in game.legal_moves(start):
        child = game.apply(start, move)
        score = value(child) if game.to_move(child) == game.to_move(start) else -value(child)
        if score == best:
            moves.add(int(move) + 1)
    return best, frozenset(moves)


def check_solve(result: Result) -> list[str]:
    """Whether a finished solve of ``TABLE_GAME`` gives its minimax value and an optimal first move."""
    if result.returncode != 0 or result.interrupted:
        return []
    found = re.search(r"value: ([+-]?\d+) for \w+ \(the side to move\).*?best move: pit (\d+)", result.stdout)
    if found is None:
        return ["wrong value: solve ended with 0 but printed no value and best move"]
    best, moves = reference()
    value, pit = int(found.group(1)), int(found.group(2))
    problems = []
    if value != best:
        problems.append(f"wrong value: solve proved {value:+d}, the minimax value is {best:+d}")
    if pit not in moves:
        problems.append(f"wrong value: best move 'pit {pit}' is not an optimal move (optimal, counted from 1: "
                        f"{', '.join(map(str, sorted(moves)))})")
    return problems
