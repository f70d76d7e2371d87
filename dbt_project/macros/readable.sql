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
