/**
 * Tells "no such route" (404) from "route exists, wrong method" (405 with Allow). Fastify answers
 * both with 404, so every registered route is mirrored into a small router of our own that the
 * not-found handler consults.
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class MethodGuard {
  private readonly router = FindMyWay({ ignoreTrailingSlash: false });

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      if (!this.router.hasRoute(m as HTTPMethod, url)) this.router.on(m as HTTPMethod, url, () => {});
    }
  }

  /** Methods that `path` answers to; empty when the path matches no route at all. */
  allowed(path: string): string[] {
    return METHODS.filter((m) => this.router.find(m, path) !== null);
  }
}
