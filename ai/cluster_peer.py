"""A Dask scheduler is a peer on the network, so what it sends is hostile input too.

Dask's own client trusts its peer in two places this module guards:

- ``distributed.Client(address, timeout=...)`` bounds the TCP connection, but then waits for the scheduler's
  handshake with no time limit: a port that accepts and never answers held ``compare --cluster`` silent
  for minutes.  ``preflight`` connects first on its own, with a deadline for the connection and one for the
  answer, reads the handshake with every length bounded before anything is allocated, and checks that it is
  a Dask handshake; only then does the Dask client connect (and that too runs under a deadline, see
  ``ai.cluster``).
- Dask reads a message by trusting its 8-byte length header: ``distributed.comm.tcp`` allocates that many
  bytes at once (a hostile header of 2**62 asked numpy for 4 EiB).  Dask has no setting for a largest frame,
  so ``bound_frames`` wraps its frame reader in this process to refuse any frame above ``MAX_FRAME_BYTES``
  before allocating (the connection is closed instead); a game's task and record are a few kilobytes.

Every problem is an ``EngineError`` whose message names the address.
"""
from __future__ import annotations

import importlib
import socket
import struct
import time
from typing import Any

from ai.base import EngineError

MAX_HANDSHAKE_BYTES = 64 * 1024
"""Largest handshake accepted from a scheduler (Dask's is about 60 bytes)."""
MAX_HANDSHAKE_FRAMES = 16
"""Most frames in a handshake (Dask's has one)."""
MAX_FRAME_BYTES = 256 * 1024 * 1024
"""Largest message frame this process accepts from any Dask peer (tasks and records are a few kB)."""
HANDSHAKE_KEYS = ("python", "pickle-protocol")
"""Keys every Dask handshake carries."""


class PeerError(EngineError):
    """A scheduler address that cannot be reached in time, or a peer that does not speak Dask."""


def split_address(address: str) -> tuple[str, str, int]:
    """``tcp://host:port`` (or ``host:port``) as (scheme, host, port); PeerError for anything else."""
    scheme, separator, location = address.strip().partition("://")
    if not separator:
        scheme, location = "tcp", address.strip()
    host, colon, port_text = location.rpartition(":")
    host = host.strip("[]")  # [::1]:8786
    if not colon or not host or not (port_text.isascii() and port_text.isdigit()) or len(port_text) > 5:
        raise PeerError(f"--cluster {address[:80]!r} is not a scheduler address; give tcp://HOST:PORT "
                        "(such as tcp://10.0.0.5:8786) or 'local'")
    port = int(port_text)
    if not 0 < port < 65536:
        raise PeerError(f"--cluster {address[:80]!r}: the port must be from 1 to 65535, not {port}")
    return scheme, host, port


def _receive(connection: socket.socket, count: int, deadline: float, address: str, what: str,
             seconds: float) -> bytes:
    """Exactly ``count`` bytes (already bounded by the caller) before ``deadline``; PeerError otherwise."""
    chunks: list[bytes] = []
    received = 0
    while received < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise PeerError(f"the Dask scheduler at {address} accepted the connection but sent no {what} "
                            f"within {seconds:g} s; is it a Dask scheduler, and is it overloaded?")
        connection.settimeout(left)
        try:
            chunk = connection.recv(min(count - received, 65536))
        except socket.timeout:
            continue
        except OSError as error:
            raise PeerError(f"cannot reach the Dask scheduler at {address}: {error.strerror or error}") from None
        if not chunk:
            raise PeerError(f"the peer at {address} closed the connection before sending its {what}; "
                            "is it a Dask scheduler?")
        chunks.append(chunk)
        received += len(chunk)
    return b"".join(chunks)


