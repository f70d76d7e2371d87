{#- The factor that puts a claim's value in gold's unit for its kind: days for a duration,
    years for an age (var days_per_unit); 1 for every other kind. -#}
{% macro unit_scale(kind, unit) -%}
    case
        {%- for name, days in var('days_per_unit').items() %}
        when {{ kind }} = 'duration' and {{ unit }} = '{{ name }}' then {{ days }}d
        when {{ kind }} = 'age' and {{ unit }} = '{{ name }}' then {{ days }}d / {{ var('days_per_unit')['years'] }}d
        {%- endfor %}
        else 1d
    end
{%- endmacro %}

{#- The unit a claim's value has in gold. -#}
{% macro gold_unit(kind, unit) -%}
    case {{ kind }} when 'duration' then 'days' when 'age' then 'years' else {{ unit }} end
{%- endmacro %}
