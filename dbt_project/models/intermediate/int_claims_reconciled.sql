-- Reconciliation, per fact (claims sharing kind, measure_key and per):
--   support(c)  = independent sources whose claims overlap c's interval;
--   rank        = stated values before bounds, then support, then precision, then articles;
--   anchor      = a claim no better-ranked claim overlaps: each anchor heads one value group,
--                 anchors are pairwise disjoint, group 1 is the consensus;
--   agrees      = the claim's interval overlaps the consensus (null when it bounds nothing).
with claims as (
    select * from {{ ref('int_claims_intervals') }}
),

informative as (
    select * from claims where is_informative
),

support as (
    select
        a.claim_id,
        count(distinct b.source_key) as support_sources,
        count(distinct b.article_id) as support_articles
    from informative as a
    inner join informative as b
        on a.fact_id = b.fact_id and {{ intervals_overlap('a', 'b') }}
    group by a.claim_id
),

ranked as (
    select
        informative.*,
        support.support_sources,
        support.support_articles,
        row_number() over (
            partition by informative.fact_id
            order by
                informative.precision_tier,
                support.support_sources desc,
                informative.width,
                support.support_articles desc,
                informative.claim_id
        ) as value_rank
    from informative
    inner join support on informative.claim_id = support.claim_id
),

overlapped_by_better as (
    select distinct a.claim_id
    from ranked as a
    inner join ranked as b
        on a.fact_id = b.fact_id and b.value_rank < a.value_rank and {{ intervals_overlap('a', 'b') }}
),

anchors as (
    select
        ranked.*,
        row_number() over (partition by ranked.fact_id order by ranked.value_rank) as group_rank
    from ranked
    left anti join overlapped_by_better on ranked.claim_id = overlapped_by_better.claim_id
),

consensus as (
    select * from anchors where group_rank = 1
),

reconciled as (
    select
        claims.*,
        ranked.support_sources,
        ranked.support_articles,
        ranked.value_rank,
        anchors.group_rank,
        consensus.claim_id as consensus_claim_id,
        case
            when claims.is_informative and consensus.claim_id is not null
                then {{ intervals_overlap('claims', 'consensus') }}
        end as agrees
    from claims
    left join ranked on claims.claim_id = ranked.claim_id
    left join anchors on claims.claim_id = anchors.claim_id
    left join consensus on claims.fact_id = consensus.fact_id
)

select * from reconciled
