{#- The axis a claim's value lies on, beyond its kind and measure_key: what it is per ("per
    day"), and for money its currency (the claim's unit; '' when the article names none). Claims
    on different axes never reconcile or merge: "$20 million" and "€20 million" are two amounts,
    neither corroborating nor contradicting the other (var unit_axis_kinds, from
    lake.silver.kinds: money's). For every kind but money it is per alone,
    so measure ids stay what they were before currencies split money. -#}
{% macro measure_axis(kind, per, unit) -%}
    concat_ws('|', coalesce({{ per }}, ''), case when {{ kind }} in ('{{ var('unit_axis_kinds') | join("', '") }}') then coalesce({{ unit }}, '') end)
{%- endmacro %}

{#- Measures a and b may merge only within one story, kind, axis (measure_axis: per, and
    currency for money) and part-of-a-whole flag. -#}
{% macro same_measure_partition(a, b) -%}
    {{ a }}.story_id = {{ b }}.story_id and {{ a }}.kind = {{ b }}.kind
        and {{ a }}.per_key = {{ b }}.per_key and {{ a }}.is_subset = {{ b }}.is_subset
{%- endmacro %}

{#- Measures a and b may be one quantity: their frames' subjects and scopes agree where both
    state one ('' : none stated); and dates only when they state one span exactly (one week
    holds many events' days). -#}
{% macro frames_compatible(a, b) -%}
    ({{ a }}.subject_group = '' or {{ b }}.subject_group = '' or {{ a }}.subject_group = {{ b }}.subject_group)
        and ({{ a }}.scope_group = '' or {{ b }}.scope_group = '' or {{ a }}.scope_group = {{ b }}.scope_group)
        and ({{ a }}.kind not in ('date', 'time') or {{ same_span(a, b) }})
{%- endmacro %}

{#- Dates a and b state one span exactly: the same days, or with a year missing on either side
    the same month and day. -#}
{% macro same_span(a, b) -%}
    case
        when {{ a }}.year_known and {{ b }}.year_known
            then {{ a }}.lo = {{ b }}.lo and {{ a }}.hi = {{ b }}.hi
        else {{ a }}.md_lo = {{ b }}.md_lo and {{ a }}.md_hi = {{ b }}.md_hi
    end
{%- endmacro %}

{#- Measure keys a and b name one noun, one of them with more modifiers than the other ("police
    officers" and "u.s. capitol police officers"): the same last word, and one's words all among
    the other's. Equal keys nest, but for a key that names nothing (var solitary_measures:
    "unknown"), which nests in no key. -#}
{% macro nested_keys(a, b) -%}
    ({{ a }} not in ('{{ var("solitary_measures") | join("', '") }}')
        and {{ b }} not in ('{{ var("solitary_measures") | join("', '") }}')
        and element_at(split({{ a }}, ' '), -1) = element_at(split({{ b }}, ' '), -1)
        and (size(array_except(split({{ a }}, ' '), split({{ b }}, ' '))) = 0
            or size(array_except(split({{ b }}, ' '), split({{ a }}, ' '))) = 0))
{%- endmacro %}

{#- The window of one measure partition (same_measure_partition), for lists of its measures. -#}
{% macro measure_partition() -%}
    partition by story_id, kind, per_key, is_subset
{%- endmacro %}

{#- One row per measure that some article tells apart from others: it states values under both
    that do not overlap ("540 teachers and 4 schools"), or names them apart: dates under both
    (one day can be two events'), unless one named actor's (one day's accusing and renewing
    by "Trump" is his one act, told twice), or figures under both in one sentence ("25 field
    office directors and 25 special agents"). told_apart_from lists those measures. claims: rows
    of int_claims_bounded. A window over each article, not a self-join. -#}
{% macro measures_told_apart(claims) -%}
    select measure_id, array_distinct(flatten(collect_list(told_apart_from))) as told_apart_from
    from (
        select
            measure_id,
            transform(
                filter(
                    article_claims,
                    other -> other.measure_id <> article_claim.measure_id
                        and (
                            not {{ intervals_overlap('article_claim', 'other') }}
                            or other.measure_key <> article_claim.measure_key
                            and (
                                article_claim.kind in ('date', 'time')
                                    and not coalesce(
                                        article_claim.subject_key = other.subject_key, false
                                    )
                                or other.sentence_index = article_claim.sentence_index
                            )
                        )
                ),
                other -> other.measure_id
            ) as told_apart_from
        from (
            select
                *,
                collect_list(
                    case
                        when is_informative
                            then struct(
                                measure_id, measure_key, sentence_index, subject_key,
                                {{ interval_fields() }}
                            )
                    end
                ) over (partition by article_id, story_id, kind) as article_claims
            from {{ claims }}
        ) as article_claim
        where is_informative
    )
    group by measure_id
    having size(told_apart_from) > 0
{%- endmacro %}

{#- int_measures_merged: a vague date of a named event, left over once vague measures joined
    the facts they fit (vague_into_id). -#}
{% macro is_vague_date_of_an_event() -%}
    (is_vague and kind = 'date' and vague_into_id is null
        and measure_key not in ('{{ (var("named_only_measures") + var("solitary_measures")) | join("', '") }}'))
{%- endmacro %}
