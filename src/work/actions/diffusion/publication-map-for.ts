/**
 * The publication map as the request's ontology sees it: the publisher checks its map again for
 * each ontology version, and a map that names what the ontology no longer has is refused here as
 * `diffusion.map_invalid`, each bad name in `details.problems`, before anything is written.
 */
import { type CheckedMap, PublicationMapError } from '../../../publish/load-publication-map.js';
import type { Publisher } from '../../../publish/publisher.js';
import { WorkError } from '../../dispatch/error-registry.js';
import type { Ontology } from '../../ontology/load-ontology.js';

export function publicationMapFor(publisher: Publisher, ontology: Ontology): CheckedMap {
  try {
    return publisher.mapFor(ontology);
  } catch (err) {
    if (!(err instanceof PublicationMapError)) throw err;
    throw new WorkError('diffusion.map_invalid', err.message, undefined, {
      source: err.source,
      problems: err.problems,
    });
  }
}
