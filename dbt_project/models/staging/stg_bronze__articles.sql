with source as (
    select * from {{ source('bronze', 'articles') }}
),

renamed as (
    select
        article_id,
        outlet as reporting_outlet,
        title,
        published_at,
        ingested_at,
        source_uri
    from source
)

select * from renamed
