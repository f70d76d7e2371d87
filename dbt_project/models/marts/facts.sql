{{ config(after_synonyms=true) }}
-- depends_on: {{ ref('int_stories_touched') }}
-- depends_on: {{ ref('int_measures_merged') }}
-- One row per fact: what the sources agree on, with its status and the evidence counts.
with claims as (
    select * from {{ ref('int_claims_reconciled') }} {{ story_filter(is_incremental(), after_synonyms=true) }}
),

articles as (
    select * from {{ ref('stg_bronze__articles') }}
),

consensus as (
    select * from claims where group_rank = 1
),

-- The bounds every claim agreeing with the consensus allows ("about 180,000" and "at least
-- 178,000": 178,000 to 198,000); the consensus claim's own when they do not intersect (agreement
-- is not transitive). Null upper: no claim caps the value. Numbers only.
bounds as (
    select
        fact_id,
        max(lo) as agreed_lower,
        min(hi) as agreed_upper
    from claims
    where agrees and kind <> 'date'
    group by fact_id
),

-- A conflict is between sources: value groups whose anchors are all one source's (an article
-- giving "tonight or tomorrow", or correcting itself) contradict no one.
value_groups as (
    select fact_id, count(*) as value_group_count, count(distinct source_key) as anchor_sources
    from claims
    where group_rank is not null
    group by fact_id
),

grouped as (
    select
        claims.fact_id,
        claims.story_id,
        claims.fact_measure_key as measure_key,
        array_sort(collect_set(claims.measure_key)) as measure_keys,
        claims.kind,
        claims.per,
        {{ gold_unit('claims.kind', 'mode(claims.unit, true)') }} as unit,
        min(claims.value * claims.value_scale) as value_min,
        max(claims.value * claims.value_scale) as value_max,
        count(distinct claims.article_id) as article_count,
        count(distinct claims.source_key) as independent_source_count,
        count(*) as claim_count,
        count(distinct claims.attribution) as attribution_count,
        array_sort(collect_set(claims.article_id)) as articles,
        -- Bronze rows are insert-only, so this is stable across rebuilds.
        min(articles.ingested_at) as first_seen
    from claims
    inner join articles on claims.article_id = articles.article_id
    group by claims.fact_id, claims.story_id, claims.fact_measure_key, claims.kind, claims.per
),

facts as (
    select
        grouped.fact_id,
        grouped.story_id,
        grouped.measure_key,
        grouped.measure_keys,
        {{ fact_label('grouped.kind', 'grouped.measure_key', 'consensus.frame_label', 'grouped.per') }}
            as label,
        -- The consensus claim's frame: whose, what, which event, in what scope, in what role.
        consensus.subject_text as subject,
        consensus.property_text as property,
        consensus.event_text as event,
        consensus.scope_text as scope,
        consensus.role,
        grouped.kind,
        grouped.unit,
        grouped.per,
        consensus.value * consensus.value_scale as consensus_value,
        consensus.value_text as consensus_text,
        {{ readable_value('consensus.value_text', 'grouped.kind') }} as consensus_readable,
        case
            when consensus.kind = 'date' then null
            when bounds.agreed_lower <= bounds.agreed_upper then bounds.agreed_lower
            else consensus.lo
        end as consensus_lower,
        case
            when consensus.kind = 'date' then null
            when bounds.agreed_lower <= bounds.agreed_upper
                then nullif(bounds.agreed_upper, double('Infinity'))
            else nullif(consensus.hi, double('Infinity'))
        end as consensus_upper,
        grouped.value_min,
        grouped.value_max,
        case
            when coalesce(value_groups.anchor_sources, 0) >= 2 then 'conflicting'
            when consensus.support_sources >= 2 then 'corroborated'
            else 'single_source'
        end as status,
        grouped.article_count,
        grouped.independent_source_count,
        coalesce(consensus.support_sources, 0) as consensus_source_count,
        coalesce(value_groups.value_group_count, 0) as value_group_count,
        grouped.claim_count,
        grouped.attribution_count,
        grouped.articles,
        grouped.first_seen,
        '{{ build_id() }}' as run_id
    from grouped
    left join consensus on grouped.fact_id = consensus.fact_id
    left join value_groups on grouped.fact_id = value_groups.fact_id
    left join bounds on grouped.fact_id = bounds.fact_id
)

select * from facts
