/**
 * Publishing as a service a long-running process holds: the configured targets and the checked
 * publication map (checked once, when the process starts, so a bad map stops the start), and one
 * `publish` that runs runPublish on a target. The work server's `dd_diffusion_api.diffuse` and the
 * demo start use it; `onPublished` lets a process that also serves the publication API refresh
 * that API's schema cache at once after a run.
 */
import type { Ontology } from '../work/ontology/load-ontology.js';
import type { SqlQueryable } from '../work/store/sql-client.js';
import { type CheckedMap, loadPublicationMap } from './load-publication-map.js';
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
  readonly map: CheckedMap;
  target(name?: string): PublishTarget;
  publish(
    db: SqlQueryable,
    request: PublishRequest,
    options?: { target?: string; onProgress?: (p: PublishProgress) => void },
  ): Promise<PublishSummary>;
}

export function createPublisher(
  config: PublishConfig,
  ontology: Ontology,
  onPublished?: (target: PublishTarget, summary: PublishSummary) => void,
): Publisher {
  const map = loadPublicationMap(ontology, config.mapPath);
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
    target,
    publish: async (db, request, options = {}) => {
      const t = target(options.target);
      const summary = await runPublish(
        {
          db,
          ontology,
          map,
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
