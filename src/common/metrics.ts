/**
 * Prometheus metrics, one implementation for both servers (prom-client). Each server builds one
 * ServerMetrics and installs it on its Fastify app (installMetrics): an onResponse hook counts
 * every answer by method, route pattern and status with its latency, and a GET route (METRICS_PATH
 * for the publication API, WORK_METRICS_PATH for the work API) answers the text exposition,
 * optionally behind a bearer token compared in constant time. Everything else (pools, breakers,
 * sessions, locks) is read at scrape time from the sources the server hands over, so the request
 * path pays for the request counters only.
 *
 * prom-client itself (with its dependencies, about 4 MB of an idle server's memory) loads with the
 * first scrape: answers are counted in plain numbers until then, gauges and Node's process
 * collectors are made at that scrape, and a publish run observed before it loads the library
 * then. So GC and event-loop figures cover the time from the first scrape (Prometheus scrapes
 * a new target within its interval); the CPU and memory counters are the process's whole life.
 *
 * The route label is the route's pattern (`/publication/server_api/v2/:db/records/:table/:id`),
 * never the raw URL, and `unmatched` for answers no route gave (404s, refusals before routing):
 * the number of series stays bounded whatever clients send. The method is one of Node's known
 * methods (its parser refuses others) and the status a three-digit code.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counter, Gauge, Histogram, Metric, Registry } from 'prom-client';
import type { BreakerState } from './circuit-breaker.js';
import { matchesAnySecret } from './constant-time.js';

/** A database pool's state at scrape time (SQLite: the worker threads; PGlite: its one backend). */
export interface PoolStats {
  /** mariadb, sqlite, postgres or pglite. */
  engine: string;
  /** Which pool: the database name, or the engine's only pool. */
  pool: string;
  /** Connections (or workers) open now. */
  size: number;
  /** Of those, the ones doing nothing. */
  idle: number;
  /** Callers waiting for a connection (or statements queued for a worker). */
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
}

/** Latency buckets (seconds) of the request and publish-run histograms. */
export const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
export const PUBLISH_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];

/** The route label of answers that no route gave. */
export const UNMATCHED_ROUTE = 'unmatched';

type PromClient = typeof import('prom-client');
let promClient: Promise<PromClient> | undefined;
/** prom-client, loaded once per process by the first scrape or publish run. */
const loadPromClient = (): Promise<PromClient> => {
  promClient ??= import('prom-client');
  return promClient;
};

/**
 * Node's process metrics (CPU, memory, event-loop lag, GC, handles), once per process: the demo
 * runs both servers in one process, and the tests many; a second collector would double the GC
 * observers. Each server's endpoint shows them beside its own.
 */
let processRegistry: Registry | undefined;
function processMetrics(prom: PromClient): Registry {
  if (!processRegistry) {
    processRegistry = new prom.Registry();
    prom.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** One method, route and status: its answers, their summed latency and per-bucket counts. */
class RequestSeries {
  count = 0;
  sum = 0;
  /** Answers per bucket (not cumulative); the last slot is above the largest bound. */
  readonly buckets: number[];

  constructor(
    readonly labels: { method: string; route: string; status: string },
    size: number,
  ) {
    this.buckets = new Array<number>(size + 1).fill(0);
  }
}

/**
 * The answer counter and latency histogram, kept as plain numbers on the request path (three
 * map lookups and a few additions per answer: no label object, no label hash, no validation) and
 * turned into prom-client's metric shape only when scraped. prom-client's own Counter and
 * Histogram hash and validate the labels on every update, which measured several microseconds
 * per request; the exposition is the same.
 */
class RequestMetrics {
  /** route → method → status → series. */
  private readonly series = new Map<string, Map<string, Map<number, RequestSeries>>>();

  constructor(private readonly bounds: readonly number[]) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let s = byStatus.get(status);
    if (!s) {
      s = new RequestSeries({ method, route, status: String(status) }, this.bounds.length);
      byStatus.set(status, s);
    }
    s.count += 1;
    s.sum += seconds;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] as number)) i += 1;
    s.buckets[i] = (s.buckets[i] as number) + 1;
  }

  private *all(): Generator<RequestSeries> {
    for (const byMethod of this.series.values())
      for (const byStatus of byMethod.values()) yield* byStatus.values();
  }

  /** Registers the counter and the histogram in `registry` as prom-client metric objects. */
  register(registry: Registry, counterName: string, histogramName: string): void {
    const counter = {
      name: counterName,
      help: 'HTTP answers by method, route pattern and status',
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        ...counter,
        values: [...this.all()].map((s) => ({ labels: s.labels, value: s.count })),
      }),
      reset: () => {},
    };
    const histogram = {
      name: histogramName,
      help: 'Time from the request to its answer, by method, route pattern and status',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
        for (const s of this.all()) {
          let cumulative = 0;
          this.bounds.forEach((le, i) => {
            cumulative += s.buckets[i] as number;
            values.push({
              metricName: `${histogramName}_bucket`,
              labels: { le, ...s.labels },
              value: cumulative,
            });
          });
          values.push({
            metricName: `${histogramName}_bucket`,
            labels: { le: '+Inf', ...s.labels },
            value: s.count,
          });
          values.push({ metricName: `${histogramName}_sum`, labels: s.labels, value: s.sum });
          values.push({ metricName: `${histogramName}_count`, labels: s.labels, value: s.count });
        }
        return { ...histogram, values };
      },
      reset: () => {},
    };
    for (const metric of [counter, histogram]) registry.registerMetric(metric as unknown as Metric);
  }
}