def parse_handshake(message: bytes, address: str) -> dict[str, Any]:
    """A handshake message (the bytes after its 8-byte length) checked frame by frame; PeerError otherwise."""
    not_dask = f"the peer at {address} does not speak Dask's protocol ({{}}); is it a Dask scheduler?"
    if len(message) < 8:
        raise PeerError(not_dask.format("a message too short to hold its frame count"))
    (frames,) = struct.unpack_from("<Q", message)
    if not 1 <= frames <= MAX_HANDSHAKE_FRAMES:
        raise PeerError(not_dask.format(f"a handshake of {frames} frames"))
    if len(message) < 8 * (1 + frames):
        raise PeerError(not_dask.format("a message too short for its frame lengths"))
    lengths = struct.unpack_from(f"<{frames}Q", message, 8)
    if 8 * (1 + frames) + sum(lengths) != len(message):
        raise PeerError(not_dask.format("frame lengths that do not add up to the message"))
    try:
        msgpack = importlib.import_module("msgpack")
        offset = 8 * (1 + frames)
        info = msgpack.unpackb(message[offset:offset + lengths[0]], raw=False, strict_map_key=False,
                               max_bin_len=MAX_HANDSHAKE_BYTES, max_str_len=MAX_HANDSHAKE_BYTES,
                               max_array_len=1024, max_map_len=1024, max_ext_len=MAX_HANDSHAKE_BYTES)
    except ImportError as error:
        raise EngineError(f"--cluster needs msgpack, which comes with Dask ({error})") from None
    except Exception:  # noqa: BLE001 - msgpack raises several unrelated types for bad data
        raise PeerError(not_dask.format("a handshake that is not a msgpack message")) from None
    if not isinstance(info, dict) or not all(key in info for key in HANDSHAKE_KEYS):
        raise PeerError(not_dask.format("a handshake without Dask's fields"))
    return info


def preflight(address: str, connect_timeout: float, response_timeout: float) -> dict[str, Any]:
    """Connect to the scheduler at ``address`` (within ``connect_timeout`` seconds), read its handshake
    (within ``response_timeout``) with every length bounded, and return it; PeerError naming the address."""
    scheme, host, port = split_address(address)
    if scheme != "tcp":
        return {}  # tls:// and others: the Dask client's own deadline (ai.cluster) still holds
    try:
        connection = socket.create_connection((host, port), timeout=connect_timeout)
    except socket.timeout:
        raise PeerError(f"cannot reach the Dask scheduler at {address}: no connection within "
                        f"{connect_timeout:g} s") from None
    except OSError as error:
        raise PeerError(f"cannot reach the Dask scheduler at {address}: {error.strerror or error}") from None
    with connection:
        deadline = time.monotonic() + response_timeout
        (size,) = struct.unpack("<Q", _receive(connection, 8, deadline, address, "handshake", response_timeout))
        if not 16 <= size <= MAX_HANDSHAKE_BYTES:
            raise PeerError(f"the peer at {address} does not speak Dask's protocol (it announced a handshake "
                            f"of {size:,} bytes; at most {MAX_HANDSHAKE_BYTES:,}); is it a Dask scheduler?")
        return parse_handshake(_receive(connection, size, deadline, address, "handshake", response_timeout), address)


_bounded = False


def bound_frames(limit: int = MAX_FRAME_BYTES) -> None:
    """Make Dask's TCP frame reader in this process refuse a frame above ``limit`` bytes before allocating
    it (the connection is closed, as for any broken peer).  Idempotent."""
    global _bounded
    if _bounded:
        return
    try:
        tcp = importlib.import_module("distributed.comm.tcp")
        core = importlib.import_module("distributed.comm.core")
    except ImportError:
        return
    read_bytes = getattr(tcp, "read_bytes_rw", None)
    if read_bytes is None:  # a Dask whose reader changed: nothing to wrap (the pre-flight still holds)
        return
    closed = core.CommClosedError

    async def bounded_read(stream: Any, count: int) -> Any:
        if not 0 <= count <= limit:
            stream.close()
            raise closed(f"a Dask peer announced a frame of {count:,} bytes (at most {limit:,})")
        return await read_bytes(stream, count)

    setattr(tcp, "read_bytes_rw", bounded_read)  # noqa: B010 - a module attribute mypy cannot see
    _bounded = True
