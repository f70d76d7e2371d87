with source as (
    select * from {{ source('silver', 'article_stories') }}
),

renamed as (
    select
        article_id,
        story_id,
        story_size
    from source
)

select * from renamed
