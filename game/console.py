"""The text game manager: ``stonecave text GAME`` plays any two-player StoneCave game in a terminal.

    stonecave text GAME [--SEAT SPEC ...] [--time SECONDS] [--seed N] [--load FILE]

GAME is a registry name with optional parameters (``kalah``, ``oware``, ``hus``, ``cave``,
``kalah:pits=4,seeds=3``); ``solitaire`` goes to its own console (``game.solitaire_console``).  ``--SEAT`` is
a player name of the game (``--south``/``--north``, ``--black``/``--white`` for Magnetic Cave) and SPEC is
``human``, ``computer``, a level (Easy, Medium, Hard, Strongest) or an engine spec such as
``alphabeta:depth=6``; seats given here are not asked for.  ``--time`` sets every computer's seconds per move
(default: the game's own limit), ``--load`` starts by continuing a saved game.

The manager works only through the game protocol (``rules.Game``), so every registered two-player game plays
here as soon as it exists.  It reads its input a line at a time from any text stream, so tests and scripts
can drive it through a pipe; any bad input is answered with a line beginning ``Invalid input:`` that says what
would be valid, and the end of input leaves cleanly.

A computer seat gets a fresh engine for every move, built from its spec, and sees only the immutable state:
the same position and settings give the same search, and no engine can keep or change anything of the game.
Its move is checked against the rules before it is played.
"""
from __future__ import annotations

import importlib
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import rules
from ai.base import CancelToken, EngineError, Limits, SearchResult
from ai import registry
from game import savegame
from game.savegame import SavedGame, SaveError, Seat
from rules import Game, Move, RulesError, State

USAGE = "\n\n".join(__doc__.split("\n\n")[1:3]).strip()

SECONDS_PER_MOVE = {"kalah": 1.0, "oware": 1.0, "hus": 2.0, "magnetic-cave": 3.0}
"""A computer's time per move in each game (the coursework and competition limits); 1 s for others."""
FIRST_MOVE_SECONDS = {"hus": 30.0}
"""Hus competition rules give each player 30 s for its first move."""
DEFAULT_SECONDS = 1.0
COMMANDS = "help, board, undo, redo, hint, save [FILE], quit"
YES, NO = ("yes", "y"), ("no", "n")
HINT_LEVELS = ("Hard", "Strongest", "Medium", "Easy")
COMPUTER_LEVEL = "Medium"


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


# -- seats ---------------------------------------------------------------------------------------------------
def default_engine(game: Game) -> str:
    """The engine spec a plain ``computer`` seat gets: the Medium preset, else the first non-random engine."""
    levels = registry.presets(game)
    if COMPUTER_LEVEL in levels:
        return levels[COMPUTER_LEVEL]
    if levels:
        return next(iter(levels.values()))
    return _best_registered(game)


def hint_engine(game: Game) -> str:
    """The engine spec that answers ``hint``: the strongest level that exists, within the game's time."""
    levels = registry.presets(game)
    for level in HINT_LEVELS:
        if level in levels:
            return levels[level]
    return _best_registered(game)


def _best_registered(game: Game) -> str:
    names = [info.name for info in registry.engines(game)]
    for name in names:
        if name != "random":
            return name
    return names[0] if names else "random"


def resolve_seat(game: Game, text: str, seconds: float | None = None) -> Seat:
    """``human``, ``computer``, a level name or an engine spec, as a Seat; ValueError says what is valid."""
    choice = text.strip()
    lowered = choice.lower()
    if lowered in ("human", "h"):
        return Seat()
    if lowered in ("computer", "c"):
        spec = default_engine(game)
    else:
        levels = {name.lower(): spec for name, spec in registry.presets(game).items()}
        spec = levels.get(lowered, choice)
    if not spec or any(ch.isspace() for ch in spec):
        raise ValueError(f"{choice!r} is not a player")
    try:
        savegame.check_engine(game, spec)
        registry.make_engine(game, spec)
    except (SaveError, EngineError) as error:
        raise ValueError(str(error)) from None
    return Seat(spec, seconds)


