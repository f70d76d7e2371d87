{#- Rows where a SQL expression over one row is false or null: each is a failure. -#}
{% test expression_is_true(model, expression) %}
select * from {{ model }} where not coalesce(({{ expression }}), false)
{% endtest %}
