/**
 * The transcription editor: the text is edited as text, and every Dédalo tag ([TC_...],
 * [index-...], [page-...], ...) is an atomic chip that can be moved past, deleted as one piece,
 * or inserted at the caret (timecode, page) — never broken into half a tag by a keystroke. The
 * value written back is the text with each chip's tag verbatim. Fires `change` (detail: the new
 * value) when the field loses focus with a different value, and `draft` (detail: the text) a
 * moment after typing stops.
 *
 * The caret never stays inside a chip: a chip is not editable, and the browser drops (or hides
 * in the chip) what is typed there — a click in the blank area after a last chip, or Ctrl+End,
 * can leave it there. Typing, Enter and Backspace with the caret in a chip or between elements
 * are done here (text goes into a text node beside the chip), and a tag is inserted beside a
 * chip, never inside it.
 *
 * Against the player (`player`: the record's audiovisual player, text/av-players.ts): Esc or
 * Ctrl+Space play and pause, F2 goes back 5 s, F4 inserts the player's time as a timecode, and a
 * click on a timecode chip takes the player there. `speakers` (text/speakers.ts) offers the
 * interview's informants as person tags. Ctrl+Enter (the page-break key of word processors)
 * inserts the next page marker, with or without a player.
 *
 * A `plain` text (a text area whose component does not hold Dédalo's tags: an abstract, a note)
 * is edited the same way, but offers no timecode or page tools and Ctrl+Enter is not a page
 * break there: those tags mean nothing outside a transcription. Tags such a text already holds
 * still show as chips, so they are neither lost nor broken.
 */

import { css, html, LitElement } from 'lit';
import type { Tag } from '../../../src/common/text/tag-grammar.js';
import { t } from '../api/i18n.js';
import { baseStyles } from '../app/styles.js';
import { type PlayerAction, playerShortcut, runOnPlayer } from './av-players.js';
import type { Speaker } from './speakers.js';
import { pageTag, segmentsOf, timecodeTag } from './transcription-segments.js';

const BLOCKS = new Set(['DIV', 'P']);

/** Where a timecode chip takes the player (a range: its start). */
function secondsOfTag(tag: Tag): number | undefined {
  if (tag.kind === 'tc-point') return tag.seconds;
  if (tag.kind === 'tc-range') return tag.tcIn;
  return undefined;
}

/**
 * Ctrl+Enter inserts a page marker: the page-break key of Word, LibreOffice and Google Docs. The
 * free F-keys say nothing of pages, and F3, F5-F7, F11 and F12 are the browsers' own.
 */
export function isPageShortcut(e: KeyboardEvent): boolean {
  return e.key === 'Enter' && e.ctrlKey && !e.shiftKey && !e.altKey && !e.metaKey;
}

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
      // The browser's placeholder that keeps an empty line (or an emptied box) open is the last
      // child of its line: not a line break anyone typed.
      if (node.nextSibling !== null) out += '\n';
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

/**
 * A caret just after the placeholder <br> that ends a line (its parent's last child, never saved)
 * is moved before it: that <br> is no line break, and something put after it would start one.
 */
