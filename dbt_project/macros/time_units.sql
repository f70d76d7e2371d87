{#- The factor that puts a claim's value in gold's unit for its kind (var gold_units: days for
    a duration, years for an age; from lake.silver.kinds), by the table of time units (var
    days_per_unit); 1 for every other kind. -#}
{% macro unit_scale(kind, unit) -%}
    {%- set days_per_unit = var('days_per_unit') -%}
    case
        {%- for name, days in days_per_unit.items() %}
        {%- for claim_kind, gold_unit in var('gold_units').items() %}
        when {{ kind }} = '{{ claim_kind }}' and {{ unit }} = '{{ name }}' then {{ days }}d
        {%- if days_per_unit[gold_unit] != 1 %} / {{ days_per_unit[gold_unit] }}d{% endif %}
        {%- endfor %}
        {%- endfor %}
        else 1d
    end
{%- endmacro %}

{#- The unit a claim's value has in gold. -#}
{% macro gold_unit(kind, unit) -%}
    case {{ kind }}
    {%- for claim_kind, gold_unit in var('gold_units').items() %} when '{{ claim_kind }}' then '{{ gold_unit }}'{% endfor %} else {{ unit }} end
{%- endmacro %}
