"""Data contracts: one YAML file per table -> a Great Expectations suite -> severities -> audit.

    contract = load_contract(CONTRACTS_DIR / "silver.claims.yml")
    report = validate(spark, lake, contract, df, run_id)
    record_results(spark, lake, report, run_id)
    good, quarantined = apply_severities(spark, lake, contract, df, report)

Great Expectations itself is imported on the first `validate`, not by this package.
"""

from lake.contracts.run import (
    AUDIT_DQ_RESULTS,
    ContractViolation,
    RuleResult,
    ValidationReport,
    apply_severities,
    record_results,
    validate,
)
from lake.contracts.spec import (
    CONTRACTS_DIR,
    Contract,
    ContractError,
    load_contract,
    load_contracts,
)

__all__ = [
    "AUDIT_DQ_RESULTS",
    "CONTRACTS_DIR",
    "Contract",
    "ContractError",
    "ContractViolation",
    "RuleResult",
    "ValidationReport",
    "apply_severities",
    "load_contract",
    "load_contracts",
    "record_results",
    "validate",
]
