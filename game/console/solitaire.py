"""The Solitaire Mancala console: ``stonecave text solitaire [options]``.

    stonecave text solitaire [--variant dose|lewis] [--seed N | --level ID] [--engine SPEC] [--time S]

Type a round (``cw``, ``ccw``, ``3 cw`` when the hole is yours to choose, ``cw aside`` under lewis to set the
last stone aside) or a command: ``hint``, ``auto [N]`` (the engine plays N rounds, or to the end; Ctrl-C
stops it), ``solve`` (what the position still allows, with proof when the search is exhaustive), ``undo``,
``board``, ``levels``, ``help``, ``quit``.  The board is drawn as in the source document after every round.
Input is read a line at a time, so the console can be driven through a pipe; bad input is answered with a
line beginning ``Invalid input:`` saying what would be valid.
"""
from __future__ import annotations

import math
import signal
import sys
import threading
from typing import TextIO, cast

from ai.base import EngineError, Limits, SearchResult
from ai.registry import make_engine
from game.savegame import Seat
from game.session import Session
from levels.solitaire import LevelError, find_level, level_set, load_levels
from rules import RulesError
from rules.base import clip, read_whole_number
from rules.solitaire import Round, Solitaire, SolitaireState

USAGE = __doc__.split("\n\n")[1].strip()
COMMANDS = "a round (cw, ccw, 3 cw, cw aside), hint, auto [N], solve, undo, board, levels, help, quit"
DEFAULT_ENGINE = "packed-dfs"  # the strongest solver (BENCHMARKS.md), as the Strongest preset
DEFAULT_SECONDS = 2.0
SECONDS = (0.001, 3600.0)
"""The range of ``--time``: the engines' own."""


