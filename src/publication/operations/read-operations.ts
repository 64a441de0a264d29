/**
 * Every GET data operation of the API, the table POST /batch matches its queries against.
 * Routes not listed here (health, docs, OpenAPI, MCP, batch itself) are not data reads; a batch
 * query naming them is refused before matching (query/batch-request.ts).
 */
import {
  databasesOperation,
  faviconOperation,
  indexOperation,
  tableOperation,
  tablesOperation,
  tablesWithSlashOperation,
} from './discovery.js';
import { facetsOperation } from './facets.js';
import { avFragmentsOperation, indexationFragmentOperation, textFragmentsOperation } from './fragments.js';
import type { Envelope, Operation } from './operation.js';
import { getRecordOperation, listRecordsOperation } from './records.js';
import { searchOperation } from './search.js';

export const READ_OPERATIONS: readonly Operation<Envelope | undefined>[] = [
  indexOperation,
  faviconOperation,
  databasesOperation,
  tablesOperation,
  tableOperation,
  listRecordsOperation,
  getRecordOperation,
  searchOperation,
  facetsOperation,
  textFragmentsOperation,
  avFragmentsOperation,
  indexationFragmentOperation,
];

/** Other spellings of documented paths, matched like them (`/{db}/tables/` with its slash). */
export const READ_OPERATION_ALIASES: readonly Operation<Envelope | undefined>[] = [tablesWithSlashOperation];
