{#- Reconciliation of claims grouped by `key` (a column of `relation`):
      support(c)  = independent sources whose claims overlap c's interval;
      rank        = stated values, then bounds, then vague amounts; then support, then
                    precision (of two open lower bounds the higher: "at least 160" before
                    "more than 100"), then articles;
      consensus   = the best-ranked claim: group 1;
      anchor      = a claim that disagrees with the consensus and that no better-ranked such
                    claim overlaps: each heads one more value group (groups pairwise disjoint);
      agrees      = the claim's interval overlaps the consensus (null when it bounds nothing).
    Run twice: per measure (int_measures_reconciled) and per fact (int_claims_reconciled). -#}
{% macro reconcile_claims(relation, key) -%}
with claims as (
    select * from {{ relation }}
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
        on a.{{ key }} = b.{{ key }} and {{ intervals_overlap('a', 'b') }}
    group by a.claim_id
),

ranked as (
    select
        informative.*,
        support.support_sources,
        support.support_articles,
        row_number() over (
            partition by informative.{{ key }}
            order by
                informative.precision_tier,
                support.support_sources desc,
                informative.width,
                case when informative.hi = double('Infinity') then informative.lo end desc,
                support.support_articles desc,
                informative.claim_id
        ) as value_rank
    from informative
    inner join support on informative.claim_id = support.claim_id
),

consensus as (
    select * from ranked where value_rank = 1
),

-- Overlap is not transitive ("more than 90" overlaps 100 and "up to 95"; those two do not), so
-- the other value groups are drawn from the claims that disagree with the consensus: then a
-- fact has one value group exactly when every informative claim agrees with its consensus.
disagreeing as (
    select ranked.*
    from ranked
    inner join consensus on ranked.{{ key }} = consensus.{{ key }}
    where not {{ intervals_overlap('ranked', 'consensus') }}
),

overlapped_by_better as (
    select distinct a.claim_id
    from disagreeing as a
    inner join disagreeing as b
        on a.{{ key }} = b.{{ key }} and b.value_rank < a.value_rank and {{ intervals_overlap('a', 'b') }}
),

other_anchors as (
    select disagreeing.*
    from disagreeing
    left anti join overlapped_by_better on disagreeing.claim_id = overlapped_by_better.claim_id
),

anchors as (
    select consensus.*, 1 as group_rank from consensus
    union all
    select
        other_anchors.*,
        1 + row_number() over (partition by other_anchors.{{ key }} order by other_anchors.value_rank)
            as group_rank
    from other_anchors
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
    left join consensus on claims.{{ key }} = consensus.{{ key }}
)

select * from reconciled
{%- endmacro %}
