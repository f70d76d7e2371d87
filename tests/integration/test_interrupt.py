"""Ctrl-C or SIGTERM during each step of a real `claimhouse run`: one line naming the step, the
shell's exit code, the unit recorded as interrupted, and a next run that finishes cleanly."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time

import pytest

from ..conftest import CLAIMHOUSE, SEEDS, claimhouse

pytestmark = pytest.mark.slow

# Each run is stopped once the step is under way; the next run starts where it stopped. The
# first and the last step: silver's two stop the same way (their Spark jobs cancelled), and
# each run here costs a minute or more of CI.
STEPS = (
    ("bronze", "bronze: ingesting the input folder", signal.SIGTERM),
    ("gold", "gold: rebuilding every story", signal.SIGINT),
)
ENV = {"CLAIMHOUSE_SETTLE_S": "0", "CLAIMHOUSE_ENGINE": "off"}


def _interrupted_run(args: list[str], marker: str, signum: int) -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")} | ENV
    proc = subprocess.Popen(
        [CLAIMHOUSE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    lines: list[str] = []
    seen = threading.Event()

    def read() -> None:
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if marker in line:
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert seen.wait(300), lines
    time.sleep(2)  # inside the step's Spark work, not before it
    proc.send_signal(signum)
    proc.stdout.read()
    code = proc.wait(timeout=300)
    reader.join(timeout=30)
    return code, lines


def test_each_step_stopped_ends_in_one_line_and_the_next_run_is_clean(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    for seed in sorted(SEEDS.glob("*.txt"))[:3]:
        shutil.copy2(seed, inputs / seed.name)
    warehouse = tmp_path / "wh"
    args = ["run", "--input", str(inputs), "--warehouse", str(warehouse), "--no-dagster"]
    for step, marker, signum in STEPS:
        code, lines = _interrupted_run(args, marker, signum)
        name = signal.Signals(signum).name
        assert code == 128 + signum, lines
        errors = [line for line in lines if line.startswith("error:")]
        assert errors == [
            f"error: interrupted by {name} during {step}: what the steps before it published "
            "stays current and nothing half-made is read; run again to finish"
        ], lines
        assert lines[-1] == errors[0]
        assert not [line for line in lines if "Traceback" in line or line.startswith("\tat ")]
    statuses = claimhouse(
        "sql",
        "SELECT unit, status FROM audit.layer_runs WHERE status = 'interrupted' "
        "ORDER BY started_at",
        "--format",
        "csv",
        "--warehouse",
        str(warehouse),
    )
    assert statuses.returncode == 0, statuses.stderr
    assert statuses.stdout.splitlines() == ["unit,status"] + [
        f"{s},interrupted" for s, _, _ in STEPS
    ]
    assert "not a readable Delta table" not in statuses.stderr
    final = claimhouse(*args, env_extra=ENV)
    assert final.returncode == 0, final.stderr
    assert "gold: " in final.stderr + final.stdout
    assert not [
        line
        for line in final.stderr.splitlines()
        if line.startswith(("error", "warning")) or "Traceback" in line
    ]
