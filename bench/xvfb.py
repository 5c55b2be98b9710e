"""Start one Xvfb for a benchmark or screenshot script when no display is set (as tests/conftest.py does)."""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import time


def ensure_display() -> None:
    """Point DISPLAY at a fresh Xvfb (stopped at exit) unless a display is already set."""
    if os.environ.get("DISPLAY"):
        return
    binary = shutil.which("Xvfb")
    if binary is None:
        raise SystemExit("no DISPLAY and no Xvfb: install xvfb or run under xvfb-run -a")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [binary, "-displayfd", str(write_end), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    number = b""
    deadline = time.monotonic() + 15
    with os.fdopen(read_end, "rb") as stream:
        while time.monotonic() < deadline:
            chunk = stream.read(1)
            if not chunk or chunk == b"\n":
                break
            number += chunk
    if not number.strip():
        server.kill()
        raise SystemExit("Xvfb did not report a display")
    os.environ["DISPLAY"] = f":{number.decode().strip()}"
    atexit.register(server.terminate)
