"""Gold: the dbt project as Dagster assets, built in-process on the run's SparkSession.

dagster-dbt supplies the asset graph (keys, deps, descriptions, column schemas, dbt tests as
asset checks) from the manifest. It does not run dbt here: `DbtCliResource.cli()` starts dbt as a
subprocess, and with dbt-spark's `session` method that is a second JVM, which the embedded Derby
metastore would refuse and which costs seconds of start-up. Instead the asset calls
the gold unit (lake.gold.build.UNIT through lake.layer.execute, as `claimhouse run` does:
dbtRunner in-process, where dbt-spark's getOrCreate() returns the run's session; then gold's
contracts on the candidate; then the release) and turns dbt's run_results.json into
materializations and check results.
"""

import fcntl
import functools
import json
from collections.abc import Iterator, Mapping
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

import dagster as dg
from dagster_dbt import DagsterDbtTranslator, DagsterDbtTranslatorSettings, DbtProject, dbt_assets

from lake.config import Settings, load_settings
from lake.gold import build as gold
from lake.gold.build import INTERNAL, artifact_run_id, dbt_args, dbt_project_files, kind_vars
from lake.layer import CandidateRejected, RunContext, execute
from lake.storage import Lake
from orchestration.checks import build_gold_contract_checks
from orchestration.environment import Environment
from orchestration.metadata import table_metadata
from orchestration.resources import LakeResource

# The manifest the code location loads: parsed here, beside this package, so it never races with
# a `dbt build` someone runs by hand in dbt_project/ (which writes dbt_project/target/).
DBT_STATE_DIR = Path(__file__).resolve().parent / ".dbt"
_UNIQUE_ID = "dagster_dbt/unique_id"  # dagster-dbt's metadata key naming a check's dbt test


class ClaimhouseDbtTranslator(DagsterDbtTranslator):
    """Asset key = the relation dbt reads or writes, `<schema>/<table>`: sources bronze.articles
    and silver.claims land on the Python assets' keys, models on gold_staging/ and
    gold_intermediate/ as their folder's `+schema` says. A model whose
    `meta: {claimhouse: {published_in: <layer>}}` names the layer readers read it in (the
    marts, built in gold_build and published as gold.*) is keyed there. A
    `meta: {dagster: {asset_key: [...]}}` in dbt still wins."""

    def get_asset_key(self, dbt_resource_props: Mapping[str, Any]) -> dg.AssetKey:
        meta = _meta(dbt_resource_props)
        if meta.get("dagster", {}).get("asset_key"):
            return super().get_asset_key(dbt_resource_props)
        if dbt_resource_props["resource_type"] == "source":
            table = dbt_resource_props.get("identifier") or dbt_resource_props["name"]
        else:
            table = dbt_resource_props.get("alias") or dbt_resource_props["name"]
        schema = meta.get("claimhouse", {}).get("published_in") or dbt_resource_props["schema"]
        return dg.AssetKey([schema, table])

    def get_group_name(self, dbt_resource_props: Mapping[str, Any]) -> str | None:
        # The dbt project builds the gold layer; meta.dagster.group or a dbt group still wins.
        return super().get_group_name(dbt_resource_props) or "gold"


def _meta(dbt_resource_props: Mapping[str, Any]) -> dict[str, Any]:
    return dbt_resource_props.get("config", {}).get("meta") or dbt_resource_props.get("meta") or {}


# dbt tests on models are asset checks. Tests on the sources (bronze.articles, silver.claims) are
# not: as checks of the Python assets they made Dagster split this multi-asset into two steps,
# one of which ran (and so ran `dbt build`) before silver existed. They still run in `dbt build`
# and fail it at severity error.
TRANSLATOR = ClaimhouseDbtTranslator(
    DagsterDbtTranslatorSettings(enable_source_tests_as_checks=False)
)


@functools.cache
def dbt_project(target: str) -> DbtProject:
    return DbtProject(
        project_dir=load_settings().dbt_project,
        target_path=DBT_STATE_DIR / "target",
        target=target,
    )


