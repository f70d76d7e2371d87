{#- Gold per touched story. Every intermediate model and mart is incremental on story_id: a
    build that names the silver versions gold was last built from (`since`, which claimhouse
    passes) rebuilds only the stories int_stories_touched lists, and its rows replace exactly
    those stories' rows (strategies `replace_stories` and `merge_stories`, below), so a story
    that vanished (its articles regrouped) loses its rows too. Learned synonyms are
    corpus-wide: int_measures_merged also rebuilds the stories whose measures gained or lost one,
    and the models after it rebuild those as well (config `after_synonyms`). An incremental
    build without `since` (`dbt build` from a shell on a built warehouse) rebuilds every story
    the same way; `--full-refresh` replaces the tables. -#}

{#- A value claimhouse passes a build: `run_id`, and `since` and `upto` for an incremental one.
    They come in the JSON object DBT_ENV_CUSTOM_ENV_CLAIMHOUSE_BUILD, read at run time only,
    not as --vars: dbt parses the whole project again whenever --vars change, which each run's
    would (and dbt's artifacts then name the build in metadata.env). A --vars value of the same
    name wins (a unit test's override, a build from a shell). -#}
{% macro build_var(name) -%}
    {%- set given = var(name, none) -%}
    {%- if given or not execute -%}
        {{- return(given) -}}
    {%- endif -%}
    {{- return(fromjson(env_var('DBT_ENV_CUSTOM_ENV_CLAIMHOUSE_BUILD', '{}')).get(name)) -}}
{%- endmacro %}

{#- The id stamped on the rows this build writes: claimhouse's run id, else dbt's. -#}
{% macro build_id() -%}
    {{- build_var('run_id') or invocation_id -}}
{%- endmacro %}

{#- A subquery of the story ids this build rebuilds. -#}
{% macro touched_stories(after_synonyms=false) -%}
    (select story_id from {{ ref('int_stories_touched') }}
    {%- if after_synonyms %}
    union select story_id from {{ ref('int_measures_merged') }} where built_by = '{{ build_id() }}'
    {%- endif %})
{%- endmacro %}

{#- `where <column> in (touched stories)` in an incremental build with `since`; else nothing.
    `incremental`: the model's is_incremental() (a macro calling it would miss a unit test's
    override). -#}
{% macro story_filter(incremental, after_synonyms=false, column='story_id') -%}
    {%- if incremental and build_var('since') %}where {{ column }} in {{ touched_stories(after_synonyms) }}{% endif -%}
{%- endmacro %}

{#- The rows a build replaces: `<column> in (...)` listing the stories this build rebuilds (run
    time: they are known once int_stories_touched, and int_measures_merged for `after_synonyms`,
    are built), or every row without `since`. Literal ids, because Delta's REPLACE WHERE,
    like its DELETE and a MERGE's clause conditions, takes no subquery. -#}
{% macro replaced_stories(after_synonyms=false, column='story_id') -%}
    {%- if not build_var('since') -%}
        true
    {%- else -%}
        {{- stories_in(column, run_query(
            'select distinct story_id from ' ~ touched_stories(after_synonyms)
            ~ ' as touched where story_id is not null order by story_id'
        ).columns[0].values()) -}}
    {%- endif -%}
{%- endmacro %}

{#- `<column> in ('id', ...)` of these story ids, or false when there are none. -#}
{% macro stories_in(column, ids) -%}
    {%- if ids | length == 0 -%}
        false
    {%- else -%}
        {{ column }} in (
        {%- for id in ids -%}
            '{{ id | replace("\\", "\\\\") | replace("'", "\\'") }}'{{ ", " if not loop.last }}
        {%- endfor -%}
        )
    {%- endif -%}
{%- endmacro %}

{#- Incremental strategy `replace_stories`: one Delta commit, `INSERT INTO ... REPLACE WHERE`,
    replaces the rebuilt stories' rows by this build's (dbt-spark knows append, merge and
    insert_overwrite; a delete then an append cost two commits and a join per model). Delta
    refuses a row outside the replaced stories (DELTA_REPLACE_WHERE_MISMATCH), so a model whose
    query reads more than it may replace fails instead of duplicating rows. These two macros
    override dbt-spark's of the same name and hand every other strategy back to it.
    Strategy `merge_stories` (int_measures_merged, which also updates the stories whose synonyms
    changed, so it cannot name every story it writes before it runs): one MERGE on `unique_key`
    that updates and inserts the build's rows and deletes the rebuilt stories' rows it lacks. -#}
{% macro dbt_spark_validate_get_incremental_strategy(raw_strategy, file_format) -%}
    {%- if raw_strategy in ('replace_stories', 'merge_stories') and file_format == 'delta' -%}
        {{ return(raw_strategy) }}
    {%- endif -%}
    {{ return(dbt.dbt_spark_validate_get_incremental_strategy(raw_strategy, file_format)) }}
{%- endmacro %}

{% macro dbt_spark_get_incremental_sql(strategy, source, target, existing, unique_key, incremental_predicates) -%}
    {%- if strategy == 'replace_stories' -%}
        {%- set columns = adapter.get_columns_in_relation(target) | map(attribute='quoted') | join(', ') -%}
        insert into table {{ target }}
        replace where {{ replaced_stories(config.get('after_synonyms', false)) }}
        select {{ columns }} from {{ source }}
    {%- elif strategy == 'merge_stories' -%}
        merge into {{ target }} as built
        using {{ source }} as rebuilt
        on built.{{ unique_key }} = rebuilt.{{ unique_key }}
        when matched then update set *
        when not matched then insert *
        when not matched by source and {{ replaced_stories(column='built.story_id') }} then delete
    {%- else -%}
        {{ dbt.dbt_spark_get_incremental_sql(strategy, source, target, existing, unique_key, incremental_predicates) }}
    {%- endif -%}
{%- endmacro %}

{#- The rows of lake table <layer>.<table> that the versions after since[<layer>.<table>] up
    to upto[...] inserted, deleted or updated (Delta's change data feed, `_change_type` saying
    which); no rows when there are no such versions. -#}
{% macro change_feed(layer, table, since, upto) -%}
    {%- set name = layer ~ '.' ~ table -%}
    {%- if since[name] < upto[name] -%}
        select * from table_changes_by_path(
            '{{ warehouse_root() }}/{{ layer }}/{{ table }}', {{ since[name] + 1 }}, {{ upto[name] }}
        )
    {%- else -%}
        select *, '' as _change_type from {{ source(layer, table) }} where false
    {%- endif -%}
{%- endmacro %}

{#- A data test's `where: __this_build__` checks, in an incremental build with `since`, only the
    rows of the stories this build wrote facts for (a rebuilt story's evidence and conflicts
    name its facts; a key hashes its story, so no other story's row can repeat it), and every
    row otherwise. Any other `where` is dbt's. Overrides dbt's macro of the same name. -#}
{% macro get_where_subquery(relation) -%}
    {%- set where = config.get('where') -%}
    {%- if not where -%}
        {{- return(relation) -}}
    {%- endif -%}
    {%- if '__this_build__' in where -%}
        {%- set rows = 'true' -%}
        {%- if build_var('since') -%}
            {%- set facts = api.Relation.create(schema=relation.schema, identifier='facts') -%}
            {%- set rows = stories_in('story_id', run_query(
                'select distinct story_id from ' ~ facts ~ " where run_id = '" ~ build_id()
                ~ "' order by story_id"
            ).columns[0].values()) -%}
        {%- endif -%}
        {%- set where = where | replace('__this_build__', rows) -%}
    {%- endif -%}
    {{- return('(select * from ' ~ relation ~ ' where ' ~ where ~ ') dbt_subquery') -}}
{%- endmacro %}
