/**
 * How v1 fails: HTTP 200 with `{result:false, msg}` (docs/publication-v1.md), because that is what existing
 * websites test for. A V1Error carries the message a client sees; anything else thrown inside
 * an action is mapped here to a message that names no internals.
 */
import { DatabaseUnavailable, QueryTimeout, StatementBudgetExceeded } from '../db/types.js';
import { ProblemError } from '../problems.js';

export class V1Error extends Error {
  constructor(
    message: string,
    /** The body to answer instead of `{result:false,msg}` (actions with their own failure shape). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'V1Error';
  }
}

/** A failure's v1 body, and whether it is the server's fault (to be logged). */
export function failureBody(err: unknown): { body: unknown; serverFault: boolean } {
  if (err instanceof V1Error)
    return { body: err.body ?? { result: false, msg: err.message }, serverFault: false };
  if (err instanceof ProblemError && err.status < 500) {
    const details = err.errors?.map((e) => e.detail).join('; ');
    return { body: { result: false, msg: `Error. ${details || err.detail}` }, serverFault: false };
  }
  if (err instanceof QueryTimeout) {
    return {
      body: { result: false, msg: 'Error. The request took too long and was stopped' },
      serverFault: false,
    };
  }
  if (err instanceof StatementBudgetExceeded) {
    return { body: { result: false, msg: `Error. ${err.message}` }, serverFault: false };
  }
  if (err instanceof DatabaseUnavailable) {
    return {
      body: { result: false, msg: 'Error. The database is unavailable, try again later' },
      serverFault: true,
    };
  }
  return {
    body: { result: false, msg: 'Error on get data (exec_query) Check server log for details' },
    serverFault: true,
  };
}