def seat_choices(game: Game) -> str:
    """What a seat prompt accepts, for the question and for ``Invalid input`` answers."""
    levels = ", ".join(registry.presets(game))
    engines = ", ".join(info.name for info in registry.engines(game))
    level_text = f", a level ({levels})" if levels else ""
    return f"human, computer{level_text} or an engine spec NAME[:key=value,...] (engines: {engines})"


def seat_label(game: Game, seat: Seat) -> str:
    """``human`` or ``computer SPEC`` with its level name when the spec is a preset's."""
    if seat.is_human:
        return "human"
    level = next((name for name, spec in registry.presets(game).items() if spec == seat.engine), None)
    return f"computer {seat.engine}" + (f" ({level})" if level else "")


def seconds_per_move(game: Game, seat: Seat, first_move: bool) -> float:
    """The time a computer seat gets for this move: its own setting, else the game's limit."""
    if seat.time is not None:
        return seat.time
    if first_move and game.name in FIRST_MOVE_SECONDS:
        return FIRST_MOVE_SECONDS[game.name]
    return SECONDS_PER_MOVE.get(game.name, DEFAULT_SECONDS)


# -- a game in progress --------------------------------------------------------------------------------------
@dataclass
class Session:
    """The game being played: seats, every position so far (the undo history) and the moves undone."""

    game: Game
    seats: tuple[Seat, ...]
    states: list[State]
    moves: list[Move]
    seed: int | None = None
    redo: list[Move] = field(default_factory=list)
    saved_moves: tuple[Move, ...] | None = None
    """The moves as last saved or loaded, to tell whether leaving would lose anything."""
    path: Path | None = None

    @classmethod
    def from_saved(cls, saved: SavedGame, path: Path | None = None) -> Session:
        return cls(saved.game, saved.seats, list(saved.states), list(saved.moves), saved.seed,
                   saved_moves=saved.moves, path=path)

    def to_saved(self) -> SavedGame:
        return SavedGame(self.game, self.seats, self.states[0], tuple(self.moves), self.seed)

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    @property
    def is_unsaved(self) -> bool:
        return self.saved_moves != tuple(self.moves)

    def play(self, move: Move) -> None:
        """Apply a checked move; a new move forgets what was undone."""
        self.states.append(self.game.apply(self.state, move))
        self.moves.append(move)
        self.redo.clear()

    def is_human_turn(self, index: int) -> bool:
        state = self.states[index]
        return not self.game.is_terminal(state) and self.seats[self.game.to_move(state)].is_human

    def undo(self) -> int:
        """Take back to the previous position where a human was to move; the number of moves taken back."""
        target = next((i for i in range(len(self.states) - 2, -1, -1) if self.is_human_turn(i)), None)
        if target is None:
            return 0
        taken = len(self.moves) - target
        undone = self.moves[target:]
        del self.moves[target:]
        del self.states[target + 1:]
        self.redo = undone + self.redo
        return taken

    def redo_moves(self) -> int:
        """Replay undone moves up to the next position where a human is to move; the number replayed."""
        count = 0
        while self.redo:
            move = self.redo.pop(0)
            self.states.append(self.game.apply(self.state, move))
            self.moves.append(move)
            count += 1
            if self.is_human_turn(len(self.states) - 1):
                break
        return count

    def has_moved(self, player: int) -> bool:
        return any(self.game.to_move(state) == player for state in self.states[:-1])


