/**
 * Who speaks in a passage: `[person-...]` tags mark speaker changes, so the speaker in effect at
 * the start of a passage is the last person tag before it, and every person tag inside it adds
 * one. Each person appears once (by tag id), in order of appearance.
 */
import type { PersonTag, Tag } from '../../common/text/tag-grammar.js';

export interface PassageSpeaker {
  id: number;
  /** The tag label with underscores read as spaces (`Maria_Puig` -> `Maria Puig`). */
  name: string;
  /** The tag's data payload (usually a locator of the person's record), when it is JSON. */
  data?: unknown;
}

/** Speakers of the stored span [start, end). */
export function speakersIn(tags: readonly Tag[], start: number, end: number): PassageSpeaker[] {
  let current: PersonTag | undefined;
  const inside: PersonTag[] = [];
  for (const t of tags) {
    if (t.kind !== 'person') continue;
    if (t.end <= start) current = t;
    else if (t.start < end) inside.push(t);
    else break;
  }
  const seen = new Set<number>();
  const out: PassageSpeaker[] = [];
  for (const t of current ? [current, ...inside] : inside) {
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    const speaker: PassageSpeaker = { id: t.id, name: t.label.replaceAll('_', ' ').trim() };
    if (t.data !== undefined) speaker.data = t.data;
    out.push(speaker);
  }
  return out;
}
