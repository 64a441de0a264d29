/**
 * The publishing actions as the screens use them: whether a section can be published, and words
 * for `dd_diffusion_api.diffuse`'s answer ({published, removed, target}).
 */
import { t } from '../api/i18n.js';
import { ApiError, type RqoClient } from '../api/rqo-client.js';

/**
 * Whether to offer Publish on `section`: the server has the publishing API and its publication
 * map includes the section (`dd_diffusion_api.get_diffusion_info`, asked when a screen opens). A
 * server without get_diffusion_info is asked nothing more: Publish is offered and diffuse answers.
 */
export async function canPublishSection(api: RqoClient, section: string): Promise<boolean> {
  if (!(await api.hasApi('dd_diffusion_api')) || !api.supports('dd_diffusion_api', 'diffuse')) return false;
  try {
    const answer = await api.call<{ sections?: { section_tipo: string }[] }>({
      dd_api: 'dd_diffusion_api',
      action: 'get_diffusion_info',
    });
    return (answer.data?.sections ?? []).some((s) => s.section_tipo === section);
  } catch (err) {
    return err instanceof ApiError && err.code === 'request.unknown_action';
  }
}

/** "Published to demo: 3 published, 0 removed." from the diffuse answer's counts. */
export function publishSummary(data: Record<string, unknown> | null | undefined): string {
  const d = data ?? {};
  const parts: string[] = [];
  if (typeof d.published === 'number') parts.push(t('publishedCount', { n: d.published }));
  if (typeof d.removed === 'number') parts.push(t('removedCount', { n: d.removed }));
  for (const [k, v] of Object.entries(d)) {
    if (typeof v === 'number' && k !== 'published' && k !== 'removed')
      parts.push(`${k.replaceAll('_', ' ')}: ${v}`);
  }
  const list = parts.join(', ');
  if (typeof d.target === 'string')
    return parts.length > 0
      ? t('publishedToList', { target: d.target, list })
      : t('publishedTo', { target: d.target });
  return parts.length > 0 ? t('publishedList', { list }) : t('published');
}
