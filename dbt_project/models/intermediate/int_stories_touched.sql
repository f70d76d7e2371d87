{{ config(materialized='table', alias='touched_stories') }}
-- depends_on: {{ source('silver', 'claims') }}, {{ source('silver', 'article_stories') }}
-- The stories this build rebuilds (macros/stories.sql), from Delta's change data feed of the
-- silver versions after `since` up to `upto` (build_var): every story an article_stories row named
-- before or after a change (an article grouped for the first time was a story of its own), and
-- the story now of every article whose claims changed (an article not grouped yet is a story
-- of its own). Empty without `since`.
-- The feeds are read by path: `table_changes('silver.article_stories', ...)` in a query that
-- also names silver.article_stories reads the table itself (Spark 4.1, Delta 4.4).
{%- set since, upto = build_var('since'), build_var('upto') %}
{% if since %}
with claim_changes as (
    {{ change_feed('silver', 'claims', since, upto) }}
),

story_changes as (
    {{ change_feed('silver', 'article_stories', since, upto) }}
)

select story_id from story_changes
union
select article_id as story_id from story_changes where _change_type = 'insert'
union
select coalesce(stories.story_id, claim_changes.article_id) as story_id
from claim_changes
left join {{ source('silver', 'article_stories') }} as stories
    on claim_changes.article_id = stories.article_id
{% else %}
select cast(null as string) as story_id where false
{% endif %}
