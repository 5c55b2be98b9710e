"""The ``stonecave`` command: the window by default, or a sub-command.

    stonecave                      open the game window on the main menu
    stonecave text GAME [options]  play in the terminal (kalah, oware, hus, cave, solitaire)
    stonecave compare [options]    a tournament between two engines
    stonecave games                list the games and their parameters
    stonecave engines [GAME]       list the engines and their parameters, and the search core in use
    stonecave doctor               which search core runs (compiled or pure Python) and why; what is missing

Each sub-command lives in its own module and is imported only when used, so the console never loads arcade.
"""
from __future__ import annotations

import sys

USAGE = __doc__.split("\n\n", 1)[1]


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
    if argv:
        import rules

        game = rules.parse_game_spec(argv[0])
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


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``stonecave`` console script and of ``python -m game``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        from game.app import run

        return run()
    command, rest = args[0], args[1:]
    if command in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if command == "text":
        from game.console import main as text_main

        return text_main(rest)
    if command == "compare":
        from ai.tournament import main as compare_main

        return compare_main(rest)
    if command == "games":
        return _list_games()
    if command == "engines":
        return _list_engines(rest)
    if command == "doctor":
        from game.doctor import main as doctor_main

        return doctor_main(rest)
    if command == "gui":
        from game.app import run

        return run(rest)
    print(f"stonecave: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
