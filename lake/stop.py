"""Stopping a run on Ctrl-C or SIGTERM without damage.

No exception is thrown into the run's thread: it may be inside a call to the JVM, which an
interrupt there would leave half-read. Instead the signal starts a thread that cancels Spark's
jobs until the run notices (`settle`): the step under way fails at its next Spark job, Delta
commits nothing of it, and no later step starts. A second signal ends the process at once.
The warm engine stops a client's run the same way when the client is signalled (`deliver`).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

SIGNALS = (signal.SIGINT, signal.SIGTERM)
CANCEL_EVERY_S = 0.5
# The stop requests of the runs under way in this process (the warm engine runs one at a time).
_listening: list[StopRequest] = []


class StopRequest:
    """Set by a signal; read where a run's unit fails or before the next one starts."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._settled = threading.Event()
        self.take_signals: Callable[[], object] = lambda: None
        self.on_stop: Callable[[StopRequest], None] = lambda request: None

    @property
    def signal(self) -> str | None:
        return None if self.signum is None else signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """The shell's convention: 128 + the signal (130 for SIGINT, 143 for SIGTERM)."""
        return 128 + (self.signum or 0)

    def request(self, signum: int) -> None:
        self.signum = signum
        threading.Thread(target=self._cancel, name="claimhouse-stop", daemon=True).start()

    def settle(self) -> str | None:
        """Stop cancelling (the run records its end next); the signal's name, or None."""
        self._settled.set()
        return self.signal

    def _cancel(self) -> None:
        while not self._settled.is_set():
            cancel_spark_jobs()
            self._settled.wait(CANCEL_EVERY_S)


def cancel_spark_jobs() -> None:
    """Cancel the jobs this process's SparkContext is running, if it has one: the step under
    way fails at its next Spark call, with nothing of it committed."""
    from pyspark import SparkContext

    sc = SparkContext._active_spark_context
    if sc is not None:
        with suppress(Exception):  # stopped meanwhile: no jobs left to cancel
            sc.cancelAllJobs()


def deliver(signum: int) -> bool:
    """Stop the run under way in this process as `signum` sent to it would, though the signal
    reached another process (a warm engine's client); False when no run is listening."""
    if not _listening:
        return False
    request = _listening[-1]
    if request.signum is None:
        request.on_stop(request)
        request.request(signum)
    return True


@contextmanager
def stop_on_signals(on_stop: Callable[[StopRequest], None]) -> Iterator[StopRequest]:
    """While the block runs, SIGINT and SIGTERM request a stop (`on_stop` hears it first);
    a second one exits the process at once with the same code. PySpark puts its own SIGINT
    handler in when it starts a SparkContext: call `take_signals` again after that."""
    request = StopRequest()
    request.on_stop = on_stop

    def handle(signum: int, frame) -> None:
        if request.signum is not None:
            os._exit(128 + signum)
        request.signum = signum
        on_stop(request)
        request.request(signum)

    _listening.append(request)
    previous = {}
    # Signals reach the main thread only: in another, whoever runs there handles them.
    if threading.current_thread() is threading.main_thread():
        previous = {s: signal.getsignal(s) for s in SIGNALS}
        request.take_signals = lambda: [signal.signal(s, handle) for s in SIGNALS]
        request.take_signals()
    try:
        yield request
    finally:
        request.settle()
        _listening.remove(request)
        for s, handler in previous.items():
            signal.signal(s, handler)
