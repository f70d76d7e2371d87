{{ config(after_synonyms=true) }}
-- depends_on: {{ ref('int_touched_stories') }}
-- depends_on: {{ ref('int_measure_merges') }}
-- Reconciliation per fact (measures merged by int_measure_merges): the claims gold reports.
{% set claims %}(select * from {{ ref('int_claims_facts') }} {{ story_filter(is_incremental(), after_synonyms=true) }}){% endset %}
{{ reconcile_claims(claims, 'fact_id') }}
