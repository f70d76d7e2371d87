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
        sentence,
        kind,
        value,
        value_text,
        -- Bounds in gold's unit (durations in days, ages in years), so "five weeks" and "a
        -- 35-day" compare; value and unit stay as the article stated them.
        lower * {{ unit_scale('kind', 'unit') }} as value_lower,
        upper * {{ unit_scale('kind', 'unit') }} as value_upper,
        {{ unit_scale('kind', 'unit') }} as value_scale,
        qualifier,
        unit,
        per,
        subject,
        measure_key,
        date_start,
        date_end,
        date_granularity,
        date_resolution,
        date_reference,
        attribution,
        attribution_kind,
        cited_outlet,
        reporting_outlet,
        extractor_version,
        extracted_at
    from source
)

select * from renamed
