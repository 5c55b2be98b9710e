"""One game played at a terminal: the line dialogue (:class:`Terminal`) and the turns (:class:`GameLoop`).

The loop shows the board after every move, reads a human's move or command (help, board, undo, redo, hint,
analyse, review, save, quit) and lets a computer seat move.  A computer gets a fresh engine for every move, built from its
spec, and sees only the immutable state: the same position and settings give the same search, and no engine
can keep or change anything of the game.  Its move is checked against the rules before it is played.
"""
from __future__ import annotations

import math
import time
from typing import Callable, TextIO

from ai import registry
from ai.base import CancelToken, Limits, SearchResult
from game import explain
from ai.analysis import Analysis, advice, analyse
from game.analysis import worded
from game.analysis_words import how_words, value_phrase
from game.console.review import review_seconds, run_review
from game.console.seats import seat_label, seconds_per_move
from game.review import DEFAULT_SECONDS
from game.savegame import Seat
from game.session import Session
from rules import Move, RulesError
from rules.base import clip

COMMANDS = "help, board, undo, redo, hint, analyse [SECONDS], review [SECONDS], save [FILE], quit"
ANALYSE_SECONDS = 3.0
"""How long ``analyse`` deepens when no time is given."""
ANALYSE_LIMITS = (0.1, 600.0)
"""The seconds ``analyse SECONDS`` accepts."""


def moves_text(count: int) -> str:
    """``1 move``, ``2 moves``: a count of moves for a sentence."""
    return f"{count} move{'s' if count != 1 else ''}"


class EndOfInput(Exception):
    """The input stream ended (EOF on a pipe, Ctrl-D or Ctrl-C at a terminal)."""


class Terminal:
    """Line-by-line dialogue over a pair of text streams; echoes what it reads when the input is not a tty."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        try:
            self.echo = not stdin.isatty()
        except (AttributeError, ValueError):
            self.echo = True

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the next line without its line ending; EndOfInput at the end."""
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            raise EndOfInput from None
        if not line:
            if self.echo:
                self.stdout.write("\n")
            raise EndOfInput
        line = line.rstrip("\r\n")
        if self.echo:
            self.stdout.write(line + "\n")
        return line

    def invalid(self, problem: str, valid: str) -> None:
        """The one answer to any bad input: what was wrong and what would be valid."""
        self.say(f"Invalid input: {problem}. Valid: {valid}.")


