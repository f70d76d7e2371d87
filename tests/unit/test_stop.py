"""Stopping a run on a signal (lake.stop) and cleaning what an interrupted write left
(Lake.remove_half_made), without Spark; end to end: tests/integration/test_interrupt.py."""

from __future__ import annotations

import os
import signal

from lake.stop import stop_on_signals
from lake.storage import Lake


def test_a_signal_requests_a_stop_and_the_handlers_come_back():
    before = signal.getsignal(signal.SIGTERM)
    heard = []
    with stop_on_signals(heard.append) as stop:
        assert stop.signal is None
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.signal == "SIGTERM" and stop.exit_code == 143
        assert heard == [stop]
        assert stop.settle() == "SIGTERM"
    assert signal.getsignal(signal.SIGTERM) is before
    with stop_on_signals(heard.append) as stop:
        os.kill(os.getpid(), signal.SIGINT)  # no KeyboardInterrupt: the run ends itself
        assert (stop.signal, stop.exit_code) == ("SIGINT", 130)


def _table(folder, *files: str) -> None:
    for name in files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")


def test_only_table_folders_with_no_commit_are_removed(tmp_path):
    _table(tmp_path / "gold_build" / "facts", "part-0000.snappy.parquet", ".part-0000.crc")
    (tmp_path / "gold_build" / "facts" / "_delta_log").mkdir()
    _table(tmp_path / "gold_build" / "fact_evidence", "part-1.parquet")
    _table(tmp_path / "silver" / "claims", "part-0.parquet", "_delta_log/00000000000000000000.json")
    _table(tmp_path / "sandbox" / "mine", "part-0.parquet")  # a writer may be creating it
    _table(tmp_path / "bronze" / "notes", "README.txt")  # not what a Delta write leaves
    _table(tmp_path / "_spark" / "tmp", "part-0.parquet")
    removed = Lake(None, tmp_path).remove_half_made()
    assert removed == ["gold_build.fact_evidence", "gold_build.facts"]
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.glob("*/*"))
    assert left == ["_spark/tmp", "bronze/notes", "sandbox/mine", "silver/claims"]
    assert Lake(None, tmp_path).remove_half_made() == []
