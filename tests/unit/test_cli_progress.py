"""What `claimhouse run` prints while it works when nobody watches a terminal: a timestamped
line per step, a heartbeat when a step is quiet, or the same as JSON objects for log shippers."""

from __future__ import annotations

import json
import re
import time

from claimhouse import common as cli


def test_without_a_terminal_each_step_is_a_timestamped_line_and_a_quiet_step_beats(capsys):
    with cli._progress("bronze: ingesting", heartbeat_s=0.2) as step:
        time.sleep(0.7)
        step("gold: building")
    lines = capsys.readouterr().err.splitlines()
    assert all(re.match(r"\d\d:\d\d:\d\d ", line) for line in lines), lines
    said = [line[9:] for line in lines]
    assert said[0] == "bronze: ingesting" and said[-1] == "gold: building"
    beats = said[1:-1]
    assert beats and all(
        re.fullmatch(r"still: bronze: ingesting \(\d+ s so far\)", b) for b in beats
    )
    # One beat per quiet stretch, not one per check.
    assert len(beats) <= 3


def test_json_logs_are_one_object_per_line_on_stdout(capsys):
    cli._log["format"] = cli.LogFormat.json
    try:
        with cli._progress("starting Spark...", heartbeat_s=0.2) as step:
            time.sleep(0.5)
            step("silver: extracting")
        error = cli._fail("the warehouse is busy", cli.EXIT_ENV)
    finally:
        cli._log["format"] = cli.LogFormat.text
    captured = capsys.readouterr()
    assert captured.err == ""
    events = [json.loads(line) for line in captured.out.splitlines()]
    assert [e["event"] for e in events][0] == "step"
    assert {e["event"] for e in events[1:-2]} == {"heartbeat"}
    assert events[-2]["message"] == "silver: extracting"
    assert (events[-1]["event"], events[-1]["exit_code"]) == ("error", 3)
    assert error.exit_code == 3
    assert all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$", e["time"]) for e in events)