class GameLoop:
    """The turns of one session until the game ends or a human quits; the start menu is the caller's.

    ``seconds`` is the time a hint may take (None: the game's own limit) and ``save`` carries out the
    ``save [FILE]`` command (the file name, or None to ask for one).
    """

    def __init__(self, session: Session, terminal: Terminal, seconds: float | None,
                 save: Callable[[str | None], bool]) -> None:
        self.session = session
        self.io = terminal
        self.seconds = seconds
        self.save = save

    def run(self) -> None:
        """Play the session until the game ends or a human quits; then back to the start menu."""
        session = self.session
        game = session.game
        seats = ", ".join(f"{name}: {seat_label(game, seat)}" for name, seat in zip(game.player_names, session.seats))
        self.io.say(f"{game.title} ({game.spec}). {seats}.")
        self.show()
        while not session.is_over:
            player = game.to_move(session.state)
            if session.seats[player].is_human:
                if not self._human_turn(player):
                    self.io.say("Back to the start menu (resume to go on, save to keep the game).")
                    return
            elif not self._computer_turn(player):
                self.io.say("Back to the start menu.")
                return
        self._announce()

    def show(self) -> None:
        """The board, and whose move it is while the game goes on."""
        session = self.session
        game = session.game
        self.io.say("")
        self.io.say(game.render(session.state))
        if not session.is_over:
            player = game.to_move(session.state)
            who = "human" if session.seats[player].is_human else "computer"
            self.io.say(f"Move {len(session.moves) + 1}: {game.player_names[player]} to move ({who}).")

    def _valid_here(self) -> str:
        session = self.session
        moves = ", ".join(session.game.move_label(session.state, m) for m in session.game.legal_moves(session.state))
        return f"a move ({moves}) or a command ({COMMANDS})"

    # -- a human's turn -----------------------------------------------------------------------------------------
    def _human_turn(self, player: int) -> bool:
        """Read and carry out one input at a human's prompt; False when the human quits the game."""
        session = self.session
        game = session.game
        line = self.io.ask(f"{game.player_names[player]}> ").strip()
        word, _, argument = line.partition(" ")
        command = word.lower()
        argument = argument.strip()
        if not line:
            self.io.invalid("an empty line", self._valid_here())
        elif command in ("help", "?") and not argument:
            self._help()
        elif command == "board" and not argument:
            self.show()
        elif command == "undo" and not argument:
            self._moved_in_history(session.undo(), "Took back", "there is no earlier move of a human to take back")
        elif command == "redo" and not argument:
            self._moved_in_history(len(session.redo()), "Replayed", "there is no undone move to replay")
        elif command == "hint" and not argument:
            self._hint()
        elif command in ("analyse", "analyze"):
            self._analyse(argument)
        elif command == "review":
            self.review(argument)
        elif command == "save":
            self.save(argument or None)
        elif command in ("quit", "exit") and not argument:
            return False
        else:
            try:
                move = game.parse_label(session.state, line)
            except RulesError as error:
                # The valid moves follow in the answer's own list, so the rules' copy of them is left out.
                self.io.invalid(str(error).split("; legal moves")[0], self._valid_here())
                return True
            self._play_move(player, move)
        return True

    def _moved_in_history(self, count: int, done: str, nothing: str) -> None:
        """After an undo or redo: ``done`` and the number of moves with the board, or ``nothing`` as bad input."""
        if count:
            self.io.say(f"{done} {moves_text(count)}.")
            self.show()
        else:
            self.io.invalid(nothing, self._valid_here())

    def _help(self) -> None:
        session = self.session
        game = session.game
        self.io.say("Type a move as the list below writes it, or a command:")
        for command, text in (
            ("help", "this text and the legal moves"),
            ("board", "show the board again"),
            ("undo", "take back your last move (and the computer's replies)"),
            ("redo", "replay what undo took back"),
            ("hint", "ask the computer for a good move"),
            ("analyse [SECONDS]", f"every legal move's value, best first, proven or searched (deepens "
                                  f"{ANALYSE_SECONDS:g} s unless given)"),
            ("review [SECONDS]", f"the game so far, move by move: turning points and accuracy "
                                 f"({DEFAULT_SECONDS:g} s a position unless given)"),
            ("save [FILE]", "save the game and go on playing"),
            ("quit", "back to the start menu (where you can save, resume or leave)"),
        ):
            self.io.say(f"  {command:<18} {text}")
        moves = ", ".join(game.move_label(session.state, m) for m in game.legal_moves(session.state))
        self.io.say(f"Legal moves: {moves}")

    def _play_move(self, player: int, move: Move) -> None:
        session = self.session
        game = session.game
        description = game.describe_move(session.state, move)
        text = game.move_label(session.state, move)
        session.play(move)
        self.io.say(f"{game.player_names[player]} plays {text}: {description}")
        self.show()

    # -- the computer -------------------------------------------------------------------------------------------
    def _search(self, spec: str, seconds: float) -> SearchResult:
        """A fresh engine's search of the current state within ``seconds``."""
        session = self.session
        limits = Limits.requested(seconds)  # the move's deadline counts from here, building the engine included
        engine = registry.make_engine(session.game, spec)
        return engine.search(session.state, limits, CancelToken(deadline=limits.deadline))

    def _computer_turn(self, player: int) -> bool:
        """Let a computer seat move; False (and the move not played) when the engine fails or plays illegally."""
        session = self.session
        game = session.game
        seat = session.seats[player]
        name = game.player_names[player]
        seconds = seconds_per_move(game, seat, first_move=not session.has_moved(player))
        self.io.say(f"{name} ({seat.engine}) is thinking, up to {seconds:g} s...")
        started = time.perf_counter()
        try:
            result = self._search(seat.engine or "", seconds)
        except Exception as error:  # an engine's crash must not take the game down with it
            self.io.say(f"The engine {seat.engine} failed: {type(error).__name__}: {error}. The move is not played.")
            return False
        elapsed = time.perf_counter() - started
        legal = game.legal_moves(session.state)
        if result.move is None or result.move not in legal:
            valid = ", ".join(game.move_label(session.state, m) for m in legal)
            self.io.say(f"The engine {seat.engine} chose an illegal move {result.move!r} (legal: {valid}); "
                        "it is not played.")
            return False
        over = f" -- over its {seconds:g} s limit" if elapsed > seconds + 0.1 else ""
        self.io.say(f"  thinking: {_thinking(result, elapsed)}{over}")
        self._play_move(player, result.move)
        return True

    def _hint(self) -> None:
        """``hint``: the best move of the analysis of the position (``ai.analysis``), for a computer's time."""
        session = self.session
        game = session.game
        seconds = seconds_per_move(game, Seat("analysis", self.seconds), first_move=False)  # as a later move
        started = time.perf_counter()
        try:
            result = advice(game, session.state, analyse(game, session.state, Limits(time=seconds)))
        except Exception as error:  # a hint is a courtesy: report the failure and go on
            self.io.say(f"No hint: the analysis failed ({type(error).__name__}: {error}).")
            return
        if result is None or result.move is None or result.move not in game.legal_moves(session.state):
            self.io.say("No hint: the analysis found no move in time.")
            return
        move = game.move_label(session.state, result.move)
        words = explain.hint_text(game, session.state, result, result.info.get("alternatives"),
                                  details=True).replace("\n", " ")  # the console keeps the engine's details
        self.io.say(f"Hint: {move}  ({words}; the analysis, {time.perf_counter() - started:.2f} s)")

    def _analyse(self, argument: str) -> None:
        """``analyse [SECONDS]``: every legal move with its value, best first, after deepening for SECONDS."""
        try:
            seconds = analyse_seconds(argument)
        except ValueError as problem:
            low, high = ANALYSE_LIMITS
            self.io.invalid(str(problem), f"analyse (for {ANALYSE_SECONDS:g} s) or analyse SECONDS with SECONDS "
                                          f"from {low:g} to {high:g}, e.g. analyse 10")
            return
        session = self.session
        game = session.game
        player = game.player_names[game.to_move(session.state)]
        self.io.say(f"Analysing every move of {player} for up to {seconds:g} s (Ctrl-C stops early)...")
        analysis = Analysis(game, session.state, seconds)
        stopped = ""
        try:
            analysis.wait(seconds + 5.0)  # the worker answers at its deadline; the margin only guards a hang
        except KeyboardInterrupt:
            stopped = " (stopped early)"
        analysis.cancel()  # already over, or out of patience: the values so far stand
        snapshot = analysis.poll()
        if snapshot is not None:
            snapshot = worded(game, session.state, snapshot)
        if snapshot is None or not snapshot.moves:
            reason = f": {analysis.error}" if analysis.error else ""
            self.io.say(f"No analysis{reason}.")
            return
        settled = all(move.proven and move.exact for move in snapshot.moves)
        reach = "every move proven" if settled else f"searched {snapshot.depth} plies deep"
        self.io.say(f"Moves of {player}, best first ({reach}, {snapshot.seconds:.1f} s{stopped}):")
        width = max(len(move.name) for move in snapshot.moves)
        phrases = [value_phrase(game, move.score, move.proven, move.exact, session.state, expectation=move.expectation)
                   for move in snapshot.moves]  # the analysis's own reading (capped at a proven value it knows)
        phrase_width = max(len(phrase) for phrase in phrases)
        for move, phrase in zip(snapshot.moves, phrases):
            self.io.say(f"  {move.name:<{width}}  {phrase:<{phrase_width}}  {how_words(move)}")
        if analysis.error:
            self.io.say(f"The analysis stopped early: {analysis.error}")

    def review(self, argument: str) -> None:
        """``review [SECONDS]``: the game so far, its turning points and each player's accuracy."""
        try:
            seconds = review_seconds(argument)
        except ValueError as problem:
            self.io.invalid(str(problem), "review, or review SECONDS, e.g. review 1")
            return
        session = self.session
        run_review(self.io.say, session.game, session.states, session.moves, seconds)

    def _announce(self) -> None:
        session = self.session
        game = session.game
        outcome = game.outcome(session.state)
        if outcome is None:  # is_terminal and outcome disagree: say so rather than invent a result
            self.io.say("Game over.")
            return
        names = game.player_names
        scores = ", ".join(f"{names[i]} {score}" for i, score in enumerate(outcome.scores) if i < len(names))
        result = "a draw" if outcome.winner is None else f"{names[outcome.winner]} wins"
        self.io.say(f"Game over after {moves_text(len(session.moves))}: {result} ({outcome.reason.value}). Score: {scores}.")


