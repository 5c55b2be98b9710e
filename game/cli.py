"""The ``stonecave`` command: the window by default, or a sub-command.

    stonecave                      open the game window on the main menu
    stonecave text GAME [options]  play in the terminal (kalah, oware, hus, cave, solitaire)
    stonecave compare [options]    a tournament between two engines
    stonecave games                list the games and their parameters
    stonecave engines [GAME]       list the engines and their parameters, and the search core in use
    stonecave doctor               which search core runs (compiled or pure Python) and why; what is missing
    stonecave desktop install      put StoneCave in the desktop's application menu (uninstall removes it)
    stonecave tables build kalah[:pits=6,empty_capture=false] [--seeds N]   build Kalah endgame tables
    stonecave solve kalah:pits=6,seeds=4 [--position TEXT]                   prove a Kalah position's value
    stonecave review FILE [--time S]   a saved game's turning points and each player's accuracy

Each sub-command lives in its own module and is imported only when used, so the console never loads arcade.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

USAGE = __doc__.split("\n\n", 1)[1]
ENGINES_USAGE = "usage: stonecave engines [GAME]   (GAME as in 'stonecave games', e.g. kalah or kalah:pits=4)"


def _list_games() -> int:
    import rules

    for info in rules.list_games():
        players = "puzzle" if info.num_players == 1 else "two players"
        print(f"{info.name}  ({info.title}, {players})")
        for param in info.params:
            bounds = ""
            if param.choices:
                bounds = f" one of {', '.join(map(str, param.choices))};"
            elif param.minimum is not None:
                bounds = f" {param.minimum}..{param.maximum};"
            print(f"    {param.name}={param.default}   {param.description} ({bounds} default {param.default})")
    return 0


def _list_engines(argv: list[str]) -> int:
    from ai import registry

    game = None
    if argv and argv[0] in ("-h", "--help", "help"):
        print(ENGINES_USAGE)
        return 0
    if len(argv) > 1:
        print(f"stonecave engines: expected at most one game, not {len(argv)} words\n{ENGINES_USAGE}", file=sys.stderr)
        return 2
    if argv:
        import rules
        from rules import RulesError

        try:
            game = rules.parse_game_spec(argv[0])
        except (RulesError, ValueError) as error:
            print(f"stonecave engines: {error}\n{ENGINES_USAGE}", file=sys.stderr)
            return 2
    for info in registry.engines(game):
        print(f"{info.name}  ({info.title}, {info.kind}): {info.description}")
        for param in info.params:
            bounds = f" one of {', '.join(param.choices)};" if param.choices else (
                f" {param.minimum}..{param.maximum};" if param.minimum is not None else "")
            print(f"    {param.name}={param.default}   {param.description} ({bounds} default {param.default})")
    if game is not None:
        for level, spec in registry.presets(game).items():
            print(f"preset {level}: {spec}")
    import ai.core

    print(f"search core: {ai.core.status().describe()}")
    return 0


def has_display() -> bool:
    """False where a window certainly cannot open: an X11 or Wayland desktop with neither variable set."""
    if sys.platform in ("win32", "darwin") or os.environ.get("ARCADE_HEADLESS"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


NO_DISPLAY = ("stonecave: no display to open the window on (DISPLAY is not set, or the X server cannot be reached). "
              "Run it from a desktop session, or play in the terminal: stonecave text kalah")


def _run_window(argv: list[str]) -> int:
    """The window, or a one-line message (exit 1) when there is no display to open it on."""
    if not has_display() and not any(arg in ("-h", "--help") for arg in argv):
        print(NO_DISPLAY, file=sys.stderr)
        return 1
    try:
        from game.app import run

        return run(argv)
    except KeyboardInterrupt:  # Ctrl-C in the terminal that started the window: it closes, as its close button
        import signal          # does (the game in progress is already in the autosave)

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("stonecave: the window was closed by Ctrl-C", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - pyglet's display errors share no public base class
        if type(error).__name__ in ("NoSuchDisplayException", "NoSuchConfigException") or "display" in str(error).lower():
            print(f"{NO_DISPLAY}\n({type(error).__name__}: {error})", file=sys.stderr)
            return 1
        raise


COMPARE_COUNTS = ("--games", "--jobs", "--openings", "--opening-plies", "--seed")
MAX_GAMES = 1_000_000
"""Most games a ``compare`` plays (a million random-engine Kalah games take hours; more never ends)."""


def _flag_values(argv: list[str], flag: str) -> list[str]:
    values = []
    for index, arg in enumerate(argv):
        if arg == flag and index + 1 < len(argv):
            values.append(argv[index + 1])
        elif arg.startswith(flag + "="):
            values.append(arg.split("=", 1)[1])
    return values


def check_compare_numbers(argv: list[str]) -> str | None:
    """``compare``'s whole-number options under the one rule for numbers (ASCII digits, at most nine) and a
    bounded number of games; a message, or None.  The tournament's own parser checks the rest."""
    from rules.base import clip, read_whole_number

    for flag in COMPARE_COUNTS:
        for value in _flag_values(argv, flag):
            number = read_whole_number(value)
            if number is None:
                return f"argument {flag}: expected a whole number written with the digits 0-9, not {clip(value)!r}"
            if flag == "--games" and number > MAX_GAMES:
                return f"argument --games: at most {MAX_GAMES:,} games, not {number:,}"
    return None


