{#-
  dbt's get_fixture_sql (dbt-core 1.11), except that a unit test's input rows are one VALUES list,
  not one SELECT per row joined by UNION ALL: Spark copies a CTE into every place a model names
  it, and per-row SELECTs in every copy made a 30-row test plan thousands of joins (100 s; 16 s
  as VALUES; benchmarks/HISTORY.md). An ephemeral model (staging) has no relation to read
  its columns from, so its fixture takes them from var `staging_columns`.
-#}
{% macro get_fixture_sql(rows, column_name_to_data_types) %}
{#- claimhouse: ephemeral inputs -#}
{%- set declared = var('staging_columns').get(model.name) -%}
{%- if not column_name_to_data_types and declared -%}
{%-   set column_name_to_data_types = {} -%}
{%-   set column_name_to_quoted = {} -%}
{%-   for name, data_type in declared.items() -%}
{%-     do column_name_to_data_types.update({name|lower: data_type}) -%}
{%-     do column_name_to_quoted.update({name|lower: adapter.quote(name)}) -%}
{%-   endfor -%}
{%- endif -%}
{#- /claimhouse -#}
-- Fixture for {{ model.name }}
{% set default_row = {} %}

{%- if not column_name_to_data_types -%}
{%-   set this_or_defer_relation = defer_relation if (defer_relation and not load_relation(this)) else this -%}
{%-   set columns_in_relation = adapter.get_columns_in_relation(this_or_defer_relation) -%}
{%-   set column_name_to_data_types = {} -%}
{%-   set column_name_to_quoted = {} -%}
{%-   for column in columns_in_relation -%}
{%-     do column_name_to_data_types.update({column.name|lower: column.data_type}) -%}
{%-     do column_name_to_quoted.update({column.name|lower: column.quoted}) -%}
{%-   endfor -%}
{%- endif -%}

{%- if not column_name_to_data_types -%}
    {{ exceptions.raise_compiler_error("Not able to get columns for unit test '" ~ model.name ~ "' from relation " ~ this ~ " because the relation doesn't exist") }}
{%- endif -%}

{%- for column_name, column_type in column_name_to_data_types.items() -%}
    {%- do default_row.update({column_name: (safe_cast("null", column_type) | trim )}) -%}
{%- endfor -%}

{{ validate_fixture_rows(rows, row_number) }}

{%- if (rows | length) == 0 -%}
    select
    {%- for column_name, column_value in default_row.items() %} {{ column_value }} as {{ column_name_to_quoted[column_name] }}{% if not loop.last -%},{%- endif %}
    {%- endfor %}
    limit 0
{%- else -%}
select * from values
{%-   for row in rows %}
{%-     set row_values = default_row.copy() -%}
{%-     do row_values.update(format_row(row, column_name_to_data_types)) %}
  ({{ row_values.values() | join(', ') }}){% if not loop.last %},{% endif %}
{%-   endfor %}
as fixture({% for column_name in default_row.keys() %}{{ column_name_to_quoted[column_name] }}{% if not loop.last %}, {% endif %}{% endfor %})
{%- endif -%}
{% endmacro %}
