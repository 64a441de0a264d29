/**
 * Where an audiovisual file's running time goes: the duration component of the AV component's
 * section, named by the AV node's `properties.duration_component`, else Dédalo's own pairing
 * (the file rsc35 of Audiovisual rsc167 and its Duration rsc54). The value is written the way
 * the field holds it: a time code `HH:MM:SS.mmm` in a text field (as Dédalo writes rsc54, and
 * as a cataloguer types it), seconds in a number field.
 */
import type { Ontology } from '../ontology/load-ontology.js';
import { NO_LANG } from '../ontology/load-ontology.js';

const DEDALO_PAIRS: Record<string, string> = { rsc35: 'rsc54' };

/** The duration component of `avTipo`'s section, if the ontology has one. */
export function durationComponentOf(ontology: Ontology, avTipo: string): string | undefined {
  const node = ontology.node(avTipo);
  if (node?.model !== 'component_av') return undefined;
  const named = node.properties?.duration_component;
  const tipo = typeof named === 'string' ? named : DEDALO_PAIRS[avTipo];
  const section = ontology.sectionOf(avTipo)?.tipo;
  if (!tipo || !section || !ontology.isComponentOf(tipo, section)) return undefined;
  const model = ontology.node(tipo)?.model;
  return model === 'component_input_text' || model === 'component_number' ? tipo : undefined;
}

/** `HH:MM:SS.mmm` of a number of seconds (hours grow past 99 when they must). */
export function timecodeOf(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** The component's whole new value holding `seconds`, with item id `id`. */
export function durationItems(ontology: Ontology, tipo: string, seconds: number, id: number): unknown[] {
  const number = ontology.node(tipo)?.model === 'component_number';
  const value = number ? Math.round(seconds * 1000) / 1000 : timecodeOf(seconds);
  return [{ id, lang: NO_LANG, value }];
}
