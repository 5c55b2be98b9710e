"""One path for advice (issue 30): code in ``game/`` asks ``ai.analysis`` about a position and never builds its own
search, solver, prover or table lookup to advise a player.

The hint, the analysis panel, the evaluation graph and the console's ``analyse`` and ``hint`` all read the one
analysis (``ai/analysis``); a second search in ``game/`` is how they came to disagree before.  This test parses
every module of ``game/`` with ``ast`` and fails on

- an import of a search, solver, prover or kernel module (``ai.search``'s engines, ``ai.alphabeta``,
  ``ai.minimax``, ``ai.mcts``, ``ai.solver``, ``ai.perfect``, ``ai.kalah_solve``, ``ai.cave_endgame``, ``ai.core``,
  ``ai.fast``) or of a private module of the analysis (``ai.analysis.engine`` ...: ``ai.analysis`` is the API);
- a call that searches, solves, proves or reads the tables: ``make_engine``, ``.search(...)``, ``PVSEngine``,
  ``AnalysisEngine``, ``KalahProver``, ``EndgameSolver``, ``CompiledEndgameSolver``, ``kernel_for``,
  ``table_value``, ``tables_for``, ``.lookup(...)``, ``use_tables``, ``.prove*(...)``, ``.solve(...)``;

naming the file and line.  What is not advice is in ``ALLOWED``, each with its reason: the computer's own move
(a player's opponent, not advice), the quick hint helper (a Settings choice for who wants a weaker one), the
Solitaire puzzle (single-agent solvers, no analysis), and the engine developer's commands.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MODULES = ("ai.alphabeta", "ai.minimax", "ai.mcts", "ai.solver", "ai.perfect", "ai.kalah_solve", "ai.cave_endgame",
           "ai.core", "ai.fast", "ai.single_agent", "ai.solitaire_packed")
"""Search, solver, prover and kernel modules (and their submodules)."""
SEARCH_NAMES = {"PVSEngine", "use_tables", "SearchEngine"}
"""What ``ai.search`` offers that searches (its ``machine_megabytes`` only measures the machine)."""
CALLS = {"make_engine", "search", "PVSEngine", "AnalysisEngine", "KalahProver", "EndgameSolver",
         "CompiledEndgameSolver", "kernel_for", "table_value", "tables_for", "lookup", "use_tables", "prove",
         "prove_by_tests", "prove_within", "solve", "make_live_engine"}
"""Calls (by name, a function or a method) that search, solve, prove or read the tables."""

ALLOWED: dict[str, str] = {
    "game/controller.py": "the computer's own move (an opponent, not advice) and the quick hint helper "
                          "(hint_helper: quick, a Settings choice)",
    "game/hint_search.py": "the quick hint helper itself (hint_helper: quick): the weaker helper a player may choose",
    "game/console/play.py": "the computer seats' moves (an opponent, not advice)",
    "game/console/solitaire.py": "the Solitaire puzzle's single-agent solvers: the puzzle has no analysis",
    "game/console/seats.py": "a console seat's engine is built once to check its spec (the computer's, not advice)",
    "game/solve_command.py": "the engine developer's `stonecave solve` command: it proves a position on request",
    "game/solve_board.py": "the engine developer's `stonecave solve` command with the board prover (split from "
        "game/solve_command.py): it proves a position on request",
    "game/tables_command.py": "the engine developer's `stonecave tables` command: it builds and checks tables",
    "game/doctor.py": "`stonecave doctor`: it times the kernels to report the machine, no advice",
    "game/cli.py": "the command line: it starts the developer's commands (compare, tables)",
}
"""Files whose searches are not advice, with the reason."""


def imported_module(node: ast.ImportFrom, path: Path) -> str:
    """The absolute module of a ``from ... import`` (a relative one resolved against ``path``'s package)."""
    if not node.level:
        return node.module or ""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-node.level])
    return ".".join(package + ([node.module] if node.module else []))


def violations(source: str, path: Path) -> list[str]:
    """Where ``source`` (the module at ``path``) builds advice of its own: ``file:line: what``."""
    where = path.relative_to(ROOT).as_posix()
    found = []

    def forbidden(module: str) -> bool:
        return any(module == name or module.startswith(name + ".") for name in MODULES) or (
            module.startswith("ai.analysis."))

    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if forbidden(alias.name) or alias.name == "ai.search":
                    found.append(f"{where}:{node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            module = imported_module(node, path)
            names = {alias.name for alias in node.names}
            submodules = {f"ai.{name}" for name in names} if module == "ai" else set()
            if forbidden(module) or (module == "ai.search" and names & SEARCH_NAMES) or any(
                    forbidden(submodule) for submodule in submodules):
                found.append(f"{where}:{node.lineno}: imports {module} ({', '.join(sorted(names))})")
        elif isinstance(node, ast.Call):
            function = node.func
            name = function.id if isinstance(function, ast.Name) else (
                function.attr if isinstance(function, ast.Attribute) else "")
            if name in CALLS:
                found.append(f"{where}:{node.lineno}: calls {name}(...)")
    return sorted(found, key=lambda line: int(line.split(":")[1]))


def test_game_asks_the_analysis_for_advice_and_builds_no_search_of_its_own() -> None:
    problems = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where in ALLOWED:
            continue
        problems += violations(path.read_text(encoding="utf-8"), path)
    assert not problems, ("code in game/ advises from a search of its own instead of asking ai.analysis "
                          "(Analysis, Shelf, Asking, analyse, advice):\n" + "\n".join(problems))


def test_every_allowed_file_exists_and_still_needs_its_exception() -> None:
    """An exception that no longer serves is removed, so it cannot hide a new search later."""
    for where, reason in ALLOWED.items():
        path = ROOT / where
        assert path.exists(), f"{where} is allowed ({reason}) but no longer exists"
        assert violations(path.read_text(encoding="utf-8"), path), f"{where} needs no exception any more"


def test_the_scan_names_the_file_and_line_of_a_search_built_in_game() -> None:
    """The scan itself: a hint that runs its own search, reads the tables or proves is caught, line by line."""
    source = "\n".join([
        "from ai.search import PVSEngine",
        "from ai.tables import table_value",
        "from ai.analysis.engine import AnalysisEngine",
        "from ai import perfect, registry",
        "def hint(game, state, tables):",
        "    engine = PVSEngine(game)",
        "    margin = table_value(game, tables, state)",
        "    return engine.search(state), margin",
        "from ai.analysis import analyse",
        "def fine(game, state, limits):",
        "    return analyse(game, state, limits)",
    ])
    found = violations(source, ROOT / "game" / "ai" / "advice.py")
    assert found == [
        "game/ai/advice.py:1: imports ai.search (PVSEngine)",
        "game/ai/advice.py:3: imports ai.analysis.engine (AnalysisEngine)",
        "game/ai/advice.py:4: imports ai (perfect, registry)",
        "game/ai/advice.py:6: calls PVSEngine(...)",
        "game/ai/advice.py:7: calls table_value(...)",
        "game/ai/advice.py:8: calls search(...)",
    ], found
