{{ config(materialized='table', alias='touched_stories') }}
-- depends_on: {{ source('silver', 'claims') }}, {{ source('silver', 'article_stories') }}
-- The stories this build rebuilds (macros/stories.sql): those of every article whose claims or
-- story changed between the silver versions of var `since` and now, as the story was then and
-- as it is now (an article not grouped yet is a story of its own). Rows compare as a hash of
-- their JSON, which leaves out nulls, so a column silver gained since reads the same. Empty
-- without `since`.
{%- set since = var('since') %}
{% if since %}
with claims_now as (
    select article_id, sha2(to_json(struct(*)), 256) as row_hash
    from {{ source('silver', 'claims') }}
),

claims_then as (
    select article_id, sha2(to_json(struct(*)), 256) as row_hash
    from {{ source('silver', 'claims') }} version as of {{ since['silver.claims'] }}
),

stories_now as (
    select * from {{ source('silver', 'article_stories') }}
),

stories_then as (
    select * from {{ source('silver', 'article_stories') }}
    version as of {{ since['silver.article_stories'] }}
),

changed_articles as (
    select article_id from (
        (select * from claims_now except select * from claims_then)
        union all
        (select * from claims_then except select * from claims_now)
    )
    union
    select article_id from (
        (
            select article_id, sha2(to_json(struct(*)), 256) from stories_now
            except
            select article_id, sha2(to_json(struct(*)), 256) from stories_then
        )
        union all
        (
            select article_id, sha2(to_json(struct(*)), 256) from stories_then
            except
            select article_id, sha2(to_json(struct(*)), 256) from stories_now
        )
    )
)

select coalesce(stories_now.story_id, changed_articles.article_id) as story_id
from changed_articles
left join stories_now on changed_articles.article_id = stories_now.article_id
union
select coalesce(stories_then.story_id, changed_articles.article_id) as story_id
from changed_articles
left join stories_then on changed_articles.article_id = stories_then.article_id
{% else %}
select cast(null as string) as story_id where false
{% endif %}
