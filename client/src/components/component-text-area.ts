/**
 * component_text_area: the first value of the slice in the transcription editor; saved on leaving
 * it. A transcription (`properties.tags`) works against the record's player and offers the
 * interview's informants as speakers; any other text area (an abstract, a note) is a plain text,
 * without the timecode and page tools.
 */
import { html } from 'lit';
import { playerOf, playersChanged } from '../text/av-players.js';
import '../text/dd-transcription-editor.js';
import { IndexingHost, thesaurusSections } from '../text/indexing-host.js';
import { type Speaker, speakersOf } from '../text/speakers.js';
import { ComponentBase } from './component-base.js';

interface TextItem {
  id: number;
  value: string;
}

export class ComponentTextArea extends ComponentBase {
  static override properties = { ...ComponentBase.properties, speakers: { state: true } };
  declare speakers: Speaker[] | undefined;
  private speakersFor: unknown;

  private get isTranscription(): boolean {
    return (this.context?.properties as { tags?: unknown } | undefined)?.tags === true;
  }

  /** A player came or went: the editor shows (or drops) its player tools. */
  private onPlayers = () => {
    this.renderRoot
      .querySelector<HTMLElement & { requestUpdate(): void }>('dd-transcription-editor')
      ?.requestUpdate();
  };

  override connectedCallback() {
    super.connectedCallback();
    playersChanged.addEventListener('change', this.onPlayers);
  }

  override disconnectedCallback() {
    playersChanged.removeEventListener('change', this.onPlayers);
    super.disconnectedCallback();
  }

  private player = () => (this.store ? playerOf(this.store.sectionTipo, this.store.sectionId) : undefined);

  /** The informants, read once per record shown. */
  private loadSpeakers() {
    if (!this.isTranscription || this.readOnly || this.speakersFor === this.store) return;
    const store = this.store;
    this.speakersFor = store;
    void speakersOf(store.session.api, store.sectionTipo, store.sectionId).then((found) => {
      if (this.store === store) this.speakers = found;
    });
  }

  /** What is typed is kept in the tab (a reload or a closed tab keeps it) until it is saved. */
  private drafted(e: CustomEvent<string>) {
    const value = e.detail;
    const entry = (this.entries as TextItem[])[0];
    if (this.status === 'saved') this.status = 'idle';
    if ((entry?.value ?? '') === value) this.dropDraft();
    else if (entry)
      this.keepDraft(
        value === ''
          ? [{ action: 'remove', id: entry.id, value: null }]
          : [{ action: 'update', id: entry.id, value: { id: entry.id, lang: this.itemLang, value } }],
      );
    else this.keepDraft([{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }]);
  }

  /**
   * The editor's own latest text while its saves are under way (or were not saved): the editor
   * shows it, never an older echo (an echo re-filling the editor would drop what is being typed).
   */
  private local: string | undefined;
  private localFor: unknown;

  private changed(e: CustomEvent<string>) {
    const value = e.detail;
    this.local = value;
    this.localFor = this.store;
    // Read the current item only after the previous save's echo: leaving the text and then
    // inserting a timecode are two changes in quick succession.
    return this.afterPendingSaves(async () => {
      const entry = (this.entries as TextItem[])[0];
      if (entry) {
        if (entry.value === value) return;
        await this.save(
          value === ''
            ? [{ action: 'remove', id: entry.id, value: null }]
            : [{ action: 'update', id: entry.id, value: { id: entry.id, lang: this.itemLang, value } }],
        );
      } else if (value !== '') {
        await this.save([{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }]);
      }
      // Saved as typed: the item holds it now.
      if (this.local === value && ((this.entries as TextItem[])[0]?.value ?? '') === value)
        this.local = undefined;
    });
  }

  /** Indexing passages with thesaurus terms (text/indexing-host.ts), for texts with Dédalo tags. */
  private indexing: IndexingHost | undefined;
  private indexingFor: unknown;

  private get indexable(): boolean {
    const tags = (this.context.properties as { tags?: unknown } | undefined)?.tags === true;
    return tags && !this.readOnly && thesaurusSections(this.store.session).length > 0;
  }

  private indexingHost(): IndexingHost {
    if (!this.indexing || this.indexingFor !== this.store) {
      this.indexingFor = this.store;
      this.indexing = new IndexingHost({
        session: this.store.session,
        sectionTipo: this.store.sectionTipo,
        sectionId: this.store.sectionId,
        tipo: this.tipo,
        lang: this.itemLang,
        version: () => this.item?.version as number | undefined,
        text: () => this.local ?? (this.entries as TextItem[])[0]?.value ?? '',
        afterPendingSaves: (fn) => this.afterPendingSaves(fn),
        reload: async () => {
          const fresh = await this.store.readComponent(this.tipo, this.context.model, this.itemLang);
          if (fresh) this.item = fresh;
          await this.resetInputs();
        },
        changed: () => this.requestUpdate(),
      });
      void this.indexing.load();
    }
    return this.indexing;
  }

  private editor():
    | (HTMLElement & {
        markedSelection: (o: string, c: string) => { value: string; passage: string } | undefined;
      })
    | null {
    return this.renderRoot.querySelector('dd-transcription-editor');
  }

  protected override async resetInputs() {
    await this.updateComplete;
    const editor = this.renderRoot.querySelector('dd-transcription-editor') as
      | (HTMLElement & { value: string })
      | null;
    this.local = undefined;
    if (editor) editor.value = (this.entries as TextItem[])[0]?.value ?? '';
  }

  override render() {
    const entry = (this.entries as TextItem[])[0];
    // Another record (or the same one read again): what it holds.
    if (this.localFor !== this.store) this.local = undefined;
    this.loadSpeakers();
    const indexing = this.indexable ? this.indexingHost() : undefined;
    return this.frame(
      html`<dd-transcription-editor .value=${this.local ?? entry?.value ?? ''} .label=${this.context.label as string}
        ?readonly=${this.readOnly} ?plain=${!this.isTranscription} .player=${this.isTranscription ? this.player : undefined}
        .speakers=${this.speakers ?? []} @change=${this.changed} @draft=${this.drafted}
        ?indexable=${indexing?.mayIndex ?? false} .indexLabels=${indexing?.labels() ?? {}}
        @index-selection=${() => indexing?.indexSelection((o, c) => this.editor()?.markedSelection(o, c))}
        @index-region=${(e: CustomEvent<number>) => indexing?.openRegion(e.detail)}></dd-transcription-editor>`,
    );
  }
}
customElements.define('component-text-area', ComponentTextArea);
