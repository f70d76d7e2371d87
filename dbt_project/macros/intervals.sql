{#- Two claims' value intervals overlap. Dates compare by day; a date without a year compares
    by month and day only. Clock times (minutes after midnight) lie on a circle: "about 11:55
    p.m." (1420 to 1450) meets "00:02" (2), a day later; an open bound ("after 10 p.m.") reaches
    only to midnight. Used for support, consensus and conflicts alike. -#}
{% macro intervals_overlap(a, b) -%}
  (case
     when {{ a }}.kind = 'date' and not ({{ a }}.year_known and {{ b }}.year_known)
       then {{ a }}.md_lo <= {{ b }}.md_hi and {{ b }}.md_lo <= {{ a }}.md_hi
     when {{ a }}.kind = 'time'
       then {{ a }}.lo <= {{ b }}.hi and {{ b }}.lo <= {{ a }}.hi
         or {{ a }}.hi < double('Infinity') and {{ b }}.hi < double('Infinity') and (
           {{ a }}.lo <= {{ b }}.hi - 1440 and {{ b }}.lo - 1440 <= {{ a }}.hi
           or {{ a }}.lo <= {{ b }}.hi + 1440 and {{ b }}.lo + 1440 <= {{ a }}.hi)
     else {{ a }}.lo <= {{ b }}.hi and {{ b }}.lo <= {{ a }}.hi
   end)
{%- endmacro %}

{#- Readable name of a measure_key ("arrests/per_day" -> "arrests per day", "date:unnamed" ->
    "date, no event named"): var measure_labels' rules in turn. benchmarks/baseline.py's
    _measure_label applies the same var. -#}
{% macro measure_label(measure_key) -%}
  {%- set ns = namespace(sql=measure_key) -%}
  {%- for pattern, replacement in var('measure_labels') -%}
    {%- set ns.sql = "regexp_replace(" ~ ns.sql ~ ", '" ~ pattern ~ "', '" ~ replacement ~ "')" -%}
  {%- endfor -%}
  {{ ns.sql }}
{%- endmacro %}

{#- The columns intervals_overlap reads, for a struct of them. -#}
{% macro interval_fields() -%}
  kind, year_known, lo, hi, md_lo, md_hi
{%- endmacro %}

{#- A claim's stated value as text, for telling values apart: a date's first and last day, a
    number's value and qualifier (benchmarks/baseline.py's _value_signature). -#}
{% macro value_signature() -%}
    case
        when kind = 'date' then concat(coalesce(date_start, ''), '/', coalesce(date_end, ''))
        else concat(coalesce(value_text, ''), '/', qualifier)
    end
{%- endmacro %}