def check_output_paths(argv: list[str]) -> str | None:
    """Why ``compare``'s --csv or --json file could not be written, checked before any game is played; or None.

    The check writes and removes a small temporary file in the target's folder, so a read-only or missing
    folder, a target that is a folder or a device, or a full disk is found before the tournament, not after.
    """
    for flag in ("--csv", "--json"):
        for value in _flag_values(argv, flag):
            problem = _unwritable(Path(value))
            if problem:
                return f"cannot write {flag} {value}: {problem} (nothing was played)"
    return None


def _unwritable(path: Path) -> str | None:
    from guarded.files import writable_problem

    return writable_problem(path)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``stonecave`` console script and of ``python -m game``."""
    from guarded.kinds import ProgramFileDamaged

    try:
        code = _main(argv)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return code
    except ProgramFileDamaged as error:  # a damaged file of the program itself (its YAML data): one line
        print(f"stonecave: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``stonecave engines | head``): stop quietly, as cat does
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's last flush cannot complain either
        return 141


COMMANDS = ("text", "compare", "games", "engines", "doctor", "desktop", "tables", "solve", "gui", "review")
"""Every sub-command ``_main`` dispatches (``parser`` describes each; tests/fuzz attacks each)."""


def parser() -> argparse.ArgumentParser:
    """The whole command line as one argparse parser: a sub-parser per command in ``COMMANDS``.

    ``compare``, ``tables``, ``solve`` and ``gui`` parse with the very parser found here; ``text`` (the two
    consoles), ``engines``, ``games`` and ``doctor`` read their few words by hand, so their sub-parsers
    describe those words (the seat options from the game registry).  The generated attacks (tests/fuzz) walk
    it, so a new option is attacked without being listed.
    """
    from ai.compare_options import parser as compare_parser
    from game.solve_command import _parser as solve_parser
    from game.tables_command import _parser as tables_parser

    whole = argparse.ArgumentParser(prog="stonecave", description=USAGE.split("\n\n")[0],
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = whole.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("text", parents=[_text_parser()], add_help=False, help="play in the terminal")
    commands.choices["compare"] = compare_parser()
    commands.add_parser("games", help="list the games and their parameters")
    engines = commands.add_parser("engines", help="list the engines and their parameters")
    engines.add_argument("game", nargs="?", help="a game spec, e.g. kalah or kalah:pits=4")
    commands.add_parser("doctor", help="which search core runs and why")
    desktop = commands.add_parser("desktop", help="put StoneCave in the desktop's application menu, or take it out")
    desktop.add_argument("action", choices=("install", "uninstall"))
    commands.choices["tables"] = tables_parser()
    commands.choices["solve"] = solve_parser()
    commands.choices["gui"] = gui_parser()
    commands.choices["review"] = review_parser()
    missing = set(COMMANDS) ^ set(commands.choices)
    assert not missing, f"COMMANDS and parser() disagree on {missing}"
    return whole


def gui_parser() -> argparse.ArgumentParser:
    """``stonecave gui``'s options (game.app opens the window with them)."""
    from game.settings import CONFIG_ENV

    gui = argparse.ArgumentParser(prog="stonecave gui", description="Open the StoneCave window.")
    screen = gui.add_mutually_exclusive_group()
    screen.add_argument("--fullscreen", action="store_true", help="start in full screen (and remember it)")
    screen.add_argument("--windowed", action="store_true", help="start in a window (and remember it)")
    gui.add_argument("--config-dir", type=path_argument, help=f"settings and saves folder (default: "
                     f"${CONFIG_ENV} or the platform's settings folder)")
    gui.add_argument("--game", help="go straight to the seat setup of this game (kalah, oware, hus)")
    gui.add_argument("--load", type=path_argument, help="open this save file")
    return gui


def review_parser() -> argparse.ArgumentParser:
    """``stonecave review``'s options (``review_main`` reads them)."""
    from game.review import DEFAULT_SECONDS, SECONDS_RANGE

    review = argparse.ArgumentParser(prog="stonecave review",
                                     description="Review a saved or autosaved game: its turning points and each "
                                                 "player's accuracy.")
    review.add_argument("file", type=path_argument, help="a save file (Save in the game, or saves/in-progress/)")
    review.add_argument("--time", default=None, metavar="SECONDS",
                        help=f"seconds per position, {SECONDS_RANGE[0]:g} to {SECONDS_RANGE[1]:g} "
                             f"(default {DEFAULT_SECONDS:g})")
    return review


