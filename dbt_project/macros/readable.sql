{#- A value as a person reads it: dates in words ("May 20, 2025"; "May 20 (year not stated)";
    "May 2025"; a span "May 20, 2025 to May 23, 2025"); anything else as stated. The ISO form
    stays in its own column. -#}
{% macro readable_value(value_text, kind) -%}
    case
        when {{ kind }} <> 'date' or {{ value_text }} is null then {{ value_text }}
        when {{ value_text }} like '%/%' then concat(
            {{ readable_date("split_part(" ~ value_text ~ ", '/', 1)") }},
            ' to ',
            {{ readable_date("split_part(" ~ value_text ~ ", '/', 2)") }}
        )
        else {{ readable_date(value_text) }}
    end
{%- endmacro %}

{% macro readable_date(iso) -%}
    case
        when {{ iso }} rlike '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
            then date_format(to_date({{ iso }}), 'MMMM d, yyyy')
        when {{ iso }} rlike '^--[0-9]{2}-[0-9]{2}$'
            -- 2000 is a leap year: February 29 reads too.
            then concat(
                date_format(to_date(concat('2000', substr({{ iso }}, 2))), 'MMMM d'),
                ' (year not stated)'
            )
        when {{ iso }} rlike '^[0-9]{4}-[0-9]{2}$'
            then date_format(to_date(concat({{ iso }}, '-01')), 'MMMM yyyy')
        else {{ iso }}
    end
{%- endmacro %}

{#- A fact's name in words: its consensus claim's frame label (silver: "bodies found in the
    wreckage", "date Flynn pleaded"), with the period of a rate ("per day"); with no label,
    the measure_key in words ("arrests per day"), and a key that names nothing (unknown) gives
    the kind alone. benchmarks/baseline.py's fact_label is its copy. -#}
{% macro fact_label(kind, measure_key, frame_label, per) -%}
    coalesce(
        concat({{ frame_label }}, case when {{ per }} is not null then concat(' per ', {{ per }}) else '' end),
        case
            when {{ measure_key }} rlike '(^|[:/ ])unknowns?($|/)' then {{ kind }}
            else {{ measure_label(measure_key) }}
        end
    )
{%- endmacro %}
