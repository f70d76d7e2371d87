-- reported_by: who a reader is told published the article, from the best that is known: the
-- sidecar's outlet, else the site of its URL, else its title, else its file (and, for a record
-- of a JSON Lines, Parquet or WARC file, its position there: records are not one source).
with source as (
    select
        *,
        nullif(regexp_replace(try_parse_url(url, 'HOST'), '^www\\.', ''), '') as url_site
    from {{ source('bronze', 'articles') }}
),

renamed as (
    select
        article_id,
        outlet as reporting_outlet,
        coalesce(
            outlet, url_site, title, source_uri || coalesce('#' || cast(position as string), '')
        ) as reported_by,
        case
            when outlet is not null then 'outlet'
            when url_site is not null then 'site'
            when title is not null then 'title'
            else 'file'
        end as reported_by_source,
        title,
        published_at,
        ingested_at,
        source_uri
    from source
)

select * from renamed
