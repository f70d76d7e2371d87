{{ config(after_synonyms=true) }}
-- depends_on: {{ ref('int_stories_touched') }}
-- depends_on: {{ ref('int_measures_merged') }}
-- Every claim behind every fact, and whether it agrees with the fact's consensus, with what a
-- reader needs to judge it: the article's outlet, title, file and date, and the claim's sentence.
with claims as (
    select * from {{ ref('int_claims_reconciled') }} {{ story_filter(is_incremental(), after_synonyms=true) }}
),

articles as (
    select * from {{ ref('stg_bronze__articles') }}
),

sentences as (
    select claim_id, sentence from {{ ref('stg_silver__claims') }}
),

evidence as (
    select
        claims.fact_id,
        claims.story_id,
        claims.claim_id,
        claims.article_id,
        claims.reporting_outlet,
        articles.reported_by,
        articles.reported_by_source,
        claims.cited_outlet,
        claims.source_key,
        claims.attribution,
        claims.attribution_kind,
        claims.claim_text,
        claims.value,
        claims.value_text,
        {{ readable_value('claims.value_text', 'claims.kind') }} as value_readable,
        claims.qualifier,
        claims.agrees,
        claims.subject_text as subject,
        claims.property_text as property,
        claims.event_text as event,
        claims.scope_text as scope,
        claims.role,
        claims.char_start,
        claims.char_end,
        sentences.sentence as quote,
        articles.title,
        articles.source_uri as source_file,
        articles.published_at
    from claims
    inner join articles on claims.article_id = articles.article_id
    inner join sentences on claims.claim_id = sentences.claim_id
)

select * from evidence