def prepare_manifest(project: DbtProject) -> Path:
    """`dbt parse` in this process (dbtRunner: no subprocess, no network, no Spark) when the
    manifest is missing or older than a file of the dbt project. ~6 s cold, <1 s with dbt's
    partial parse; a lock keeps concurrent loaders (webserver, daemon, run workers) apart."""
    manifest = project.manifest_path
    if _is_fresh(manifest):
        return manifest
    DBT_STATE_DIR.mkdir(parents=True, exist_ok=True)
    with open(DBT_STATE_DIR / "parse.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _is_fresh(manifest):  # another process may have parsed while we waited
            _parse(project)
    return manifest


def _is_fresh(manifest: Path) -> bool:
    if not manifest.exists():
        return False
    built = manifest.stat().st_mtime
    project = load_settings().dbt_project
    return all(path.stat().st_mtime <= built for path in dbt_project_files(project))


def _parse(project: DbtProject) -> None:
    from dbt.cli.main import dbtRunner

    args = [
        "parse",
        "--project-dir",
        str(project.project_dir),
        "--profiles-dir",
        str(project.profiles_dir),
        "--target-path",
        str(project.project_dir / project.target_path),
        "--log-path",
        str(DBT_STATE_DIR / "logs"),
        "--quiet",
        "--no-send-anonymous-usage-stats",
        *kind_vars(),
        *(["--target", project.target] if project.target else []),
    ]
    result = dbtRunner().invoke(args)
    if not result.success or not project.manifest_path.exists():
        raise RuntimeError(
            f"dbt parse of {project.project_dir} failed: {result.exception or 'see'} "
            f"{DBT_STATE_DIR / 'logs' / 'dbt.log'}"
        )


class GoldBuildConfig(dg.Config):
    """Run config of the gold step (the Launchpad's config editor)."""

    full_refresh: bool = False  # rebuild every story, not only those changed since the last build


def build_gold_assets(env: Environment) -> dg.AssetsDefinition:
    project = dbt_project(env.dbt_target)
    manifest = json.loads(prepare_manifest(project).read_text())

    @dbt_assets(
        manifest=manifest,
        project=project,
        dagster_dbt_translator=TRANSLATOR,
        name="gold_dbt_build",
        exclude=INTERNAL,  # not run by build_gold, so not checks here either
    )
    def gold_dbt_build(
        context: dg.AssetExecutionContext, lake: LakeResource, config: GoldBuildConfig
    ):
        """The gold unit: `dbt build` of dbt_project/ into the candidate, gold's contracts on
        it, then the release (lake.gold.build)."""
        all_keys = set(context.assets_def.keys)
        if set(context.selected_asset_keys) != all_keys:
            # The unit builds the whole project (as `claimhouse run` does): every gold table is
            # rebuilt from silver, and only the selected ones are reported as materialized.
            context.log.warning(
                "dbt builds every model of dbt_project/; materializations are reported for the "
                f"{len(context.selected_asset_keys)} selected of {len(all_keys)} gold assets"
            )
        with lake.open(context, full_refresh=config.full_refresh) as ctx:
            failure: CandidateRejected | None = None
            try:
                result = execute(gold.UNIT, ctx)
                unchanged = result.status == "unchanged"
            except CandidateRejected as exc:
                failure, unchanged = exc, False  # report what built and what failed, then fail
            results = [] if unchanged else run_results(ctx.settings, ctx.run_id)
            yield from _events(context, manifest, project, ctx, results, unchanged)
            if failure is not None:
                raise failure

    return gold_dbt_build


def run_results(settings: Settings, run_id: str) -> list[Mapping[str, Any]]:
    """Run `run_id`'s results from dbt's run_results.json (where build_gold's dbt_args put
    it); none when the file is another run's (dbt never got to write this one's)."""
    args = dbt_args("build", settings)
    path = Path(args[args.index("--target-path") + 1]) / "run_results.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    return data.get("results", []) if artifact_run_id(data) == run_id else []


def _models_in_dependency_order(manifest: Mapping[str, Any]) -> list[str]:
    """The project's models, each after the models it reads: Dagster takes a multi-asset's
    materializations only in that order."""
    nodes = manifest["nodes"]
    models = {uid: node for uid, node in nodes.items() if node["resource_type"] == "model"}
    graph = {
        uid: [dep for dep in node["depends_on"]["nodes"] if dep in models]
        for uid, node in sorted(models.items())
    }
    return list(TopologicalSorter(graph).static_order())


def checks_by_test(assets_def: dg.AssetsDefinition) -> dict[str, dg.AssetCheckKey]:
    """dbt test unique_id -> the asset check dagster-dbt made of it."""
    return {
        spec.metadata[_UNIQUE_ID]: spec.key
        for spec in assets_def.check_specs
        if _UNIQUE_ID in spec.metadata
    }


def _events(
    context: dg.AssetExecutionContext,
    manifest: Mapping[str, Any],
    project: DbtProject,
    ctx: RunContext,
    results: list[Mapping[str, Any]],
    unchanged: bool = False,
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """Materializations for the models dbt built (all of the selection when gold was
    unchanged: the release stands), then the dbt tests' check results."""
    yield from model_materializations(
        manifest, project, ctx.lake, results, set(context.selected_asset_keys), unchanged
    )
    yield from test_check_results(
        results, checks_by_test(context.assets_def), set(context.selected_asset_check_keys)
    )


def model_materializations(
    manifest: Mapping[str, Any],
    project: DbtProject,
    lake: Lake,
    results: list[Mapping[str, Any]],
    selected: set[dg.AssetKey],
    unchanged: bool = False,
    extra: Mapping[str, Any] | None = None,
    preview: bool = True,
) -> Iterator[dg.MaterializeResult]:
    """A materialization per model dbt built (every model when gold was unchanged), each
    after the models it reads."""
    if unchanged:
        results = [
            {"unique_id": unique_id, "status": "success", "execution_time": 0.0}
            for unique_id in _models_in_dependency_order(manifest)
        ]
    for result in results:
        unique_id, status = result["unique_id"], result["status"]
        if not unique_id.startswith("model.") or status != "success":
            continue
        key = TRANSLATOR.get_asset_spec(manifest, unique_id, project).key
        if key not in selected:
            continue
        node = manifest["nodes"][unique_id]
        table = f"{node['schema']}.{node['alias']}"
        metadata = table_metadata(
            lake,
            table,
            preview_columns=list(node.get("columns", {})),
            extra={
                "dbt_unique_id": unique_id,
                "dbt_seconds": dg.MetadataValue.float(float(result["execution_time"] or 0)),
                **(extra or {}),
            },
            preview=preview,
        )
        yield dg.MaterializeResult(
            asset_key=key,
            metadata=metadata,
            data_version=dg.DataVersion(str(metadata["delta_version"].value)),
        )


def test_check_results(
    results: list[Mapping[str, Any]],
    checks: Mapping[str, dg.AssetCheckKey],
    selected: set[dg.AssetCheckKey],
) -> Iterator[dg.AssetCheckResult]:
    """A check result per dbt test that ran (a skipped test's model did not build: the step
    fails on that)."""
    for result in results:
        check_key = checks.get(result["unique_id"])
        if check_key is None or check_key not in selected:
            continue
        status = result["status"]
        if status == "skipped":
            continue
        yield dg.AssetCheckResult(
            asset_key=check_key.asset_key,
            check_name=check_key.name,
            passed=status == "pass",
            severity=(
                dg.AssetCheckSeverity.WARN if status == "warn" else dg.AssetCheckSeverity.ERROR
            ),
            metadata={
                "status": status,
                "failing_rows": int(result.get("failures") or 0),
                "message": str(result.get("message") or ""),
                "dbt_unique_id": result["unique_id"],
            },
        )


def defs(env: Environment) -> dg.Definitions:
    """dbt's models as assets, their dbt tests as checks, and gold's contract rules as checks."""
    return dg.Definitions(
        assets=[build_gold_assets(env)], asset_checks=[build_gold_contract_checks()]
    )
