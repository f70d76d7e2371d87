"""Every claimhouse setting, declared once: its field, variable, default, check and meaning.

Settings are resolved when `load_settings` is called, never at import: command-line options
win over CLAIMHOUSE_* environment variables, which win over the defaults. The settings table
in docs/settings.md is this module's `settings_table()` (a test keeps the two equal).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from lake.objectstore import RemotePath, is_remote

REPO_ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


class SettingsError(ValueError):
    """A setting that cannot be used; the message names it and says what it takes."""


def _default_dir(name: str) -> Path:
    # Inside a checkout the defaults are the repo's folders; elsewhere, the working directory.
    base = REPO_ROOT if (REPO_ROOT / "pyproject.toml").exists() else Path.cwd()
    return base / name


def _path(text: str) -> Path:
    return Path(text).expanduser().resolve()


def _location(text: str) -> Path | RemotePath:
    """A local folder, or `s3a://bucket/prefix` on S3-compatible object storage."""
    if is_remote(text) or text.strip().startswith(("s3a:", "s3:")):
        return RemotePath(text)
    return _path(text)


def _endpoint(text: str) -> str:
    value = text.strip().rstrip("/")
    if not re.fullmatch(r"https?://[^\s/]+", value):
        raise ValueError("an endpoint URL such as http://127.0.0.1:9000 or https://s3.example.com")
    return value


def _number(kind: type, minimum: float) -> Callable[[str], Any]:
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or value != value or value < minimum:
            raise ValueError(f"a {'whole ' if kind is int else ''}number of at least {minimum:g}")
        return value

    return parse


def _choice(*allowed: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = text.strip().lower()
        if value not in allowed:
            raise ValueError(f"one of {', '.join(allowed)}")
        return value

    return parse


def _memory(text: str) -> str:
    value = text.strip().lower()
    if not (value[:-1].isdigit() and value[-1] in "kmgt") and not value.isdigit():
        raise ValueError("a JVM memory size such as 4g or 512m")
    return value


_MASTER = re.compile(
    r"local(\[(\*|\d+)(,\d+)?\])?|local-cluster\[\d+,\d+,\d+\]|yarn|k8s://\S+|"
    r"spark://[^\s/:,]+(:\d+)?(,[^\s/:,]+(:\d+)?)*"
)


def _master(text: str) -> str:
    value = text.strip()
    if not _MASTER.fullmatch(value):
        raise ValueError("a Spark master URL: local[*], local[N] or spark://host:7077")
    return value


# The fields of an article a JSON Lines or Parquet record may give, and the record's field
# names tried for each, first present wins: news-please's output by default.
RECORD_FIELDS = ("body", "title", "published_at", "outlet", "url")
_NEWS_PLEASE = "body=maintext,title=title,published_at=date_publish,outlet=source_domain,url=url"


@dataclass(frozen=True)
class FieldMap:
    """Which record fields give an article's body, title, published_at, outlet and url: each
    article field -> the record field names tried in order ('' for none)."""

    pairs: tuple[tuple[str, tuple[str, ...]], ...]

    def names(self, field: str) -> tuple[str, ...]:
        return dict(self.pairs).get(field, ())

    def __str__(self) -> str:
        return ",".join(f"{k}={'|'.join(v)}" for k, v in self.pairs)


def field_map(text: str) -> FieldMap:
    """'body=text,title=headline' -> a FieldMap; article fields not named keep news-please's
    names, and 'title=' gives none."""
    given: dict[str, tuple[str, ...]] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        field, sep, names = part.partition("=")
        field = field.strip()
        if not sep or field not in RECORD_FIELDS:
            raise ValueError(
                f"a list of field=name pairs such as body=maintext,title=title, each field one "
                f"of {', '.join(RECORD_FIELDS)} (got {part!r})"
            )
        given[field] = tuple(n.strip() for n in names.split("|") if n.strip())
    if given.get("body") == ():
        raise ValueError("a mapping with a record field for body (the article's text)")
    defaults = dict(DEFAULT_FIELDS.pairs) if "DEFAULT_FIELDS" in globals() else {}
    return FieldMap(tuple((f, given.get(f, defaults.get(f, ()))) for f in RECORD_FIELDS))


DEFAULT_FIELDS = field_map(_NEWS_PLEASE)


def _flag(text: str) -> bool:
    value = text.strip().lower()
    if value not in ("0", "1", "true", "false", "yes", "no", "on", "off"):
        raise ValueError("1 or 0")
    return value in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Option:
    field: str
    variable: str
    default: Any | Callable[[], Any]  # a callable is called when settings are loaded
    parse: Callable[[str], Any]
    meaning: str
    flag: str = ""  # the command-line option that overrides it, if any

    def default_value(self) -> Any:
        return self.default() if callable(self.default) else self.default


OPTIONS: tuple[Option, ...] = (
    Option(
        "warehouse",
        "CLAIMHOUSE_WAREHOUSE",
        lambda: _default_dir("warehouse"),
        _location,
        "the warehouse folder: every Delta table, `<warehouse>/<layer>/<table>`; or "
        "`s3a://bucket/prefix` on S3-compatible object storage (docs/object-storage.md)",
        "--warehouse DIR",
    ),
    Option(
        "input_dir",
        "CLAIMHOUSE_INPUT",
        lambda: _default_dir("seeds"),
        _location,
        "the folder of articles bronze ingests (and the Dagster sensor watches); or "
        "`s3a://bucket/prefix` on S3-compatible object storage",
        "--input DIR",
    ),
    Option(
        "spark_master",
        "CLAIMHOUSE_SPARK_MASTER",
        "local[*]",
        _master,
        "Spark master URL (`spark://host:7077` for a standalone cluster)",
        "--master URL",
    ),
    Option(
        "max_file_bytes",
        "CLAIMHOUSE_MAX_FILE_BYTES",
        5 * MB,
        _number(int, 1),
        "a larger article file, or record of a JSON Lines, Parquet or WARC file, is rejected",
        "--max-file-bytes N",
    ),
    Option(
        "settle_s",
        "CLAIMHOUSE_SETTLE_S",
        3.0,
        _number(float, 0),
        "a file modified more recently is left for the next run (still being copied?)",
    ),
    Option(
        "record_fields",
        "CLAIMHOUSE_RECORD_FIELDS",
        DEFAULT_FIELDS,
        field_map,
        "which fields of a JSON Lines or Parquet record give the article's body, title, "
        "published_at, outlet and url (names joined by a vertical bar: the first present; "
        "fields not named keep these defaults, news-please's; `title=`: none)",
    ),
    Option(
        "extract_budget_s",
        "CLAIMHOUSE_EXTRACT_BUDGET_S",
        5.0,
        _number(float, 1),
        "seconds of extraction an article may take per 100 KB of text",
    ),
    Option(
        "max_claims_per_article",
        "CLAIMHOUSE_MAX_CLAIMS_PER_ARTICLE",
        1000,
        _number(int, 1),
        "an article with more claims is quarantined whole: it would make its story's gold "
        "too costly to build",
    ),
    Option(
        "maintain_every",
        "CLAIMHOUSE_MAINTAIN_EVERY",
        100,
        _number(int, 0),
        "`run` compacts, vacuums and checkpoints a table once it has this many Delta versions "
        "since it last did (lake.maintenance); 0: only `claimhouse maintain` and Dagster's "
        "maintenance schedule",
    ),
    Option(
        "keep_hours",
        "CLAIMHOUSE_KEEP_HOURS",
        168,
        _number(int, 0),
        "VACUUM keeps the files of every version current within this many hours (whole hours, "
        "as Delta counts them), so time travel to them works; under 168, Delta's own floor, a "
        "reader's long query may lose its files",
    ),
    Option(
        "audit_keep_days",
        "CLAIMHOUSE_AUDIT_KEEP_DAYS",
        90.0,
        _number(float, 0),
        "maintenance deletes audit rows older than this (each unit's latest published run "
        "stays), and Dagster's runs older than this",
    ),
    Option(
        "lock_timeout_s",
        "CLAIMHOUSE_LOCK_TIMEOUT_S",
        0.0,
        _number(float, 0),
        "how long a writer waits for another run on the same warehouse",
    ),
    Option(
        "lock_lease_s",
        "CLAIMHOUSE_LOCK_LEASE_S",
        120.0,
        _number(float, 10),
        "an `s3a://` warehouse's writer lock lapses this long after its holder last renewed "
        "it (every third of it): a killed run's lock is taken over then",
    ),
    Option(
        "s3_endpoint",
        "CLAIMHOUSE_S3_ENDPOINT",
        None,
        _endpoint,
        "the S3 endpoint of an `s3a://` warehouse (unset: AWS's, in `CLAIMHOUSE_S3_REGION`); "
        "credentials: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`",
    ),
    Option(
        "s3_region",
        "CLAIMHOUSE_S3_REGION",
        "us-east-1",
        str,
        "the S3 region requests are signed for",
    ),
    Option(
        "s3_path_style",
        "CLAIMHOUSE_S3_PATH_STYLE",
        False,
        _flag,
        "`1`: path-style requests (`endpoint/bucket/key`), as most self-hosted S3 servers need",
    ),
    Option(
        "state_dir",
        "CLAIMHOUSE_STATE_DIR",
        None,
        _path,
        "local folder for an `s3a://` warehouse's scratch space, dbt's and Great Expectations' "
        "files (unset: `~/.claimhouse/s3/<bucket>/<prefix>`); a local warehouse keeps them inside",
    ),
    Option(
        "contracts_dir",
        "CLAIMHOUSE_CONTRACTS",
        lambda: _default_dir("expectations") / "contracts",
        _path,
        "the contract files every run enforces",
    ),
    Option(
        "env",
        "CLAIMHOUSE_ENV",
        "local",
        _choice("local", "ci", "prod"),
        "environment: `prod` starts Dagster's sensor and schedule and needs the warehouse "
        "and input named explicitly",
    ),
    Option(
        "catalog",
        "CLAIMHOUSE_CATALOG",
        "in-memory",
        _choice("in-memory", "hive"),
        "Spark catalog: `in-memory` (tables named from the warehouse in each process); "
        "`hive`, a Derby metastore one process at a time may open",
    ),
    Option(
        "driver_memory",
        "CLAIMHOUSE_DRIVER_MEMORY",
        "4g",
        _memory,
        "Spark driver heap (in `local[*]` it is the executors' too)",
    ),
    Option(
        "executor_memory",
        "CLAIMHOUSE_EXECUTOR_MEMORY",
        "2g",
        _memory,
        "executor heap on a `spark://` master",
    ),
    Option(
        "shuffle_partitions",
        "CLAIMHOUSE_SHUFFLE_PARTITIONS",
        8,
        _number(int, 1),
        "Spark's shuffle partitions (few: runs are small and AQE coalesces)",
    ),
    Option(
        "spark_ui",
        "CLAIMHOUSE_SPARK_UI",
        False,
        _flag,
        "`1` turns the Spark UI on",
    ),
    Option(
        "spark_event_log",
        "CLAIMHOUSE_SPARK_EVENT_LOG",
        None,
        _path,
        "a folder turns Spark's event log on there (`benchmarks/spark_profile.py` reads it)",
    ),
    Option(
        "sql_host",
        "CLAIMHOUSE_SQL_HOST",
        "127.0.0.1",
        str,
        "the SQL endpoint's address (`serve-sql` binds it; dbt's thrift target connects to it)",
        "--host HOST",
    ),
    Option(
        "sql_port",
        "CLAIMHOUSE_SQL_PORT",
        10000,
        _number(int, 1),
        "the SQL endpoint's port",
        "--port N",
    ),
    Option(
        "sql_user",
        "CLAIMHOUSE_SQL_USER",
        None,
        str,
        "the user `claimhouse sql --server` and dbt's thrift target connect as (the password: "
        "`CLAIMHOUSE_SQL_PASSWORD`, or asked for)",
        "--user NAME",
    ),
    Option(
        "sql_query_timeout_s",
        "CLAIMHOUSE_SQL_QUERY_TIMEOUT_S",
        600,
        _number(int, 1),
        "the SQL endpoint cancels a query running longer, saying so",
    ),
    Option(
        "jars_dir",
        "CLAIMHOUSE_JARS_DIR",
        lambda: _default_dir(".jars"),
        _path,
        "Delta Lake's jars, fetched by `scripts/setup`",
    ),
    Option(
        "engine",
        "CLAIMHOUSE_ENGINE",
        "auto",
        _choice("auto", "off"),
        "`auto`: `run`, `sql` and `maintain` use the warm engine (`claimhouse engine start`) when "
        "it is up; `off`: always their own Spark",
    ),
    Option(
        "engine_dir",
        "CLAIMHOUSE_ENGINE_DIR",
        lambda: Path.home() / ".claimhouse" / "engine",
        _path,
        "where the warm engine keeps its state file (address and secret, owner-only), log and "
        "Spark scratch space",
    ),
    Option(
        "dbt_project",
        "CLAIMHOUSE_DBT_PROJECT",
        lambda: _default_dir("dbt_project"),
        _path,
        "the dbt project that builds gold",
    ),
)


def _default(field: str) -> Any:
    return next(o for o in OPTIONS if o.field == field).default_value()


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to know about its surroundings (see OPTIONS, which holds each
    field's default; load_settings fills every field)."""

    warehouse: Path | RemotePath
    input_dir: Path | RemotePath
    spark_master: str = _default("spark_master")
    max_file_bytes: int = _default("max_file_bytes")
    settle_s: float = _default("settle_s")
    record_fields: FieldMap = _default("record_fields")
    extract_budget_s: float = _default("extract_budget_s")
    max_claims_per_article: int = _default("max_claims_per_article")
    maintain_every: int = _default("maintain_every")
    keep_hours: int = _default("keep_hours")
    audit_keep_days: float = _default("audit_keep_days")
    lock_timeout_s: float = _default("lock_timeout_s")
    lock_lease_s: float = _default("lock_lease_s")
    s3_endpoint: str | None = _default("s3_endpoint")
    s3_region: str = _default("s3_region")
    s3_path_style: bool = _default("s3_path_style")
    state_dir: Path | None = _default("state_dir")
    contracts_dir: Path = _default("contracts_dir")
    env: str = _default("env")
    catalog: str = _default("catalog")
    driver_memory: str = _default("driver_memory")
    executor_memory: str = _default("executor_memory")
    shuffle_partitions: int = _default("shuffle_partitions")
    spark_ui: bool = _default("spark_ui")
    spark_event_log: Path | None = _default("spark_event_log")
    sql_host: str = _default("sql_host")
    sql_port: int = _default("sql_port")
    sql_user: str | None = _default("sql_user")
    sql_query_timeout_s: int = _default("sql_query_timeout_s")
    jars_dir: Path = _default("jars_dir")
    engine: str = _default("engine")
    engine_dir: Path = _default("engine_dir")
    dbt_project: Path = _default("dbt_project")

    @property
    def remote(self) -> bool:
        """Whether the warehouse is on object storage (`s3a://`)."""
        return isinstance(self.warehouse, RemotePath)

    @property
    def local_dir(self) -> Path:
        """The local folder of the warehouse's own files (Spark's scratch space, dbt's
        artifacts, Great Expectations' results): the warehouse itself, or for an `s3a://` one
        CLAIMHOUSE_STATE_DIR, else ~/.claimhouse/s3/<bucket>/<prefix>."""
        if isinstance(self.warehouse, Path):
            return self.warehouse
        if self.state_dir is not None:
            return self.state_dir
        return default_state_dir(self.warehouse)

    @property
    def spark_dir(self) -> Path:
        """Metastore, Derby log, scratch space: kept inside the warehouse, never in the cwd."""
        return self.local_dir / "_spark"


