"""``bench/bench_kalah_solve.py --log``: a proof of hours, run as a user runs it, recorded from its output."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import bench_kalah_solve  # noqa: E402

LOG = """plan: endgame tables 0..28 seeds from /t; a 8,192 MB transposition table (--memory); checkpoints to /c \
every 15 min; MTD(f) over boards, 2 searchers on one table (--threads), the first guess from shallow searches
endgame tables: every board of 0..28 seeds (/t)
  ... 23,576,806 nodes, 30 s
  checkpoint saved (2,002,485,248 nodes, 907 s)
  test value >= +10: yes  bounds +10..+60      30,197,098 nodes     935.2 s
  test value >= +11: yes  bounds +12..+60      55,306,791 nodes     957.6 s
  test value >= +13: no   bounds +12..+12   5,000,000,000 nodes    3000.0 s
value: +12 for South (the side to move) with best play; best move: pit 5
proved in 3100.5 s, 7,100,000,000 nodes (3 null-window tests over boards)
\tCommand being timed: "python -m game solve kalah:pits=6,seeds=5 --no-proof --prover board --no-pv"
\tMaximum resident set size (kbytes): 14680064
\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:52:01
"""


def test_a_finished_proof_is_read_from_its_output():
    run = bench_kalah_solve.from_log(LOG)
    assert run["game"] == "kalah:pits=6,seeds=5" and run["value"] == 12
    assert run["nodes"] == 7_100_000_000 and run["proof_seconds"] == 3100.5
    assert run["tests"] == ["+10 yes", "+11 yes", "+13 no"]
    assert run["peak_mb"] == 14_336 and run["wall_seconds"] == 52 * 60 + 1 and not run["resumed"]


@pytest.mark.parametrize("cut, missing", [("value: +12", "value line"), ("Maximum resident", "peak memory"),
                                          ("Command being timed", "command line")])
def test_a_log_without_what_the_figure_needs_is_named(cut, missing):
    text = "\n".join(line for line in LOG.splitlines() if cut not in line)
    with pytest.raises(ValueError, match=missing):
        bench_kalah_solve.from_log(text)


def test_a_resumed_proof_is_told_apart():
    text = LOG.replace("checkpoints to /c every 15 min", "resuming the checkpoint /c (8,192 MB table, 2 nodes done)")
    assert bench_kalah_solve.from_log(text)["resumed"]
