{#- The factor that puts a claim's value in gold's unit for its kind (var gold_units: days for
    a duration, years for an age...), by the kind's own table of units (var unit_scales, each
    kind's `units` in lake.silver.kinds); 1 for every other kind. -#}
{% macro unit_scale(kind, unit) -%}
    case
        {%- for claim_kind, gold_unit in var('gold_units').items() %}
        {%- set scales = var('unit_scales')[claim_kind] %}
        {%- for name, scale in scales.items() %}
        when {{ kind }} = '{{ claim_kind }}' and {{ unit }} = '{{ name }}' then {{ scale }}d
        {%- if scales[gold_unit] != 1 %} / {{ scales[gold_unit] }}d{% endif %}
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
