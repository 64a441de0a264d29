/**
 * Names of linked records for screens that only got locators (`{section_tipo: dd64,
 * section_id: 1}`): a list column of a select or radio button (Publishable, Profile, Active), a
 * relation, the activity log's user. One read per target section (its list columns, in the data
 * language) gives each record's name: "Yes", "Cataloguer", "Ana Pérez". The root user (-1) is
 * never listed by the server: it is named as the system's root user. Element tipos written as
 * text (the activity's "where": `dd229`, `rsc167`) get their ontology label.
 */
import { t } from '../api/i18n.js';
import {
  type ContextEntry,
  itemOf,
  itemText,
  type Locator,
  type ReadResult,
  showDdos,
} from '../api/read-shapes.js';
import type { RqoClient } from '../api/rqo-client.js';

/** The users section: its record -1 is the root (system) user. */
const USERS_SECTION = 'dd128';

/** Models whose value can name a record in a line of text. */
const NAMING_MODELS = new Set([
  'component_input_text',
  'component_text_area',
  'component_email',
  'component_number',
  'component_date',
  'component_section_id',
]);

const keyOf = (sectionTipo: string, sectionId: number | string) => `${sectionTipo}\u0000${sectionId}`;

export class RecordNames {
  private names = new Map<string, string>();
  private labels = new Map<string, string>();

  constructor(
    private readonly api: RqoClient,
    /** The data language the names were read in: a change needs a new resolver. */
    readonly lang: string,
  ) {}

  /** The name of a linked record, once resolved (undefined: not known, not readable). */
  nameOf(l: Locator): string | undefined {
    if (l.section_tipo === USERS_SECTION && Number(l.section_id) < 0) return t('rootUser');
    return this.names.get(keyOf(l.section_tipo, l.section_id));
  }

  /** The label of an element tipo, once resolved. */
  labelOf(tipo: string): string | undefined {
    return this.labels.get(tipo);
  }

  /** Reads the names of the locators not known yet: one read per target section. */
  async resolve(locators: readonly Locator[]): Promise<void> {
    const wanted = new Map<string, Set<number>>();
    for (const l of locators) {
      const id = Number(l.section_id);
      if (!Number.isSafeInteger(id) || id <= 0 || this.names.has(keyOf(l.section_tipo, id))) continue;
      const ids = wanted.get(l.section_tipo) ?? new Set();
      ids.add(id);
      wanted.set(l.section_tipo, ids);
    }
    await Promise.all(
      [...wanted].map(([section, ids]) =>
        this.readNames(section, [...ids]).catch(() => {
          // Not readable by this user (or gone): the screen keeps its fallback.
        }),
      ),
    );
  }

  private async readNames(section: string, ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const answer = await this.api.call<ReadResult>({
        action: 'read',
        source: { tipo: section, section_tipo: section, model: 'section', mode: 'list', action: 'search' },
        sqo: {
          section_tipo: [section],
          filter_by_locators: chunk.map((id) => ({ section_tipo: section, section_id: id })),
          limit: chunk.length,
        },
      });
      const context = answer.data.context.find(
        (c: ContextEntry) => c.type === 'section' && c.tipo === section,
      );
      const columns = showDdos(context).filter(
        (d) =>
          (d.parent === section || d.parent === 'self') &&
          d.model !== undefined &&
          NAMING_MODELS.has(d.model),
      );
      for (const id of chunk) {
        const parts = columns
          .map((c) => itemText(itemOf(answer.data.data, c.tipo, section, id)))
          .filter(Boolean)
          .slice(0, 2);
        if (parts.length > 0) this.names.set(keyOf(section, id), parts.join(' '));
      }
    }
  }

  /** Reads the labels of element tipos not known yet (in the interface language). */
  async resolveLabels(tipos: readonly string[]): Promise<void> {
    const wanted = [...new Set(tipos)].filter((tipo) => /^[a-z]+\d+$/.test(tipo) && !this.labels.has(tipo));
    await Promise.all(
      wanted.slice(0, 50).map(async (tipo) => {
        try {
          const answer = await this.api.call<ContextEntry[]>({
            action: 'get_element_context',
            source: { tipo, section_tipo: tipo },
          });
          const label = answer.data.find((c) => c.tipo === tipo)?.label;
          if (typeof label === 'string' && label !== '') this.labels.set(tipo, label);
        } catch {
          // An unknown tipo stays as written.
        }
      }),
    );
  }
}