def ignore_interrupts() -> None:
    """Leaving after a Ctrl-C: a second Ctrl-C while we tidy up must not print a traceback."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class SolitaireConsole:
    """One game of Solitaire Mancala in a terminal, with an engine for hints and automatic play."""

    def __init__(self, game: Solitaire, start: SolitaireState, engine: str, seconds: float,
                 stdin: TextIO, stdout: TextIO, title: str = "") -> None:
        self.game = game
        self.session = Session(game, (Seat(),), start)
        """The game in progress: one human seat, so undo takes back one round (``game.session``'s rule)."""
        self.engine_spec = engine
        self.engine = make_engine(game, engine)
        self.seconds = seconds
        self.stdin = stdin
        self.stdout = stdout
        self.echo = not (hasattr(stdin, "isatty") and stdin.isatty())
        self.title = title
        self._plan: tuple = ()
        """The rest of the last solved line, so automatic play does not search again at every round."""

    @property
    def state(self) -> SolitaireState:
        return self.session.state

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def run(self) -> int:
        heading = f"Solitaire Mancala ({self.game.variant})" + (f": {self.title}" if self.title else "")
        self.say(heading)
        if self.game.is_lewis:
            self.say("Clear every hole to win; the last stone into an empty hole loses.")
        else:
            self.say("Store as many stones as you can: no deal can be won, 46 is a perfect game.")
        self.say(f"Commands: {COMMANDS}")
        self.show()
        try:
            while True:
                if self.game.is_terminal(self.state):
                    self.say("The game is over: 'undo' to go back, 'quit' to leave.")
                self.stdout.write("> ")
                self.stdout.flush()
                line = self.stdin.readline()
                if not line:
                    self.say()
                    return 0
                line = line.strip()
                if self.echo:
                    self.say(line)
                if not line:
                    self.say(f"Invalid input: an empty line; valid: {COMMANDS}")
                    continue
                if not self.command(line):
                    return 0
        except KeyboardInterrupt:  # Ctrl-C at the prompt leaves as the end of input does
            ignore_interrupts()
            self.say()
            return 0

    def command(self, line: str) -> bool:
        """Do what ``line`` asks; False to leave."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?"):
            self.say(USAGE)
            self.say(f"Commands: {COMMANDS}")
        elif word == "board":
            self.show()
        elif word == "undo":
            self.undo()
        elif word == "hint":
            self.hint()
        elif word == "auto":
            self.auto(rest.strip())
        elif word == "solve":
            self.solve()
        elif word == "levels":
            self.list_levels()
        else:
            self.play_typed(line)
        return True

    # -- the player's rounds ----------------------------------------------------------------------------------
    def play_typed(self, line: str) -> None:
        if self.game.is_terminal(self.state):
            self.say("Invalid input: the game is over; valid: undo, quit")
            return
        try:
            move = self.game.parse_label(self.state, line)
        except RulesError as error:
            self.say(f"Invalid input: {error}; commands: hint, auto, solve, undo, board, help, quit")
            return
        self._plan = ()
        self.play(move)

    def play(self, move) -> None:
        self.say(f"Round {len(self.session.moves) + 1}: {self.game.describe_move(self.state, move)}")
        self.session.play(move)
        self.show()

    def undo(self) -> None:
        if not self.session.undo():
            self.say("Invalid input: nothing to undo; this is the start of the game")
            return
        self._plan = ()
        self.say("Took back the last round.")
        self.show()

    def show(self) -> None:
        self.say(self.game.render(self.state))
        outcome = self.game.outcome(self.state)
        if outcome is None:
            return
        stored = outcome.scores[0]
        if outcome.winner == 0:
            self.say(f"Won: {outcome.reason.value}; all {stored} stones stored.")
        elif self.game.is_lewis:
            self.say(f"Lost: {outcome.reason.value}; {stored} stones stored.")
        else:
            verdict = "a perfect game" if stored >= self.game.ceiling else f"46 is perfect"
            self.say(f"Game over: {outcome.reason.value}; {stored} stones stored ({verdict}).")

    # -- the engine -------------------------------------------------------------------------------------------
    def think(self) -> SearchResult | None:
        """The engine's search of the position, or None when Ctrl-C stopped it (the console goes on)."""
        try:
            return self.engine.search(self.state, Limits(time=self.seconds))
        except KeyboardInterrupt:
            self.say("Search stopped (Ctrl-C). Ctrl-C at the prompt, or quit, leaves.")
            return None

    def hint(self) -> None:
        if self.game.is_terminal(self.state):
            self.say("Invalid input: the game is over; valid: undo, quit")
            return
        result = self.think()
        if result is None or result.move is None:
            return
        move = self.game.move_label(self.state, cast(Round, result.move))  # a Solitaire engine's round
        self.say(f"Hint ({self.engine_spec}): {move} ({result.info.get('reason', '')})")

    def solve(self) -> None:
        if self.game.is_terminal(self.state):
            self.say(f"The game is over with {self.state.stored} stones stored.")
            return
        result = self.think()
        if result is None:
            return
        proof = "proven" if result.exhaustive else "not proven: the search ran out of budget"
        self.say(f"{result.info.get('reason', '')}: a line of {len(result.pv)} rounds storing "
                 f"{int(result.score)} in all ({proof}; {result.nodes} states in {result.time:.2f} s)")

    def auto(self, argument: str) -> None:
        """Let the engine play ``argument`` rounds (all when empty); Ctrl-C stops between rounds."""
        rounds = read_whole_number(argument) if argument else None
        if argument and (rounds is None or rounds < 1):
            self.say(f"Invalid input: auto takes a number of rounds of at least 1 (digits 0-9), "
                     f"not {clip(argument)!r}")
            return
        played = 0
        try:
            while not self.game.is_terminal(self.state) and (rounds is None or played < rounds):
                if not self._plan:
                    result = self.think()
                    if result is None or result.move is None:
                        break
                    self.say(f"({self.engine_spec}: {result.info.get('reason', '')})")
                    self._plan = result.pv if result.info.get("solved") else (result.move,)
                move, self._plan = self._plan[0], self._plan[1:]
                self.play(move)
                played += 1
        except KeyboardInterrupt:
            self.say("Automatic play stopped.")
            self._plan = ()

    def list_levels(self) -> None:
        levels, problems = load_levels()
        for level in levels:
            self.say(f"{level.id:<10} {level.name:<18} {level_set(level.variant).name:<16} {level.length} rounds")
        for problem in problems:
            self.say(f"(refused) {problem}")


def parse_arguments(argv: list[str]) -> dict:
    """Read the command line into a dict of options, or ValueError saying what is wrong."""
    args = list(argv)
    options = {"variant": None, "seed": None, "level": None, "engine": DEFAULT_ENGINE, "time": DEFAULT_SECONDS}
    if args and args[0].startswith("solitaire"):
        _, _, spec = args.pop(0).partition(":")
        for item in filter(None, spec.split(",")):
            key, _, value = item.partition("=")
            if key != "variant":
                raise ValueError(f"unknown game parameter {key!r} (valid: variant)")
            options["variant"] = value
    while args:
        flag = args.pop(0)
        name = flag.lstrip("-")
        if not flag.startswith("--") or name not in options:
            raise ValueError(f"unknown option {flag!r} (valid: --variant, --seed, --level, --engine, --time)")
        if not args:
            raise ValueError(f"{flag} needs a value")
        value = args.pop(0)
        if name == "seed":
            seed = read_whole_number(value)
            if seed is None:
                raise ValueError(f"--seed must be a whole number (digits 0-9), not {clip(value)!r}")
            options["seed"] = seed
        elif name == "time":
            try:
                # the one rule for numbers: ASCII digits (float() alone takes '١٢' and '1_000')
                seconds = float(value) if len(value) <= 40 and value.isascii() and "_" not in value else math.nan
            except ValueError:
                seconds = math.nan
            if not (math.isfinite(seconds) and SECONDS[0] <= seconds <= SECONDS[1]):
                raise ValueError(f"--time must be a number of seconds from {SECONDS[0]:g} to {SECONDS[1]:g}, "
                                 f"not {clip(value)!r}")
            options["time"] = seconds
        elif name == "variant":
            if value not in ("dose", "lewis"):
                raise ValueError(f"--variant must be dose or lewis, not {value!r}")
            options["variant"] = value
        else:
            options[name] = value
    if options["seed"] is not None and options["level"] is not None:
        raise ValueError("give --seed or --level, not both")
    return options


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """``stonecave text solitaire ...``: 0 after a normal exit, 2 for a bad command line."""
    out = stdout or sys.stdout
    try:
        options = parse_arguments(argv)
        title = ""
        if options["level"] is not None:
            level = find_level(options["level"])
            if options["variant"] not in (None, level.variant):
                raise ValueError(f"level {level.id} is a {level.variant} deal; leave out --variant")
            game = Solitaire(variant=level.variant)
            start = game.deal(level.holes)
            title = f"level {level.id}, {level.name}"
        else:
            game = Solitaire(variant=options["variant"] or "dose")
            start = game.initial_state(seed=options["seed"])
            if options["seed"] is not None:
                title = f"deal {options['seed']}"
        console = SolitaireConsole(game, start, options["engine"], options["time"], stdin or sys.stdin, out, title)
    except (ValueError, LevelError, EngineError) as error:
        print(f"stonecave text solitaire: {error}\n\n{USAGE}", file=out if stdout else sys.stderr)
        return 2
    return console.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
