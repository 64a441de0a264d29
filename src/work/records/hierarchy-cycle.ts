/**
 * A thesaurus stays a tree: a save that gives a term a parent among its own descendants (or
 * gives it a child among its ancestors) would make a cycle, and every walk up or down the tree
 * would then loop. Refused with `validation.hierarchy_cycle`, naming both terms.
 */
import type { ComponentSpec, Locator } from '../components/component-values.js';
import { WorkError } from '../dispatch/error-registry.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { isSelfOrDescendant, thesaurusShape } from '../read/thesaurus-tree.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';

export async function assertNoHierarchyCycle(
  tx: SqlQueryable,
  ontology: Ontology,
  spec: ComponentSpec,
  key: RecordKey,
  added: readonly Locator[],
): Promise<void> {
  const shape = thesaurusShape(ontology, key.section_tipo);
  if (!shape) return;
  for (const l of added) {
    if (l.section_tipo !== key.section_tipo) continue;
    const other = Number(l.section_id);
    // parent: the new parent must not be the term or below it; children: the new child must not
    // be the term or above it (the term below the child).
    const [term, candidate] =
      spec.model === 'component_relation_parent' ? [key.section_id, other] : [other, key.section_id];
    if (await isSelfOrDescendant(tx, shape, term, candidate)) {
      throw new WorkError(
        'validation.hierarchy_cycle',
        `${spec.tipo}: ${key.section_tipo} ${candidate} is ${candidate === term ? '' : 'below '}${key.section_tipo} ${term}; a term cannot be moved under itself or one of its descendants`,
        undefined,
        { section_tipo: key.section_tipo, term: term, parent: candidate },
      );
    }
  }
}
