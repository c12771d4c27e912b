/**
 * `campaigns.skipped` plus a `{<reason>: n}` object given as the JSON parameter `$<param>`
 * (alias `k` for the campaign row): each reason's count is added to the one already stored.
 */
export const addSkippedSql = (param: number): string =>
  `k.skipped || coalesce((SELECT jsonb_object_agg(s.key, s.value::int + coalesce((k.skipped->>s.key)::int, 0)) FROM jsonb_each_text($${param}::jsonb) s), '{}'::jsonb)`;
