{#- Gold per touched story. Every intermediate model and mart is incremental on story_id: a
    build that names the silver versions gold was last built from (var `since`, which claimhouse
    passes) rebuilds only the stories int_touched_stories lists, deleting their rows first
    (pre-hook) and inserting the new ones, so a story that vanished (its articles regrouped)
    loses its rows too. Learned synonyms are corpus-wide: int_measure_merges also rebuilds the
    stories whose measures gained or lost one, and the models after it rebuild those as well
    (`after_synonyms`). An incremental build without `since` (`dbt build` from a shell on a
    built warehouse) rebuilds every story the same way; `--full-refresh` replaces the tables. -#}

{#- The id stamped on the rows this build writes: claimhouse's run id, else dbt's. -#}
{% macro build_id() -%}
    {{- var('run_id') or invocation_id -}}
{%- endmacro %}

{#- A subquery of the story ids this build rebuilds. -#}
{% macro touched_stories(after_synonyms=false) -%}
    (select story_id from {{ ref('int_touched_stories') }}
    {%- if after_synonyms %}
    union select story_id from {{ ref('int_measure_merges') }} where built_by = '{{ build_id() }}'
    {%- endif %})
{%- endmacro %}

{#- `where <column> in (touched stories)` in an incremental build with `since`; else nothing.
    `incremental`: the model's is_incremental() (a macro calling it would miss a unit test's
    override). -#}
{% macro story_filter(incremental, after_synonyms=false, column='story_id') -%}
    {%- if incremental and var('since') %}where {{ column }} in {{ touched_stories(after_synonyms) }}{% endif -%}
{%- endmacro %}

{#- Pre-hook of every story-incremental model: delete its rows of the stories this build
    rebuilds (a MERGE: Delta's DELETE takes no subquery). -#}
{% macro delete_touched_stories(after_synonyms=false) -%}
    {%- if is_incremental() and var('since') -%}
        merge into {{ this }} as built
        using {{ touched_stories(after_synonyms) }} as touched
        on built.story_id = touched.story_id
        when matched then delete
    {%- elif is_incremental() -%}
        delete from {{ this }}
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
