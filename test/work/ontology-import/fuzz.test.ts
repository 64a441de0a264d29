/**
 * Fuzz: random bytes, SQL-ish token soup and mutated fixtures never make the readers throw
 * anything but OntologyParseError (with a message).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OntologyParseError } from '../../../src/work/ontology/import/parse-error.js';
import { readOntologyBytes, readOntologyFile } from '../../../src/work/ontology/import/read-ontology-file.js';

function readsOrRefuses(read: () => unknown): void {
  try {
    read();
  } catch (e) {
    if (!(e instanceof OntologyParseError)) throw e;
    expect(e.message.length).toBeGreaterThan(10);
  }
}

const fixtures = ['mus.jer_dd.sql', 'mus.jer_dd.copy.sql', 'mus.dd_ontology.copy.sql'].map((name) =>
  readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8'),
);

const token = fc.constantFrom(
  'INSERT INTO jer_dd ',
  'insert into public.dd_ontology ',
  'COPY jer_dd ',
  'COPY dd_ontology ',
  '("terminoID", term)',
  '(tipo, term, relations)',
  ' VALUES ',
  '(',
  ')',
  "'",
  "E'",
  "''",
  '\\',
  '\\u12',
  '\\777',
  '\t',
  '\n',
  '\\.',
  '\\N',
  ';',
  ',',
  'NULL',
  "'dd1'",
  '\'{"lg-spa": 1}\'',
  '--',
  '/*',
  '*/',
  '$$',
  '$a$',
  '"',
  ' FROM stdin;\n',
  '::jsonb',
  '::character varying(',
  '1e5',
  '-',
  'ON CONFLICT',
  'oh1',
  '[{"x": "oh2"}]',
  '\uFEFF',
  '😀',
);

/** A mutation of a fixture: cut, insert, duplicate or truncate at random places. */
const mutated = fc
  .tuple(
    fc.constantFrom(...fixtures),
    fc.array(
      fc.tuple(
        fc.constantFrom('cut', 'insert', 'dup', 'truncate'),
        fc.nat(),
        fc.nat({ max: 40 }),
        fc.oneof(token, fc.string({ unit: 'binary', maxLength: 4 })),
      ),
      { minLength: 1, maxLength: 6 },
    ),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [kind, at, len, insert] of edits) {
      const p = at % (out.length + 1);
      if (kind === 'cut') out = out.slice(0, p) + out.slice(p + len);
      else if (kind === 'insert') out = out.slice(0, p) + insert + out.slice(p);
      else if (kind === 'dup') out = out.slice(0, p + len) + out.slice(p, p + len) + out.slice(p + len);
      else out = out.slice(0, p);
    }
    return out;
  });

describe('ontology readers under fuzz', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) =>
        readsOrRefuses(() => readOntologyBytes(bytes)),
      ),
      { numRuns: 500 },
    );
  });

  it('SQL and COPY token soup', () => {
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 60 }),
        fc.option(fc.constantFrom('oh', 'dd', 'mus')),
        (t, tld) => readsOrRefuses(() => readOntologyFile(t.join(''), { tld })),
      ),
      { numRuns: 2000 },
    );
  });

  it('mutated fixtures', () => {
    fc.assert(
      fc.property(mutated, fc.option(fc.constantFrom('mus', 'dd', 'zz')), (text, tld) =>
        readsOrRefuses(() => readOntologyFile(text, { tld })),
      ),
      { numRuns: 1000 },
    );
  });
});
