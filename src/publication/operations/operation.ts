/**
 * What a read operation is: a route pattern (shared by the REST router and the batch matcher),
 * an input step that validates the raw request with the query/ parsers, and an execute step from
 * that validated input to a neutral answer (the envelope, plus what an edge may turn into
 * headers). REST routes, POST /batch and the MCP tools all call `run`, so every door validates,
 * reads and answers alike; none of them knows HTTP from in here.
 */
import type { QueryParams } from '../query/query-string.js';
import type { PublicationContext } from '../services/context.js';

/** A JSON body as the API sends it; `meta`, when present, is where edges add timing. */
export interface Envelope {
  [key: string]: unknown;
  meta?: Record<string, unknown>;
}

/** Where a page sits, so an edge can link its neighbours (REST: Link header; MCP: next_offset). */
export interface PageInfo {
  limit: number;
  offset: number;
  hasMore: boolean;
}

export interface OperationAnswer<B extends Envelope | undefined = Envelope> {
  /** Undefined only for an answer without content (status 204). */
  body: B;
  /** 200 unless said otherwise. */
  status?: number;
  /** The one language the data is in, when the request chose one (Content-Language). */
  language?: string;
  page?: PageInfo;
  /** False for answers no cache may keep; true by default. */
  cacheable?: boolean;
}

export interface OperationRequest {
  /** Path parameters by name (`db`, `table`, `id`), already percent-decoded by the router. */
  params: Readonly<Record<string, string>>;
  /**
   * The query parameters. A function so each operation reads them at the point its REST route
   * always did (after the table check): which fault a request with several is refused for
   * stays the same whatever the door.
   */
  query(): QueryParams;
}

export interface Operation<B extends Envelope | undefined = Envelope> {
  /** Stable name, for logs and the tool table. */
  name: string;
  /** find-my-way pattern under BASE_PATH, e.g. `/:db/tables/:table/records`. */
  path: string;
  run(ctx: PublicationContext, request: OperationRequest): Promise<OperationAnswer<B>>;
}

export interface OperationSpec<I, B extends Envelope | undefined> {
  name: string;
  path: string;
  /** Validates the raw request (query/ parsers, table and id checks); throws problems. */
  input(ctx: PublicationContext, request: OperationRequest): I | Promise<I>;
  /** Reads the data (services/) and shapes the answer. */
  execute(ctx: PublicationContext, input: I): Promise<OperationAnswer<B>> | OperationAnswer<B>;
}

export function defineOperation<I, B extends Envelope | undefined>(spec: OperationSpec<I, B>): Operation<B> {
  return {
    name: spec.name,
    path: spec.path,
    run: async (ctx, request) => spec.execute(ctx, await spec.input(ctx, request)),
  };
}

/** A path parameter the pattern guarantees; a missing one is a wiring fault, not client input. */
export function paramOf(request: OperationRequest, name: string): string {
  const value = request.params[name];
  if (value === undefined) throw new Error(`operation called without path parameter "${name}"`);
  return value;
}
