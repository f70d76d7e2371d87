-- depends_on: {{ ref('int_stories_touched') }}
-- Each claim as an interval on its measure's axis, with the independent source it counts as.
-- A measure is one measure_key of one story and one frame group: claims of different stories
-- never reconcile together, nor claims whose frames name different subjects or scopes.
-- int_measures_merged then joins measures that name one quantity differently. Claims of the var
-- unreconciled_measures (durations and ages that name nothing) are left out: they make no fact.
-- Frame groups: within (story, kind, measure_key, axis), a claim whose subject (scope) is
-- unstated takes the one subject (scope) its measure's claims state. A claim whose frame cannot
-- tell a differing value from another quantity (not definite, or its subject or scope unstated
-- where the measure's claims state one) joins them only where its value agrees with a definite
-- claim's (a date with no day at all joins them); otherwise its value (value_split) sets it
-- apart, so it corroborates and never conflicts. A claim of the var solitary_measures (a date naming no event, a count naming
-- no noun) is a measure of its own.
with claims as (
    select * from {{ ref('stg_silver__claims') }}
    {%- if var('unreconciled_measures') %}
    where measure_key not in ('{{ var("unreconciled_measures") | join("', '") }}')
    {%- endif %}
),

stories as (
    select * from {{ ref('stg_silver__article_stories') }}
),

with_story as (
    select
        claims.*,
        -- An article not grouped yet (no stories row) is a story of its own.
        coalesce(stories.story_id, claims.article_id) as story_id
    from claims
    left join stories on claims.article_id = stories.article_id
    {{ story_filter(is_incremental(), column='coalesce(stories.story_id, claims.article_id)') }}
),

intervals as (
    select
        *,
        -- "--05-20" states no year; such a date compares with others by month and day only.
        kind = 'date' and date_start is not null and date_start not like '--%' as year_known,
        case
            when kind = 'date' then datediff(to_date(date_start), date'1970-01-01')
            -- up to N = [0, N] (or down to N when N is negative)
            else coalesce(value_lower, case when value_upper is not null then least(0d, value_upper) end)
        end as lo,
        case
            when kind = 'date' then datediff(to_date(date_end), date'1970-01-01')
            -- at least / more than N = [N, infinity)
            else coalesce(value_upper, case when value_lower is not null then double('Infinity') end)
        end as hi,
        case when kind = 'date' then dayofyear(to_date(concat('2000-', right(date_start, 5)))) end as md_lo,
        case when kind = 'date' then dayofyear(to_date(concat('2000-', right(date_end, 5)))) end as md_hi,
        -- Articles crediting the same outlet, or an outlet and that outlet's own article, are
        -- one source; otherwise each article is its own source.
        coalesce(
            regexp_replace(lower(trim(coalesce(cited_outlet, reporting_outlet))), '^the +', ''),
            concat('article:', article_id)
        ) as source_key
    from with_story
),

graded as (
    select
        *,
        {{ measure_axis('kind', 'per', 'unit') }} as axis,
        -- Informative: the claim bounds its value ("last week" with no publication date does not).
        case when kind = 'date' then md_lo is not null else lo is not null and hi is not null end
            as is_informative,
        case when kind = 'date' then md_hi - md_lo else hi - lo end as width
    from intervals
),

framed as (
    select
        *,
        collect_set(subject_key) over by_measure as measure_subjects,
        collect_set(scope_key) over by_measure as measure_scopes,
        -- two values of one measure in one sentence are two sides ("49 percent to 44
        -- percent", "tonight or tomorrow"), never one quantity told two ways
        size(collect_set({{ value_signature() }}) over (
            partition by story_id, kind, measure_key, axis, article_id, sentence_index
        )) > 1 as is_a_side
    from graded
    window by_measure as (partition by story_id, kind, measure_key, axis)
),

grouped as (
    select
        * except (measure_subjects, measure_scopes, is_a_side),
        coalesce(subject_key, case when size(measure_subjects) = 1 then measure_subjects[0] end, '')
            as subject_group,
        coalesce(scope_key, case when size(measure_scopes) = 1 then measure_scopes[0] end, '')
            as scope_group,
        -- A claim that takes its measure's subject (or time: "last year", "in 2019") rather
        -- than stating it may corroborate, never contradict; a place, which outlets often
        -- leave out, does not count against it.
        frame_definite
            and not is_a_side
            and (subject_key is not null or size(measure_subjects) = 0)
            and (
                scope_key is not null
                or not exists(measure_scopes, scope -> scope rlike '^[0-9]{4}')
            ) as is_definite
    from framed
),

with_definite_peers as (
    select
        *,
        collect_list(
            case when is_definite and is_informative then struct({{ interval_fields() }}) end
        ) over (partition by story_id, kind, measure_key, axis, subject_group, scope_group)
            as definite_peers
    from grouped
),

split as (
    select
        * except (definite_peers, value_split),
        concat_ws('|', subject_group, scope_group, value_split) as frame_group
    from (
        select
            *,
            case
                when measure_key in ('{{ var("solitary_measures") | join("', '") }}') then claim_id
                -- when a source spoke, only with who: "he said Tuesday" is a fact of its own
                when measure_key in ('{{ var("named_only_measures") | join("', '") }}')
                    and subject_key is null then claim_id
                -- a date with no day ("last week", no publication date) cannot disagree
                when is_definite
                    or kind = 'date' and not is_informative
                    or is_informative
                    and exists(definite_peers, peer -> {{ intervals_overlap('with_definite_peers', 'peer') }})
                    then ''
                else {{ value_signature() }}
            end as value_split
        from with_definite_peers
    )
),

-- Claims of one measure_key an order of magnitude apart count different things ("6,400 ballots
-- were rejected", "2 million ballots were cast"): outlets disagree about a figure, not by a
-- factor of ten. Sorted by value, a claim whose lower bound is more than var magnitude_gap
-- times the highest value below it starts a new band; each band is a measure of its own. Clock
-- times (minutes after midnight) have no magnitudes: 00:30 and 09:00 are one axis.
spans as (
    select
        *,
        -- An open bound ("at least 5") caps nothing: no claim above it starts a band.
        max(case when kind not in ('date', 'time') and is_informative then hi end) over (
            partition by story_id, kind, measure_key, axis, frame_group
            order by lo, hi, claim_id
            rows between unbounded preceding and 1 preceding
        ) as top_below
    from split
),

banded as (
    select
        *,
        sum(
            case
                when kind not in ('date', 'time') and is_informative and top_below > 0
                    and lo > {{ var('magnitude_gap') }} * top_below then 1
                else 0
            end
        ) over (
            partition by story_id, kind, measure_key, axis, frame_group
            order by lo, hi, claim_id
            rows between unbounded preceding and current row
        ) as magnitude_band
    from spans
)

select
    *,
    -- Band 0 and an empty frame group keep the id a measure had before either existed.
    substr(
        sha2(
            concat_ws(
                '|', story_id, kind, measure_key, axis,
                case when frame_group <> '||' then frame_group end,
                case when magnitude_band > 0 then cast(magnitude_band as string) end
            ),
            256
        ),
        1,
        16
    ) as measure_id,
    -- Consensus prefers a stated value (tier 0) to stated bounds (tier 1: "at least 2,000", a
    -- range "2,000 to 2,100"), and bounds to a vague amount (tier 2): "at least 2,023 people"
    -- says more than "thousands of people".
    case
        when not is_informative then null
        when qualifier in ('exact', 'approximate', 'almost') then 0
        when qualifier = 'vague' then 2
        else 1
    end as precision_tier
from banded
