"""BENCHMARKS.md is generated from bench/results/*.json (``tools/benchmarks.py``): it cannot drift from the
figures, and every figure carries its command, date, machine, load, commit and same-run yardstick."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "tools" / "benchmarks.py"


def generate(*options: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(GENERATOR), *map(str, options)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_benchmarks_md_is_what_the_recorded_figures_give():
    run = generate("--check")
    assert run.returncode == 0, run.stderr


def test_every_area_has_figures_and_every_figure_its_fields():
    files = sorted((ROOT / "bench" / "results").glob("*.json"))
    assert len(files) >= 9  # one per area
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["title"] and data["entries"], path.name
        for entry in data["entries"]:
            # a command to repeat it, or an honest "not recorded" where the run's notes gave none
            assert entry["command"].startswith(("python ", "nice ", "stonecave ", "STONECAVE_CORE=",
                                                "STONECAVE_TABLES=")) or \
                entry["command"] == "not recorded", entry["figure"]
            assert entry["date"].startswith("2026-"), entry["figure"]


def test_the_check_fails_on_a_hand_edit_and_on_a_missing_field(tmp_path):
    results = tmp_path / "results"
    shutil.copytree(ROOT / "bench" / "results", results)
    document = tmp_path / "BENCHMARKS.md"
    assert generate("--results", results, "--output", document).returncode == 0
    assert generate("--check", "--results", results, "--output", document).returncode == 0

    document.write_text(document.read_text(encoding="utf-8").replace("11.4 M", "12.4 M"), encoding="utf-8")
    edited = generate("--check", "--results", results, "--output", document)
    assert edited.returncode == 1 and "is not what" in edited.stderr

    assert generate("--results", results, "--output", document).returncode == 0
    path = results / "core.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["entries"][0]["load"]
    path.write_text(json.dumps(data), encoding="utf-8")
    broken = generate("--check", "--results", results, "--output", document)
    assert broken.returncode == 1 and "missing load" in broken.stderr
