"""``stonecave doctor``: what this installation runs on, and how to fix what is missing.

It says which search core the engines use (the compiled one, or the pure-Python fallback and why), which
kernel each two-player game gets, whether a C compiler and Cython are there to build the core, whether a
display is there for the window, and where settings and saves go.  It imports no arcade code.
"""
from __future__ import annotations

import os
import shutil
import sys
from importlib import metadata


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def kernel_lines() -> list[str]:
    """One line per two-player game: the kernel its strong engine searches on."""
    import rules
    from ai.evaluators import get_evaluator
    from ai.fast import kernel_for

    lines = []
    for info in rules.list_games():
        if info.num_players != 2:
            continue
        game = rules.get_game(info.name)
        kernel = kernel_for(game, get_evaluator(game))
        kind = "compiled" if getattr(kernel, "compiled", False) else "pure Python"
        lines.append(f"    {info.name:<14} {kind} ({type(kernel).__name__})")
    return lines


def report() -> list[str]:
    import ai.core

    status = ai.core.status()
    lines = [f"StoneCave doctor (Python {sys.version.split()[0]}, {sys.executable})"]
    lines.append(f"  search core: {status.describe()}")
    lines.extend(kernel_lines())
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if not status.compiled:
        lines.append("  to get the compiled core (several times faster, and the window stays smooth while the "
                     "computer thinks):")
        if compiler is None:
            lines.append("    1. install a C compiler and Python's headers (Debian/Ubuntu: "
                         "apt-get install gcc python3-dev; macOS: xcode-select --install)")
        lines.append(f"    {'2' if compiler is None else '1'}. reinstall from the source folder: {ai.core.REBUILD}")
    lines.append(f"  C compiler: {compiler or 'not found'}")
    cython = _version("Cython")
    lines.append(f"  Cython: {cython or 'not installed here (pip brings it for the build by itself)'}")
    arcade_version = _version("arcade")
    lines.append(f"  arcade: {arcade_version or 'missing: python -m pip install -e .'}")
    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not display:
        lines.append("  display: none (the window needs one; `stonecave text GAME` plays in the terminal)")
    else:
        lines.append(f"  display: {display or 'the desktop'}")
    from game.settings import config_dir

    lines.append(f"  settings and saves: {config_dir()}")
    return lines


def main(argv: list[str]) -> int:
    if argv:
        print(f"stonecave doctor takes no arguments, not {' '.join(argv)!r}", file=sys.stderr)
        return 2
    print("\n".join(report()))
    return 0
