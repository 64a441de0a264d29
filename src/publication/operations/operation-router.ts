/**
 * Matches a path (written without BASE_PATH) to a read operation the way the HTTP router does:
 * the same find-my-way matcher Fastify routes with, the same patterns and options, so a batch
 * query reaches the operation a direct GET of that path reaches, with the same decoded path
 * parameters, and fails where a direct GET fails (no route, malformed percent-encoding, a
 * segment over the router's length limit).
 */
import FindMyWay from 'find-my-way';
import type { Envelope, Operation } from './operation.js';

/** The router's limit on one path segment; app.ts gives Fastify the same. */
export const MAX_PARAM_LENGTH = 500;

export type RouteMatch =
  | { kind: 'operation'; operation: Operation<Envelope | undefined>; params: Record<string, string> }
  | { kind: 'no-route' }
  /** What the router was matching when it gave up, as Fastify would quote it. */
  | { kind: 'bad-url' | 'param-too-long'; path: string };

type Fault = Extract<RouteMatch, { path: string }>;

export function createOperationRouter(
  operations: readonly Operation<Envelope | undefined>[],
): (path: string) => RouteMatch {
  // find-my-way reports these two faults through handlers it wraps; ours just return what
  // happened, and calling the wrapped handler hands it back.
  const router = FindMyWay({
    ignoreTrailingSlash: false,
    maxParamLength: MAX_PARAM_LENGTH,
    onBadUrl: ((path: string): Fault => ({ kind: 'bad-url', path })) as never,
    onMaxParamLength: ((path: string): Fault => ({ kind: 'param-too-long', path })) as never,
  } as FindMyWay.Config<FindMyWay.HTTPVersion.V1>);
  for (const operation of operations) router.on('GET', operation.path, () => {}, operation);
  return (path) => {
    const found = router.find('GET', path);
    if (found === null) return { kind: 'no-route' };
    if (found.store) {
      return {
        kind: 'operation',
        operation: found.store as Operation<Envelope | undefined>,
        params: found.params as Record<string, string>,
      };
    }
    return (found.handler as unknown as () => Fault)();
  };
}
