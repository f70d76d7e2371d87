-- depends_on: {{ ref('int_touched_stories') }}
-- Reconciliation per measure (story, kind, measure_key, per): each measure's consensus, which
-- int_measure_merges compares across measures.
{% set claims %}(select * from {{ ref('int_claims_intervals') }} {{ story_filter(is_incremental()) }}){% endset %}
{{ reconcile_claims(claims, 'measure_id') }}
