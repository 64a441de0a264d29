/**
 * Fastify gives every request its own child logger (pino's `child`, with the request id bound).
 * Building one costs an object and the bindings serialised to JSON on every request, even
 * though at the default levels nothing is logged for a request that goes well. This factory
 * hands out a stand-in that only builds the real child when a line is actually written at an
 * enabled level: the same lines, the same bindings, no cost for requests that log nothing.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
/** pino's logger, which is what Fastify hands the factory when logging is on. */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

class LazyChildLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
  ) {}

  private write(level: Level, args: LogArgs): void {
    if (!this.parent.isLevelEnabled(level)) return;
    this.real ??= this.parent.child(this.bindings);
    (this.real[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }

  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled(level);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings);
    return this.real.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child, unless the route asks for its own level or
 * serializers (then pino's child, which applies them), or logging is off (the silent logger's
 * child is itself).
 */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  const parent = logger as ParentLogger;
  if (
    typeof parent.isLevelEnabled !== 'function' ||
    options.level !== undefined ||
    options.serializers !== undefined
  ) {
    return logger.child(bindings, options);
  }
  return new LazyChildLogger(parent, bindings) as unknown as FastifyBaseLogger;
};
