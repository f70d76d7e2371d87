{#- Two claims' value intervals overlap. Dates compare by day; a date without a year compares
    by month and day only. Used for support, consensus and conflicts alike. -#}
{% macro intervals_overlap(a, b) -%}
  (case
     when {{ a }}.kind = 'date' and not ({{ a }}.year_known and {{ b }}.year_known)
       then {{ a }}.md_lo <= {{ b }}.md_hi and {{ b }}.md_lo <= {{ a }}.md_hi
     else {{ a }}.lo <= {{ b }}.hi and {{ b }}.lo <= {{ a }}.hi
   end)
{%- endmacro %}

{#- Readable name of a measure_key: "arrests/per_day" -> "arrests per day",
    "date:meeting" -> "date of the meeting", "percent:arrests" -> "percent of arrests". -#}
{% macro measure_label(measure_key) -%}
  regexp_replace(
    regexp_replace(
      regexp_replace({{ measure_key }}, '^(date|time):(.*)$', '$1 of the $2'),
      '^(percent|ratio):', '$1 of '),
    '/per_', ' per ')
{%- endmacro %}

{#- The columns intervals_overlap reads, for a struct of them. -#}
{% macro interval_fields() -%}
  kind, year_known, lo, hi, md_lo, md_hi
{%- endmacro %}
