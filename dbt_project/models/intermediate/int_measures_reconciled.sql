-- depends_on: {{ ref('int_stories_touched') }}
-- Reconciliation per measure (story, kind, measure_key, per): each measure's consensus, which
-- int_measures_merged compares across measures.
{% set claims %}(select * from {{ ref('int_claims_bounded') }} {{ story_filter(is_incremental()) }}){% endset %}
{{ reconcile_claims(claims, 'measure_id') }}
