-- One row per fact: what the sources agree on, with its status and the evidence counts.
with claims as (
    select * from {{ ref('int_claims_reconciled') }}
),

articles as (
    select * from {{ ref('stg_bronze__articles') }}
),

consensus as (
    select * from claims where group_rank = 1
),

value_groups as (
    select fact_id, count(*) as value_group_count
    from claims
    where group_rank is not null
    group by fact_id
),

grouped as (
    select
        claims.fact_id,
        claims.story_id,
        claims.measure_key,
        claims.kind,
        claims.per,
        mode(claims.unit, true) as unit,
        min(claims.value) as value_min,
        max(claims.value) as value_max,
        count(distinct claims.article_id) as article_count,
        count(distinct claims.source_key) as independent_source_count,
        count(*) as claim_count,
        count(distinct claims.attribution) as attribution_count,
        array_sort(collect_set(claims.article_id)) as articles,
        -- Bronze rows are insert-only, so this is stable across rebuilds.
        min(articles.ingested_at) as first_seen
    from claims
    inner join articles on claims.article_id = articles.article_id
    group by claims.fact_id, claims.story_id, claims.measure_key, claims.kind, claims.per
),

facts as (
    select
        grouped.fact_id,
        grouped.story_id,
        grouped.measure_key,
        {{ measure_label('grouped.measure_key') }} as label,
        grouped.kind,
        grouped.unit,
        grouped.per,
        consensus.value as consensus_value,
        consensus.value_text as consensus_text,
        grouped.value_min,
        grouped.value_max,
        case
            when coalesce(value_groups.value_group_count, 0) >= 2 then 'conflicting'
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
        '{{ var("run_id") or invocation_id }}' as run_id
    from grouped
    left join consensus on grouped.fact_id = consensus.fact_id
    left join value_groups on grouped.fact_id = value_groups.fact_id
)

select * from facts
