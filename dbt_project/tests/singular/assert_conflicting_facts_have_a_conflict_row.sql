-- conflicting: at least one gold.fact_conflicts row names the fact, and only then.
select facts.fact_id, facts.status
from {{ ref('facts') }} as facts
left join (select distinct fact_id from {{ ref('fact_conflicts') }}) as conflicts
    on facts.fact_id = conflicts.fact_id
where (facts.status = 'conflicting') <> (conflicts.fact_id is not null)
