/**
 * The publishing actions as the screens use them: whether a section can be published, and words
 * for `dd_diffusion_api.diffuse`'s answer ({published, removed, target}).
 */
import { t } from '../api/i18n.js';
import { ApiError, type RqoClient } from '../api/rqo-client.js';

/** What the server says this user may publish in a section (get_diffusion_info's `may_publish`). */
export interface PublishOffer {
  /** Publish the record on screen (the profile's publish level on the section). */
  record: boolean;
  /** Publish every record of the section at once (global administrators). */
  section: boolean;
}

const NOTHING: PublishOffer = { record: false, section: false };

/**
 * What to offer on `section`: the server has the publishing API, its publication map includes the
 * section, and (`may_publish`, asked when a screen opens) the user may publish there. A server
 * without get_diffusion_info is asked nothing more: Publish is offered and diffuse answers; one
 * that does not say `may_publish` offers what it always did (records; sections too).
 */
export async function publishOffer(api: RqoClient, section: string): Promise<PublishOffer> {
  if (!(await api.hasApi('dd_diffusion_api')) || !api.supports('dd_diffusion_api', 'diffuse')) return NOTHING;
  try {
    const answer = await api.call<{
      sections?: { section_tipo: string; may_publish?: Partial<PublishOffer> }[];
    }>({
      dd_api: 'dd_diffusion_api',
      action: 'get_diffusion_info',
    });
    const entry = (answer.data?.sections ?? []).find((s) => s.section_tipo === section);
    if (!entry) return NOTHING;
    if (!entry.may_publish) return { record: true, section: true };
    return { record: entry.may_publish.record === true, section: entry.may_publish.section === true };
  } catch (err) {
    const old = err instanceof ApiError && err.code === 'request.unknown_action';
    return old ? { record: true, section: true } : NOTHING;
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
