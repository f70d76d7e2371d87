{{ config(after_synonyms=true) }}
-- depends_on: {{ ref('int_stories_touched') }}
-- Reconciliation per fact: each claim joins the fact its measure belongs to (its own measure, or
-- the one int_measures_merged merged it into), and the claims of a fact reconcile together. These
-- are the claims gold reports.
{% set claims %}(
    select claims.*, merges.fact_id, merges.fact_measure_key
    from (
        select * from {{ ref('int_claims_bounded') }} {{ story_filter(is_incremental(), after_synonyms=true) }}
    ) as claims
    inner join (
        select * from {{ ref('int_measures_merged') }} {{ story_filter(is_incremental(), after_synonyms=true) }}
    ) as merges
        on claims.measure_id = merges.measure_id
){% endset %}
{{ reconcile_claims(claims, 'fact_id') }}
