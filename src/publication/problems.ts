/**
 * The typed errors that code below the routes throws, and their one mapping to RFC 9457
 * problem+json. Each kind has a stable `type` URI; clients can switch on it. Kept outside http/
 * because query/, services/, text/ and the operations raise them: the layers below the Fastify
 * edge never import it.
 */
export const PROBLEM_BASE = 'https://dedalo.dev/problems/publication';

export type ProblemKind =
  | 'bad-request'
  | 'unauthorized'
  | 'not-found'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'uri-too-long'
  | 'headers-too-large'
  | 'request-timeout'
  | 'rate-limited'
  | 'too-many-statements'
  | 'database-unavailable'
  | 'timeout'
  | 'internal';

export interface ParameterProblem {
  /** The parameter as the client wrote it: `limit`, `filter[name][eq]`, `id`. */
  name: string;
  in: 'query' | 'path' | 'header' | 'body';
  detail: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors: ParameterProblem[];
}

const TITLES: Record<ProblemKind, [number, string]> = {
  'bad-request': [400, 'Bad Request'],
  unauthorized: [401, 'Unauthorized'],
  'not-found': [404, 'Not Found'],
  'method-not-allowed': [405, 'Method Not Allowed'],
  'unsupported-media-type': [415, 'Unsupported Media Type'],
  'payload-too-large': [413, 'Payload Too Large'],
  'uri-too-long': [414, 'URI Too Long'],
  'headers-too-large': [431, 'Request Header Fields Too Large'],
  'request-timeout': [408, 'Request Timeout'],
  'rate-limited': [429, 'Too Many Requests'],
  'too-many-statements': [429, 'Too Many Requests'],
  'database-unavailable': [503, 'Service Unavailable'],
  timeout: [504, 'Gateway Timeout'],
  internal: [500, 'Internal Server Error'],
};

export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;
  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly errors?: ParameterProblem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    [this.status, this.title] = TITLES[kind];
  }
}

/** One or more bad parameters; always a 400 with an `errors` entry per parameter. */
export class ValidationError extends ProblemError {
  constructor(readonly problems: ParameterProblem[]) {
    super(
      'bad-request',
      problems.length === 1 ? problems[0]!.detail : `${problems.length} parameters are invalid; see errors`,
      problems,
    );
    this.name = 'ValidationError';
  }
}

export function invalidQuery(name: string, detail: string): ValidationError {
  return new ValidationError([{ name, in: 'query', detail }]);
}

export function notFound(detail: string): ProblemError {
  return new ProblemError('not-found', detail);
}

/** A path segment over the router's limit: a 414 naming the limit, not quoting the segment. */
export function segmentTooLong(maxLength: number): ProblemError {
  const detail = `a path segment is longer than ${maxLength} characters; no database, table or record name is that long`;
  return new ProblemError('uri-too-long', detail, [{ name: 'path', in: 'path', detail }]);
}

export function toProblem(err: ProblemError, instance: string): Problem {
  // Every problem carries its `errors` list (an RFC 9457 extension member): the parameters or
  // the part of the request at fault, empty when none is (a 404, a 503), so clients read one shape.
  return {
    type: `${PROBLEM_BASE}/${err.kind}`,
    title: err.title,
    status: err.status,
    detail: err.detail,
    instance,
    errors: err.errors ?? [],
  };
}

/** Collects parameter problems so one response can name every bad parameter at once. */
export class ProblemCollector {
  readonly problems: ParameterProblem[] = [];
  add(name: string, detail: string, where: ParameterProblem['in'] = 'query'): void {
    this.problems.push({ name, in: where, detail });
  }
  /** Runs `fn`, recording its ValidationError instead of throwing; returns undefined on error. */
  try<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ValidationError) {
        this.problems.push(...err.problems);
        return undefined;
      }
      throw err;
    }
  }
  throwIfAny(): void {
    if (this.problems.length > 0) throw new ValidationError(this.problems);
  }
}
