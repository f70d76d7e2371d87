{#- Schemas are the lake's layers (`gold`, `gold_staging`, ...), not `<target>_<schema>`. -#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {{ (custom_schema_name or target.schema) | trim }}
{%- endmacro %}
