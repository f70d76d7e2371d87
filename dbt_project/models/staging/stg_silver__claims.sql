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
        -- silver's "subject" is the counted noun phrase as written; the frame's subject (whose
        -- number it is) is subject_text.
        subject as counted,
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
        -- The claim's frame, a column per part: the words it came from and the key gold
        -- compares.
        frame.subject.text as subject_text,
        frame.subject.key as subject_key,
        frame.property.text as property_text,
        frame.property.key as property_key,
        frame.event.text as event_text,
        frame.event.key as event_key,
        frame.scope.text as scope_text,
        frame.scope.key as scope_key,
        frame.role.key as role,
        coalesce(frame.definite, false) as frame_definite,
        frame.label as frame_label,
        extractor_version,
        extracted_at
    from source
)

select * from renamed
