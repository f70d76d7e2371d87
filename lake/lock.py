"""One writer per warehouse: an exclusive lock file that every writing command holds.

Readers (queries, `serve-sql`, dbt's own reads) never take it: Delta gives them the newest
committed snapshot. The lock is the operating system's (`flock`), so it is released when its
holder exits, even by SIGKILL: a crashed run never leaves the warehouse locked.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from lake.storage import LakeError

LOCK_FILE = "_claimhouse.lock"


class WarehouseBusy(LakeError):
    """Another writer holds the warehouse; the message names its run and start time."""


# Held locks of this process: path -> (open file, depth). A process's steps may nest (a
# Dagster run's steps in one process, a test calling a layer inside a run).
_HELD: dict[str, tuple[object, int]] = {}
_GUARD = threading.Lock()


@contextmanager
def warehouse_lock(warehouse: Path, run_id: str, timeout_s: float = 0.0) -> Iterator[None]:
    """Hold the warehouse's writer lock for the block; wait up to timeout_s for it, then raise
    WarehouseBusy saying which run holds it and since when."""
    warehouse.mkdir(parents=True, exist_ok=True)
    path = str(warehouse / LOCK_FILE)
    with _GUARD:
        held = _HELD.get(path)
        if held is not None:
            _HELD[path] = (held[0], held[1] + 1)
    if held is None:
        handle = _acquire(path, run_id, timeout_s)
        with _GUARD:
            _HELD[path] = (handle, 1)
    try:
        yield
    finally:
        with _GUARD:
            handle, depth = _HELD[path]
            if depth > 1:
                _HELD[path] = (handle, depth - 1)
            else:
                del _HELD[path]
                handle.close()  # closing the file releases the lock


def _acquire(path: str, run_id: str, timeout_s: float):
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held past this function
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() >= deadline:
                holder = _holder(handle)
                handle.close()
                raise WarehouseBusy(
                    f"warehouse busy: {holder} holds {Path(path).parent}"
                    + (f" (waited {timeout_s:g} s)" if timeout_s else "")
                    + ". Wait for it to finish, or set CLAIMHOUSE_LOCK_TIMEOUT_S to wait "
                    "longer; readers are not blocked."
                ) from None
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
    handle.seek(0)
    handle.truncate()
    handle.write(
        json.dumps(
            {
                "run_id": run_id,
                "since": datetime.now(UTC).isoformat(timespec="seconds"),
                "pid": os.getpid(),
                "host": socket.gethostname(),
            }
        )
    )
    handle.flush()
    return handle


def _holder(handle) -> str:
    handle.seek(0)
    try:
        info = json.loads(handle.read() or "{}")
    except ValueError:
        info = {}
    if not info:
        return "another writer"
    return f"run {info.get('run_id')} since {info.get('since')} (pid {info.get('pid')})"
