{{ config(after_synonyms=true) }}
-- depends_on: {{ ref('int_touched_stories') }}
-- depends_on: {{ ref('int_measure_merges') }}
-- Each claim with the fact it belongs to: its measure, or the measure it was merged into.
with claims as (
    select * from {{ ref('int_claims_intervals') }} {{ story_filter(is_incremental(), after_synonyms=true) }}
),

merges as (
    select * from {{ ref('int_measure_merges') }} {{ story_filter(is_incremental(), after_synonyms=true) }}
)

select
    claims.*,
    merges.fact_id,
    merges.fact_measure_key
from claims
inner join merges on claims.measure_id = merges.measure_id