/** A scrape-time step: sets gauges from whatever the server holds; may read the database. */
export type Collector = () => void | Promise<void>;

/** prom-client and this server's registry, once loaded. */
interface Loaded {
  prom: PromClient;
  registry: Registry;
}

/** A metric made in the registry when prom-client has loaded (see the module comment). */
type Setup = (prom: PromClient, registry: Registry) => void;

export class ServerMetrics {
  /** Made at the first scrape (or publish run), with every metric set up so far. */
  private loaded?: Loaded;
  private readonly setups: Setup[] = [];
  private readonly requests = new RequestMetrics(REQUEST_BUCKETS);
  private readonly collectors: Collector[] = [];
  private publishRuns?: Counter<'target' | 'outcome'>;
  private publishDurations?: Histogram<'target' | 'outcome'>;

  constructor() {
    this.setup((_prom, registry) =>
      this.requests.register(registry, 'dedalo_http_requests_total', 'dedalo_http_request_duration_seconds'),
    );
  }

  /** Runs `make` in the registry now if prom-client has loaded, else when it does. */
  private setup(make: Setup): void {
    if (this.loaded) make(this.loaded.prom, this.loaded.registry);
    else this.setups.push(make);
  }

  /** Loads prom-client (once) and makes the registry with every metric set up so far. */
  private async load(): Promise<Loaded> {
    const prom = await loadPromClient();
    if (!this.loaded) {
      const loaded = { prom, registry: new prom.Registry() };
      for (const make of this.setups.splice(0)) make(prom, loaded.registry);
      this.loaded = loaded;
    }
    return this.loaded;
  }

