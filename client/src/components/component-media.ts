/**
 * component_image and component_av: the attached file (name, size) and an upload with a progress
 * bar; the uploaded file is then attached to this component (`dd_utils_api.attach_uploaded_file`),
 * which stores it and writes the value with its history. Where the server lacks that action the
 * upload control is not offered. An audiovisual field's player is registered for the
 * transcription of the same record (text/av-players.ts); attaching a file may fill the record's
 * duration field too (the server reads the running time), which the form then shows.
 */

import { css, html } from 'lit';
import { t } from '../api/i18n.js';
import type { ReadResult } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import { RECORD_WRITTEN } from '../app/session.js';
import { registerPlayer } from '../text/av-players.js';
import { uploadFile } from '../upload/chunked-upload.js';
import { ComponentBase } from './component-base.js';

interface MediaItem {
  id: number;
  value?: { name?: string; size?: number; url?: string; key_dir?: string };
}

const KEY_DIRS: Record<string, string> = {
  component_image: 'image',
  component_av: 'av',
  component_pdf: 'pdf',
};
const ACCEPT: Record<string, string> = {
  component_image: 'image/*',
  component_av: 'audio/*,video/*',
  component_pdf: 'application/pdf',
};

function sizeText(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export class ComponentMedia extends ComponentBase {
  static override styles = [
    ...ComponentBase.styles,
    css`
      progress { width: 16rem; }
      .preview { display: block; max-width: min(100%, 28rem); max-height: 20rem; border: 1px solid var(--line); }
      /* The player fills its column (beside the transcription on a wide screen). */
      video.preview { width: 100%; max-width: 100%; max-height: 60vh; background: #111; }
    `,
  ];
  static override properties = { ...ComponentBase.properties, progress: { state: true } };
  declare progress: number | undefined;

  /** The work server's media route for this component's file (same session cookie). */
  private mediaUrl(name: string): string {
    const { sectionTipo, sectionId } = this.store;
    const api = this.store.session.api.apiUrl.replace(/\/$/, '');
    return `${api}/media/${encodeURIComponent(sectionTipo)}/${sectionId}/${encodeURIComponent(this.tipo)}/${encodeURIComponent(name)}`;
  }

  private async upload(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    const keyDir = KEY_DIRS[this.context.model] ?? 'document';
    this.status = 'saving';
    this.message = '';
    this.progress = 0;
    try {
      const uploaded = await uploadFile(this.store.session.api, file, keyDir, (f) => {
        this.progress = f;
      });
      const answer = await this.store.session.api.call<ReadResult>({
        dd_api: 'dd_utils_api',
        action: 'attach_uploaded_file',
        options: {
          section_tipo: this.store.sectionTipo,
          section_id: this.store.sectionId,
          tipo: this.tipo,
          key_dir: keyDir,
          file_name: uploaded.name,
        },
      });
      this.applyEcho(answer.data);
      // The record keeps the new value, and the other fields the attach filled (the duration of
      // an audiovisual file): the form shows them when it draws again.
      this.store.keep(answer.data.data);
      this.dispatchEvent(
        new CustomEvent(RECORD_WRITTEN, {
          bubbles: true,
          composed: true,
          detail: { sectionTipo: this.store.sectionTipo },
        }),
      );
      this.status = 'saved';
      input.value = '';
    } catch (err) {
      this.status = 'failed';
      this.message = err instanceof ApiError ? err.message : t('uploadFailed');
    } finally {
      this.progress = undefined;
    }
  }

  override updated(changed: Map<string, unknown>) {
    super.updated(changed);
    if (this.context?.model !== 'component_av' || !this.store) return;
    registerPlayer(
      this.store.sectionTipo,
      this.store.sectionId,
      this.renderRoot.querySelector('video') ?? undefined,
    );
  }

  override disconnectedCallback() {
    if (this.context?.model === 'component_av' && this.store)
      registerPlayer(this.store.sectionTipo, this.store.sectionId, undefined);
    super.disconnectedCallback();
  }

  override render() {
    const current = (this.entries as MediaItem[])[0]?.value;
    const canAttach = this.store.session.api.supports('dd_utils_api', 'attach_uploaded_file');
    const id = `${this.uid}-file`;
    const url = current?.name ? this.mediaUrl(current.name) : undefined;
    const shown =
      current?.name === undefined
        ? html`<p class="muted">${t('noFileYet')}</p>`
        : this.context.model === 'component_image'
          ? html`<img class="preview" src=${url} alt="${this.context.label}: ${current.name}" />`
          : this.context.model === 'component_av'
            ? html`<video class="preview" controls preload="metadata" src=${url}
                aria-label="${this.context.label}: ${current.name}"></video>`
            : html`<a href=${url}>${t('download', { name: current.name })}</a>`;
    return this.frame(
      html`${current?.name ? html`<p>${current.name} <span class="muted">${sizeText(current.size)}</span></p>` : ''}
        ${shown}
        ${
          !this.readOnly && canAttach
            ? html`<div class="row">
              <input id=${id} type="file" accept=${ACCEPT[this.context.model] ?? ''} aria-label=${t('uploadTo', { label: this.context.label as string })}
                @change=${this.upload} ?disabled=${this.progress !== undefined} />
              ${
                this.progress !== undefined
                  ? html`<progress max="1" .value=${this.progress} aria-label=${t('uploadProgress')}></progress>
                    <span>${Math.round(this.progress * 100)}%</span>`
                  : ''
              }
            </div>`
            : ''
        }`,
    );
  }
}
customElements.define('component-image', class extends ComponentMedia {});
customElements.define('component-av', class extends ComponentMedia {});
customElements.define('component-pdf', class extends ComponentMedia {});
