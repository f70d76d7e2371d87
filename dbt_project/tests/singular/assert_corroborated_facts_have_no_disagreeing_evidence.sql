-- corroborated: independent sources agree with the consensus and none disagree.
select facts.fact_id, evidence.claim_id
from {{ ref('facts') }} as facts
inner join {{ ref('fact_evidence') }} as evidence on facts.fact_id = evidence.fact_id
where facts.status = 'corroborated' and (evidence.agrees = false or facts.consensus_source_count < 2)
