/**
 * A search in every full-text column of a table at once (the browse pages' default: a word in a
 * title is found as well as one in a transcription). The API searches one column a request, so
 * this runs the search operation on each column and merges the answers: records in the order of
 * their best rank in any column (first of each column, then second of each...), each once, with
 * the fragments found in every column it matched. A page at `offset` needs only the first
 * `offset + limit` rows of each column, so page N costs what page N of one column does.
 *
 * The total is exact when every column's matches were all read; otherwise the page says how many
 * each column found (a record matching in two columns counts in both).
 */
import { rowObjects } from '../db/raw-json.js';
import type { TableInfo } from '../db/types.js';
import type { Envelope, Operation, OperationAnswer } from '../operations/operation.js';
import type { PageBody } from '../operations/records.js';
import { searchOperation } from '../operations/search.js';
import type { QueryParams } from '../query/query-string.js';
import type { PublicationContext } from '../services/context.js';

export interface ColumnHits {
  column: string;
  total: number;
}

export interface FoundRow {
  section_id: unknown;
  lang?: unknown;
  /** Fragments per matched column, in the order the columns were searched. */
  matches: { column: string; fragments: { text: string }[] }[];
}

export interface AllColumnsPage {
  rows: FoundRow[];
  hasMore: boolean;
  /** Distinct records matched, when every column was read to its end. */
  total?: number;
  perColumn: ColumnHits[];
}

const MAX_READ = 1000;

export async function searchAllColumns(
  ctx: PublicationContext,
  db: string,
  table: TableInfo,
  columns: string[],
  base: QueryParams,
  offset: number,
  limit: number,
): Promise<AllColumnsPage> {
  const want = Math.min(MAX_READ, offset + limit + 1);
  const keyFields = ['section_id', ...(table.hasLang ? ['lang'] : [])].join(',');
  const answers = await Promise.all(
    columns.map(async (column) => {
      const query: QueryParams = new Map(base);
      query.set('column', [column]);
      query.set('fields', [keyFields]);
      query.set('limit', [String(want)]);
      query.set('offset', ['0']);
      query.set('count', ['true']);
      const answer = (await (searchOperation as Operation<Envelope | undefined>).run(ctx, {
        params: { db, table: table.name },
        query: () => query,
      })) as OperationAnswer<PageBody>;
      return { column, rows: rowObjects(answer.body.data), total: answer.body.pagination.total ?? 0 };
    }),
  );
  const merged = new Map<string, FoundRow>();
  const longest = Math.max(0, ...answers.map((a) => a.rows.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const a of answers) {
      const row = a.rows[rank];
      if (!row) continue;
      const key = `${String(row.section_id)}\u0000${String(row.lang ?? '')}`;
      const found = merged.get(key) ?? { section_id: row.section_id, lang: row.lang, matches: [] };
      found.matches.push({ column: a.column, fragments: (row.fragments as { text: string }[]) ?? [] });
      merged.set(key, found);
    }
  }
  const all = [...merged.values()];
  const complete = answers.every((a) => a.rows.length >= a.total);
  return {
    rows: all.slice(offset, offset + limit),
    hasMore: all.length > offset + limit,
    total: complete ? all.length : undefined,
    perColumn: answers.map((a) => ({ column: a.column, total: a.total })),
  };
}
