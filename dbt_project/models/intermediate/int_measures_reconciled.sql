-- Reconciliation per measure (story, kind, measure_key, per): each measure's consensus, which
-- int_measure_merges compares across measures.
{{ reconcile_claims(ref('int_claims_intervals'), 'measure_id') }}
