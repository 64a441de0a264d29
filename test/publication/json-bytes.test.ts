import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RawJson } from '../../src/publication/db/raw-json.js';
import { jsonBytes } from '../../src/publication/http/json-bytes.js';

/** What the answer's bytes must always be: JSON.stringify's output, in UTF-8. */
const reference = (body: Record<string, unknown>) => Buffer.from(JSON.stringify(body), 'utf8');

describe('answer envelopes serialised to bytes', () => {
  it('writes exactly the bytes of JSON.stringify for any JSON envelope', () => {
    const text = fc.string({ unit: 'binary' }); // any UTF-16 unit, lone surrogates included
    const row = fc.dictionary(fc.string(), fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean()));
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 30 }),
        fc.object(),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (data, pagination, meta) => {
          const body = { data, pagination, meta };
          expect(jsonBytes(body).equals(reference(body))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes any JSON value, top-level arrays and scalars included, as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonBytes(value).equals(Buffer.from(JSON.stringify(value) ?? 'null'))).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(jsonBytes(undefined).toString()).toBe('null');
    const dated = { when: new Date(0), list: [new Date(0)] };
    expect(jsonBytes(dated).toString()).toBe(JSON.stringify(dated));
  });

  it('skips undefined members and writes undefined items as null, as JSON.stringify does', () => {
    const body = { data: [1, undefined, { a: undefined, b: 2 }], skipped: undefined, fn: () => 1, meta: {} };
    expect(jsonBytes(body).toString('utf8')).toBe(JSON.stringify(body));
    expect(jsonBytes(body).toString('utf8')).toBe('{"data":[1,null,{"b":2}],"meta":{}}');
  });

  it('stays exact across answers larger than its reusable buffer, in every script', () => {
    // Rows mixing ASCII, Latin-1, a typographic apostrophe, CJK and an emoji, 5 MB in all, so
    // the scratch buffer grows past its kept size and is dropped afterwards.
    const data = Array.from({ length: 2000 }, (_, i) => ({
      section_id: i,
      title: i % 7 === 0 ? `Life in Sant Feliu’s “${i}” — 記憶 🎙` : `Entrevista ${i} amb l’àvia`,
      transcription: 'x"\\\n'.repeat(600),
    }));
    const big = { data, meta: { total: 2000 } };
    expect(jsonBytes(big).equals(reference(big))).toBe(true);
    const small = { data: [{ a: 'é' }], meta: {} };
    expect(jsonBytes(small).equals(reference(small))).toBe(true);
  });
});

describe('rows already written as JSON (RawJson) inside an answer', () => {
  const raw = (value: unknown[]) => new RawJson(Buffer.from(JSON.stringify(value), 'utf8'), value.length);
  const rows = fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 8 });

  it('are copied where they stand, at any depth, so the bytes are those of the parsed answer', () => {
    fc.assert(
      fc.property(rows, rows, fc.jsonValue(), fc.string({ unit: 'binary' }), (a, b, other, id) => {
        // A page (RawJson as a top-level member) and a batch (RawJson two levels down, in items).
        const page = { data: raw(a), pagination: { limit: 10 }, meta: { note: id } };
        const batch = { results: [{ id, status: 200, data: { data: raw(a), meta: {} } }, other, raw(b)] };
        expect(jsonBytes(page).equals(reference({ ...page, data: a }))).toBe(true);
        const parsed = { results: [{ id, status: 200, data: { data: a, meta: {} } }, other, b] };
        expect(jsonBytes(batch).equals(reference(parsed))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('parse back to their rows wherever else they are serialised (an MCP answer, a log line)', () => {
    const data = [{ section_id: 1, title: 'Sant Feliu’s “mill”', tags: [1, 2] }];
    const body = { data: raw(data), meta: {} };
    expect(JSON.stringify(body)).toBe(JSON.stringify({ data, meta: {} }));
    // Also right after an answer was written with them (the capture does not leak).
    jsonBytes({ data: raw(data) });
    expect(JSON.parse(JSON.stringify([raw(data)]))).toEqual([data]);
  });

  it('cannot be forged by data that looks like the placeholder used while writing', () => {
    const sneaky = { data: raw([{ a: 1 }]), meta: { text: 'rawjson-000000000000000000000000:0' } };
    expect(jsonBytes(sneaky).toString()).toBe(JSON.stringify({ ...sneaky, data: [{ a: 1 }] }));
  });
});
