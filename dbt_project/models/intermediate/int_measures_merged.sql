{{ config(incremental_strategy='merge_stories', unique_key='measure_id') }}
-- depends_on: {{ ref('int_stories_touched') }}
-- Facts of measures after int_measures_merged_precisely. Measure keys whose measures merged there
-- (values agreeing) in more than half the stories where both appear, and in at least
-- `synonym_min_stories`, are synonyms learned from the corpus ("fines" / "penalty"): a fact's root
-- whose key is a synonym of exactly one better-ranked root's in its story joins it though their
-- values disagree (it is that fact's minority, a conflict), unless an article tells them apart; a
-- root that joins another takes nothing in (no chains). A vague measure ("thousands of people",
-- "early March") then joins the one fact of its story, kind, per and part-of flag whose consensus
-- it fits (a vague date: of its own event, stating its span), when exactly one does and no
-- article tells them apart (of several, the one a synonym names); vague dates of one event key
-- and span that fit no fact join each other (vague_dates below). A fact keeps the id and
-- measure_key of the measure it is merged into.
-- Synonyms are learned across stories (joins); each story's merging is a window over the
-- measure's partition (Spark plans a CTE again at every mention; benchmarks/HISTORY.md).
-- Built per story (macros/stories.sql): synonyms are learned from every story's measures, and a
-- story is rebuilt when it changed or when one of its measures' synonym_keys did.

with measures as (
    select * from {{ ref('int_measures_merged_precisely') }}
),

ranked as (
    select * from measures where measure_rank is not null
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

-- Each key's learned synonyms, both ways.
key_synonyms as (
    select kind, per_key, pair.key, collect_set(pair.synonym) as synonym_keys
    from (
        select
            kind,
            per_key,
            explode(array(
                named_struct('key', key_a, 'synonym', key_b),
                named_struct('key', key_b, 'synonym', key_a)
            )) as pair
        from synonyms
    )
    group by kind, per_key, pair.key
),

with_synonyms as (
    select
        measures.*,
        array_sort(coalesce(key_synonyms.synonym_keys, array())) as synonym_keys
    from measures
    left join key_synonyms
        on measures.kind = key_synonyms.kind
        and measures.per_key = key_synonyms.per_key
        and measures.measure_key = key_synonyms.key
),

{% if is_incremental() and build_var('since') -%}
-- The stories this build rebuilds: the touched ones, and those where a measure's synonyms
-- changed (a measure new here has none before).
in_scope as (
    select story_id from {{ ref('int_stories_touched') }}
    union
    select with_synonyms.story_id
    from with_synonyms
    left join {{ this }} as built on with_synonyms.measure_id = built.measure_id
    where not (with_synonyms.synonym_keys <=> built.synonym_keys)
),

scoped as (
    select * from with_synonyms where story_id in (select story_id from in_scope)
),

claims as (
    select * from {{ ref('int_claims_bounded') }}
    where story_id in (select story_id from in_scope)
),
{%- else -%}
scoped as (
    select * from with_synonyms
),

claims as (
    select * from {{ ref('int_claims_bounded') }}
),
{%- endif %}

told_apart as (
    {{ measures_told_apart('claims') }}
),

described as (
    select
        scoped.*,
        scoped.measure_rank is not null and scoped.fact_id = scoped.measure_id
            as is_precise_root,
        coalesce(told_apart.told_apart_from, array()) as told_apart_from
    from scoped
    left join told_apart on scoped.measure_id = told_apart.measure_id
),

-- A precise root joins the one better-ranked root of its partition whose key is a synonym.
synonym_choices as (
    select
        *,
        case when is_precise_root then filter(
            roots_in_partition,
            root -> root.measure_rank < with_roots.measure_rank
                and array_contains(with_roots.synonym_keys, root.measure_key)
                and not array_contains(with_roots.told_apart_from, root.measure_id)
        ) end as synonym_targets
    from (
        select
            *,
            collect_list(
                case when is_precise_root then struct(measure_id, measure_rank, measure_key) end
            ) over ({{ measure_partition() }}) as roots_in_partition
        from described
    ) as with_roots
),

chosen as (
    select
        *,
        case when size(synonym_targets) = 1 then synonym_targets[0].measure_id end as synonym_choice
    from synonym_choices
),

-- No chains: a root that joins another takes nothing in.
synonym_into as (
    select
        *,
        case
            when not array_contains(
                collect_list(case when synonym_choice is not null then measure_id end)
                    over ({{ measure_partition() }}),
                synonym_choice
            ) then synonym_choice
        end as synonym_into_id
    from chosen
),

roots as (
    select
        *,
        collect_list(
            case
                when is_precise_root and synonym_into_id is null
                    then struct(measure_id, measure_key, {{ interval_fields() }})
            end
        ) over ({{ measure_partition() }}) as roots_in_partition_after_synonyms,
        collect_list(
            case when synonym_into_id is not null then struct(measure_id, synonym_into_id) end
        ) over ({{ measure_partition() }}) as synonym_redirects,
        collect_list(struct(measure_id, measure_key)) over ({{ measure_partition() }})
            as keys_in_partition
    from synonym_into
),

-- The one fact a vague measure fits; of several, the one whose key is a learned synonym of its
-- own ("hundreds of personnel" beside 290 firefighters and 260 homes), when exactly one is.
vague_fits as (
    select
        *,
        case when is_vague then filter(
            roots_in_partition_after_synonyms,
            root -> {{ intervals_overlap('roots', 'root') }}
                and not array_contains(roots.told_apart_from, root.measure_id)
                -- "this week" fits every day of the week's events: a vague date joins its
                -- own event's fact only, and only where it states that fact's span ("this
                -- week" is no day of it; nor is "earlier this year")
                and (roots.kind not in ('date', 'time') or root.measure_key = roots.measure_key)
                and (roots.kind <> 'date' or {{ same_span('roots', 'root') }})
        ) end as fits
    from roots
),

vague_into as (
    select
        *,
        case
            when size(fits) = 1 then fits[0].measure_id
            when size(filter(fits, fit -> array_contains(synonym_keys, fit.measure_key))) = 1
                then filter(fits, fit -> array_contains(synonym_keys, fit.measure_key))[0].measure_id
        end as vague_into_id
    from vague_fits
),

-- Vague dates of one event that fit no fact ("2016" of Trump's campaign in two outlets, one
-- naming whose): the measures of one key and span join the best-ranked of them (more articles,
-- then the smaller id) when their frames name at most one subject and one scope (an unnamed
-- "2016 campaign" beside Trump's and Clinton's is neither's), each unless an article tells it
-- apart from that one. Not a day a source spoke (var named_only_measures) nor a date naming no
-- event (solitary_measures).
vague_dates as (
    select
        *,
        collect_list(
            case
                when {{ is_vague_date_of_an_event() }} then struct(
                    measure_id, measure_key, article_count, subject_group, scope_group,
                    {{ interval_fields() }}
                )
            end
        ) over ({{ measure_partition() }}) as vague_dates_in_partition
    from vague_into
),

vague_date_groups as (
    select
        *,
        case when {{ is_vague_date_of_an_event() }} then filter(
            vague_dates_in_partition,
            other -> other.measure_key = vague_dates.measure_key
                and {{ same_span('vague_dates', 'other') }}
        ) end as vague_date_group
    from vague_dates
),

vague_date_into as (
    select
        *,
        case
            when size(array_distinct(filter(vague_date_group.subject_group, g -> g <> ''))) <= 1
                and size(array_distinct(filter(vague_date_group.scope_group, g -> g <> ''))) <= 1
                then array_min(
                    transform(
                        vague_date_group,
                        other -> named_struct(
                            'rank', -other.article_count, 'measure_id', other.measure_id
                        )
                    )
                ).measure_id
        end as vague_date_root_id
    from vague_date_groups
),

vague_date_joined as (
    select
        *,
        case
            when vague_date_root_id <> measure_id
                and not array_contains(told_apart_from, vague_date_root_id)
                then vague_date_root_id
        end as vague_date_into_id
    from vague_date_into
),

merged as (
    select
        *,
        coalesce(
            vague_into_id,
            vague_date_into_id,
            try_element_at(filter(synonym_redirects, redirect -> redirect.measure_id = vague_date_joined.fact_id), 1)
                .synonym_into_id,
            fact_id
        ) as merged_fact_id
    from vague_date_joined
)

select
    measure_id,
    story_id,
    merged_fact_id as fact_id,
    measure_key,
    try_element_at(filter(keys_in_partition, m -> m.measure_id = merged.merged_fact_id), 1).measure_key
        as fact_measure_key,
    synonym_keys,
    '{{ build_id() }}' as built_by
from merged
