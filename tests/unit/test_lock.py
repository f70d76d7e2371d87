"""One writer per warehouse: a second writer is told who holds it; a killed holder frees it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lake.lock import LOCK_FILE, WarehouseBusy, warehouse_lock

CLAIMHOUSE = str(Path(sys.executable).parent / "claimhouse")
HOLD = """
import sys, time
from pathlib import Path
from lake.lock import warehouse_lock
with warehouse_lock(Path(sys.argv[1]), "run-A"):
    print("held", flush=True)
    time.sleep(120)
"""


@pytest.fixture
def holder(tmp_path):
    """Another process holding tmp_path/warehouse's lock as run-A."""
    warehouse = tmp_path / "warehouse"
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(warehouse)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "held"
    yield warehouse, proc
    proc.kill()
    proc.wait()


def test_a_second_writer_is_told_which_run_holds_the_warehouse(holder):
    warehouse, _ = holder
    with pytest.raises(WarehouseBusy) as busy, warehouse_lock(warehouse, "run-B", timeout_s=0.6):
        pass
    message = str(busy.value)
    assert message.startswith("warehouse busy: run run-A since 20")
    assert f"holds {warehouse} (waited 0.6 s)" in message


def test_the_lock_is_free_again_once_its_holder_is_killed(holder):
    warehouse, proc = holder
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with warehouse_lock(warehouse, "run-B"):
        assert '"run_id": "run-B"' in (warehouse / LOCK_FILE).read_text()


def test_one_process_may_nest_its_own_lock(tmp_path):
    with warehouse_lock(tmp_path, "r1"), warehouse_lock(tmp_path, "r1"):
        pass
    with warehouse_lock(tmp_path, "r2"):  # released after the outer block
        pass


def test_claimhouse_run_on_a_busy_warehouse_exits_3_with_one_line(holder, tmp_path):
    warehouse, _ = holder
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    started = time.monotonic()
    done = subprocess.run(
        [CLAIMHOUSE, "run", "--warehouse", str(warehouse), "--input", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 3
    assert done.stderr.startswith("error: warehouse busy: run run-A since ")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
    assert time.monotonic() - started < 30  # refused before Spark starts


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        (
            "CLAIMHOUSE_MAX_FILE_BYTES",
            "abc",
            "error: CLAIMHOUSE_MAX_FILE_BYTES='abc' is not a whole number of at least 1: "
            "fix or unset it",
        ),
        (
            "CLAIMHOUSE_EXTRACT_BUDGET_S",
            "-2",
            "error: CLAIMHOUSE_EXTRACT_BUDGET_S='-2' is not a number of at least 1: "
            "fix or unset it",
        ),
    ],
)
def test_a_bad_setting_is_one_line_naming_its_variable_and_exits_2(
    tmp_path, variable, value, message
):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    done = subprocess.run(
        [CLAIMHOUSE, "run", "--warehouse", str(tmp_path / "w"), "--input", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, variable: value},
    )
    assert done.returncode == 2
    assert done.stderr.strip() == message


def test_a_dagster_run_on_a_busy_warehouse_waits_then_names_the_holder(holder, monkeypatch):
    """Dagster's steps take the same lock as `claimhouse run`, in any Dagster home: a run
    meets run-A's lock before it starts Spark."""
    import dagster as dg

    from orchestration.resources import LakeResource

    warehouse, _ = holder
    monkeypatch.setenv("CLAIMHOUSE_LOCK_TIMEOUT_S", "0.5")
    resource = LakeResource(warehouse=str(warehouse), input_dir=str(warehouse.parent))

    @dg.op(required_resource_keys={"lake"})
    def opens_the_lake(context) -> None:
        with context.resources.lake.open(context):
            pass

    @dg.job
    def one_step():
        opens_the_lake()

    started = time.monotonic()
    with pytest.raises(WarehouseBusy, match="warehouse busy: run run-A since 20"):
        one_step.execute_in_process(resources={"lake": resource})
    assert 0.5 <= time.monotonic() - started < 30
