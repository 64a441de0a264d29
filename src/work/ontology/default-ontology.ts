/**
 * The default content of the ontology: default-ontology.json, installed into the empty
 * `dd_ontology` table on first start (ontology-store.ts). It is data, not code: the system
 * sections (users, profiles, projects, activity, yes/no list), the areas, the oral-history
 * sections with their components, one thesaurus, and the language allowlist.
 *
 * The tipos of the Dédalo ontology are used as Dédalo names them (docs/ontology.md). The few it
 * leaves open are ours: the root area dd1, the areas oh9000, rsc9000 and dd207, the groupers oh2/oh3,
 * the yes/no value dd62, the interview date oh29, project filter oh22 and publishable flag oh32,
 * the activity components dd543..dd551, and the computed full name rsc9001 of people.
 */
import data from './default-ontology.json' with { type: 'json' };
import type { OntologySeed } from './ontology-schema.js';

/** A fresh copy of the default content (callers may change theirs). */
export function defaultOntologySource(): OntologySeed {
  return structuredClone(data) as OntologySeed;
}
