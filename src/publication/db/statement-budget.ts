/**
 * Every request gets a budget: at most N database statements (500 by default; a batch shares
 * one budget across its queries) and a deadline (REQUEST_TIMEOUT_MS). The budget travels with
 * the request in an AsyncLocalStorage, and the BudgetedDriver charges it before each statement
 * and hands the remaining time to the engine, which stops the statement when it runs out.
 * Services keep calling `ctx.driver` as usual and never see any of this.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type DatabaseSchema,
  type Driver,
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

export const budgetStorage = new AsyncLocalStorage<StatementBudget>();

/** Wraps an engine so every statement is charged to the current request's budget. */
export class BudgetedDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  get engine() {
    return this.inner.engine;
  }

  private options(db: string): StatementOptions | undefined {
    return budgetStorage.getStore()?.charge(db);
  }

  introspect(db: string): Promise<DatabaseSchema> {
    // Catalogue reads are shared by every request through the schema cache: no per-request
    // budget applies, but they still get a time limit so a stuck catalogue cannot hang us.
    return this.inner.introspect(db, { timeoutMs: 10_000 });
  }

  select(db: string, query: SelectQuery): Promise<Row[]> {
    return this.inner.select(db, query, this.options(db));
  }

  count(db: string, query: Pick<SelectQuery, 'table' | 'where'>): Promise<number> {
    return this.inner.count(db, query, this.options(db));
  }

  search(db: string, query: FulltextQuery): Promise<Row[]> {
    return this.inner.search(db, query, this.options(db));
  }

  searchCount(
    db: string,
    query: Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>,
  ): Promise<number> {
    return this.inner.searchCount(db, query, this.options(db));
  }

  ping(db: string, options?: StatementOptions): Promise<void> {
    return this.inner.ping(db, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
