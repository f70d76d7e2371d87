with source as (
    select * from {{ source('silver', 'claims') }}
),

renamed as (
    select
        claim_id,
        article_id,
        sentence_index,
        char_start,
        char_end,
        claim_text,
        kind,
        value,
        value_text,
        lower as value_lower,
        upper as value_upper,
        qualifier,
        unit,
        per,
        subject,
        measure_key,
        date_start,
        date_end,
        attribution,
        attribution_kind,
        cited_outlet,
        reporting_outlet,
        extractor_version,
        extracted_at
    from source
)

select * from renamed
