"""The text game manager: ``stonecave text GAME`` plays any two-player StoneCave game in a terminal.

    stonecave text GAME [--SEAT SPEC ...] [--time SECONDS] [--seed N] [--load FILE]

GAME is a registry name with optional parameters (``kalah``, ``oware``, ``hus``, ``cave``,
``kalah:pits=4,seeds=3``); ``solitaire`` goes to its own console (``game.console.solitaire``).  ``--SEAT`` is
a player name of the game (``--south``/``--north``, ``--black``/``--white`` for Magnetic Cave) and SPEC is
``human``, ``computer``, a level (Easy, Medium, Hard, Strongest) or an engine spec such as
``alphabeta:depth=6``; seats given here are not asked for.  ``--time`` sets every computer's seconds per move
(default: the game's own limit), ``--load`` starts by continuing a saved game.

The manager works only through the game protocol (``rules.Game``), so every registered two-player game plays
here as soon as it exists.  It reads its input a line at a time from any text stream, so tests and scripts
can drive it through a pipe; any bad input is answered with a line beginning ``Invalid input:`` that says what
would be valid, and the end of input leaves cleanly.

This module holds the start menu (new game, load, save, quit) and the command line; the turns of a game and
the line dialogue are in ``game.console.play``, the seats and time limits in ``game.console.seats``, the
game in progress with its undo history in ``game.session``.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import rules
from game import catalogue, savegame
from game.console.play import EndOfInput, GameLoop, Terminal, moves_text
from game.console.seats import resolve_seat, seat_choices
from game.savegame import SaveError, Seat
from game.session import Session
from rules import Game, RulesError
from rules.base import clip, read_whole_number

USAGE = "\n\n".join(__doc__.split("\n\n")[1:3]).strip()
BACK = object()
"""A seat prompt's answer ``cancel``: back to the start menu."""
QUIT = object()
"""A seat prompt's answer ``quit``: leave StoneCave (as the start menu's quit)."""

YES, NO = ("yes", "y"), ("no", "n")

CANCEL_WORDS = ("cancel", "quit", "back", "exit")
"""What cancels a file-name prompt (rather than naming a file 'quit')."""


# -- the manager ---------------------------------------------------------------------------------------------
class Console:
    """The start menu for one game (with its variant), talking through a Terminal: new game (asking for the
    seats not fixed on the command line), load, save, resume and quit; a GameLoop plays each game."""

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

    # -- the start menu -----------------------------------------------------------------------------------------
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
        if self.session is not None and self.session.moves:
            options.append("review [SECONDS]")
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
            if self._new_game() is QUIT:
                return not self._leave()
        elif word in ("2", "load", "l"):
            if self._load(argument or None):
                self._play()
        elif word in ("3", "quit", "q", "exit") and not argument:
            return not self._leave()
        elif word == "resume" and self.session is not None and not self.session.is_over and not argument:
            self._play()
        elif word == "save" and self.session is not None:
            self._save(argument or None)
        elif word == "review" and self.session is not None and self.session.moves:
            GameLoop(self.session, self.io, self.seconds, self._save).review(argument)
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

    def _new_game(self) -> object:
        """Ask for the seats not fixed and play; ``BACK`` or ``QUIT`` when the player gave up at a seat prompt
        (the game in progress, if any, is kept)."""
        seats = []
        for player, name in enumerate(self.game.player_names):
            if player in self.fixed_seats:
                seats.append(self.fixed_seats[player])
                continue
            seat = self._ask_seat(player, name)
            if not isinstance(seat, Seat):  # BACK or QUIT
                return seat
            seats.append(seat)
        self.session = Session.from_saved(savegame.new_game(self.game, seats, self.seed))  # not saved yet
        self._play()
        return None

    def _ask_seat(self, player: int, name: str) -> Seat | object:
        """The seat a player names; ``BACK`` (cancel: back to the start menu) or ``QUIT`` (leave StoneCave)."""
        default = "human" if player == 0 else "computer"
        choices = seat_choices(self.game)
        self.io.say(f"Who plays {name}? {choices}; empty for {default}; cancel for the start menu.")
        if player == 0 and self.game.num_players == 2:
            other = self.game.player_names[1]
            self.io.say(f"  (modes: human against human, human {name} against computer {other}, computer {name}"
                        f" against human {other}, computer against computer)")
        while True:
            text = self.io.ask(f"{name} [{default}]> ").strip() or default
            if text.lower() in ("cancel", "back", "menu"):
                return BACK
            if text.lower() in ("quit", "q", "exit"):
                return QUIT
            try:
                return resolve_seat(self.game, text, self.seconds)
            except ValueError as error:
                self.io.invalid(str(error), f"{choices}; or cancel, quit")

    # -- files --------------------------------------------------------------------------------------------------
    def _default_path(self) -> str:
        if self.session is not None and self.session.path is not None:
            return str(self.session.path)
        return f"{self.game.name}.save"

    def _ask_path(self, purpose: str) -> str | None:
        default = self._default_path()
        line = self.io.ask(f"File to {purpose} [{default}] (or cancel)> ").strip()
        if line.lower() in CANCEL_WORDS:  # a file is never named like a command: 'quit' here means cancel
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
                self.session.save(path)
            except (OSError, ValueError) as error:
                self.io.invalid(f"cannot write {path!r} ({_reason(error)})",
                                "the name of a file in a folder you can write to, or cancel")
                path = None
                continue
            self.io.say(f"Saved to {path} ({moves_text(len(self.session.moves))}).")
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
            self.io.say(f"Loaded {path}: {saved.game.title} ({saved.game.spec}) after {moves_text(len(saved.moves))}.")
            return True

    # -- the game -----------------------------------------------------------------------------------------------
    def _play(self) -> None:
        """Play the session until the game ends or a human quits; then back to the start menu."""
        assert self.session is not None
        GameLoop(self.session, self.io, self.seconds, self._save).run()


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
            low, high = savegame.SEAT_TIME
            try:
                # the one rule for numbers: ASCII digits (float() alone takes '١٢' and '1_000')
                is_plain = len(value) <= 40 and value.isascii() and "_" not in value
                options.seconds = float(value) if is_plain else math.nan
            except ValueError:
                options.seconds = math.nan
            if not math.isfinite(options.seconds) or not low <= options.seconds <= high:
                raise UsageError(f"--time must be a number of seconds from {low:g} to {high:g}, not {clip(value)!r}")
        elif name == "seed":
            options.seed = read_whole_number(value)
            if options.seed is None:
                raise UsageError(f"--seed must be a whole number (digits 0-9), not {clip(value)!r}")
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
    """Hand ``stonecave text solitaire ...`` to the Solitaire Mancala console."""
    from game.console import solitaire as solitaire_console

    return solitaire_console.main(argv)


def _is_puzzle(spec: str) -> bool:
    """Whether ``spec`` names a game with its own puzzle console (its registration's ``console``)."""
    try:
        return catalogue.registration(spec.partition(":")[0].strip()).console == "solitaire"
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
