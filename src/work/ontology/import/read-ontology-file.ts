/**
 * The entry point of the ontology readers: a file's text in, the normalised node list and its
 * report out. The format (jer_dd as INSERT statements or COPY text, dd_ontology as COPY text) is
 * detected from the content; throws OntologyParseError when the file holds no readable ontology.
 */
import type { ImportResult } from './import-node.js';
import { type NormaliseOptions, normalise } from './normalise.js';
import { readDump } from './read-dump.js';

export function readOntologyFile(text: string, options: NormaliseOptions = {}): ImportResult {
  return normalise(readDump(text), options);
}

/** Decodes file bytes as UTF-8 (invalid sequences become U+FFFD) and reads them. */
export function readOntologyBytes(bytes: Uint8Array, options: NormaliseOptions = {}): ImportResult {
  return readOntologyFile(new TextDecoder('utf-8').decode(bytes), options);
}
