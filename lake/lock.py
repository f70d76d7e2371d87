"""One writer per warehouse: an exclusive lock file that every writing command holds.

Readers (queries, `serve-sql`, dbt's own reads) never take it: Delta gives them the newest
committed snapshot. The lock is the operating system's (`flock`), so it is released when its
holder exits, even by SIGKILL: a crashed run never leaves the warehouse locked.

An `s3a://` warehouse has no `flock`: its lock is the object `<warehouse>/_claimhouse.lock`,
created with a conditional PUT (`If-None-Match: *`: only one writer's create succeeds) and
holding its owner and a lease. The holder renews the lease every third of it with a PUT
conditional on the ETag it last wrote (`If-Match`), and deletes the object when done. A
lock whose lease has lapsed (its holder was killed) is taken over the same way, conditional
on the lapsed lock's ETag, so two waiting writers cannot both take it. This assumes a store
with S3's conditional writes (AWS S3 since 2024, MinIO, S3Proxy) and clocks that agree to
well within the lease (docs/object-storage.md).
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

from lake.objectstore import ObjectStoreError, RemotePath, S3Client, S3Config
from lake.storage import LakeError

LOCK_FILE = "_claimhouse.lock"


class WarehouseBusy(LakeError):
    """Another writer holds the warehouse; the message names its run and start time."""


# Held locks of this process: path -> (open file, depth). A process's steps may nest (a
# Dagster run's steps in one process, a test calling a layer inside a run).
_HELD: dict[str, tuple[object, int]] = {}
_GUARD = threading.Lock()


@contextmanager
def warehouse_lock(
    warehouse: Path | RemotePath, run_id: str, timeout_s: float = 0.0, settings=None
) -> Iterator[None]:
    """Hold the warehouse's writer lock for the block; wait up to timeout_s for it, then raise
    WarehouseBusy saying which run holds it and since when. An `s3a://` warehouse's lock needs
    the settings (the S3 endpoint, the lease)."""
    if isinstance(warehouse, RemotePath):
        path = str(warehouse / LOCK_FILE)
    else:
        warehouse.mkdir(parents=True, exist_ok=True)
        path = str(warehouse / LOCK_FILE)
    with _GUARD:
        held = _HELD.get(path)
        if held is not None:
            _HELD[path] = (held[0], held[1] + 1)
    if held is None:
        if isinstance(warehouse, RemotePath):
            handle = ObjectLock(warehouse, run_id, settings)
            handle.acquire(timeout_s)
        else:
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


def _record(run_id: str, lease_s: float, since: str | None = None) -> dict:
    now = datetime.now(UTC)
    return {
        "run_id": run_id,
        "since": since or now.isoformat(timespec="seconds"),
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "expires": (now.timestamp() + lease_s),
    }


class ObjectLock:
    """The writer lock of an `s3a://` warehouse (see the module's docstring)."""

    def __init__(self, warehouse: RemotePath, run_id: str, settings) -> None:
        if settings is None:
            raise TypeError("an s3a:// warehouse's lock needs its settings")
        self.warehouse = warehouse
        self.where = warehouse / LOCK_FILE
        self.run_id = run_id
        self.lease_s = float(settings.lock_lease_s)
        self.client = S3Client(S3Config.of(settings))
        self.etag: str | None = None
        self.since: str | None = None
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def _put(self, **condition) -> str | None:
        body = json.dumps(_record(self.run_id, self.lease_s, self.since)).encode()
        try:
            return self.client.put(self.where.bucket, self.where.key, body, **condition)
        except ObjectStoreError as exc:
            raise WarehouseBusy(
                f"cannot take the writer lock of {self.warehouse}: {exc}. Check "
                "CLAIMHOUSE_S3_ENDPOINT, the bucket and AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY"
            ) from None

    def acquire(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            self.etag = self._put(if_none_match=True)
            if self.etag is not None:
                break
            current = self.client.get(self.where.bucket, self.where.key)
            if current is None:
                continue  # released just now: try again
            body, etag = current
            try:
                info = json.loads(body or b"{}")
            except ValueError:
                info = {}
            if float(info.get("expires") or 0) < time.time():
                # Its holder stopped renewing it: take it over, if no other writer did first.
                self.etag = self._put(if_match=etag)
                if self.etag is not None:
                    break
                continue
            if time.monotonic() >= deadline:
                holder = (
                    f"run {info.get('run_id')} since {info.get('since')} "
                    f"(pid {info.get('pid')} on {info.get('host')})"
                )
                lapses = datetime.fromtimestamp(float(info["expires"]), UTC)
                raise WarehouseBusy(
                    f"warehouse busy: {holder} holds {self.warehouse}"
                    + (f" (waited {timeout_s:g} s)" if timeout_s else "")
                    + ". Wait for it to finish, or set CLAIMHOUSE_LOCK_TIMEOUT_S to wait "
                    "longer; readers are not blocked. If that run was killed, its lock lapses "
                    f"at {lapses.isoformat(timespec='seconds')} (CLAIMHOUSE_LOCK_LEASE_S)."
                )
            time.sleep(min(1.0, max(0.05, deadline - time.monotonic())))
        self.since = None
        self._renewer = threading.Thread(
            target=self._renew, name="claimhouse-lock-lease", daemon=True
        )
        self._renewer.start()

    def _renew(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            try:
                etag = self._put(if_match=self.etag)
            except WarehouseBusy:
                continue  # the store did not answer: try again before the lease lapses
            if etag is None:
                print(
                    f"warning: the writer lock of {self.warehouse} was taken over by another "
                    "writer (this run did not renew it within CLAIMHOUSE_LOCK_LEASE_S)",
                    flush=True,
                )
                return
            self.etag = etag

    def close(self) -> None:
        """Stop renewing and delete the lock, if it is still this writer's."""
        self._stop.set()
        if self._renewer is not None:
            self._renewer.join()
        current = self.client.get(self.where.bucket, self.where.key)
        if current is not None and current[1] == self.etag:
            self.client.delete(self.where.bucket, self.where.key)
