/**
 * The speakers a transcription can name: the informants of the interview whose audiovisual record
 * holds it (Dédalo's oral-history sections: the interview oh1 links the audiovisual record with
 * oh25 and its informants, people of rsc197, with oh24). Each becomes a person tag of the tag
 * grammar, `[person-n-<id>-<Name_Surname>-data:{"section_tipo":"rsc197","section_id":"<id>"}:data]`,
 * which the publication API reads as the speaker of what follows.
 */
import type { ReadResult } from '../api/read-shapes.js';
import type { RqoClient } from '../api/rqo-client.js';

export interface Speaker {
  id: number;
  name: string;
  tag: string;
}

const INTERVIEW = { section: 'oh1', media: 'oh25', informants: 'oh24' } as const;
const PEOPLE = { section: 'rsc197', name: 'rsc85', surname: 'rsc86' } as const;

interface Item {
  tipo: string;
  section_id?: number | string;
  entries?: { value?: unknown; section_id?: number | string; section_tipo?: string }[];
}

/** `[person-...]` for one person (the label has no brackets, dashes or spaces: the grammar's). */
export function personTag(id: number, name: string): string {
  const label =
    name
      .trim()
      .replace(/[[\]<>:-]/g, ' ')
      .replace(/\s+/g, '_') || String(id);
  return `[person-n-${id}-${label}-data:{"section_tipo":"${PEOPLE.section}","section_id":"${id}"}:data]`;
}

/** The informants of the interviews linking this audiovisual record, in their order (none if unreadable). */
export async function speakersOf(api: RqoClient, sectionTipo: string, sectionId: number): Promise<Speaker[]> {
  try {
    const interviews = await api.call<ReadResult>({
      action: 'read',
      source: {
        tipo: INTERVIEW.section,
        section_tipo: INTERVIEW.section,
        model: 'section',
        mode: 'list',
        action: 'search',
      },
      sqo: {
        section_tipo: [INTERVIEW.section],
        limit: 5,
        offset: 0,
        filter: {
          $and: [
            {
              q: { section_tipo: sectionTipo, section_id: sectionId },
              path: [{ component_tipo: INTERVIEW.media }],
            },
          ],
        },
      },
      show: {
        ddo_map: [
          { tipo: INTERVIEW.informants, section_tipo: INTERVIEW.section, parent: 'self', mode: 'list' },
        ],
      },
    });
    const ids: number[] = [];
    for (const item of interviews.data.data as Item[]) {
      if (item.tipo !== INTERVIEW.informants) continue;
      for (const l of item.entries ?? [])
        if (l.section_tipo === PEOPLE.section && !ids.includes(Number(l.section_id)))
          ids.push(Number(l.section_id));
    }
    if (ids.length === 0) return [];
    const people = await api.call<ReadResult>({
      action: 'read',
      source: {
        tipo: PEOPLE.section,
        section_tipo: PEOPLE.section,
        model: 'section',
        mode: 'list',
        action: 'search',
      },
      sqo: {
        section_tipo: [PEOPLE.section],
        limit: ids.length,
        offset: 0,
        filter_by_locators: ids.map((id) => ({ section_tipo: PEOPLE.section, section_id: id })),
      },
      show: {
        ddo_map: [PEOPLE.name, PEOPLE.surname].map((tipo) => ({
          tipo,
          section_tipo: PEOPLE.section,
          parent: 'self',
          mode: 'list',
        })),
      },
    });
    const text = (tipo: string, id: number) => {
      const item = (people.data.data as Item[]).find((d) => d.tipo === tipo && Number(d.section_id) === id);
      const value = item?.entries?.[0]?.value;
      return typeof value === 'string' ? value : '';
    };
    return ids.map((id) => {
      const name = [text(PEOPLE.name, id), text(PEOPLE.surname, id)].filter(Boolean).join(' ') || `#${id}`;
      return { id, name, tag: personTag(id, name) };
    });
  } catch {
    return [];
  }
}