export function beforePlaceholder(range: Range): Range {
  if (!range.collapsed) return range;
  const node = range.startContainer;
  const offset = range.startOffset;
  if (node.nodeType === Node.TEXT_NODE || offset === 0 || offset !== node.childNodes.length) return range;
  const last = node.childNodes[offset - 1];
  if (!(last instanceof HTMLBRElement)) return range;
  const r = range.cloneRange();
  r.setStartBefore(last);
  r.collapse(true);
  return r;
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
      .tools { margin-top: 0.3rem; flex-wrap: wrap; }
      .chip.tc { cursor: pointer; }
      .keys { flex-basis: 100%; font-size: 0.9rem; }
      .keys dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.75rem; margin: 0.3rem 0 0; }
      .keys dd { margin: 0; }
      kbd { font-family: ui-monospace, monospace; border: 1px solid var(--line); border-radius: 3px; padding: 0 0.25rem; background: var(--wash); }
      mark.region { background: #fff3c4; color: inherit; border-bottom: 2px solid #e0b25c; }
      .regions { margin-top: 0.35rem; display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
      .regions button { font-size: 0.85em; padding: 0.1rem 0.5rem; background: #fdf1dc; border-color: #e0b25c; }
      .tools input { width: 7rem; }
    `,
  ];
  static override properties = {
    value: {},
    label: {},
    readonly: { type: Boolean },
    player: { attribute: false },
    speakers: { attribute: false },
    indexable: { type: Boolean },
    indexLabels: { attribute: false },
    plain: { type: Boolean },
  };
  declare value: string;
  declare label: string;
  declare readonly: boolean;
  /** The record's audiovisual player, when it has one on the page. */
  declare player: (() => HTMLMediaElement | undefined) | undefined;
  /** The people who may speak in the text (person tags), when known. */
  declare speakers: Speaker[];
  /** Offers "Index selection" and the list of indexed passages (text/indexing-host.ts). */
  declare indexable: boolean;
  /** The terms of each indexed passage, by tag id, as the list of passages names them. */
  declare indexLabels: Record<number, string>;
  /** A text without Dédalo's tags: no timecode or page tools (see the top of this file). */
  declare plain: boolean;
  private lastRange: Range | undefined;
  private rendered: string | undefined;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.value = '';
    this.label = t('text');
    this.readonly = false;
    this.speakers = [];
    this.indexable = false;
    this.indexLabels = {};
    this.plain = false;
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
    // The text between an index's marks shows as a marked region (serialised as plain text).
    const open: number[] = [];
    for (const seg of segmentsOf(this.value ?? '')) {
      if (seg.kind === 'text') {
        surface.append(open.length > 0 ? this.region(seg.text, open) : document.createTextNode(seg.text));
        continue;
      }
      if (seg.tag.kind === 'index-open') open.push(seg.tag.tagId);
      if (seg.tag.kind === 'index-close') {
        const at = open.indexOf(seg.tag.tagId);
        if (at >= 0) open.splice(at, 1);
      }
      surface.append(this.chip(seg.raw, seg.label, seg.tag.kind, secondsOfTag(seg.tag)));
    }
    this.ensureTail();
    this.rendered = this.value;
  }

  /**
   * A chip as the last thing in the text leaves the browser no place for the caret after it
   * (it moves the caret out of the text): a trailing <br> (the browser's own placeholder, never
   * saved) gives it one.
   */
  private ensureTail() {
    const surface = this.surface;
    const last = surface.lastChild;
    if (last instanceof HTMLElement && last.dataset.raw !== undefined)
      surface.append(document.createElement('br'));
  }

  private region(text: string, tags: readonly number[]): HTMLElement {
    const mark = document.createElement('mark');
    mark.className = 'region';
    mark.dataset.tags = tags.join(' ');
    mark.textContent = text;
    return mark;
  }

  private chip(raw: string, label: string, kind: string, seconds?: number): HTMLElement {
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
    chip.setAttribute('aria-label', t(kind === 'html' ? 'ci_chipMarkup' : 'ci_chipTag', { label }));
    chip.title = raw;
    chip.textContent = label;
    if (seconds !== undefined) chip.dataset.seconds = String(seconds);
    return chip;
  }

  override updated() {
    if (this.rendered !== this.value) this.fill();
  }

  private selection(): Selection | null {
    const root = this.renderRoot as ShadowRoot & { getSelection?: () => Selection | null };
    return root.getSelection?.() ?? document.getSelection();
  }

  /** The chip `node` is in (its text, or the chip itself), if any. */
  private chipAround(node: Node | null): HTMLElement | null {
    const el = node instanceof HTMLElement ? node : (node?.parentElement ?? null);
    const chip = el?.closest<HTMLElement>('[data-raw]') ?? null;
    return chip && this.surface.contains(chip) ? chip : null;
  }

  /** The range with both ends out of chips: a caret in a chip goes after it, a selection spans it. */
  private outOfChips(range: Range): Range {
    const r = range.cloneRange();
    const startChip = this.chipAround(r.startContainer);
    const endChip = this.chipAround(r.endContainer);
    if (r.collapsed && startChip) {
      r.setStartAfter(startChip);
      r.collapse(true);
      return r;
    }
    if (startChip) r.setStartBefore(startChip);
    if (endChip) r.setEndAfter(endChip);
    return r;
  }

  private remember() {
    const sel = this.selection();
    if (sel && sel.rangeCount > 0 && this.surface.contains(sel.getRangeAt(0).startContainer)) {
      this.lastRange = this.outOfChips(sel.getRangeAt(0));
    }
  }

  private placeCaret(node: Node, offset: number) {
    const r = document.createRange();
    r.setStart(node, offset);
    r.collapse(true);
    const sel = this.selection();
    sel?.removeAllRanges();
    sel?.addRange(r);
    this.lastRange = r.cloneRange();
  }

  /** Puts `text` at the range (out of chips, its selection removed) in a text node; caret after it. */
  private insertText(range: Range, text: string) {
    const r = this.outOfChips(range);
    if (!r.collapsed) r.deleteContents();
    const node = r.startContainer;
    const offset = r.startOffset;
    if (node.nodeType === Node.TEXT_NODE && !this.chipAround(node)) {
      (node as Text).insertData(offset, text);
      this.placeCaret(node, offset + text.length);
      return;
    }
    const before = node.childNodes[offset - 1];
    const after = node.childNodes[offset];
    if (before?.nodeType === Node.TEXT_NODE) {
      const t = before as Text;
      const at = t.length;
      t.appendData(text);
      this.placeCaret(t, at + text.length);
    } else if (after?.nodeType === Node.TEXT_NODE) {
      (after as Text).insertData(0, text);
      this.placeCaret(after, text.length);
    } else {
      const t = document.createTextNode(text);
      node.insertBefore(t, after ?? null);
      this.placeCaret(t, text.length);
    }
  }

  /**
   * Typing where the browser would lose it (in a chip, or at a position between elements, as
   * after a last chip) is done here; everywhere else the browser edits the text itself.
   */
  private onBeforeInput = (e: InputEvent) => {
    if (this.readonly || e.isComposing) return;
    const sel = this.selection();
    if (!sel || sel.rangeCount === 0) return;
    const range = sel.getRangeAt(0);
    if (!this.surface.contains(range.startContainer)) return;
    const startChip = this.chipAround(range.startContainer);
    const inChip = startChip !== null || this.chipAround(range.endContainer) !== null;
    const betweenElements = range.startContainer.nodeType !== Node.TEXT_NODE;
    const type = e.inputType;
    if (type === 'insertText' || type === 'insertReplacementText') {
      const text = e.data ?? e.dataTransfer?.getData('text/plain') ?? '';
      if (!inChip && !betweenElements) return;
      e.preventDefault();
      if (text) this.insertText(range, text);
    } else if (type === 'insertParagraph' || type === 'insertLineBreak') {
      if (!inChip) return;
      e.preventDefault();
      this.insertText(range, '\n');
    } else if (inChip) {
      // Deleting with the caret in a chip: the chip goes whole (Backspace), or nothing happens.
      e.preventDefault();
      if (type === 'deleteContentBackward' && range.collapsed && startChip) {
        const parent = startChip.parentNode!;
        const at = Array.prototype.indexOf.call(parent.childNodes, startChip) as number;
        startChip.remove();
        this.placeCaret(parent, at);
      } else {
        const r = this.outOfChips(range);
        if (!r.collapsed && type.startsWith('delete')) r.deleteContents();
        this.placeCaret(r.startContainer, r.startOffset);
      }
    } else return;
    this.typed();
  };

  /**
   * With the caret in a chip (the browser puts it there after a click in the blank area behind
   * a last chip, or Ctrl+End) the browser sends no input at all: keys that type are done here.
   */
  private onKeyDown = (e: KeyboardEvent) => {
    if (!e.isComposing && this.onPlayerKey(e)) return;
    if (this.readonly || e.isComposing) return;
    if (!this.plain && isPageShortcut(e)) {
      e.preventDefault();
      this.insertAndGoOn(this.nextPageTag());
      return;
    }
    const sel = this.selection();
    if (!sel || sel.rangeCount === 0) return;
    const range = sel.getRangeAt(0);
    if (!this.surface.contains(range.startContainer)) return;
    const startChip = this.chipAround(range.startContainer);
    const inChip = startChip !== null || this.chipAround(range.endContainer) !== null;
    const betweenElements = range.startContainer.nodeType !== Node.TEXT_NODE;
    const atTextStart = range.startContainer.nodeType === Node.TEXT_NODE && range.startOffset === 0;
    if (e.key === 'Backspace' && range.collapsed && (inChip || betweenElements || atTextStart)) {
      // What is just before the caret goes: a whole chip, or one character.
      e.preventDefault();
      this.deleteBackward(range);
      this.typed();
      return;
    }
    const printable = e.key.length === 1 && !e.ctrlKey && !e.metaKey;
    // A selection over a chip typed over: the browser's own replacement is unreliable there.
    const overChip =
      !range.collapsed &&
      [...this.surface.querySelectorAll('[data-raw]')].some((c) => range.intersectsNode(c));
    if (
      !inChip &&
      !betweenElements &&
      !(overChip && (printable || e.key === 'Backspace' || e.key === 'Delete'))
    )
      return;
    if (printable) {
      e.preventDefault();
      this.insertText(range, e.key);
    } else if (e.key === 'Enter' && inChip) {
      e.preventDefault();
      this.insertText(range, '\n');
    } else if ((e.key === 'Backspace' || e.key === 'Delete') && (inChip || overChip)) {
      e.preventDefault();
      const r = this.outOfChips(range);
      if (!r.collapsed) r.deleteContents();
      this.placeCaret(r.startContainer, r.startOffset);
    } else return;
    this.typed();
  };

  /** Backspace at a collapsed caret: the chip or character before it (a caret in a chip is after it). */
  private deleteBackward(range: Range) {
    const r = this.outOfChips(range);
    let node: Node = r.startContainer;
    let offset = r.startOffset;
    // A caret at the start of a text node: the position before that node.
    if (node.nodeType === Node.TEXT_NODE && offset === 0 && node.parentNode) {
      const parent = node.parentNode;
      offset = Array.prototype.indexOf.call(parent.childNodes, node) as number;
      node = parent;
    }
    if (node.nodeType === Node.TEXT_NODE) {
      (node as Text).deleteData(offset - 1, 1);
      this.placeCaret(node, offset - 1);
      return;
    }
    // Skip empty text nodes before the caret.
    let before = node.childNodes[offset - 1];
    while (before && before.nodeType === Node.TEXT_NODE && (before as Text).length === 0) {
      before = before.previousSibling ?? undefined;
    }
    if (!before) {
      this.placeCaret(node, offset);
      return;
    }
    if (before.nodeType === Node.TEXT_NODE) {
      const t = before as Text;
      t.deleteData(t.length - 1, 1);
      this.placeCaret(t, t.length);
      return;
    }
    const parent = before.parentNode!;
    const at = Array.prototype.indexOf.call(parent.childNodes, before) as number;
    if (before instanceof HTMLElement && before.dataset.raw !== undefined) {
      before.remove();
      this.placeCaret(parent, at);
    } else {
      // A line (<div>, <br>) before the caret: the browser joins lines itself.
      this.placeCaret(node, offset);
    }
  }

  /**
   * A click on a chip puts the caret after it (the browser would select it whole, or leave the
   * selection outside the text, and the next keys would go somewhere unforeseen).
   */
  private onMouseDown = (e: MouseEvent) => {
    if (this.readonly || e.button !== 0 || e.shiftKey) return;
    const chip = this.chipAround(e.target as Node);
    if (!chip) return;
    e.preventDefault();
    this.surface.focus({ preventScroll: true });
    const parent = chip.parentNode!;
    this.placeCaret(parent, (Array.prototype.indexOf.call(parent.childNodes, chip) as number) + 1);
  };

  /** After any edit: remember the caret, and say (a moment later) what the text is now. */
  private typed() {
    this.ensureTail();
    this.remember();
    clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => {
      this.dispatchEvent(
        new CustomEvent('draft', { detail: this.currentValue, bubbles: true, composed: true }),
      );
    }, 300);
  }

  /** Inserts a tag chip at the caret (or at the end when the caret was never in the text). */
  insertTag(raw: string) {
    const seg = segmentsOf(raw)[0];
    if (seg?.kind !== 'tag') return;
    const chip = this.chip(raw, seg.label, seg.tag.kind, secondsOfTag(seg.tag));
    const sel = this.selection();
    const live = sel && sel.rangeCount > 0 ? sel.getRangeAt(0) : undefined;
    const range =
      live && this.surface.contains(live.startContainer)
        ? this.outOfChips(live)
        : this.lastRange && this.surface.contains(this.lastRange.startContainer)
          ? this.outOfChips(this.lastRange)
          : undefined;
    if (range) {
      const r = beforePlaceholder(range);
      r.deleteContents();
      r.insertNode(chip);
    } else {
      // At the end of the text: before the browser's placeholder <br>, which is no line break
      // (after it, the tag would be saved on a new line).
      const tail = this.surface.lastChild;
      this.surface.insertBefore(chip, tail instanceof HTMLBRElement ? tail : null);
    }
    this.ensureTail();
    // The caret after the new chip (the next tag or typing goes after it).
    const after = document.createRange();
    after.setStartAfter(chip);
    after.collapse(true);
    this.lastRange = after;
    this.emitIfChanged();
  }

  private emitIfChanged() {
    // The change carries the text: a draft announced after it would be older than the save.
    clearTimeout(this.draftTimer);
    const next = this.currentValue;
    if (next === this.value) return;
    this.value = next;
    this.rendered = next;
    this.dispatchEvent(new CustomEvent('change', { detail: next, bubbles: true, composed: true }));
  }

  /** A player shortcut (av-players.ts) while typing: done here, and the key goes no further. */
  private onPlayerKey(e: KeyboardEvent): boolean {
    const action = playerShortcut(e);
    const player = this.player?.();
    if (!action || !player || (action === 'stamp' && this.readonly)) return false;
    e.preventDefault();
    this.playerDo(action);
    return true;
  }

  private playerDo(action: PlayerAction) {
    const player = this.player?.();
    if (!player) return;
    if (action === 'stamp') {
      const tag = timecodeTag(String(Math.round(player.currentTime * 1000) / 1000));
      if (tag) this.insertAndGoOn(tag);
    } else runOnPlayer(player, action);
  }

  /** A tag inserted at the caret, and typing goes on after the new chip. */
  private insertAndGoOn(raw: string) {
    this.insertTag(raw);
    const at = this.lastRange;
    this.surface.focus({ preventScroll: true });
    if (at) this.placeCaret(at.startContainer, at.startOffset);
  }

  /** A click on a timecode chip takes the player to that time (the caret goes after the chip). */
  private onChipClick = (e: MouseEvent) => {
    const chip = this.chipAround(e.target as Node);
    const seconds = chip?.dataset.seconds;
    const player = this.player?.();
    if (seconds === undefined || !player) return;
    player.currentTime = Number(seconds);
  };

  private insertSpeaker(e: Event) {
    const select = e.target as HTMLSelectElement;
    const speaker = this.speakers.find((s) => String(s.id) === select.value);
    select.value = '';
    if (speaker) this.insertTag(speaker.tag);
  }

  /** The player's buttons, the speakers and the keys, beside the timecode and page tools. */
  private renderPlayerTools() {
    const hasPlayer = this.player?.() !== undefined;
    return html`${
      hasPlayer
        ? html`<button type="button" aria-keyshortcuts="Escape Control+Space" @click=${() => this.playerDo('toggle')}>${t('playPause')}</button>
          <button type="button" aria-keyshortcuts="F2" @click=${() => this.playerDo('back')}>${t('backSeconds')}</button>
          <button type="button" aria-keyshortcuts="F4" @click=${() => this.playerDo('stamp')}>${t('insertPlayerTime')}</button>`
        : ''
    }${
      this.speakers.length > 0
        ? html`<label>${t('speaker')}
          <select @change=${this.insertSpeaker}>
            <option value="">${t('insertSpeaker')}</option>
            ${this.speakers.map((s) => html`<option value=${String(s.id)}>${s.name}</option>`)}
          </select></label>`
        : ''
    }${
      // The keys are told where one transcribes (a player or indexing), not under every text.
      hasPlayer || this.indexable
        ? html`<details class="keys"><summary>${t('shortcutsTitle')}</summary>
          <dl>${
            hasPlayer
              ? html`
            <dt><kbd>${t('escKey')}</kbd> / <kbd>${t('ctrlKey')}</kbd>+<kbd>${t('spaceKey')}</kbd></dt><dd>${t('playPause')}</dd>
            <dt><kbd>F2</kbd></dt><dd>${t('backSeconds')}</dd>
            <dt><kbd>F4</kbd></dt><dd>${t('insertPlayerTime')}</dd>
            <dt>${t('clickTimecode')}</dt><dd>${t('seekThere')}</dd>`
              : ''
          }
            <dt><kbd>${t('ctrlKey')}</kbd>+<kbd>${t('enterKey')}</kbd></dt><dd>${t('insertPageBreak')}</dd>
          </dl></details>`
        : ''
    }`;
  }

  /**
   * The text with the selected passage between the marks `open` and `close`, and the passage's
   * words; undefined when nothing is selected. The editor itself is left as it was: the marks
   * appear once the indexation is saved (the host sets the new value).
   */
  markedSelection(open: string, close: string): { value: string; passage: string } | undefined {
    // What was typed and not yet announced goes first (the host saves it as any change).
    this.emitIfChanged();
    const sel = this.selection();
    const live = sel && sel.rangeCount > 0 ? sel.getRangeAt(0) : undefined;
    const range =
      live && !live.collapsed && this.surface.contains(live.startContainer)
        ? this.outOfChips(live)
        : this.lastRange && !this.lastRange.collapsed && this.surface.contains(this.lastRange.startContainer)
          ? this.outOfChips(this.lastRange)
          : undefined;
    const passage = range?.toString().trim() ?? '';
    if (!range || passage === '') return undefined;
    const end = range.cloneRange();
    end.collapse(false);
    end.insertNode(this.chip(close, 'out', 'index-close'));
    const start = range.cloneRange();
    start.collapse(true);
    start.insertNode(this.chip(open, 'in', 'index-open'));
    const value = this.currentValue;
    this.lastRange = undefined;
    this.fill();
    return { value, passage };
  }

  private askIndex() {
    this.dispatchEvent(new CustomEvent('index-selection', { bubbles: true, composed: true }));
  }

  private openRegion(tagId: number) {
    this.dispatchEvent(new CustomEvent('index-region', { detail: tagId, bubbles: true, composed: true }));
  }

  private renderRegions() {
    if (!this.indexable) return '';
    const ids = [
      ...new Set([...(this.value ?? '').matchAll(/\[index-[a-z]-(\d+)/g)].map((m) => Number(m[1]))),
    ];
    if (ids.length === 0) return '';
    return html`<div class="regions" role="group" aria-label=${t('idx_passages')}>
      <span class="muted">${t('idx_passages')}:</span>
      ${ids.map(
        (id) => html`<button type="button" @click=${() => this.openRegion(id)}
          title=${t('idx_editPassage')}>${id}: ${this.indexLabels[id] || t('idx_noTerms')}</button>`,
      )}
    </div>`;
  }

  private insertTimecode() {
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name="tc"]')!;
    const tag = timecodeTag(input.value);
    if (!tag) {
      input.setCustomValidity(t('timecodeInvalid'));
      input.reportValidity();
      return;
    }
    input.setCustomValidity('');
    this.insertTag(tag);
    input.value = '';
  }

  /** The next page marker: one above the highest in the text. */
  private nextPageTag(): string {
    const pages = [...this.currentValue.matchAll(/\[page-[a-z]-(\d+)/g)].map((m) => Number(m[1]));
    return pageTag(pages.length > 0 ? Math.max(...pages) + 1 : 1);
  }

  private insertPage() {
    this.insertTag(this.nextPageTag());
  }

  override render() {
    return html`<div class="surface" role="textbox" aria-multiline="true" aria-label=${this.label}
        aria-readonly=${this.readonly ? 'true' : 'false'} contenteditable=${this.readonly ? 'false' : 'true'}
        spellcheck="true" @keyup=${this.remember} @mouseup=${this.remember} @input=${this.typed}
        @keydown=${this.onKeyDown} @mousedown=${this.onMouseDown} @click=${this.onChipClick} @beforeinput=${this.onBeforeInput} @blur=${this.emitIfChanged}></div>
      ${
        this.readonly || this.plain
          ? ''
          : html`<div class="tools row">
            <input name="tc" aria-label=${t('timecodeToInsert')} placeholder="00:01:30" />
            <button type="button" @click=${this.insertTimecode}>${t('insertTimecode')}</button>
            <button type="button" aria-keyshortcuts="Control+Enter" @click=${this.insertPage}>${t('insertPageBreak')}</button>
            ${this.renderPlayerTools()}
            ${this.indexable ? html`<button type="button" @mousedown=${(e: Event) => e.preventDefault()} @click=${this.askIndex}>${t('idx_indexSelection')}</button>` : ''}
          </div>`
      }${this.renderRegions()}`;
  }
}
customElements.define('dd-transcription-editor', DdTranscriptionEditor);