def analyse_seconds(argument: str) -> float:
    """The seconds of ``analyse [SECONDS]`` (``ANALYSE_SECONDS`` when empty; ``10`` or ``10s``); ValueError
    saying what is wrong when the argument is not a number of seconds within ``ANALYSE_LIMITS``."""
    text = argument.strip().lower()
    if not text:
        return ANALYSE_SECONDS
    number = text[:-1].rstrip() if text.endswith("s") else text
    try:
        seconds = float(number) if len(number) <= 20 else math.nan
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds):
        raise ValueError(f"{clip(argument.strip())!r} is not a number of seconds for analyse")
    low, high = ANALYSE_LIMITS
    if not low <= seconds <= high:
        raise ValueError(f"analyse takes {low:g} to {high:g} seconds, not {seconds:g}")
    return seconds


def _thinking(result: SearchResult, elapsed: float) -> str:
    """A search's figures on one line: depth, score (with ``proven`` when exhaustive), nodes and time."""
    score = float(result.score)
    score_text = f"{score:+.2f}" if math.isfinite(score) and score != int(score) else (
        f"{int(score):+d}" if math.isfinite(score) else f"{score:+}")
    proven = ", proven" if result.exhaustive else ""
    return f"depth {result.depth}, score {score_text}{proven}, {result.nodes:,} nodes, {elapsed:.2f} s"
