-- Reconciliation per fact (measures merged by int_measure_merges): the claims gold reports.
{{ reconcile_claims(ref('int_claims_facts'), 'fact_id') }}