# -- the manager ---------------------------------------------------------------------------------------------
class Console:
    """The start menu and the game loop for one game (with its variant), talking through a Terminal."""

    def __init__(
        self,
        game: Game,
        terminal: Terminal,
        seats: dict[int, Seat] | None = None,
        seconds: float | None = None,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.io = terminal
        self.fixed_seats = dict(seats or {})
        self.seconds = seconds
        self.seed = seed
        self.session: Session | None = None

    # -- start menu ---------------------------------------------------------------------------------------------
    def run(self, load: str | None = None) -> int:
        """The start menu until the player leaves; 0 on a normal exit, also at the end of the input."""
        try:
            self.io.say(f"StoneCave: {self.game.title} ({self.game.spec})")
            if load is not None and self._load(load):
                self._play()
            while True:
                if not self._menu():
                    return 0
        except (EndOfInput, KeyboardInterrupt):  # Ctrl-C while a computer thinks ends like the end of input
            unsaved = self.session is not None and not self.session.is_over and self.session.is_unsaved
            self.io.say("End of input: leaving StoneCave" + (" (the game in progress was not saved)." if unsaved else "."))
            return 0

    def _menu_options(self) -> str:
        options = ["new", "load [FILE]"]
        if self.session is not None and not self.session.is_over:
            options.append("resume")
        if self.session is not None:
            options.append("save [FILE]")
        return ", ".join(options + ["quit"])

    def _menu(self) -> bool:
        """One start-menu choice; False when the player leaves."""
        self.io.say("")
        self.io.say(f"Start menu: 1 new game, 2 load a saved game, 3 quit  ({self._menu_options()})")
        line = self.io.ask("menu> ").strip()
        word, _, argument = line.partition(" ")
        word = word.lower()
        argument = argument.strip()
        if word in ("1", "new", "n") and not argument:
            self._new_game()
        elif word in ("2", "load", "l"):
            if self._load(argument or None):
                self._play()
        elif word in ("3", "quit", "q", "exit") and not argument:
            return not self._leave()
        elif word == "resume" and self.session is not None and not self.session.is_over and not argument:
            self._play()
        elif word == "save" and self.session is not None:
            self._save(argument or None)
        else:
            problem = "an empty line" if not line else f"{line!r} is not a menu choice"
            self.io.invalid(problem, self._menu_options())
        return True

    def _leave(self) -> bool:
        """Leave StoneCave, first asking whether to save an unfinished, unsaved game; False to stay."""
        session = self.session
        if session is not None and not session.is_over and session.is_unsaved:
            while True:
                answer = self.io.ask("Save the unfinished game before leaving? (yes/no) ").strip().lower()
                if answer in YES:
                    if not self._save(None):
                        return False
                    break
                if answer in NO:
                    break
                self.io.invalid("an empty line" if not answer else f"{answer!r} is not an answer", "yes or no")
        self.io.say("Goodbye.")
        return True

    def _new_game(self) -> None:
        seats = []
        for player, name in enumerate(self.game.player_names):
            if player in self.fixed_seats:
                seats.append(self.fixed_seats[player])
            else:
                seats.append(self._ask_seat(player, name))
        self.session = Session.from_saved(savegame.new_game(self.game, seats, self.seed))
        self.session.saved_moves = None
        self._play()

    def _ask_seat(self, player: int, name: str) -> Seat:
        default = "human" if player == 0 else "computer"
        choices = seat_choices(self.game)
        self.io.say(f"Who plays {name}? {choices}; empty for {default}.")
        if player == 0 and self.game.num_players == 2:
            other = self.game.player_names[1]
            self.io.say(f"  (modes: human against human, human {name} against computer {other}, computer {name}"
                        f" against human {other}, computer against computer)")
        while True:
            text = self.io.ask(f"{name} [{default}]> ").strip() or default
            try:
                return resolve_seat(self.game, text, self.seconds)
            except ValueError as error:
                self.io.invalid(str(error), choices)

    # -- files --------------------------------------------------------------------------------------------------
    def _default_path(self) -> str:
        if self.session is not None and self.session.path is not None:
            return str(self.session.path)
        return f"{self.game.name}.save"

    def _ask_path(self, purpose: str) -> str | None:
        default = self._default_path()
        line = self.io.ask(f"File to {purpose} [{default}] (or cancel)> ").strip()
        if line.lower() == "cancel":
            return None
        return line or default

    def _save(self, path: str | None) -> bool:
        """Save the session to ``path`` (asked for when None); True when it was written."""
        assert self.session is not None
        while True:
            if path is None:
                path = self._ask_path("save to")
                if path is None:
                    return False
            try:
                savegame.save(path, self.session.to_saved())
            except (OSError, ValueError) as error:
                self.io.invalid(f"cannot write {path!r} ({_reason(error)})",
                                "the name of a file in a folder you can write to, or cancel")
                path = None
                continue
            self.session.saved_moves = tuple(self.session.moves)
            self.session.path = Path(path)
            self.io.say(f"Saved to {path} ({len(self.session.moves)} moves).")
            return True

    def _load(self, path: str | None) -> bool:
        """Load a save of this game into a new session; on any problem the current session stays as it was."""
        while True:
            if path is None:
                path = self._ask_path("load")
                if path is None:
                    return False
            try:
                saved = savegame.load(path, expect_game=self.game.name)
            except (SaveError, OSError, ValueError) as error:
                self.io.invalid(f"cannot load {path!r}: {_reason(error)}",
                                f"the name of a StoneCave save file of {self.game.title}, or cancel")
                path = None
                continue
            self.session = Session.from_saved(saved, Path(path))
            self.game = saved.game
            self.io.say(f"Loaded {path}: {saved.game.title} ({saved.game.spec}) after {len(saved.moves)} moves.")
            return True

    # -- the game loop ------------------------------------------------------------------------------------------
    def _play(self) -> None:
        """Play the session until the game ends or a human quits; then back to the start menu."""
        session = self.session
        assert session is not None
        game = session.game
        seats = ", ".join(f"{name}: {seat_label(game, seat)}" for name, seat in zip(game.player_names, session.seats))
        self.io.say(f"{game.title} ({game.spec}). {seats}.")
        self._show()
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

    def _show(self) -> None:
        session = self.session
        assert session is not None
        game = session.game
        self.io.say("")
        self.io.say(game.render(session.state))
        if not session.is_over:
            player = game.to_move(session.state)
            who = "human" if session.seats[player].is_human else "computer"
            self.io.say(f"Move {len(session.moves) + 1}: {game.player_names[player]} to move ({who}).")

    def _valid_here(self) -> str:
        session = self.session
        assert session is not None
        moves = ", ".join(session.game.format_move(session.state, m) for m in session.game.legal_moves(session.state))
        return f"a move ({moves}) or a command ({COMMANDS})"

    def _human_turn(self, player: int) -> bool:
        """Read and carry out one input at a human's prompt; False when the human quits the game."""
        session = self.session
        assert session is not None
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
            self._show()
        elif command == "undo" and not argument:
            taken = session.undo()
            if taken:
                self.io.say(f"Took back {taken} move{'s' if taken != 1 else ''}.")
                self._show()
            else:
                self.io.invalid("there is no earlier move of a human to take back", self._valid_here())
        elif command == "redo" and not argument:
            replayed = session.redo_moves()
            if replayed:
                self.io.say(f"Replayed {replayed} move{'s' if replayed != 1 else ''}.")
                self._show()
            else:
                self.io.invalid("there is no undone move to replay", self._valid_here())
        elif command == "hint" and not argument:
            self._hint()
        elif command == "save":
            self._save(argument or None)
        elif command in ("quit", "exit") and not argument:
            return False
        else:
            try:
                move = game.parse_move(session.state, line)
            except RulesError as error:
                # The valid moves follow in the answer's own list, so the rules' copy of them is left out.
                self.io.invalid(str(error).split("; legal moves")[0], self._valid_here())
                return True
            self._play_move(player, move)
        return True

    def _help(self) -> None:
        session = self.session
        assert session is not None
        game = session.game
        self.io.say("Type a move as the list below writes it, or a command:")
        self.io.say("  help             this text and the legal moves")
        self.io.say("  board            show the board again")
        self.io.say("  undo             take back your last move (and the computer's replies)")
        self.io.say("  redo             replay what undo took back")
        self.io.say("  hint             ask the computer for a good move")
        self.io.say("  save [FILE]      save the game and go on playing")
        self.io.say("  quit             back to the start menu (where you can save, resume or leave)")
        moves = ", ".join(game.format_move(session.state, m) for m in game.legal_moves(session.state))
        self.io.say(f"Legal moves: {moves}")

    def _play_move(self, player: int, move: Move) -> None:
        session = self.session
        assert session is not None
        game = session.game
        description = game.describe_move(session.state, move)
        text = game.format_move(session.state, move)
        session.play(move)
        self.io.say(f"{game.player_names[player]} plays {text}: {description}")
        self._show()

    def _search(self, spec: str, seconds: float) -> SearchResult:
        """A fresh engine's search of the current state within ``seconds``."""
        session = self.session
        assert session is not None
        engine = registry.make_engine(session.game, spec)
        started = time.perf_counter()
        token = CancelToken(deadline=started + seconds)
        return engine.search(session.state, Limits(time=seconds), token)

    def _computer_turn(self, player: int) -> bool:
        """Let a computer seat move; False (and the move not played) when the engine fails or plays illegally."""
        session = self.session
        assert session is not None
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
            valid = ", ".join(game.format_move(session.state, m) for m in legal)
            self.io.say(f"The engine {seat.engine} chose an illegal move {result.move!r} (legal: {valid}); "
                        "it is not played.")
            return False
        over = f" -- over its {seconds:g} s limit" if elapsed > seconds + 0.1 else ""
        self.io.say(f"  thinking: {_thinking(result, elapsed)}{over}")
        self._play_move(player, result.move)
        return True

    def _hint(self) -> None:
        session = self.session
        assert session is not None
        game = session.game
        spec = hint_engine(game)
        seconds = self.seconds if self.seconds is not None else SECONDS_PER_MOVE.get(game.name, DEFAULT_SECONDS)
        started = time.perf_counter()
        try:
            result = self._search(spec, seconds)
        except Exception as error:  # a hint is a courtesy: report the failure and go on
            self.io.say(f"No hint: the engine {spec} failed ({type(error).__name__}: {error}).")
            return
        if result.move is None or result.move not in game.legal_moves(session.state):
            self.io.say(f"No hint: the engine {spec} found no legal move.")
            return
        move = game.format_move(session.state, result.move)
        self.io.say(f"Hint: {move}  ({spec}: {_thinking(result, time.perf_counter() - started)})")

    def _announce(self) -> None:
        session = self.session
        assert session is not None
        game = session.game
        outcome = game.outcome(session.state)
        if outcome is None:  # is_terminal and outcome disagree: say so rather than invent a result
            self.io.say("Game over.")
            return
        names = game.player_names
        scores = ", ".join(f"{names[i]} {score}" for i, score in enumerate(outcome.scores) if i < len(names))
        result = "a draw" if outcome.winner is None else f"{names[outcome.winner]} wins"
        self.io.say(f"Game over after {len(session.moves)} moves: {result} ({outcome.reason.value}). Score: {scores}.")


def _thinking(result: SearchResult, elapsed: float) -> str:
    score = float(result.score)
    score_text = f"{score:+.2f}" if math.isfinite(score) and score != int(score) else (
        f"{int(score):+d}" if math.isfinite(score) else f"{score:+}")
    proven = ", proven" if result.exhaustive else ""
    return f"depth {result.depth}, score {score_text}{proven}, {result.nodes:,} nodes, {elapsed:.2f} s"


def _reason(error: Exception) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


# -- the command line ----------------------------------------------------------------------------------------
class UsageError(ValueError):
    """A bad command line; the message says what is wrong."""


@dataclass
class Options:
    game: Game
    seats: dict[int, Seat]
    seconds: float | None = None
    seed: int | None = None
    load: str | None = None


def parse_arguments(argv: list[str]) -> Options:
    """Read ``GAME [--SEAT SPEC ...] [--time S] [--seed N] [--load FILE]``; UsageError says what is wrong."""
    if not argv or argv[0].startswith("-"):
        raise UsageError("name the game first, e.g. 'stonecave text kalah'")
    try:
        game = rules.parse_game_spec(argv[0])
    except RulesError as error:
        raise UsageError(str(error)) from None
    if game.num_players != 2:
        raise UsageError(f"{game.title} is not a two-player game")
    flags: dict[str, str] = {}
    items = argv[1:]
    index = 0
    while index < len(items):
        item = items[index]
        if not item.startswith("--"):
            raise UsageError(f"unexpected {item!r}: options are --FLAG VALUE")
        name, sep, value = item[2:].partition("=")
        if not sep:
            if index + 1 >= len(items):
                raise UsageError(f"--{name} needs a value")
            value = items[index + 1]
            index += 1
        index += 1
        flags[name.lower()] = value
    seat_flags = {player_name.lower(): player for player, player_name in enumerate(game.player_names)}
    known = ", ".join(f"--{flag}" for flag in [*seat_flags, "time", "seed", "load"])
    options = Options(game, {})
    for name, value in flags.items():
        if name == "time":
            try:
                options.seconds = float(value)
            except ValueError:
                options.seconds = math.nan
            if not math.isfinite(options.seconds) or options.seconds <= 0:
                raise UsageError(f"--time must be a positive number of seconds, not {value!r}")
        elif name == "seed":
            try:
                options.seed = int(value)
            except ValueError:
                raise UsageError(f"--seed must be a whole number, not {value!r}") from None
        elif name == "load":
            options.load = value
        elif name not in seat_flags:
            raise UsageError(f"unknown option --{name} for {game.title} (valid: {known})")
    for name, value in flags.items():
        if name in seat_flags:
            try:
                options.seats[seat_flags[name]] = resolve_seat(game, value, options.seconds)
            except ValueError as error:
                raise UsageError(f"--{name}: {error}; valid: {seat_choices(game)}") from None
    return options


def _solitaire(argv: list[str]) -> int:
    """Hand ``stonecave text solitaire ...`` to the solitaire console, which ships separately."""
    try:
        solitaire_console = importlib.import_module("game.solitaire_console")
    except ModuleNotFoundError as error:
        if error.name != "game.solitaire_console":
            raise
        print("stonecave text: the Solitaire Mancala console (game/solitaire_console.py) is not installed yet; "
              "play Solitaire in the window with 'stonecave'.", file=sys.stderr)
        return 2
    return solitaire_console.main(argv)


def _is_puzzle(spec: str) -> bool:
    name = spec.partition(":")[0].strip().lower()
    if name == "solitaire":
        return True
    try:
        return rules.game_class(name).num_players == 1
    except RulesError:
        return False


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """``stonecave text ...``: 0 after a normal exit, 2 for a bad command line."""
    if argv and argv[0] in ("-h", "--help", "help"):
        print(USAGE, file=stdout or sys.stdout)
        return 0
    if argv and _is_puzzle(argv[0]):
        return _solitaire(argv)
    if stdout is None and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")  # a board drawn with ■ and □ must not crash a narrow terminal
    try:
        options = parse_arguments(argv)
    except UsageError as error:
        print(f"stonecave text: {error}\n\n{USAGE}", file=sys.stderr if stdout is None else stdout)
        return 2
    terminal = Terminal(stdin or sys.stdin, stdout or sys.stdout)
    console = Console(options.game, terminal, options.seats, options.seconds, options.seed)
    return console.run(options.load)
