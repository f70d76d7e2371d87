{#- A mart's CHECK constraints go into the statement that creates its table, as Delta's
    `delta.constraints.<name>` table properties: Delta checks every row of that write against
    them, refuses the write whole when one breaks (the same DELTA_VIOLATE_CONSTRAINT error as a
    later write), and keeps them for every later write. dbt-spark would add each with its own
    `ALTER TABLE ... ADD CONSTRAINT` after the table is built, a scan and a commit per rule.
    These two macros override dbt-spark's of the same name. -#}
{% macro spark__tblproperties_clause() -%}
  {%- set properties = {} -%}
  {%- do properties.update(config.get('tblproperties') or {}) -%}
  {%- for constraint in created_constraints() -%}
    {%- do properties.update({'delta.constraints.' ~ constraint.name: constraint.expression}) -%}
  {%- endfor -%}
  {%- if properties %}
    tblproperties (
      {%- for key, value in properties.items() %}
      '{{ key }}' = '{{ value | replace("\\", "\\\\") | replace("'", "\\'") }}'{{ ", " if not loop.last }}
      {%- endfor %}
    )
  {%- endif %}
{%- endmacro %}

{% macro spark__alter_table_add_constraints(relation, constraints) -%}
  {%- set created = created_constraints() | map(attribute='name') | list -%}
  {%- for constraint in constraints if constraint.type == 'check' and constraint.name not in created -%}
    {{ dbt.spark__alter_table_add_constraints(relation, [constraint]) }}
  {%- endfor -%}
{%- endmacro %}

{#- The named CHECK constraints of a model whose contract is enforced, on a Delta table. -#}
{% macro created_constraints() -%}
  {%- set contract = config.get('contract') -%}
  {%- if not (contract and contract.enforced and config.get('file_format') == 'delta') -%}
    {{ return([]) }}
  {%- endif -%}
  {{ return(model.constraints | selectattr('type', 'equalto', 'check') | selectattr('name') | list) }}
{%- endmacro %}
