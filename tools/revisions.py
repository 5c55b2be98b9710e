"""A module as it was at an earlier commit, loaded beside today's: the "before" side of the A/B tools.

``load_module_at("ai/cave_endgame.py", "HEAD~3")`` reads the file with ``git show`` and runs it as a module
of its own (registered in ``sys.modules`` under a name of its own, since dataclasses look their module up
while a class is made), so the earlier and the current code can be timed in one process on the same input.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_module_at(path: str, rev: str) -> ModuleType:
    """The module at ``path`` (relative to the repository) as it was at commit ``rev``."""
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    name = f"{Path(path).stem}_at_{re.sub(r'[^0-9A-Za-z]', '_', rev)}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
    return module


def load_earlier(game: str, rev: str) -> ModuleType:
    """The packed kernel ``ai/fast/<game>.py`` as it was at ``rev``."""
    return load_module_at(f"ai/fast/{game}.py", rev)
