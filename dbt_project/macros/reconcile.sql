{#- Reconciliation of claims grouped by `key` (a column of `relation`):
      support(c)  = independent sources whose claims overlap c's interval;
      rank        = stated values, then bounds, then vague amounts; then support, then
                    precision (of two open lower bounds the higher: "at least 160" before
                    "more than 100"), then articles;
      consensus   = the best-ranked claim: group 1;
      anchor      = a claim that disagrees with the consensus and that no better-ranked such
                    claim overlaps: each heads one more value group (groups pairwise disjoint);
      agrees      = the claim's interval overlaps the consensus (null when it bounds nothing).
    Run twice: per measure (in int_measures_merged_precisely) and per fact (int_claims_reconciled).
    Every step is a window over `key`, never a join: Spark inlines a CTE at each mention, so a
    self-joined CTE read again later is planned and run again (benchmarks/HISTORY.md). -#}
{% macro reconcile_claims(relation, key) -%}
{%- set interval = interval_fields() -%}
with claims as (
    select * from {{ relation }}
),

-- Each claim beside the informative claims of its key that overlap it.
peered as (
    select
        *,
        collect_list(
            case when is_informative then struct({{ interval }}, source_key, article_id) end
        ) over (partition by {{ key }}) as peers
    from claims
),

supported as (
    select
        * except (peers),
        case when is_informative then filter(peers, peer -> {{ intervals_overlap('peered', 'peer') }}) end
            as overlapping
    from peered
),

counted as (
    select
        * except (overlapping),
        case when is_informative then bigint(size(array_distinct(overlapping.source_key))) end
            as support_sources,
        case when is_informative then bigint(size(array_distinct(overlapping.article_id))) end
            as support_articles,
        case when is_informative then array_distinct(overlapping.source_key) end
            as support_source_keys
    from supported
),

-- Informative claims first, so their ranks are 1..n and the first of the key is the consensus.
ranked as (
    select
        *,
        case when is_informative then row_number() over by_rank end as value_rank,
        first(
            case when is_informative then struct(claim_id, {{ interval }}, support_source_keys) end,
            true
        ) over by_rank as consensus
    from counted
    window by_rank as (
        partition by {{ key }}
        order by
            is_informative desc,
            precision_tier,
            support_sources desc,
            width,
            case when hi = double('Infinity') then lo end desc,
            support_articles desc,
            claim_id
    )
),

judged as (
    select
        *,
        case when is_informative then {{ intervals_overlap('ranked', 'consensus') }} end as agrees
    from ranked
),

-- Overlap is not transitive ("more than 90" overlaps 100 and "up to 95"; those two do not), so
-- the other value groups are drawn from the claims that disagree with the consensus. A source
-- that states the consensus too contradicts no one with its other value (an outlet's "51 votes"
-- beside its "60 votes", a second quantity or its own slip): that claim heads no value group,
-- so a conflict is always between sources.
anchoring as (
    select
        *,
        not agrees and not array_contains(consensus.support_source_keys, source_key)
            as contradicts,
        collect_list(
            case when not agrees and not array_contains(consensus.support_source_keys, source_key)
                then struct({{ interval }})
            end
        ) over (
            partition by {{ key }}
            order by value_rank
            rows between unbounded preceding and 1 preceding
        ) as better_disagreeing
    from judged
),

anchored as (
    select
        *,
        value_rank > 1 and contradicts
            and not exists(better_disagreeing, better -> {{ intervals_overlap('anchoring', 'better') }})
            as is_other_anchor
    from anchoring
)

select
    * except (
        support_sources, support_articles, support_source_keys, value_rank, consensus, agrees,
        contradicts, better_disagreeing, is_other_anchor
    ),
    support_sources,
    support_articles,
    value_rank,
    case
        when value_rank = 1 then 1
        when is_other_anchor then 1 + int(count_if(is_other_anchor) over (
            partition by {{ key }}
            order by value_rank
            rows between unbounded preceding and current row
        ))
    end as group_rank,
    consensus.claim_id as consensus_claim_id,
    agrees
from anchored
{%- endmacro %}
