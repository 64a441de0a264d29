/**
 * The transcription editor: the text is edited as text, and every Dédalo tag ([TC_...],
 * [index-...], [page-...], ...) is an atomic chip that can be moved past, deleted as one piece,
 * or inserted at the caret (timecode, page) — never broken into half a tag by a keystroke. The
 * value written back is the text with each chip's tag verbatim. Fires `change` (detail: the new
 * value) when the field loses focus with a different value.
 */
import { css, html, LitElement } from 'lit';
import { baseStyles } from '../app/styles.js';
import { pageTag, segmentsOf, timecodeTag } from './transcription-segments.js';

const BLOCKS = new Set(['DIV', 'P']);

/** Reads the editing surface back into the stored text (chips -> their raw tag). */
export function serializeEditor(root: Node): string {
  let out = '';
  const walk = (node: Node, isFirst: boolean) => {
    if (node.nodeType === Node.TEXT_NODE) {
      out += node.nodeValue ?? '';
      return;
    }
    if (!(node instanceof HTMLElement)) return;
    if (node.dataset.raw !== undefined) {
      out += node.dataset.raw;
      return;
    }
    if (node.tagName === 'BR') {
      out += '\n';
      return;
    }
    // The browser wraps new lines typed with Enter in <div>s.
    if (BLOCKS.has(node.tagName) && !isFirst && !out.endsWith('\n')) out += '\n';
    node.childNodes.forEach((child, i) => {
      walk(child, i === 0 && isFirst);
    });
  };
  root.childNodes.forEach((child, i) => {
    walk(child, i === 0);
  });
  return out;
}

export class DdTranscriptionEditor extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      .surface {
        min-height: 6rem; max-height: 30rem; overflow: auto; white-space: pre-wrap; border: 1px solid #8a949e;
        border-radius: 4px; padding: 0.45rem; background: var(--paper); line-height: 1.7;
      }
      .surface[aria-readonly='true'] { background: var(--wash); }
      .chip { cursor: default; user-select: all; }
      .chip.tc { background: #e7f4ea; border-color: #7fbf8e; }
      .chip.index { background: #fdf1dc; border-color: #e0b25c; }
      .chip.page { background: #efe7f8; border-color: #a98bd1; }
      .chip.html { background: #f3f5f7; border-color: #c9d1d9; color: var(--muted); font-family: ui-monospace, monospace; }
      .tools { margin-top: 0.3rem; }
      .tools input { width: 7rem; }
    `,
  ];
  static override properties = {
    value: {},
    label: {},
    readonly: { type: Boolean },
  };
  declare value: string;
  declare label: string;
  declare readonly: boolean;
  private lastRange: Range | undefined;
  private rendered: string | undefined;

  constructor() {
    super();
    this.value = '';
    this.label = 'Text';
    this.readonly = false;
  }

  private get surface(): HTMLElement {
    return this.renderRoot.querySelector('.surface') as HTMLElement;
  }

  /** The current text of the editing surface. */
  get currentValue(): string {
    return serializeEditor(this.surface);
  }

  /** (Re)builds the surface from `value`: text nodes and chips. Lit does not own its content. */
  private fill() {
    const surface = this.surface;
    surface.replaceChildren();
    for (const seg of segmentsOf(this.value ?? '')) {
      if (seg.kind === 'text') {
        surface.append(document.createTextNode(seg.text));
        continue;
      }
      surface.append(this.chip(seg.raw, seg.label, seg.tag.kind));
    }
    this.rendered = this.value;
  }

  private chip(raw: string, label: string, kind: string): HTMLElement {
    const chip = document.createElement('span');
    const family = kind.startsWith('tc')
      ? 'tc'
      : kind.startsWith('index')
        ? 'index'
        : kind === 'page' || kind === 'html'
          ? kind
          : 'other';
    chip.className = `chip ${family}`;
    chip.contentEditable = 'false';
    chip.dataset.raw = raw;
    chip.setAttribute('role', 'img');
    chip.setAttribute('aria-label', kind === 'html' ? `markup: ${label}` : `tag: ${label}`);
    chip.title = raw;
    chip.textContent = label;
    return chip;
  }

  override updated() {
    if (this.rendered !== this.value) this.fill();
  }

  private remember() {
    const root = this.renderRoot as ShadowRoot & { getSelection?: () => Selection | null };
    const sel = root.getSelection?.() ?? document.getSelection();
    if (sel && sel.rangeCount > 0 && this.surface.contains(sel.getRangeAt(0).startContainer)) {
      this.lastRange = sel.getRangeAt(0).cloneRange();
    }
  }

  /** Inserts a tag chip at the caret (or at the end when the caret was never in the text). */
  insertTag(raw: string) {
    const seg = segmentsOf(raw)[0];
    if (seg?.kind !== 'tag') return;
    const chip = this.chip(raw, seg.label, seg.tag.kind);
    const range = this.lastRange;
    if (range) {
      range.deleteContents();
      range.insertNode(chip);
      range.setStartAfter(chip);
      range.collapse(true);
    } else {
      this.surface.append(chip);
    }
    this.emitIfChanged();
  }

  private emitIfChanged() {
    const next = this.currentValue;
    if (next === this.value) return;
    this.value = next;
    this.rendered = next;
    this.dispatchEvent(new CustomEvent('change', { detail: next, bubbles: true, composed: true }));
  }

  private insertTimecode() {
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name="tc"]')!;
    const tag = timecodeTag(input.value);
    if (!tag) {
      input.setCustomValidity('Write the time as 00:01:30 or 90');
      input.reportValidity();
      return;
    }
    input.setCustomValidity('');
    this.insertTag(tag);
    input.value = '';
  }

  private insertPage() {
    const pages = [...this.currentValue.matchAll(/\[page-[a-z]-(\d+)/g)].map((m) => Number(m[1]));
    this.insertTag(pageTag(pages.length > 0 ? Math.max(...pages) + 1 : 1));
  }

  override render() {
    return html`<div class="surface" role="textbox" aria-multiline="true" aria-label=${this.label}
        aria-readonly=${this.readonly ? 'true' : 'false'} contenteditable=${this.readonly ? 'false' : 'true'}
        spellcheck="true" @keyup=${this.remember} @mouseup=${this.remember} @input=${this.remember}
        @blur=${this.emitIfChanged}></div>
      ${
        this.readonly
          ? ''
          : html`<div class="tools row">
            <input name="tc" aria-label="Timecode to insert (00:01:30)" placeholder="00:01:30" />
            <button type="button" @click=${this.insertTimecode}>Insert timecode</button>
            <button type="button" @click=${this.insertPage}>Insert page break</button>
          </div>`
      }`;
  }
}
customElements.define('dd-transcription-editor', DdTranscriptionEditor);
