"""Endgame tables and their build locks met as hostile files (issue 31): FIFOs, devices, link loops, a folder that
is a file, a lock holding NaN or stamped in the future, a layer truncated while in use.  Whatever could hang runs
in a subprocess with a timeout; small variants (3 and 4 pits), temporary folders."""
from __future__ import annotations

import json
import os
import stat
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ai.core
from ai import tables

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the tables are built by the compiled core")

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "STONECAVE_TABLES": ""}
LAYER0 = "kalah-p3-emptycapture-s0.sctable"
LOCK = "kalah-p3-emptycapture.building"


def stonecave(*argv: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """``python -m game ARGV`` from this worktree; a hang fails the test instead of stalling it."""
    return subprocess.run([sys.executable, "-m", "game", *argv], capture_output=True, text=True, timeout=timeout,
                          env=ENV, cwd=ROOT, stdin=subprocess.DEVNULL)


def python(code: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=ENV,
                          cwd=ROOT, stdin=subprocess.DEVNULL)


def clean(result: subprocess.CompletedProcess[str]) -> str:
    text = result.stdout + result.stderr
    assert "Traceback" not in text, text
    return text


# -- 1. a FIFO named like a layer -------------------------------------------------------------------------------
@pytest.mark.parametrize("layer", [0, 2])
def test_a_fifo_named_like_a_layer_is_refused_without_opening_it(tmp_path: Path, layer: int) -> None:
    if layer:
        tables.build_kalah_tables(tmp_path, 3, True, layer - 1)
    os.mkfifo(tmp_path / f"kalah-p3-emptycapture-s{layer}.sctable")
    solved = stonecave("solve", "kalah:pits=3,seeds=2", "--folder", str(tmp_path), "--no-pv")
    assert solved.returncode == 0 and "named pipe (FIFO), not a regular file; ignored" in clean(solved)
    status = stonecave("tables", "status", "kalah:pits=3", "--folder", str(tmp_path))
    assert status.returncode == 0 and "named pipe (FIFO)" in clean(status)
    # the console's hint and Strongest seat, and a Perfect game in the window, load the tables this way
    looked = python("from ai import tables; from rules import get_game; tables.configure(None); "
                    f"import os; os.environ['STONECAVE_TABLES'] = {str(tmp_path)!r}; "
                    "found = tables.tables_for(get_game('kalah', pits=3, seeds=2)); "
                    "print('top', -1 if found is None else found.top)")
    assert f"top {layer - 1}" in clean(looked)
    assert stat.S_ISFIFO((tmp_path / f"kalah-p3-emptycapture-s{layer}.sctable").lstat().st_mode)  # solve built
    # the layers it could, and left what it did not make where it was


def test_a_build_stops_at_a_fifo_named_like_a_layer_and_leaves_it(tmp_path: Path) -> None:
    fifo = tmp_path / "kalah-p3-emptycapture-s2.sctable"
    os.mkfifo(fifo)
    built = stonecave("tables", "build", "kalah:pits=3", "--seeds", "4", "--folder", str(tmp_path))
    assert built.returncode == 1 and "named pipe (FIFO), not a table layer" in clean(built), built
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


# -- 2. a folder that is not a folder, a lock that is a link loop ------------------------------------------------
@pytest.mark.parametrize("kind", ["file", "fifo", "/dev/zero"])
def test_a_tables_folder_that_is_not_a_folder_is_named(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "tables"
    if kind == "file":
        folder.write_text("not a folder")
    elif kind == "fifo":
        os.mkfifo(folder)
    else:
        folder = Path(kind)
    status = stonecave("tables", "status", "kalah:pits=3", "--folder", str(folder))
    assert status.returncode == 0 and "not a folder" in clean(status)
    build = stonecave("tables", "build", "kalah:pits=3", "--seeds", "2", "--folder", str(folder))
    assert build.returncode == 2 and "not a folder" in clean(build)
    assert tables.read_progress(folder, 3, True) is None
    assert tables.load_kalah_tables(folder, 3, True).problems[0].endswith("no tables can be read or built there")


def test_a_lock_that_is_a_link_loop_is_reported_and_replaced(tmp_path: Path) -> None:
    (tmp_path / LOCK).symlink_to(tmp_path / LOCK)
    progress = tables.read_progress(tmp_path, 3, True)
    assert progress is not None and progress.is_stale and "symbolic links" in (progress.problem or "")
    status = stonecave("tables", "status", "kalah:pits=3", "--folder", str(tmp_path))
    assert "the build lock is not a live build's" in clean(status)
    build = stonecave("tables", "build", "kalah:pits=3", "--seeds", "3", "--folder", str(tmp_path))
    assert build.returncode == 0 and "every board of 0..3 seeds" in clean(build)
    assert not os.path.lexists(tmp_path / LOCK)


# -- 3. a lock holding NaN and other wrong values ----------------------------------------------------------------
@pytest.mark.parametrize("content", ['{"pid": NaN}', '{"pid": 1e400, "started": Infinity}', '{"pid": "x"}',
                                     '[1, 2]', '{"pid": 1, "done": -5, "size": 0}', "\xff\xfe", ""])
def test_a_lock_with_wrong_values_is_read_as_no_live_build(tmp_path: Path, content: str) -> None:
    (tmp_path / LOCK).write_text(content, encoding="latin-1")
    progress = tables.read_progress(tmp_path, 3, True)
    assert progress is not None and progress.is_stale and progress.describe()
    assert tables.build_claimed(tmp_path, 3, True, 2) is not None     # taken over at once, not after 30 s
    assert not (tmp_path / LOCK).exists()


# -- 4. a lock linked to a device or a FIFO ----------------------------------------------------------------------
@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "fifo"])
def test_a_lock_linked_to_an_endless_file_is_refused_at_once(tmp_path: Path, target: str) -> None:
    if target == "fifo":
        os.mkfifo(tmp_path / "pipe")
        target = str(tmp_path / "pipe")
    (tmp_path / LOCK).symlink_to(target)
    status = stonecave("tables", "status", "kalah:pits=3", "--folder", str(tmp_path), timeout=20)
    assert status.returncode == 0 and "not a regular file" in clean(status)
    build = python("import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
                   "from game.cli import main; "
                   f"raise SystemExit(main(['tables', 'build', 'kalah:pits=3', '--seeds', '2', '--folder', "
                   f"{str(tmp_path)!r}]))", timeout=30)
    assert build.returncode == 0 and "every board of 0..2 seeds" in clean(build)
    assert not os.path.lexists(tmp_path / LOCK) and Path(target).exists()   # the link went, not its target


