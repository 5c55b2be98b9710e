"""A hostile or silent "scheduler" for ``stonecave compare --cluster`` (issue 31, items 10 and 11).

Each fake peer listens on 127.0.0.1 only, in a thread of the test: one that accepts and never answers, one
that announces a frame of 2**62 bytes, one that sends random bytes, one that closes at once, and one that
sends a real Dask handshake and then a hostile frame.  ``compare`` runs in a subprocess with short deadlines
and a hard timeout, so the old behaviour (waiting for ever, or a numpy allocation traceback) fails the test
instead of hanging it.
"""
from __future__ import annotations

import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from ai.cluster_peer import MAX_HANDSHAKE_BYTES, PeerError, parse_handshake, preflight, split_address

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
SMALL = "kalah:pits=3,seeds=2"
# A real handshake, as a Dask 2026 scheduler sends it: one frame, a msgpack map.
HANDSHAKE_BODY = (b"\x01" + b"\x00" * 7 + b"*" + b"\x00" * 7 + b"\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07"
                  b"\xafpickle-protocol\x05")
HANDSHAKE = struct.pack("<Q", len(HANDSHAKE_BODY)) + HANDSHAKE_BODY
HUGE = struct.pack("<Q", 2**62) + b"x" * 64


class FakePeer:
    """A TCP server on 127.0.0.1 that treats every connection with ``behave(connection)`` in a thread."""

    def __init__(self, behave: Callable[[socket.socket], None]) -> None:
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(16)
        self.address = f"tcp://127.0.0.1:{self._server.getsockname()[1]}"
        self._behave = behave
        self._open: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._server.accept()
            except OSError:
                return
            self._open.append(connection)
            threading.Thread(target=self._handle, args=(connection,), daemon=True).start()

    def _handle(self, connection: socket.socket) -> None:
        try:
            self._behave(connection)
        except OSError:
            pass

    def close(self) -> None:
        self._server.close()
        for connection in self._open:
            connection.close()


@pytest.fixture
def peer() -> Iterator[Callable[[Callable[[socket.socket], None]], FakePeer]]:
    peers: list[FakePeer] = []

    def start(behave: Callable[[socket.socket], None]) -> FakePeer:
        peers.append(FakePeer(behave))
        return peers[-1]

    yield start
    for one in peers:
        one.close()


def silent(connection: socket.socket) -> None:
    time.sleep(120)  # accepts, reads nothing, answers nothing


def huge_header(connection: socket.socket) -> None:
    connection.sendall(HUGE)
    time.sleep(120)


def handshake_then_huge(connection: socket.socket) -> None:
    connection.sendall(HANDSHAKE)
    connection.settimeout(5)
    try:
        connection.recv(65536)  # the client's handshake; then its first request
        connection.recv(65536)
    except OSError:
        pass
    connection.sendall(HUGE)
    time.sleep(120)


def compare_against(address: str, timeout: float = 90) -> subprocess.CompletedProcess:
    """``compare --cluster address`` in a subprocess with 2-second deadlines, killed after ``timeout`` s."""
    script = ("import sys, ai.cluster as c; c.CONNECT_TIMEOUT = 2.0; c.RESPONSE_TIMEOUT = 2.0\n"
              "from ai.tournament import main\n"
              f"sys.exit(main(['--game', {SMALL!r}, '--engine', 'random', '--engine', 'random', '--games', '2',"
              f" '--quiet', '--cluster', {address!r}]))")
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})


def _assert_refused(done: subprocess.CompletedProcess, address: str) -> None:
    assert done.returncode == 2, done.stderr[-2000:]
    assert address in done.stderr and "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_port_that_accepts_and_never_answers_is_reported_in_time(peer):
    fake = peer(silent)
    started = time.monotonic()
    done = compare_against(fake.address)
    _assert_refused(done, fake.address)
    assert "sent no handshake" in done.stderr
    assert time.monotonic() - started < 60  # 2 s deadlines plus start-up; the old code waited for ever


