/**
 * Indexing from a transcription field: "Index selection" asks for terms in the picker and saves
 * the passage's marks and the terms' locators in one request (`set_indexation`, with the text's
 * version: a text changed meanwhile is refused, not overwritten); a marked passage opens the
 * picker with its terms, to re-point it or remove it (marks and locators go together). The field
 * (component-text-area.ts) gives this its record, its version and a way to take the new value.
 */
import { t } from '../api/i18n.js';
import { ApiError } from '../api/rqo-client.js';
import type { Session } from '../app/session.js';
import { termPicker } from './dd-term-picker.js';
import {
  indexationsOf,
  indexClose,
  indexOpen,
  indexTagIds,
  type RecordIndexations,
  setIndexation,
  type TermNode,
  withoutIndexTag,
} from './indexing.js';

export interface IndexingField {
  session: Session;
  sectionTipo: string;
  sectionId: number;
  tipo: string;
  lang: string;
  /** The text component's version the field holds (sent so a changed text is refused). */
  version(): number | undefined;
  /** The text as the field holds it now. */
  text(): string;
  /** Runs after the field's own saves have answered (so the version is the latest). */
  afterPendingSaves<T>(fn: () => Promise<T>): Promise<T>;
  /** Reads the field afresh (after an indexation wrote it) and shows it. */
  reload(): Promise<void>;
  /** The labels of each passage changed: re-render. */
  changed(): void;
}

/** The thesaurus sections the user may read (the menu's sections under a thesaurus area). */
export function thesaurusSections(session: Session): string[] {
  return session.menu
    .filter(
      (n) =>
        n.model === 'section' && session.menu.find((p) => p.tipo === n.parent)?.model === 'area_thesaurus',
    )
    .map((n) => n.tipo);
}

export class IndexingHost {
  /** Terms of each passage (tag id), as last read. */
  indexations: RecordIndexations = { tags: [] };
  private loaded = false;

  constructor(private readonly field: IndexingField) {}

  /** False once the server said this user may not index here (the editor then offers nothing). */
  get mayIndex(): boolean {
    return this.indexations.may_index !== false;
  }

  /** "Guerra, Exilio" per tag id, for the editor's list of passages. */
  labels(): Record<number, string> {
    const out: Record<number, string> = {};
    for (const tag of this.indexations.tags) {
      if (tag.tag_id !== null) out[tag.tag_id] = tag.terms.map((x) => x.label).join(', ');
    }
    return out;
  }

  async load(force = false) {
    if (this.loaded && !force) return;
    this.loaded = true;
    const f = this.field;
    try {
      this.indexations = await indexationsOf(
        f.session.api,
        { section_tipo: f.sectionTipo, section_id: f.sectionId, tipo: f.tipo },
        f.lang,
      );
      f.changed();
    } catch {
      // Without the list the passages still show as marked regions; indexing works as before.
    }
  }

  private picker(heading: string, passage: string) {
    const picker = termPicker();
    picker.api = this.field.session.api;
    picker.sectionTipo = thesaurusSections(this.field.session)[0] ?? 'ts1';
    picker.dataLang = this.field.lang;
    picker.heading = heading;
    picker.passage = passage;
    return picker;
  }

  /** A new tag id: above every mark of the text and every indexation the server knows. */
  private nextTagId(text: string): number {
    const known = [...indexTagIds(text), ...this.indexations.tags.map((x) => x.tag_id ?? 0)];
    return Math.max(this.indexations.next_tag_id ?? 1, ...known.map((id) => id + 1));
  }

  /** "Index selection": the editor's marked text for a new tag, then the terms, then one save. */
  async indexSelection(
    mark: (open: string, close: string) => { value: string; passage: string } | undefined,
  ) {
    const f = this.field;
    await this.load();
    const tagId = this.nextTagId(f.text());
    const marked = mark(indexOpen(tagId), indexClose(tagId));
    if (!marked) {
      f.session.announce(t('idx_selectFirst'), 'error');
      return;
    }
    const choice = await this.picker(t('idx_indexPassage'), marked.passage).pick([], false);
    if (!choice || choice === 'remove' || choice.terms.length === 0) return;
    await this.save(tagId, choice.terms, marked.value);
  }

  /** A marked passage: its terms in the picker; Save re-points it, Remove takes marks and locators away. */
  async openRegion(tagId: number) {
    const f = this.field;
    await this.load();
    const current = this.indexations.tags.find((x) => x.tag_id === tagId)?.terms ?? [];
    const choice = await this.picker(t('idx_passageTerms', { id: tagId }), '').pick(current, true);
    if (!choice) return;
    if (choice === 'remove' || choice.terms.length === 0) {
      await this.save(tagId, [], withoutIndexTag(f.text(), tagId));
      return;
    }
    // A passage whose marks are in the text but that no term held yet is written as new.
    await this.save(tagId, choice.terms);
  }

  private async save(tagId: number, terms: TermNode[], value?: string) {
    const f = this.field;
    try {
      await f.afterPendingSaves(async () => {
        await setIndexation(f.session.api, {
          record: { section_tipo: f.sectionTipo, section_id: f.sectionId, tipo: f.tipo },
          lang: f.lang,
          tagId,
          terms,
          ...(value !== undefined ? { value, version: f.version() } : {}),
        });
      });
      await f.reload();
      await this.load(true);
      f.session.announce(
        terms.length === 0
          ? t('idx_removed', { id: tagId })
          : t('idx_saved', { id: tagId, terms: terms.map((x) => x.label).join(', ') }),
      );
    } catch (err) {
      const message =
        err instanceof ApiError && err.code === 'record.stale_write'
          ? t('idx_stale')
          : err instanceof ApiError
            ? err.message
            : t('idx_notSaved');
      f.session.announce(message, 'error');
      if (err instanceof ApiError && err.code === 'record.stale_write') await f.reload();
    }
  }
}
