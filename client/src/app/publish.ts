/** Words for the publishing action's answer (`dd_diffusion_api.diffuse`: {published, removed, target}). */

/** "Published to demo: 3 published, 0 removed." from the diffuse answer's counts. */
export function publishSummary(data: Record<string, unknown> | null | undefined): string {
  const d = data ?? {};
  const parts: string[] = [];
  if (typeof d.published === 'number') parts.push(`${d.published} published`);
  if (typeof d.removed === 'number') parts.push(`${d.removed} removed`);
  for (const [k, v] of Object.entries(d)) {
    if (typeof v === 'number' && k !== 'published' && k !== 'removed')
      parts.push(`${k.replaceAll('_', ' ')}: ${v}`);
  }
  const target = typeof d.target === 'string' ? ` to ${d.target}` : '';
  return `Published${target}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}.`;
}
