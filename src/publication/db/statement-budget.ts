/**
 * Every request gets a budget: at most N database statements (500 by default; a batch shares
 * one budget across its queries) and a deadline (REQUEST_TIMEOUT_MS). The edge binds the budget
 * to the request's own view of the engine (RequestDriver, handed to the operations as
 * `ctx.driver`), which charges it before each statement and hands the remaining time to the
 * engine, which stops the statement when it runs out. Services keep calling `ctx.driver` as
 * usual and never see any of this.
 *
 * The budget travels by argument, not in an AsyncLocalStorage: on Node 20 an active
 * AsyncLocalStorage installs promise hooks that run for every promise of every request, which
 * measured as the largest cost left on the request path.
 */
import {
  type CountQuery,
  type DatabaseSchema,
  type Driver,
  type FacetCount,
  type FacetQuery,
  type FulltextQuery,
  QueryTimeout,
  type Row,
  type SelectQuery,
  StatementBudgetExceeded,
  type StatementOptions,
} from './types.js';

export const MAX_STATEMENTS_PER_REQUEST = 500;

export class StatementBudget {
  used = 0;
  constructor(
    readonly maxStatements: number,
    readonly deadline: number,
  ) {}

  static forRequest(timeoutMs: number, maxStatements = MAX_STATEMENTS_PER_REQUEST): StatementBudget {
    return new StatementBudget(maxStatements, Date.now() + timeoutMs);
  }

  /** Charges one statement; returns the time the statement may take. */
  charge(db: string): StatementOptions {
    this.used += 1;
    if (this.used > this.maxStatements) throw new StatementBudgetExceeded(this.maxStatements);
    const remaining = this.deadline - Date.now();
    if (remaining <= 0) throw new QueryTimeout(db);
    return { timeoutMs: remaining };
  }
}

/**
 * The engine as the server holds it: catalogue reads get a time limit of their own, every other
 * statement passes through with the options its caller gave (a RequestDriver's budget, the
 * health probe's time-out).
 */
export class BudgetedDriver implements Driver {
  readonly selectJson?: Driver['selectJson'];

  constructor(private readonly inner: Driver) {
    this.selectJson = inner.selectJson?.bind(inner);
  }

  get engine() {
    return this.inner.engine;
  }

  introspect(db: string): Promise<DatabaseSchema> {
    // Catalogue reads are shared by every request through the schema cache: no per-request
    // budget applies, but they still get a time limit so a stuck catalogue cannot hang us.
    return this.inner.introspect(db, { timeoutMs: 10_000 });
  }

  select(db: string, query: SelectQuery, options?: StatementOptions): Promise<Row[]> {
    return this.inner.select(db, query, options);
  }

  count(db: string, query: CountQuery, options?: StatementOptions): Promise<number> {
    return this.inner.count(db, query, options);
  }

  search(db: string, query: FulltextQuery, options?: StatementOptions): Promise<Row[]> {
    return this.inner.search(db, query, options);
  }

  searchCount(
    db: string,
    query: Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>,
    options?: StatementOptions,
  ): Promise<number> {
    return this.inner.searchCount(db, query, options);
  }

  facet(db: string, query: FacetQuery, options?: StatementOptions): Promise<FacetCount[]> {
    return this.inner.facet(db, query, options);
  }

  ping(db: string, options?: StatementOptions): Promise<void> {
    return this.inner.ping(db, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** One request's view of the engine: every data statement is charged to its budget. */
// Methods that charge the budget are async: a refusal (budget spent, deadline passed) must be a
// rejected promise, not a synchronous throw, or a caller building `Promise.all([select(), count()])`
// would abandon the statement already started, whose later failure nobody handles.
export class RequestDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    readonly budget: StatementBudget,
  ) {}

  /**
   * Made when asked for (a record read), not in the constructor: every request builds a
   * RequestDriver, and most never read rows as JSON. Callers take it as a detached function.
   */
  get selectJson(): Driver['selectJson'] {
    const inner = this.inner;
    const selectJson = inner.selectJson;
    if (!selectJson) return undefined;
    return async (db, query, shape) => selectJson.call(inner, db, query, shape, this.budget.charge(db));
  }

  get engine() {
    return this.inner.engine;
  }

  async introspect(db: string, options?: StatementOptions): Promise<DatabaseSchema> {
    return this.inner.introspect(db, options);
  }

  async select(db: string, query: SelectQuery): Promise<Row[]> {
    return this.inner.select(db, query, this.budget.charge(db));
  }

  async count(db: string, query: CountQuery): Promise<number> {
    return this.inner.count(db, query, this.budget.charge(db));
  }

  async search(db: string, query: FulltextQuery): Promise<Row[]> {
    return this.inner.search(db, query, this.budget.charge(db));
  }

  async searchCount(
    db: string,
    query: Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>,
  ): Promise<number> {
    return this.inner.searchCount(db, query, this.budget.charge(db));
  }

  async facet(db: string, query: FacetQuery): Promise<FacetCount[]> {
    return this.inner.facet(db, query, this.budget.charge(db));
  }

  ping(db: string, options?: StatementOptions): Promise<void> {
    return this.inner.ping(db, options);
  }

  close(): Promise<void> {
    // The engine belongs to the server, not to one request.
    return Promise.resolve();
  }
}
