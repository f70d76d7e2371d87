-- depends_on: {{ ref('int_stories_touched') }}
-- Articles name one quantity in different words ("homes" / "structures", "a penalty" / "fines",
-- the date of "the operation" / "the raid"), so the extractor gives them different measure_keys.
-- Within a story, measure B joins measure A when both have the same kind, per and part-of-a-whole
-- flag, A ranks better (more articles, then the smaller key), their consensus values agree and
-- neither is a vague amount ("thousands" fits too many quantities to name one), their frames are
-- compatible (frames_compatible), and no article states disagreeing values under both (an article that gives 540 teachers and 4 schools is
-- telling two quantities apart). A joins nothing itself (no chains: 1,090 fits "about 1,000",
-- which fits 1,000, but 1,090 does not), and B does not join beside a better-ranked member that
-- an article tells apart from B. One row per measure: its consensus interval (open bounds
-- closed), its rank in its partition (null for a vague consensus) and the fact it joins here;
-- int_measures_merged goes on with learned synonyms and vague measures.
-- Each step is a window over the measure's partition: Spark plans a CTE again at every mention,
-- so self-joins of CTEs mentioned later multiplied this model's plan (benchmarks/HISTORY.md).

{% set bounded %}(select * from {{ ref('int_claims_bounded') }} {{ story_filter(is_incremental()) }}){% endset -%}

-- Each measure's claims reconciled (reconcile_claims): its consensus. A CTE, not a model of its
-- own, whose table would cost each build a Delta write (benchmarks/HISTORY.md, 2026-12-07).
with claims as (
    {{ reconcile_claims(bounded, 'measure_id') }}
),

-- From the claims, not from `claims`: Spark would plan that CTE again here.
told_apart as (
    {{ measures_told_apart(bounded) }}
),

measures as (
    select
        measure_id,
        story_id,
        kind,
        {{ measure_axis('kind', 'per', 'unit') }} as per_key,
        measure_key,
        measure_key like '%/subset%' as is_subset,
        -- one frame group per measure (int_claims_bounded)
        coalesce(max(subject_group), '') as subject_group,
        coalesce(max(scope_group), '') as scope_group,
        count(distinct article_id) as article_count,
        -- One consensus claim (group 1) per measure that has an informative claim.
        max(case when group_rank = 1 then struct(qualifier, year_known, lo, hi, md_lo, md_hi) end)
            as consensus
    from claims
    group by measure_id, story_id, kind, {{ measure_axis('kind', 'per', 'unit') }}, measure_key
),

-- An open bound compares as at most 1.5 times its value: writers round down to a nearby figure
-- ("more than 300" beside 370), not to one a hundred times smaller; an upper bound likewise as
-- at least its value over 1.5 ("as many as 64 people" is not 4 deaths). Not clock times: 1.5
-- times 10 p.m. is no time of day ("after 10 p.m." stays open, up to midnight).
closed as (
    select
        measures.measure_id,
        measures.story_id,
        measures.kind,
        measures.per_key,
        measures.measure_key,
        measures.is_subset,
        measures.subject_group,
        measures.scope_group,
        measures.article_count,
        consensus.qualifier = 'vague' as is_vague,
        consensus.year_known,
        case
            when kind not in ('date', 'time') and consensus.qualifier = 'up_to' and consensus.hi > 0
                then consensus.hi / {{ var('open_bound_factor') }}
            else consensus.lo
        end as lo,
        case
            when kind in ('date', 'time') or consensus.hi < double('Infinity') then consensus.hi
            else greatest(consensus.lo, 0d) * {{ var('open_bound_factor') }}
        end as hi,
        consensus.md_lo,
        consensus.md_hi,
        coalesce(told_apart.told_apart_from, array()) as told_apart_from
    from measures
    left join told_apart on measures.measure_id = told_apart.measure_id
),

-- Measures with a precise consensus first, so their ranks are 1..n.
ranked as (
    select
        *,
        case when not is_vague then row_number() over (
            {{ measure_partition() }}
            order by not is_vague desc, article_count desc, measure_key, measure_id
        ) end as measure_rank
    from closed
),

-- Better-ranked measures this one's value fits, unless an article tells them apart.
candidates as (
    select
        *,
        case when measure_rank is not null then filter(
            ranked_in_partition,
            target -> target.measure_rank < ranked_with_peers.measure_rank
                and {{ intervals_overlap('ranked_with_peers', 'target') }}
                and {{ frames_compatible('ranked_with_peers', 'target') }}
                -- a small number names no quantity by itself: "two" turkeys, "two" daughters;
                -- "two police officers" and "two U.S. Capitol Police officers" name one
                and (
                    {{ nested_keys('target.measure_key', 'ranked_with_peers.measure_key') }}
                    or ranked_with_peers.kind not in ('count', 'rate')
                    or greatest(abs(ranked_with_peers.lo), abs(ranked_with_peers.hi))
                        >= {{ var('small_count') }}
                )
                and not array_contains(ranked_with_peers.told_apart_from, target.measure_id)
        ) end as targets
    from (
        select
            *,
            collect_list(
                case when measure_rank is not null then struct(
                    measure_id, measure_rank, measure_key, subject_group, scope_group,
                    {{ interval_fields() }}
                ) end
            ) over ({{ measure_partition() }}) as ranked_in_partition
        from ranked
    ) as ranked_with_peers
),

joining as (
    select
        *,
        collect_list(case when size(targets) > 0 then measure_id end)
            over ({{ measure_partition() }}) as joining_ids
    from candidates
),

-- Of the targets that join nothing themselves, the best-ranked.
first_choice as (
    select
        *,
        array_min(
            transform(
                filter(targets, target -> not array_contains(joining_ids, target.measure_id)),
                target -> named_struct('rank', target.measure_rank, 'measure_id', target.measure_id)
            )
        ).measure_id as into_id
    from joining
),

members as (
    select
        *,
        collect_list(
            case when into_id is not null then struct(measure_id, measure_rank, into_id) end
        ) over ({{ measure_partition() }}) as members_in_partition
    from first_choice
),

beside_a_rival as (
    select
        *,
        exists(
            members_in_partition,
            rival -> rival.into_id = members.into_id
                and rival.measure_rank < members.measure_rank
                and array_contains(members.told_apart_from, rival.measure_id)
        ) as is_beside_a_rival
    from members
)

select
    measure_id,
    story_id,
    kind,
    per_key,
    is_subset,
    measure_key,
    subject_group,
    scope_group,
    article_count,
    measure_rank,
    is_vague,
    year_known,
    lo,
    hi,
    md_lo,
    md_hi,
    case when into_id is not null and not is_beside_a_rival then into_id else measure_id end
        as fact_id
from beside_a_rival
