{#- Measures a and b may merge only within one story, kind, per and part-of-a-whole flag. -#}
{% macro same_measure_partition(a, b) -%}
    {{ a }}.story_id = {{ b }}.story_id and {{ a }}.kind = {{ b }}.kind
        and {{ a }}.per_key = {{ b }}.per_key and {{ a }}.is_subset = {{ b }}.is_subset
{%- endmacro %}

{#- Pairs of measures (both orders) that some article tells apart: it states values under both
    that do not overlap ("540 teachers and 4 schools"). claims: rows of int_measures_reconciled. -#}
{% macro measures_told_apart(claims) -%}
    select distinct a.measure_id as measure_a, b.measure_id as measure_b
    from {{ claims }} as a
    inner join {{ claims }} as b
        on a.article_id = b.article_id
        and a.story_id = b.story_id
        and a.kind = b.kind
        and a.measure_id <> b.measure_id
    where a.is_informative and b.is_informative and not {{ intervals_overlap('a', 'b') }}
{%- endmacro %}
