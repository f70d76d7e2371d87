{#- The warehouse folder every lake table is under (<root>/<layer>/<table>). -#}
{% macro warehouse_root() -%}
    {{- env_var('CLAIMHOUSE_WAREHOUSE', flags.PROFILES_DIR ~ '/../warehouse') -}}
{%- endmacro %}

{#- Where a model's Delta table lives: <warehouse>/<schema>/<alias>, the warehouse read when the
    table is created. Not a `location_root` in dbt_project.yml: an environment variable there
    makes dbt parse the whole project again whenever it differs from the last parse's (another
    warehouse, a copied one). A model's own `location_root` still wins. Overrides dbt-spark's
    macro of the same name. -#}
{% macro spark__location_clause() %}
  {%- set location_root = config.get('location_root', validator=validation.any[basestring]) -%}
  {%- if location_root is none -%}
    {%- set location_root = warehouse_root() ~ '/' ~ model.schema -%}
  {%- endif %}
  location '{{ location_root }}/{{ model['alias'] }}'
{%- endmacro -%}
