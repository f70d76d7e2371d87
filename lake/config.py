"""Where claimhouse reads and writes, resolved at call time from arguments and environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024
# Seconds of extraction an article may take per 100 KB of text (5 s at the least); past it the
# article is logged in silver.extractions with the reason and the run goes on.
DEFAULT_EXTRACT_BUDGET_S = 5.0


# A file modified more recently than this may still be being copied: the next run reads it.
DEFAULT_SETTLE_S = 3.0
# How long a writer waits for another run on the same warehouse to finish before giving up.
DEFAULT_LOCK_TIMEOUT_S = 0.0


class SettingsError(ValueError):
    """A setting that cannot be used; the message names it and says what it takes."""


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to know about its surroundings."""

    warehouse: Path
    input_dir: Path
    spark_master: str
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    env: str = "local"
    extract_budget_s: float = DEFAULT_EXTRACT_BUDGET_S
    lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S
    settle_s: float = DEFAULT_SETTLE_S

    @property
    def spark_dir(self) -> Path:
        """Metastore, Derby log, scratch space: kept inside the warehouse, never in the cwd."""
        return self.warehouse / "_spark"


def _default_dir(name: str) -> Path:
    # Inside a checkout the defaults are the repo's folders; elsewhere, the working directory.
    base = REPO_ROOT if (REPO_ROOT / "pyproject.toml").exists() else Path.cwd()
    return base / name


def load_settings(
    warehouse: str | Path | None = None,
    input_dir: str | Path | None = None,
    spark_master: str | None = None,
    max_file_bytes: int | None = None,
) -> Settings:
    """Arguments win over CLAIMHOUSE_* environment variables, which win over defaults."""
    env = os.environ
    wh = warehouse or env.get("CLAIMHOUSE_WAREHOUSE") or _default_dir("warehouse")
    inp = input_dir or env.get("CLAIMHOUSE_INPUT") or _default_dir("seeds")
    master = spark_master or env.get("CLAIMHOUSE_SPARK_MASTER") or "local[*]"
    limit = max_file_bytes or _number("CLAIMHOUSE_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES, int)
    return Settings(
        warehouse=Path(wh).expanduser().resolve(),
        input_dir=Path(inp).expanduser().resolve(),
        spark_master=master,
        max_file_bytes=limit,
        env=env.get("CLAIMHOUSE_ENV", "local"),
        extract_budget_s=_number("CLAIMHOUSE_EXTRACT_BUDGET_S", DEFAULT_EXTRACT_BUDGET_S, float),
        lock_timeout_s=_number("CLAIMHOUSE_LOCK_TIMEOUT_S", DEFAULT_LOCK_TIMEOUT_S, float, 0),
        settle_s=_number("CLAIMHOUSE_SETTLE_S", DEFAULT_SETTLE_S, float, 0),
    )


def _number(variable: str, default, kind: type, minimum: float = 1):
    text = os.environ.get(variable)
    if text is None or text.strip() == "":
        return default
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value < minimum or value != value:
        raise SettingsError(
            f"{variable}={text!r} is not a {'whole ' if kind is int else ''}number of at least "
            f"{minimum:g}: fix or unset it"
        )
    return value
