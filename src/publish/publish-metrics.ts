/**
 * Publish runs as the metrics endpoint counts them (common/metrics.ts): a Publisher whose every
 * run reports its target, its outcome and how long it took. The target label is one of the
 * configured targets, or `unknown` for a name that is not (refused at once), so clients cannot
 * grow the number of series.
 */
import type { PublishOutcome } from '../common/metrics.js';
import type { Publisher } from './publisher.js';
import { PublishRequestError } from './run-publish.js';
import { TargetBusy } from './target-lock.js';

export type PublishRunObserver = (target: string, outcome: PublishOutcome, seconds: number) => void;

/** What a failed run counts as: the caller's mistake or a busy target (refused), else a failure. */
export function publishOutcomeOf(err: unknown): PublishOutcome {
  return err instanceof PublishRequestError || err instanceof TargetBusy ? 'refused' : 'failure';
}

export function observedPublisher(publisher: Publisher, observe: PublishRunObserver): Publisher {
  const known = new Set(publisher.targetNames);
  return {
    defaultTarget: publisher.defaultTarget,
    targetNames: publisher.targetNames,
    map: publisher.map,
    mapFor: (ontology) => publisher.mapFor(ontology),
    target: (name) => publisher.target(name),
    publish: async (db, request, options = {}) => {
      const name = options.target ?? publisher.defaultTarget;
      const target = known.has(name) ? name : 'unknown';
      const started = performance.now();
      try {
        const summary = await publisher.publish(db, request, options);
        observe(target, 'success', (performance.now() - started) / 1000);
        return summary;
      } catch (err) {
        observe(target, publishOutcomeOf(err), (performance.now() - started) / 1000);
        throw err;
      }
    },
  };
}