def default_state_dir(warehouse: RemotePath) -> Path:
    return Path.home() / ".claimhouse" / "s3" / warehouse.bucket / (warehouse.key or "_root")


def load_settings(
    warehouse: str | Path | None = None,
    input_dir: str | Path | None = None,
    spark_master: str | None = None,
    max_file_bytes: int | None = None,
    environ: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Settings:
    """Arguments win over CLAIMHOUSE_* environment variables, which win over defaults. A
    variable that cannot be used raises SettingsError naming it."""
    env = os.environ if environ is None else environ
    given = {
        "warehouse": warehouse,
        "input_dir": input_dir,
        "spark_master": spark_master,
        "max_file_bytes": max_file_bytes,
        **overrides,
    }
    values: dict[str, Any] = {}
    for option in OPTIONS:
        value = given.get(option.field)
        if value is not None:
            try:
                values[option.field] = (
                    option.parse(str(value)) if isinstance(value, str | Path) else value
                )
            except ValueError as exc:
                name = option.flag.split()[0] if option.flag else option.field
                raise SettingsError(f"{name} {str(value)!r} is not {exc}: fix it") from exc
            continue
        text = env.get(option.variable)
        if text is None or text.strip() == "":
            values[option.field] = option.default_value()
            continue
        try:
            values[option.field] = option.parse(text)
        except ValueError as exc:
            raise SettingsError(
                f"{option.variable}={text!r} is not {exc}: fix or unset it"
            ) from exc
    unknown = set(given) - {f.name for f in fields(Settings)}
    if unknown:
        raise TypeError(f"unknown settings: {', '.join(sorted(unknown))}")
    settings = Settings(**values)
    if settings.remote:
        return settings
    if settings.warehouse.exists() and not settings.warehouse.is_dir():
        raise SettingsError(
            f"the warehouse {settings.warehouse} is a file, not a folder: pass a folder (it is "
            "created if missing) with --warehouse DIR or CLAIMHOUSE_WAREHOUSE"
        )
    return settings


# What a command run inside the warm engine sees, so that it runs there instead of forwarding
# itself to the engine again.
ENGINE_OFF = {"CLAIMHOUSE_ENGINE": "off"}

# Secrets are read when needed and never kept in Settings (whose repr a log might print).
SQL_PASSWORD_VARIABLE = "CLAIMHOUSE_SQL_PASSWORD"


def sql_password(environ: Mapping[str, str] | None = None) -> str | None:
    """The SQL endpoint password for `claimhouse sql --server` and dbt's thrift target."""
    return (os.environ if environ is None else environ).get(SQL_PASSWORD_VARIABLE)


def settings_table() -> str:
    """The settings table of docs/settings.md, in Markdown."""
    lines = ["| option | environment | default | meaning |", "|---|---|---|---|"]
    for option in OPTIONS:
        default = option.default_value()
        if isinstance(default, Path):
            shown = (
                f"`{default.relative_to(REPO_ROOT)}/`"
                if default.is_relative_to(REPO_ROOT)
                else f"`~/{default.relative_to(Path.home())}`"
                if default.is_relative_to(Path.home())
                else f"`{default}`"
            )
        elif default is None or default is False:
            shown = "off"
        elif option.field == "max_file_bytes":
            shown = f"{default // MB} MB"
        else:
            shown = f"`{default}`"
        flag = f"`{option.flag}`" if option.flag else ""
        lines.append(f"| {flag} | `{option.variable}` | {shown} | {option.meaning} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(settings_table())
