/**
 * Writes an export's rows as CSV (RFC 4180, csv-stringify) or NDJSON, streamed: rows are pulled
 * from the source only as fast as the client reads, so memory stays one chunk whatever the size.
 *
 * The first row is read before anything is sent, so a request that fails on its first read
 * (a relation limit, a time-out) still gets its problem+json answer with the right status. A
 * failure later can only cut the stream short (the status line is gone): the client sees an
 * incomplete transfer, never a silently shorter file.
 */
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Row } from '../db/types.js';
import type { ExportFormat } from '../query/export-request.js';
import type { ExportSource } from '../services/export-service.js';

/** A cell as a spreadsheet shows it: objects and lists (relations, fragments) as JSON. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

async function* startedRows(first: IteratorResult<Row>, rest: AsyncIterator<Row>): AsyncGenerator<Row> {
  if (first.done) return;
  yield first.value;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/** Reads the first row (so early failures throw here), then returns the body stream. */
export async function exportStream(
  source: ExportSource,
  format: ExportFormat,
  options: { bom: boolean },
): Promise<Readable> {
  const iterator = source.rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  const rows = Readable.from(startedRows(first, iterator));
  const noop = () => {};
  if (format === 'ndjson') {
    const columns = source.columns;
    const lines = Readable.from(
      (async function* () {
        for await (const row of rows) {
          const out: Row = {};
          for (const c of columns) out[c] = row[c] ?? null;
          yield `${JSON.stringify(out)}\n`;
        }
      })(),
    );
    return lines;
  }
  const csv = stringify({
    header: true,
    columns: source.columns,
    bom: options.bom,
    cast: {
      object: csvCell,
      boolean: (v) => (v ? 'true' : 'false'),
      number: (v) => String(v),
    },
  });
  // pipeline destroys the CSV stream when reading fails, so the response is cut, not finished.
  return pipeline(rows, csv, noop);
}
