{{ config(after_synonyms=true) }}
-- depends_on: {{ ref('int_stories_touched') }}
-- depends_on: {{ ref('int_measures_merged') }}
-- One row per pair of incompatible value groups of a fact whose anchors are two sources'. A side lists the articles and
-- attributions of claims that agree with its value and not with the other side's; claims that
-- fit both ("mid-May" against May 20 and May 21) take no side. matched_parts names the frame
-- parts both sides' anchor claims state alike (the same key), match_confidence their share of
-- the parts either states: how sure it is that the two values are of one quantity.
with claims as (
    select * from {{ ref('int_claims_reconciled') }} {{ story_filter(is_incremental(), after_synonyms=true) }}
),

anchors as (
    select * from claims where group_rank is not null
),

sides as (
    select
        side_a.fact_id,
        side_a.story_id,
        side_a.fact_measure_key as measure_key,
        side_a.value_text as value_a,
        side_b.value_text as value_b,
        side_a.kind,
        claims.claim_id,
        claims.article_id,
        coalesce(claims.attribution, concat('unattributed (', claims.source_key, ')'))
            as attribution,
        {{ intervals_overlap('claims', 'side_a') }} as on_a,
        {{ intervals_overlap('claims', 'side_b') }} as on_b,
        filter(
            array(
                {%- for part in ['subject', 'property', 'event', 'scope'] %}
                case when side_a.{{ part }}_key = side_b.{{ part }}_key then '{{ part }}' end,
                {%- endfor %}
                case when side_a.role = side_b.role then 'role' end
            ),
            part -> part is not null
        ) as matched_parts,
        {%- for part in ['subject', 'property', 'event', 'scope'] %}
        int(side_a.{{ part }}_key is not null or side_b.{{ part }}_key is not null)
        {%- if not loop.last %} +{% endif %}
        {%- endfor %}
            + int(side_a.role is not null or side_b.role is not null) as stated_parts
    from anchors as side_a
    inner join anchors as side_b
        on side_a.fact_id = side_b.fact_id and side_a.group_rank < side_b.group_rank
        -- between sources: one article's two values contradict no one
        and side_a.source_key <> side_b.source_key
    inner join claims
        on side_a.fact_id = claims.fact_id and claims.is_informative
),

conflicts as (
    select
        substr(sha2(concat_ws('|', fact_id, value_a, value_b), 256), 1, 16) as conflict_id,
        fact_id,
        story_id,
        measure_key,
        value_a,
        value_b,
        {{ readable_value('value_a', 'kind') }} as value_a_readable,
        {{ readable_value('value_b', 'kind') }} as value_b_readable,
        array_sort(collect_set(case when on_a and not on_b then article_id end)) as articles_a,
        array_sort(collect_set(case when on_b and not on_a then article_id end)) as articles_b,
        array_sort(collect_set(case when on_a and not on_b then attribution end))
            as attributions_a,
        array_sort(collect_set(case when on_b and not on_a then attribution end))
            as attributions_b,
        array_sort(collect_set(case when on_a and not on_b then claim_id end)) as claims_a,
        array_sort(collect_set(case when on_b and not on_a then claim_id end)) as claims_b,
        first(matched_parts) as matched_parts,
        round(first(size(matched_parts) / greatest(stated_parts, 1)), 3) as match_confidence
    from sides
    group by fact_id, story_id, measure_key, value_a, value_b, kind
)

select * from conflicts