def test_a_huge_frame_header_is_refused_before_allocating(peer):
    fake = peer(huge_header)
    done = compare_against(fake.address)
    _assert_refused(done, fake.address)
    assert "does not speak Dask's protocol" in done.stderr


def test_random_bytes_are_refused_every_time(peer):
    for seed in range(8):
        payload = random.Random(seed).randbytes(4096)
        fake = peer(lambda connection, payload=payload: (connection.sendall(payload), time.sleep(120)))
        done = compare_against(fake.address)
        _assert_refused(done, fake.address)


def test_a_peer_that_closes_at_once_is_reported(peer):
    fake = peer(lambda connection: connection.close())
    done = compare_against(fake.address)
    _assert_refused(done, fake.address)
    assert "closed the connection" in done.stderr


def test_a_hostile_frame_after_a_real_handshake_is_bounded_too(peer):
    fake = peer(handshake_then_huge)
    done = compare_against(fake.address)
    _assert_refused(done, fake.address)


def test_a_peer_that_sends_a_handshake_and_then_nothing_is_reported_in_time(peer):
    fake = peer(lambda connection: (connection.sendall(HANDSHAKE), time.sleep(120)))
    started = time.monotonic()
    done = compare_against(fake.address)
    _assert_refused(done, fake.address)
    assert "no answer within 2 s" in done.stderr and time.monotonic() - started < 60


# -- the pieces, without a subprocess --------------------------------------------------------------------------
def test_preflight_reads_a_real_handshake_and_bounds_every_length(peer):
    fake = peer(lambda connection: (connection.sendall(HANDSHAKE), time.sleep(30)))
    info = preflight(fake.address, 2.0, 2.0)
    assert info["pickle-protocol"] == 5
    too_big = peer(lambda connection: (connection.sendall(struct.pack("<Q", MAX_HANDSHAKE_BYTES + 1)),
                                       time.sleep(30)))
    with pytest.raises(PeerError, match="announced a handshake of 65,537 bytes"):
        preflight(too_big.address, 2.0, 2.0)


@pytest.mark.parametrize("body, words", [
    (struct.pack("<Q", 2**40) + b"\0" * 16, "frames"),
    (struct.pack("<QQ", 1, 2**60) + b"\0" * 8, "do not add up"),
    (struct.pack("<QQ", 1, 3) + b"\x92\x01\x02", "without Dask's fields"),
    (struct.pack("<QQ", 1, 2) + b"\xc1\xc1", "not a msgpack message"),
])
def test_a_handshake_is_checked_frame_by_frame(body, words):
    with pytest.raises(PeerError, match=words):
        parse_handshake(body, "tcp://127.0.0.1:1")


@pytest.mark.parametrize("address, words", [
    ("tcp://127.0.0.1", "not a scheduler address"),
    ("tcp://127.0.0.1:٨٧٨٦", "not a scheduler address"),
    ("tcp://127.0.0.1:99999", "from 1 to 65535"),
    ("tcp://:8786", "not a scheduler address"),
])
def test_a_malformed_address_is_refused_at_once(address, words, capsys):
    with pytest.raises(PeerError, match=words):
        split_address(address)
    from ai.tournament import main

    argv = ["--game", SMALL, "--engine", "random", "--engine", "random", "--games", "2", "--quiet"]
    assert main([*argv, "--cluster", address]) == 2 and words in capsys.readouterr().err


def test_the_frame_bound_closes_the_connection_instead_of_allocating(monkeypatch):
    import asyncio

    import distributed.comm.tcp as tcp
    from distributed.comm.core import CommClosedError

    import ai.cluster_peer

    monkeypatch.setattr(ai.cluster_peer, "_bounded", False)  # both restored after the test
    monkeypatch.setattr(tcp, "read_bytes_rw", tcp.read_bytes_rw)
    ai.cluster_peer.bound_frames(limit=1024)

    class Stream:
        closed = False

        def close(self) -> None:
            self.closed = True

    stream = Stream()
    with pytest.raises(CommClosedError, match="frame of 4,611,686,018,427,387,904 bytes"):
        asyncio.run(tcp.read_bytes_rw(stream, 2**62))
    assert stream.closed