# -- 5. a layer truncated while the tables are in use ------------------------------------------------------------
def test_a_layer_truncated_under_a_running_search_cannot_kill_the_process(tmp_path: Path) -> None:
    tables.build_kalah_tables(tmp_path, 3, True, 14)
    code = f"""
import os
from ai import tables
from ai.kalah_solve import KalahProver
from rules import get_game
folder = {str(tmp_path)!r}
loaded = tables.load_kalah_tables(folder, 3, True)
for seeds in range(loaded.top + 1):
    os.truncate(os.path.join(folder, f"kalah-p3-emptycapture-s{{seeds}}.sctable"), 64)
total = sum(loaded.tables.benchmark_lookups(seeds, 20000) for seeds in range(1, loaded.top + 1))
game = get_game("kalah", pits=3, seeds=3)
proof = KalahProver(game, loaded.tables, 16).prove_by_tests(game.initial_state())
print("value", proof.value, "top", loaded.top)
"""
    result = python(code, timeout=60)
    assert result.returncode == 0, (result.returncode, result.stderr[-500:])   # -7 (SIGBUS) with mapped layers
    assert "top 14" in clean(result)
    reloaded = tables.load_kalah_tables(tmp_path, 3, True)
    assert reloaded.top == -1 and "truncated" in reloaded.problems[0]


