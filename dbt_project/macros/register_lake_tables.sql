{#-
  Name every Delta table under the warehouse in this session's catalog as <layer>.<table>.

  Delta's log, not the metastore, is the source of truth: the tables are found by listing the
  warehouse's `<layer>/<table>/_delta_log` folders and registered by location, so this works in
  a fresh in-memory catalog, in a Derby metastore, and beside other processes writing the lake.
  (Spark's listing skips names starting with "_" unless a path names them, as this glob does.)
  Gold is read as its published release (lake.storage, README "Gold publishes only what
  passed"): gold.<table> is a view of the <table> rows of gold_release.tables, which claimhouse
  replaces in one commit when a candidate passed. A `gold/` folder (an older claimhouse built
  gold there) is not registered.
  Runs as on-run-start; `dbt run-operation register_lake_tables` runs it on its own. claimhouse's
  own build names the tables in its session first and says so (build variable `lake_registered`).
-#}
{% macro register_lake_tables() %}
  {#- A SQL endpoint (the thrift target) names the lake's tables itself, and lets clients
      create nothing outside `sandbox`. -#}
  {% if execute and target.method != 'thrift' and not build_var('lake_registered') %}
    {% set root = warehouse_root() %}
    {% do log("claimhouse: registering the Delta tables under " ~ root
              ~ " (a PATH_NOT_FOUND error here means no tables yet: run `claimhouse run` first)") %}
    {% call statement('lake_files', fetch_result=false) %}
      create or replace temporary view claimhouse_delta_logs
      using binaryFile options (path '{{ root }}/*/*/_delta_log')
    {% endcall %}
    {% set found = run_query(
      "select distinct regexp_extract(path, '^(.*)/([a-z][a-z0-9_]*)/([a-z][a-z0-9_]*)/_delta_log/[^/]+$', 2) as layer,
              regexp_extract(path, '^(.*)/([a-z][a-z0-9_]*)/([a-z][a-z0-9_]*)/_delta_log/[^/]+$', 3) as tbl,
              regexp_extract(path, '^(.*/[a-z][a-z0-9_]*/[a-z][a-z0-9_]*)/_delta_log/[^/]+$', 1) as location
       from claimhouse_delta_logs
       where path rlike '/[a-z][a-z0-9_]*/[a-z][a-z0-9_]*/_delta_log/[^/]+$'
         and path not rlike '/gold/[a-z][a-z0-9_]*/_delta_log/[^/]+$'
       order by 1, 2"
    ) %}
    {% for row in found.rows %}
      {% do run_query("create database if not exists " ~ row[0]) %}
      {% do run_query(
        "create table if not exists " ~ row[0] ~ "." ~ row[1]
        ~ " using delta location '" ~ row[2] ~ "'"
      ) %}
      {#- dbt listed the catalog before this hook: without this, a model's own table, named
          only now, stays unknown to it, and an incremental model in a new process rebuilds
          every story as if its table did not exist. -#}
      {% do adapter.cache_added(api.Relation.create(schema=row[0], identifier=row[1], type='table')) %}
    {% endfor %}
    {% set views = [] %}
    {% for row in found.rows if row[0] == 'gold_release' and row[1] == 'tables' %}
      {% do run_query("create database if not exists gold") %}
      {#- The release table holds a struct column per published table (lake.storage.publish),
          beside `release_id` and `relation`, which says whose row it is. -#}
      {% set described = run_query("describe gold_release.tables") %}
      {% set names = [] %}
      {% for col in described.rows %}
        {% if col[1] and col[1].startswith('struct') and col[0] not in names %}
          {% do names.append(col[0]) %}
        {% endif %}
      {% endfor %}
      {% for name in names %}
        {% do run_query(
          "create or replace view gold." ~ name ~ " as select `" ~ name ~ "`.* from "
          ~ "gold_release.tables where relation = '" ~ name ~ "'"
        ) %}
        {% do views.append(name) %}
      {% endfor %}
    {% endfor %}
    {% do log("claimhouse: " ~ (found.rows | length) ~ " lake tables and " ~ (views | length)
              ~ " gold views registered from " ~ root, info=true) %}
  {% endif %}
{% endmacro %}
