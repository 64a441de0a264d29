/**
 * Publishing as a service a long-running process holds: the configured targets and the
 * publication map (checked when the process starts, so a bad map stops the start), and one
 * `publish` that runs runPublish on a target. The ontology can change while the process runs
 * (rows of dd_ontology): each run takes the ontology of the request that asked for it, and the
 * map is checked again against it (once per ontology version) before anything is written, so a
 * map naming a component the ontology no longer has is refused with each bad name listed. The work server's `dd_diffusion_api.diffuse` and the
 * demo start use it; `onPublished` lets a process that also serves the publication API refresh
 * that API's schema cache at once after a run.
 */
import type { Ontology } from '../work/ontology/load-ontology.js';
import type { SqlQueryable } from '../work/store/sql-client.js';
import { type CheckedMap, checkPublicationMap, readPublicationMap } from './load-publication-map.js';
import { type PublishConfig, type PublishTarget, writerFor } from './publish-targets.js';
import {
  type PublishProgress,
  type PublishRequest,
  PublishRequestError,
  type PublishSummary,
  runPublish,
} from './run-publish.js';

export interface Publisher {
  readonly defaultTarget: string;
  /** Every configured target's name (PUBLISH_TARGETS), default first. */
  readonly targetNames: readonly string[];
  /** The map as checked against the ontology the process started with. */
  readonly map: CheckedMap;
  /**
   * The map checked against `ontology` (remembered per ontology object); throws
   * PublicationMapError, every bad name listed, when that ontology lacks what the map names.
   */
  mapFor(ontology: Ontology): CheckedMap;
  target(name?: string): PublishTarget;
  publish(db: SqlQueryable, request: PublishRequest, options?: PublishOptions): Promise<PublishSummary>;
}

export interface PublishOptions {
  target?: string;
  onProgress?: (p: PublishProgress) => void;
  /** The ontology to read records with (the request's); default: the one the process started with. */
  ontology?: Ontology;
}

export function createPublisher(
  config: PublishConfig,
  ontology: Ontology,
  onPublished?: (target: PublishTarget, summary: PublishSummary) => void,
): Publisher {
  const source = readPublicationMap(config.mapPath);
  const map = checkPublicationMap(source.raw, ontology, source.source);
  const checked = new WeakMap<Ontology, CheckedMap>([[ontology, map]]);
  const mapFor = (current: Ontology): CheckedMap => {
    let found = checked.get(current);
    if (!found) {
      found = checkPublicationMap(source.raw, current, source.source);
      checked.set(current, found);
    }
    return found;
  };
  const target = (name?: string) => {
    const t = config.targets.get(name ?? config.defaultTarget);
    if (!t)
      throw new PublishRequestError(
        `unknown publication target "${name}" (configured: ${[...config.targets.keys()].join(', ')})`,
      );
    return t;
  };
  return {
    defaultTarget: config.defaultTarget,
    targetNames: [
      config.defaultTarget,
      ...[...config.targets.keys()].filter((n) => n !== config.defaultTarget),
    ],
    map,
    mapFor,
    target,
    publish: async (db, request, options = {}) => {
      const t = target(options.target);
      const current = options.ontology ?? ontology;
      const summary = await runPublish(
        {
          db,
          ontology: current,
          map: mapFor(current),
          targetName: t.name,
          writer: writerFor(t),
          onProgress: options.onProgress,
          lockWaitMs: config.lockWaitMs,
        },
        request,
      );
      onPublished?.(t, summary);
      return summary;
    },
  };
}