GUARDED_ROOM = [*sorted((ROOT / "ai" / "tables").glob("*.py")), ROOT / "ai" / "kalah_solve.py",
                ROOT / "ai" / "perfect.py", ROOT / "game" / "solve_command.py", ROOT / "game" / "tables_command.py"]
FILE_CALLS = {"open", "fdopen", "mmap", "fromfile", "stat", "lstat", "exists", "is_file", "read_bytes",
              "read_text", "fstat", "readlink"}
WRITING: set[tuple[str, str]] = set()
"""(module, function) allowed to write a file by hand: none (layers go through guarded.binary.write_atomically)."""


def test_tables_and_locks_are_touched_only_through_the_guarded_path() -> None:
    """No module of the tables or of ``solve`` opens, maps or stats a file except through ``guarded``."""
    import ast

    for module in GUARDED_ROOM:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        exempt = {id(node) for function in ast.walk(tree) if isinstance(function, ast.FunctionDef)
                  and (module.name, function.name) in WRITING for node in ast.walk(function)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) in exempt:
                continue
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
            owner = getattr(called, "value", None)
            through = isinstance(owner, ast.Name) and owner.id in ("binary", "files")
            assert name not in FILE_CALLS or through, f"{module.name}:{node.lineno} calls {name}()"


# -- smaller: the lock's time stamp and creation -----------------------------------------------------------------
def test_a_lock_stamped_in_the_future_does_not_block_builds(tmp_path: Path) -> None:
    lock = tables.BuildLock(tmp_path, 3, True, 2)
    assert lock.claim()
    future = time.time() + 365 * 86400
    os.utime(lock.path, (future, future))
    progress = tables.read_progress(tmp_path, 3, True)
    assert progress is not None and progress.is_stale
    assert "in the future" in progress.describe() and "-31" not in progress.describe()
    lock.held = False
    assert tables.build_claimed(tmp_path, 3, True, 2) is not None


def test_a_full_disk_while_claiming_leaves_no_empty_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        tables.BuildLock(tmp_path, 3, True, 2).claim()
    monkeypatch.undo()
    assert not os.path.lexists(tmp_path / LOCK) and not list(tmp_path.iterdir())
    (tmp_path / LOCK).write_bytes(b"")                 # an empty lock left by an older StoneCave
    assert tables.read_progress(tmp_path, 3, True).is_stale
    assert tables.build_claimed(tmp_path, 3, True, 2) is not None


def test_a_lock_naming_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / LOCK).write_text(json.dumps({"pid": int(dead.stdout), "target": 2, "layer": 1, "done": 1,
                                             "size": 2, "started": time.time()}))
    assert tables.read_progress(tmp_path, 3, True).is_stale
    assert tables.build_claimed(tmp_path, 3, True, 2) is not None


# -- smaller: the size of a build, stated and checked first ------------------------------------------------------
def test_a_build_that_cannot_fit_is_refused_with_its_size_before_it_starts(tmp_path: Path) -> None:
    result = stonecave("tables", "build", "kalah", "--seeds", "40", "--folder", str(tmp_path))
    text = clean(result)
    assert result.returncode == 2 and "not started" in text
    assert "206.4 GB of memory" in text or "of disk" in text
    assert "--seeds" in text and "fits" in text
    assert "estimate: " in text and "positions" in text          # the size is stated first
    assert not list(tmp_path.iterdir())


def test_the_room_check_names_the_largest_set_that_fits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ai.tables import builds

    monkeypatch.setattr(builds, "free_disk", lambda folder: 30_000_000)
    why = tables.check_room(tmp_path, tables.kalah_variant(6, True), 18)
    assert why is not None and "of disk" in why and "--seeds 15 or fewer fits" in why
    assert tables.check_room(tmp_path, tables.kalah_variant(6, True), 15) is None


