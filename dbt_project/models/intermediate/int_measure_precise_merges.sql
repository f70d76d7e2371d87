-- Articles name one quantity in different words ("homes" / "structures", "a penalty" / "fines",
-- the date of "the operation" / "the raid"), so the extractor gives them different measure_keys.
-- Within a story, measure B joins measure A when both have the same kind, per and part-of-a-whole
-- flag, A ranks better (more articles, then the smaller key), their consensus values agree and
-- neither is a vague amount ("thousands" fits too many quantities to name one), and no article
-- states disagreeing values under both (an article that gives 540 teachers and 4 schools is
-- telling two quantities apart). A joins nothing itself (no chains: 1,090 fits "about 1,000",
-- which fits 1,000, but 1,090 does not), and B does not join beside a better-ranked member that
-- an article tells apart from B. One row per measure: its consensus interval (open bounds
-- closed), its rank in its partition (null for a vague consensus) and the fact it joins here;
-- int_measure_merges goes on with learned synonyms and vague measures.

with claims as (
    select * from {{ ref('int_measures_reconciled') }}
),

measures as (
    select
        measure_id,
        story_id,
        kind,
        coalesce(per, '') as per_key,
        measure_key,
        measure_key like '%/subset%' as is_subset,
        count(distinct article_id) as article_count
    from claims
    group by measure_id, story_id, kind, coalesce(per, ''), measure_key
),

-- An open bound compares as at most 1.5 times its value: writers round down to a nearby figure
-- ("more than 300" beside 370), not to one a hundred times smaller; an upper bound likewise as
-- at least its value over 1.5 ("as many as 64 people" is not 4 deaths).
consensus_any as (
    select
        measure_id,
        kind,
        year_known,
        qualifier = 'vague' as is_vague,
        case
            when kind <> 'date' and qualifier = 'up_to' and hi > 0
                then hi / {{ var('open_bound_factor') }}
            else lo
        end as lo,
        case
            when kind = 'date' or hi < double('Infinity') then hi
            else greatest(lo, 0d) * {{ var('open_bound_factor') }}
        end as hi,
        md_lo,
        md_hi
    from claims
    where group_rank = 1
),

consensus as (
    select * from consensus_any where not is_vague
),

ranked as (
    select
        measures.*,
        consensus.year_known,
        consensus.lo,
        consensus.hi,
        consensus.md_lo,
        consensus.md_hi,
        row_number() over (
            partition by measures.story_id, measures.kind, measures.per_key, measures.is_subset
            order by measures.article_count desc, measures.measure_key, measures.measure_id
        ) as measure_rank
    from measures
    inner join consensus on measures.measure_id = consensus.measure_id
),

told_apart as (
    {{ measures_told_apart('claims') }}
),

candidates as (
    select a.measure_id, b.measure_id as into_id, b.measure_rank as into_rank
    from ranked as a
    inner join ranked as b
        on {{ same_measure_partition('a', 'b') }}
        and b.measure_rank < a.measure_rank
        and {{ intervals_overlap('a', 'b') }}
    left anti join told_apart
        on told_apart.measure_a = a.measure_id and told_apart.measure_b = b.measure_id
),

-- Targets that join nothing themselves.
root_candidates as (
    select candidates.*
    from candidates
    left anti join (select distinct measure_id from candidates) as joining
        on candidates.into_id = joining.measure_id
),

first_choice as (
    select measure_id, min_by(into_id, into_rank) as into_id
    from root_candidates
    group by measure_id
),

members as (
    select first_choice.*, ranked.measure_rank
    from first_choice
    inner join ranked on first_choice.measure_id = ranked.measure_id
),

beside_a_rival as (
    select distinct a.measure_id
    from members as a
    inner join members as c
        on a.into_id = c.into_id and c.measure_rank < a.measure_rank
    inner join told_apart
        on told_apart.measure_a = a.measure_id and told_apart.measure_b = c.measure_id
),

precise_merged as (
    select
        measures.measure_id,
        coalesce(kept.into_id, measures.measure_id) as fact_id
    from measures
    left join (
        select members.measure_id, members.into_id
        from members
        left anti join beside_a_rival on members.measure_id = beside_a_rival.measure_id
    ) as kept on measures.measure_id = kept.measure_id
)

select
    measures.measure_id,
    measures.story_id,
    measures.kind,
    measures.per_key,
    measures.is_subset,
    measures.measure_key,
    measures.article_count,
    ranked.measure_rank,
    consensus_any.is_vague,
    consensus_any.year_known,
    consensus_any.lo,
    consensus_any.hi,
    consensus_any.md_lo,
    consensus_any.md_hi,
    precise_merged.fact_id
from measures
inner join precise_merged on measures.measure_id = precise_merged.measure_id
left join ranked on measures.measure_id = ranked.measure_id
left join consensus_any on measures.measure_id = consensus_any.measure_id
