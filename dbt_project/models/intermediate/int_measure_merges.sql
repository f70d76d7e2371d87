-- Facts of measures after int_measure_precise_merges. Measure keys whose measures merged there
-- (values agreeing) in more than half the stories where both appear, and in at least
-- `synonym_min_stories`, are synonyms learned from the corpus ("fines" / "penalty"): a fact's root
-- whose key is a synonym of exactly one better-ranked root's in its story joins it though their
-- values disagree (it is that fact's minority, a conflict), unless an article tells them apart; a
-- root that joins another takes nothing in (no chains). A vague measure ("thousands of people",
-- "early March") then joins the one fact of its story, kind, per and part-of flag whose consensus
-- it fits, when exactly one does and no article tells them apart (of several, the one a synonym
-- names). A fact keeps the id and measure_key of the measure it is merged into.

with measures as (
    select * from {{ ref('int_measure_precise_merges') }}
),

claims as (
    select * from {{ ref('int_measures_reconciled') }}
),

told_apart as (
    {{ measures_told_apart('claims') }}
),

ranked as (
    select * from measures where measure_rank is not null
),

precise_roots as (
    select * from ranked where fact_id = measure_id
),

partition_keys as (
    select distinct story_id, kind, per_key, is_subset, measure_key from ranked
),

-- Stories where both keys of a pair have a measure with a precise consensus.
pairs_present as (
    select a.kind, a.per_key, a.measure_key as key_a, b.measure_key as key_b, count(*) as stories
    from partition_keys as a
    inner join partition_keys as b
        on {{ same_measure_partition('a', 'b') }} and a.measure_key < b.measure_key
    group by a.kind, a.per_key, a.measure_key, b.measure_key
),

-- Stories where a measure of one key merged into a measure of the other.
pairs_merged as (
    select kind, per_key, key_a, key_b, count(distinct story_id) as stories
    from (
        select
            member.story_id,
            member.kind,
            member.per_key,
            least(member.measure_key, root.measure_key) as key_a,
            greatest(member.measure_key, root.measure_key) as key_b
        from ranked as member
        inner join ranked as root
            on member.fact_id = root.measure_id and member.fact_id <> member.measure_id
        where member.measure_key <> root.measure_key
    )
    group by kind, per_key, key_a, key_b
),

synonyms as (
    select pairs_merged.kind, pairs_merged.per_key, pairs_merged.key_a, pairs_merged.key_b
    from pairs_merged
    inner join pairs_present
        on pairs_merged.kind = pairs_present.kind
        and pairs_merged.per_key = pairs_present.per_key
        and pairs_merged.key_a = pairs_present.key_a
        and pairs_merged.key_b = pairs_present.key_b
    where pairs_merged.stories >= {{ var('synonym_min_stories') }}
        and 2 * pairs_merged.stories > pairs_present.stories
),

synonym_choices as (
    select b.measure_id, min(a.measure_id) as into_id
    from precise_roots as b
    inner join precise_roots as a
        on {{ same_measure_partition('a', 'b') }} and a.measure_rank < b.measure_rank
    inner join synonyms
        on synonyms.kind = b.kind
        and synonyms.per_key = b.per_key
        and synonyms.key_a = least(a.measure_key, b.measure_key)
        and synonyms.key_b = greatest(a.measure_key, b.measure_key)
    left anti join told_apart
        on told_apart.measure_a = b.measure_id and told_apart.measure_b = a.measure_id
    group by b.measure_id
    having count(*) = 1
),

-- No chains: a root that joins another takes nothing in.
synonym_into as (
    select synonym_choices.*
    from synonym_choices
    left anti join synonym_choices as joining on synonym_choices.into_id = joining.measure_id
),

roots as (
    select precise_roots.*
    from precise_roots
    left anti join synonym_into on precise_roots.measure_id = synonym_into.measure_id
),

vague_fits as (
    select a.measure_id, b.measure_id as into_id, synonyms.key_a is not null as is_synonym
    from measures as a
    inner join roots as b
        on {{ same_measure_partition('a', 'b') }}
        and {{ intervals_overlap('a', 'b') }}
    left join synonyms
        on synonyms.kind = a.kind
        and synonyms.per_key = a.per_key
        and synonyms.key_a = least(a.measure_key, b.measure_key)
        and synonyms.key_b = greatest(a.measure_key, b.measure_key)
    left anti join told_apart
        on told_apart.measure_a = a.measure_id and told_apart.measure_b = b.measure_id
    where a.is_vague
),

-- The one fact a vague measure fits; of several, the one whose key is a learned synonym of its
-- own ("hundreds of personnel" beside 290 firefighters and 260 homes), when exactly one is.
vague_into as (
    select
        measure_id,
        case when count(*) = 1 then min(into_id) else min(case when is_synonym then into_id end) end
            as into_id
    from vague_fits
    group by measure_id
    having count(*) = 1 or count_if(is_synonym) = 1
),

merged as (
    select
        measures.measure_id,
        coalesce(vague_into.into_id, synonym_into.into_id, measures.fact_id) as fact_id
    from measures
    left join synonym_into on measures.fact_id = synonym_into.measure_id
    left join vague_into on measures.measure_id = vague_into.measure_id
)

select
    merged.measure_id,
    merged.fact_id,
    measures.measure_key,
    into_measure.measure_key as fact_measure_key
from merged
inner join measures on merged.measure_id = measures.measure_id
inner join measures as into_measure on merged.fact_id = into_measure.measure_id