@pytest.mark.parametrize("output", ["", "x" * 1000, "nan 3", "1 2 3", "-5 40", "inf 40", "٣ 4"])
def test_a_peer_benchmark_answer_that_is_not_two_numbers_is_refused_not_a_traceback(output, capsys):
    from bench.peer_speed import parse_speed

    assert parse_speed(output) is None and "OpenSpiel not measured" in capsys.readouterr().err
    assert parse_speed("123.5 40.1\n") == (123.5, 40.1)


FREEZE_SCRIPT = """
import os, signal, sys
import ai.cluster as c
c.POLL_SECONDS = 1.0
from ai.base import EngineError
from ai.tournament import compare

def freeze(done, total, partial):
    if done == 1:
        # The short answer deadline starts only now: on a loaded machine the connection and the first
        # game may take longer than 2 s, and that is not what this test is about.
        c.RESPONSE_TIMEOUT = 2.0
        os.kill(int(os.environ["FREEZE_PID"]), signal.SIGSTOP)

if __name__ == "__main__":
    try:
        compare("kalah:pits=3,seeds=2", "greedy", "random", games=400, cluster=sys.argv[1], checkpoint=sys.argv[2],
                progress=freeze)
    except EngineError as error:
        print(error)
        sys.exit(3)
"""


def test_a_scheduler_that_stops_answering_mid_run_ends_the_run_with_a_message(tmp_path):
    """A real scheduler on 127.0.0.1, frozen (SIGSTOP) after the first game: the run ends within seconds, names
    the scheduler, and the checkpoint keeps what was recorded."""
    import json
    import signal

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)],
                                 cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        for _ in range(300):
            if scheduler_file.exists() and scheduler_file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--no-dashboard", "--host", "127.0.0.1"],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        script = tmp_path / "freeze.py"
        script.write_text(FREEZE_SCRIPT)
        checkpoint = tmp_path / "run.jsonl"
        started = time.monotonic()
        done = subprocess.run([sys.executable, str(script), address, str(checkpoint)], cwd=ROOT, capture_output=True,
                              text=True, timeout=120, env={**env, "FREEZE_PID": str(scheduler.pid)})
        assert done.returncode == 3, done.stdout[-1000:] + done.stderr[-2000:]
        assert f"the Dask scheduler at {address} stopped answering" in done.stdout
        assert time.monotonic() - started < 90
        records = checkpoint.read_text().splitlines()[1:]
        assert 1 <= len(records) < 400
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.send_signal(signal.SIGCONT)
                process.kill()
                process.wait(timeout=30)


def test_a_result_whose_fetch_goes_unanswered_ends_the_run_with_a_message_naming_the_scheduler():
    """A game Dask reports finished whose result then cannot be fetched (the scheduler froze in between) ends the
    run with the scheduler's address, not a TimeoutError traceback (found by the frozen-scheduler run above)."""
    from ai.base import EngineError
    from ai.cluster import DaskRunner

    class Unanswered:
        def result(self, timeout: float) -> None:
            raise TimeoutError(f"timed out after {timeout} s.")

        def release(self) -> None:
            pass

    runner = object.__new__(DaskRunner)
    future = Unanswered()
    runner._address = "tcp://127.0.0.1:8786"
    runner._tasks = {future: (object(), 0)}
    runner._killed_worker = LookupError  # any class the fetch does not raise
    runner._wait = lambda futures, timeout, return_when: ({future}, set())
    with pytest.raises(EngineError, match="the Dask scheduler at tcp://127.0.0.1:8786 stopped answering"):
        runner.next_record()
