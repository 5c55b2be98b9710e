"""OpenSpiel's C++ games driven from Python, as a same-run yardstick for our rules' playout speed.

OpenSpiel is not a StoneCave dependency: pass an interpreter that has ``pyspiel`` (``pip install open_spiel`` in
a throwaway venv, or the project's ``bench`` extra).  The playouts run in that interpreter as a subprocess.
"""
from __future__ import annotations

import math
import subprocess
import sys

OPENSPIEL_SCRIPT = """
import random, sys, time
import pyspiel
game = pyspiel.load_game(sys.argv[1])
rng = random.Random(1)
seconds = float(sys.argv[2])
plies = games = 0
begin = time.perf_counter()
while time.perf_counter() - begin < seconds:
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    games += 1
elapsed = time.perf_counter() - begin
print(plies / elapsed, plies / games)
"""


def openspiel_speed(python: str, game_name: str, seconds: float) -> tuple[float, float] | None:
    """(plies/s, average game length) of OpenSpiel's ``game_name`` random playouts, or None if unavailable."""
    try:
        result = subprocess.run([python, "-c", OPENSPIEL_SCRIPT, game_name, str(seconds)], capture_output=True,
                                text=True, timeout=seconds + 60, check=True)
    except (OSError, subprocess.SubprocessError) as error:
        print(f"OpenSpiel not measured: {error}", file=sys.stderr)
        return None
    return parse_speed(result.stdout)


def parse_speed(output: str) -> tuple[float, float] | None:
    """The subprocess's answer, "PLIES_PER_SECOND MEAN_LENGTH", checked (two finite positive numbers on a short
    line); None, with a message, for anything else, never a traceback."""
    fields = output.strip().split() if len(output) <= 200 and output.isascii() else []
    try:
        rate, length = (float(field) for field in fields) if len(fields) == 2 else (math.nan, math.nan)
    except ValueError:
        rate = length = math.nan
    if not (math.isfinite(rate) and math.isfinite(length) and rate > 0 and length > 0):
        print(f"OpenSpiel not measured: unexpected answer {output[:60]!r}", file=sys.stderr)
        return None
    return rate, length