def review_main(argv: list[str]) -> int:
    """``stonecave review FILE [--time S]``: 0 when reviewed, 2 for a bad option, 1 for a file it cannot read."""
    from game import savegame
    from game.console.review import review_seconds, run_review
    from game.review import ReviewError, check_game

    try:
        args = review_parser().parse_args(argv)
    except SystemExit as leaving:
        return int(leaving.code or 0)
    try:
        seconds = review_seconds(args.time, "--time")
    except ValueError as problem:
        print(f"stonecave review: error: {problem}", file=sys.stderr)
        return 2
    try:
        saved = savegame.load(args.file)
        check_game(saved.game, saved.states, saved.moves)
    except (savegame.SaveError, ReviewError, ValueError) as problem:
        print(f"stonecave review: cannot review {args.file}: {problem}", file=sys.stderr)
        return 1
    except OSError as problem:
        print(f"stonecave review: cannot read {args.file}: {problem.strerror or problem}", file=sys.stderr)
        return 1
    try:
        run_review(print, saved.game, saved.states, saved.moves, seconds)
    except KeyboardInterrupt:  # a second Ctrl-C while the first one stops the review
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("stonecave review: stopped by Ctrl-C", file=sys.stderr)
        return 130
    return 0


def path_argument(text: str) -> Path:
    """A path given on the command line, refused at once when no file could ever have it: empty, or with a
    name longer than the system allows (which would otherwise fail deep inside, as OSError ENAMETOOLONG)."""
    from rules.base import clip

    if not text.strip():
        raise argparse.ArgumentTypeError("expected the name of a file or folder, not an empty text")
    try:
        limit = os.pathconf("/", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # not a POSIX system
        limit = 255
    longest = max(len(os.fsencode(part)) for part in Path(text).parts)
    if longest > limit:
        raise argparse.ArgumentTypeError(f"{clip(text)!r} has a name of {longest} bytes; a file or folder name "
                                         f"may have at most {limit} here")
    return Path(text)


def _text_parser() -> argparse.ArgumentParser:
    """What ``stonecave text`` reads (game.console.manager and game.console.solitaire parse it by hand)."""
    import rules

    text = argparse.ArgumentParser(prog="stonecave text", description="Play in the terminal.")
    text.add_argument("game", help="a game spec (kalah, oware, hus, cave, kalah:pits=4,seeds=3) or solitaire")
    seats = sorted({name.lower() for info in rules.list_games() if info.num_players == 2
                    for name in rules.get_game(info.name).player_names})
    for seat in seats:
        text.add_argument(f"--{seat}", metavar="SPEC", help="human, computer, a level or an engine spec")
    text.add_argument("--time", type=float, help="seconds per computer move")
    text.add_argument("--seed", type=int, help="the engines' seed (solitaire: the deal)")
    text.add_argument("--load", type=Path, help="start by loading this save file")
    text.add_argument("--variant", choices=("dose", "lewis"), help="solitaire: the rules variant")
    text.add_argument("--level", help="solitaire: a level's number")
    text.add_argument("--engine", metavar="SPEC", help="solitaire: the engine for hint, auto and solve")
    return text


def _configure_tables() -> None:
    """Engines asked for endgame tables (``pvs:tables=true``) read them from the settings folder."""
    from ai import tables
    from game.tables_command import tables_folder

    tables.configure(tables_folder)


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        _configure_tables()
        return _run_window([])
    command, rest = args[0], args[1:]
    _configure_tables()
    if command in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if command == "text":
        try:
            from game.console.manager import main as text_main

            return text_main(rest)
        except KeyboardInterrupt:  # a Ctrl-C the console did not catch (while loading, or a second one)
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
            print(file=sys.stderr)
            return 130
    if command == "compare":
        problem = check_compare_numbers(rest) or check_output_paths(rest)
        if problem:
            print(f"stonecave compare: error: {problem}", file=sys.stderr)
            return 2
        from ai.tournament import main as compare_main

        try:
            return compare_main(rest)
        except OSError as error:  # an output that became unwritable; say only what is known to have happened
            print(f"stonecave compare: error: could not write the results ({error.strerror or error})",
                  file=sys.stderr)
            return 1
    if command == "games":
        return _list_games()
    if command == "engines":
        return _list_engines(rest)
    if command == "doctor":
        from game.doctor import main as doctor_main

        return doctor_main(rest)
    if command == "desktop":
        from game.desktop import main as desktop_main

        return desktop_main(rest)
    if command == "tables":
        from game.tables_command import main as tables_main

        return tables_main(rest)
    if command == "solve":
        from game.solve_command import main as solve_main

        return solve_main(rest)
    if command == "gui":
        return _run_window(rest)
    if command == "review":
        return review_main(rest)
    print(f"stonecave: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
