-- Every claim behind every fact, and whether it agrees with the fact's consensus.
with claims as (
    select * from {{ ref('int_claims_reconciled') }}
),

evidence as (
    select
        fact_id,
        claim_id,
        article_id,
        reporting_outlet,
        cited_outlet,
        source_key,
        attribution,
        attribution_kind,
        claim_text,
        value,
        value_text,
        qualifier,
        agrees,
        char_start,
        char_end
    from claims
)

select * from evidence