  /** Counts one answer; `route` is the route's pattern (undefined: no route answered). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    this.requests.observe(method, route ?? UNMATCHED_ROUTE, status, seconds);
  }

  /**
   * A gauge of this server's registry, set by a collector at scrape time: the function answers
   * it there (it is made when prom-client loads, just before the first scrape's collectors run).
   */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): () => Gauge<L> {
    let made: Gauge<L> | undefined;
    this.setup((prom, registry) => {
      made = new prom.Gauge({ name, help, labelNames, registers: [registry] });
    });
    return () => {
      if (!made) throw new Error(`metrics: the gauge ${name} was read before the first scrape`);
      return made;
    };
  }

  /** Runs `collect` before every scrape (after the previous ones). */
  onScrape(collect: Collector): void {
    this.collectors.push(collect);
  }

  /** Pool gauges (size, idle, waiting, max) read from `stats` at scrape time. */
  addPools(stats: () => readonly PoolStats[]): void {
    const labels = ['engine', 'pool'] as const;
    const size = this.gauge(
      'dedalo_db_pool_connections',
      'Database connections (or SQLite worker threads) open',
      labels,
    );
    const idle = this.gauge('dedalo_db_pool_idle', 'Of the open connections, the ones not in use', labels);
    const waiting = this.gauge(
      'dedalo_db_pool_waiting',
      'Callers waiting for a connection (SQLite: statements queued behind a busy worker)',
      labels,
    );
    const max = this.gauge('dedalo_db_pool_max', 'The most connections (or workers) the pool opens', labels);
    this.onScrape(() => {
      const gauges = [size(), idle(), waiting(), max()];
      for (const g of gauges) g.reset();
      for (const p of stats()) {
        for (const [i, value] of [p.size, p.idle, p.waiting, p.max].entries()) {
          gauges[i]!.labels(p.engine, p.pool).set(value);
        }
      }
    });
  }

  /** One gauge series per circuit breaker key: 1 while it is open (refusing), 0 when closed. */
  addBreakers(states: () => Record<string, BreakerState>): void {
    const open = this.gauge(
      'dedalo_circuit_breaker_open',
      'Whether the circuit breaker of a database is open (1: calls refused at once) or closed (0)',
      ['breaker'],
    );
    this.onScrape(() => {
      const gauge = open();
      gauge.reset();
      for (const [key, state] of Object.entries(states())) gauge.labels(key).set(state === 'open' ? 1 : 0);
    });
  }

  /**
   * Counts one publish run (its target and outcome) and its duration; before the first scrape,
   * once prom-client has loaded (a scrape waits for the same load, so it sees the run).
   */
  observePublishRun(target: string, outcome: PublishOutcome, seconds: number): void {
    if (this.loaded) this.countPublishRun(this.loaded, target, outcome, seconds);
    else void this.load().then((loaded) => this.countPublishRun(loaded, target, outcome, seconds));
  }

  private countPublishRun(
    { prom, registry }: Loaded,
    target: string,
    outcome: PublishOutcome,
    seconds: number,
  ): void {
    this.publishRuns ??= new prom.Counter({
      name: 'dedalo_publish_runs_total',
      help: 'Publish runs by target and outcome (success, refused, failure)',
      labelNames: ['target', 'outcome'],
      registers: [registry],
    });
    this.publishDurations ??= new prom.Histogram({
      name: 'dedalo_publish_run_duration_seconds',
      help: 'Duration of publish runs by target and outcome',
      labelNames: ['target', 'outcome'],
      buckets: PUBLISH_BUCKETS,
      registers: [registry],
    });
    this.publishRuns.labels(target, outcome).inc();
    this.publishDurations.labels(target, outcome).observe(seconds);
  }

  /** The exposition text: Node's process metrics, then this server's. */
  async render(): Promise<{ body: string; contentType: string }> {
    const { prom, registry } = await this.load();
    const process = processMetrics(prom);
    for (const collect of this.collectors) await collect();
    const [processText, own] = await Promise.all([process.metrics(), registry.metrics()]);
    return { body: `${processText}\n${own}`, contentType: registry.contentType };
  }
}

/** success: it ran to the end; refused: the request was refused (bad request, target busy); failure: it broke. */
export type PublishOutcome = 'success' | 'refused' | 'failure';

export interface MetricsEndpoint {
  /** Absolute path of the scrape route; undefined: no route (metrics off). */
  path?: string;
  /** When set, scrapes must send `Authorization: Bearer <token>`. */
  token?: string;
}

/** The bearer token of an Authorization header ('' when there is none). */
function bearerOf(header: string | undefined): string {
  if (header === undefined) return '';
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  return match?.[1] ?? '';
}

/** True when the request carries the token; compared in constant time whatever it sends. */
export function scrapeAuthorized(request: FastifyRequest, token: string): boolean {
  return matchesAnySecret(bearerOf(request.headers.authorization), [token]);
}

/** Route config flag of the scrape route, so the edge can recognise it without parsing the URL. */
export interface MetricsRouteConfig {
  metricsScrape?: boolean;
}

/**
 * Counts every answer of `app` (install before the routes are registered, so the hook applies to
 * all of them and to the not-found handler) and registers the scrape route when a path is set.
 * `refuse` answers an unauthorised scrape in the API's own error format, with status 401.
 */
export function installMetrics(
  app: FastifyInstance,
  metrics: ServerMetrics,
  endpoint: MetricsEndpoint,
  refuse: (request: FastifyRequest, reply: FastifyReply, detail: string) => unknown,
): void {
  if (endpoint.path === undefined) return;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  const { token } = endpoint;
  const config: MetricsRouteConfig = { metricsScrape: true };
  app.route({
    method: 'GET',
    url: endpoint.path,
    config,
    handler: async (request, reply) => {
      if (token !== undefined && !scrapeAuthorized(request, token)) {
        reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return refuse(
          request,
          reply,
          request.headers.authorization === undefined
            ? 'the metrics endpoint requires a bearer token (Authorization: Bearer <token>)'
            : 'the bearer token given is not valid for the metrics endpoint',
        );
      }
      const { body, contentType } = await metrics.render();
      return reply.code(200).type(contentType).header('Cache-Control', 'no-store').send(body);
    },
  });
}