@pytest.mark.parametrize("seeds", ["٣", "３", "1e3", "-1", "101", "nan"])
def test_tables_seeds_take_ascii_digits_only(tmp_path: Path, seeds: str) -> None:
    result = stonecave("tables", "build", "kalah:pits=3", "--seeds", seeds, "--folder", str(tmp_path))
    assert result.returncode == 2 and "written with the digits 0-9" in clean(result)
    assert not list(tmp_path.iterdir())


# -- 8. Ctrl-C stops a build -------------------------------------------------------------------------------------
def test_ctrl_c_stops_a_build_within_a_second_and_keeps_whole_layers(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "game", "tables", "build", "kalah:pits=6", "--seeds", "21", "--folder", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while not (tmp_path / "kalah-p6-emptycapture-s16.sctable").exists() and time.time() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    stopped_in = time.perf_counter() - sent
    assert process.returncode == 130 and "stopped by Ctrl-C" in err and "Traceback" not in err, err
    assert stopped_in < 2.0, stopped_in
    assert not (tmp_path / "kalah-p6-emptycapture.building").exists()
    loaded = tables.load_kalah_tables(tmp_path, 6, True)
    assert loaded.top >= 16 and not loaded.problems                 # every layer on disk is whole
    assert f"layers 0..{loaded.top} are whole on disk" in err


# -- the guarded primitives the tables use -----------------------------------------------------------------------
def test_guarded_binary_reads_only_regular_files_within_their_bound(tmp_path: Path) -> None:
    from guarded import binary
    from guarded.files import FileProblem

    (tmp_path / "layer").write_bytes(b"x" * 100)
    assert binary.read_binary(tmp_path / "layer", 100).data == bytearray(b"x" * 100)
    assert binary.read_binary(tmp_path / "layer", 99).data is None          # too big: not read at all
    with pytest.raises(FileProblem, match="more than the 50"):
        binary.read_small(tmp_path / "layer", 50)
    os.mkfifo(tmp_path / "pipe")
    for special in (tmp_path / "pipe", Path("/dev/zero"), tmp_path):
        with pytest.raises(FileProblem, match="not a regular file"):
            binary.read_small(special)
    with pytest.raises(FileNotFoundError):
        binary.read_binary(tmp_path / "missing", 10)
    assert binary.stamp(tmp_path / "missing") is None and binary.stamp(tmp_path / "pipe") is not None
    assert binary.not_a_folder(tmp_path) is None and "regular file" in (binary.not_a_folder(tmp_path / "layer") or "")
    assert binary.create_exclusively(tmp_path / "lock", b"{}") and (tmp_path / "lock").read_bytes() == b"{}"
    assert not binary.create_exclusively(tmp_path / "lock", b"other")
    assert (tmp_path / "lock").read_bytes() == b"{}" and not list(tmp_path.glob("lock.*.tmp"))


def test_a_big_read_fills_a_mapping_the_system_zeroes_so_a_search_beside_it_is_not_held_up(tmp_path: Path) -> None:
    """A table layer (a megabyte or more) is read into an anonymous mapping, not a bytearray the interpreter zeroes
    holding the GIL (0.5 s for a 193 MB layer on a busy machine, where a search beside the load had to return its
    move): the bytes are the file's, writable (a resumed proof's table is written to), and a small read is as
    before."""
    import mmap

    from guarded import binary

    size = binary.BIG_READ + 12_345
    content = bytes(range(256)) * (size // 256) + b"end"
    (tmp_path / "layer").write_bytes(content)
    data = binary.read_binary(tmp_path / "layer", len(content)).data
    assert isinstance(data, mmap.mmap) and len(data) == len(content) and data[:] == content
    data[0] = 7                                      # writable, and the file is not touched
    assert (tmp_path / "layer").read_bytes() == content
    (tmp_path / "small").write_bytes(b"y" * 10)
    assert type(binary.read_binary(tmp_path / "small", 10).data) is bytearray
