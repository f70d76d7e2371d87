"""Where claimhouse reads and writes, resolved at call time from arguments and environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to know about its surroundings."""

    warehouse: Path
    input_dir: Path
    spark_master: str
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    env: str = "local"

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
    limit = max_file_bytes or int(env.get("CLAIMHOUSE_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES))
    return Settings(
        warehouse=Path(wh).expanduser().resolve(),
        input_dir=Path(inp).expanduser().resolve(),
        spark_master=master,
        max_file_bytes=limit,
        env=env.get("CLAIMHOUSE_ENV", "local"),
    )
