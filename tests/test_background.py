"""The background jobs' child processes are given their environment (``tests/background.py``): the jobs run on a
thread beside tests that change variables, and a child that inherits the live ``environ`` can get a torn one."""
from __future__ import annotations

import ast
from pathlib import Path

from tests import background

TESTS = Path(__file__).resolve().parent
SPAWNERS = {"run", "Popen", "check_output", "check_call", "call"}


def _job_modules() -> list[Path]:
    """The modules that register a job, and the generated attacks' modules (run as a job and by bench_fuzz)."""
    found = [path for path in TESTS.rglob("*.py") if "@background.job(" in path.read_text(encoding="utf-8")]
    return sorted(set(found) | set((TESTS / "fuzz").glob("attack_*.py")))


def _spawns_without_env(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    missing = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SPAWNERS
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"):
            keywords = [keyword.arg for keyword in node.keywords]
            if "env" not in keywords and None not in keywords:   # None: a **options the helper fills
                missing.append(f"{path.name}:{node.lineno}")
    return missing


def test_every_child_of_a_job_is_given_its_environment() -> None:
    modules = _job_modules()
    assert {"test_pythons.py", "test_packaging.py", "attack_runner.py"} <= {path.name for path in modules}
    assert [line for path in modules for line in _spawns_without_env(path)] == []


def test_the_check_finds_a_child_left_to_inherit_the_live_environment(tmp_path: Path) -> None:
    module = tmp_path / "job.py"
    module.write_text("import subprocess\nsubprocess.run(['chattr', '-R', '-i', 'x'], check=False)\n"
                      "subprocess.run(['true'], env={})\n", encoding="utf-8")
    assert _spawns_without_env(module) == ["job.py:2"]


def test_a_job_sees_the_environment_from_before_the_tests(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(background, "_environment", {"PATH": "/usr/bin", "HOME": "/root"})
    monkeypatch.setenv("STONECAVE_SET_BY_A_TEST", "1")
    assert background.environ(CI="") == {"PATH": "/usr/bin", "HOME": "/root", "CI": ""}
    monkeypatch.setattr(background, "_environment", {})
    assert background.environ()["STONECAVE_SET_BY_A_TEST"] == "1"          # no job started: the live one
